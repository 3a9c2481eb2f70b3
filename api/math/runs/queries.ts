import type { DataSource } from 'typeorm';
import type { Principal } from '../../kernel/authenticate';
import { limitOffset, type PageQuery } from '../shared/pagination';
import { reviewStatusColumns } from '../shared/reviewStatus';
import { containsPattern } from '../shared/search';
import { visibleTasks } from '../visibility';

export interface RunRow extends Record<string, unknown> {
  run_id: string;
  title: string;
  source: string | null;
  started_at: Date | null;
  completed_at: Date | null;
  imported_at: Date;
  report_count: number;
  mapped_reports: number;
}

/** Run columns plus counts and the review status of the run's tasks, over `r`. */
function runSummarySql(principal: Principal, params: unknown[]): string {
  const visible = visibleTasks(principal, 't', params);
  return `SELECT r.run_id, r.title, r.source, r.started_at, r.completed_at, r.imported_at,
                 (SELECT count(*)::int FROM math_reports rp WHERE rp.run_id = r.run_id) AS report_count,
                 status.*
            FROM %RUNS% r
            CROSS JOIN LATERAL (
              SELECT ${reviewStatusColumns('t')},
                     count(t.task_id) FILTER (WHERE t.report_id IS NOT NULL)::int AS mapped_reports
                FROM math_tasks t WHERE t.run_id = r.run_id AND ${visible}
            ) status`;
}

const RUN_ORDER = 'r.imported_at DESC, r.run_id ASC';

/** Imported runs, newest import first; `q` matches the run id, title or source. */
export async function listRuns(
  dataSource: DataSource,
  principal: Principal,
  q: string | undefined,
  page: PageQuery,
): Promise<{ rows: RunRow[]; total: number }> {
  const params: unknown[] = [];
  let where = 'TRUE';
  if (q !== undefined) {
    params.push(containsPattern(q));
    const p = `$${params.length}`;
    where = `(r.run_id ILIKE ${p} OR r.title ILIKE ${p} OR r.source ILIKE ${p})`;
  }
  const countParams = [...params];
  const [limit, offset] = limitOffset(page);
  params.push(limit, offset);
  const runs = `(SELECT r.* FROM math_runs r WHERE ${where} ORDER BY ${RUN_ORDER}
                  LIMIT $${params.length - 1} OFFSET $${params.length})`;
  const summary = runSummarySql(principal, params).replace('%RUNS%', runs);
  const [rows, [count]] = await Promise.all([
    dataSource.query(`${summary} ORDER BY ${RUN_ORDER}`, params) as Promise<RunRow[]>,
    dataSource.query(`SELECT count(*)::int AS total FROM math_runs r WHERE ${where}`, countParams) as Promise<
      Array<{ total: number }>
    >,
  ]);
  return { rows, total: count.total };
}

export async function findRun(
  dataSource: DataSource,
  principal: Principal,
  runId: string,
): Promise<RunRow | null> {
  const params: unknown[] = [runId];
  const summary = runSummarySql(principal, params).replace('%RUNS%', 'math_runs');
  const rows: RunRow[] = await dataSource.query(`${summary} WHERE r.run_id = $1`, params);
  return rows[0] ?? null;
}

export interface RunTopicRow {
  topic_id: string;
  title: string;
  latest_run_id: string;
}

/** Topics that the run's tasks belong to. */
export async function runTopics(
  dataSource: DataSource,
  principal: Principal,
  runId: string,
): Promise<RunTopicRow[]> {
  const params: unknown[] = [runId];
  const visible = visibleTasks(principal, 't', params);
  return dataSource.query(
    `SELECT tp.topic_id, tp.title, tp.latest_run_id FROM math_topics tp
      WHERE tp.topic_id IN (SELECT t.topic_id FROM math_tasks t WHERE t.run_id = $1 AND ${visible})
      ORDER BY tp.topic_id`,
    params,
  );
}

export interface RunReportRow {
  report_id: string;
  artifact_id: string;
  source_id: string | null;
  mapped_tasks: number;
}

/** The run's reports in id order, each with how many tasks map to it. */
export async function runReports(
  dataSource: DataSource,
  principal: Principal,
  runId: string,
  page: PageQuery,
): Promise<RunReportRow[]> {
  const params: unknown[] = [runId];
  const visible = visibleTasks(principal, 't', params);
  const [limit, offset] = limitOffset(page);
  params.push(limit, offset);
  return dataSource.query(
    `SELECT rp.report_id, rp.artifact_id, rp.source_id,
            (SELECT count(*)::int FROM math_tasks t WHERE t.report_id = rp.report_id AND ${visible}) AS mapped_tasks
       FROM math_reports rp WHERE rp.run_id = $1
      ORDER BY rp.report_id LIMIT $${params.length - 1} OFFSET $${params.length}`,
    params,
  );
}
