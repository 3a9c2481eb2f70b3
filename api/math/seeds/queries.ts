import type { DataSource } from 'typeorm';
import type { Principal } from '../../kernel/authenticate';
import { limitOffset, type PageQuery } from '../shared/pagination';
import { reviewStatusColumns } from '../shared/reviewStatus';
import { containsPattern } from '../shared/search';
import { visibleTasks } from '../visibility';

export interface SeedRow extends Record<string, unknown> {
  question_id: string;
  run_ids: string[];
  topic_ids: string[];
  updated_at: Date;
}

const SEED_COLUMNS = (alias: string) => `${alias}.question_id, ${reviewStatusColumns(alias)},
  array_agg(DISTINCT ${alias}.run_id ORDER BY ${alias}.run_id) AS run_ids,
  array_agg(DISTINCT ${alias}.topic_id ORDER BY ${alias}.topic_id) AS topic_ids,
  max(${alias}.updated_at) AS updated_at`;

/** The WHERE clause of seeds: the caller's visible tasks, optionally with a question id containing `q`. */
function seedWhere(principal: Principal, q: string | undefined, params: unknown[]): string {
  const conditions = [visibleTasks(principal, 't', params)];
  if (q !== undefined) {
    params.push(containsPattern(q));
    conditions.push(`t.question_id ILIKE $${params.length}`);
  }
  return conditions.join(' AND ');
}

/** Seeds (visible tasks grouped by question id) in question id order, with the number of seeds. */
export async function listSeeds(
  dataSource: DataSource,
  principal: Principal,
  q: string | undefined,
  page: PageQuery,
): Promise<{ rows: SeedRow[]; total: number }> {
  const params: unknown[] = [];
  const where = seedWhere(principal, q, params);
  const [limit, offset] = limitOffset(page);
  const [rows, [count]] = await Promise.all([
    dataSource.query(
      `SELECT ${SEED_COLUMNS('t')} FROM math_tasks t WHERE ${where}
        GROUP BY t.question_id ORDER BY t.question_id LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
      [...params, limit, offset],
    ) as Promise<SeedRow[]>,
    dataSource.query(
      `SELECT count(DISTINCT t.question_id)::int AS total FROM math_tasks t WHERE ${where}`,
      params,
    ) as Promise<Array<{ total: number }>>,
  ]);
  return { rows, total: count.total };
}

/** One seed as the caller sees it, or null when none of its tasks is visible to them. */
export async function findSeed(
  dataSource: DataSource,
  principal: Principal,
  questionId: string,
): Promise<SeedRow | null> {
  const params: unknown[] = [questionId];
  const visible = visibleTasks(principal, 't', params);
  const rows: SeedRow[] = await dataSource.query(
    `SELECT ${SEED_COLUMNS('t')} FROM math_tasks t WHERE t.question_id = $1 AND ${visible} GROUP BY t.question_id`,
    params,
  );
  return rows[0] ?? null;
}
