import type { DataSource } from 'typeorm';
import type { Principal } from '../../kernel/authenticate';
import { limitOffset, type PageQuery } from '../shared/pagination';
import { reviewStatusColumns } from '../shared/reviewStatus';
import { containsPattern } from '../shared/search';
import { visibleTasks } from '../visibility';

export interface TopicRow extends Record<string, unknown> {
  topic_id: string;
  title: string;
  updated_at: Date;
  run_id: string;
  run_title: string;
  imported_at: Date;
  completed_at: Date | null;
}

/**
 * Topics with their latest imported run, most recently imported first. `q` matches the topic title or id,
 * the latest run id, or the problem text of a task of the topic in that run.
 */
export async function listTopics(
  dataSource: DataSource,
  principal: Principal,
  q: string | undefined,
  page: PageQuery,
): Promise<{ rows: TopicRow[]; total: number }> {
  const params: unknown[] = [];
  const visible = visibleTasks(principal, 't', params);
  let where = 'TRUE';
  if (q !== undefined) {
    params.push(containsPattern(q));
    const p = `$${params.length}`;
    where = `(tp.title ILIKE ${p} OR tp.topic_id ILIKE ${p} OR tp.latest_run_id ILIKE ${p}
      OR EXISTS (SELECT 1 FROM math_tasks t WHERE t.topic_id = tp.topic_id AND t.run_id = tp.latest_run_id
                   AND t.problem ILIKE ${p} AND ${visible}))`;
  }
  const [limit, offset] = limitOffset(page);
  const [rows, [count]] = await Promise.all([
    dataSource.query(
      `SELECT tp.topic_id, tp.title, tp.updated_at, r.run_id, r.title AS run_title, r.imported_at, r.completed_at,
              status.*
         FROM (SELECT tp.* FROM math_topics tp WHERE ${where}
                ORDER BY tp.updated_at DESC, tp.topic_id ASC
                LIMIT $${params.length + 1} OFFSET $${params.length + 2}) tp
         JOIN math_runs r ON r.run_id = tp.latest_run_id
         CROSS JOIN LATERAL (
           SELECT ${reviewStatusColumns('t')} FROM math_tasks t
            WHERE t.topic_id = tp.topic_id AND t.run_id = tp.latest_run_id AND ${visible}
         ) status
        ORDER BY tp.updated_at DESC, tp.topic_id ASC`,
      [...params, limit, offset],
    ) as Promise<TopicRow[]>,
    dataSource.query(`SELECT count(*)::int AS total FROM math_topics tp WHERE ${where}`, params) as Promise<
      Array<{ total: number }>
    >,
  ]);
  return { rows, total: count.total };
}
