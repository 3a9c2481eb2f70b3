import type { DataSource } from 'typeorm';
import type { Principal } from '../../kernel/authenticate';
import { limitOffset, type PageQuery } from '../shared/pagination';
import { containsPattern } from '../shared/search';
import { visibleTasks } from '../visibility';

export interface ReportMappingFilters {
  run_id?: string;
  question_id?: string;
  mapped?: boolean;
  q?: string;
}

export interface ReportMappingRow {
  task_id: string;
  run_id: string;
  topic_id: string;
  question_id: string;
  title: string;
  archived: boolean;
  report_id: string | null;
  artifact_id: string | null;
  source_id: string | null;
}

function mappingWhere(principal: Principal, f: ReportMappingFilters, params: unknown[]): string {
  const conditions = [visibleTasks(principal, 't', params)];
  if (f.run_id !== undefined) {
    params.push(f.run_id);
    conditions.push(`t.run_id = $${params.length}`);
  }
  if (f.question_id !== undefined) {
    params.push(f.question_id);
    conditions.push(`t.question_id = $${params.length}`);
  }
  if (f.mapped !== undefined) conditions.push(f.mapped ? 't.report_id IS NOT NULL' : 't.report_id IS NULL');
  if (f.q !== undefined) {
    params.push(containsPattern(f.q));
    const p = `$${params.length}`;
    conditions.push(`(t.task_id ILIKE ${p} OR t.title ILIKE ${p} OR t.report_id ILIKE ${p})`);
  }
  return conditions.join(' AND ');
}

/**
 * One row per task (a mapping, possibly null) in task id order, the number of rows, and `mapped_reports`:
 * how many of them map to a report, counting a report once per task that maps to it.
 */
export async function listReportMappings(
  dataSource: DataSource,
  principal: Principal,
  filters: ReportMappingFilters,
  page: PageQuery,
): Promise<{ rows: ReportMappingRow[]; total: number; mapped_reports: number; unique_reports: number }> {
  const params: unknown[] = [];
  const where = mappingWhere(principal, filters, params);
  const [limit, offset] = limitOffset(page);
  const [rows, [counts]] = await Promise.all([
    dataSource.query(
      `SELECT t.task_id, t.run_id, t.topic_id, t.question_id, t.title, t.archived, t.report_id, r.artifact_id,
              r.source_id
         FROM (SELECT t.* FROM math_tasks t WHERE ${where} ORDER BY t.task_id
                LIMIT $${params.length + 1} OFFSET $${params.length + 2}) t
         LEFT JOIN math_reports r ON r.report_id = t.report_id
        ORDER BY t.task_id`,
      [...params, limit, offset],
    ) as Promise<ReportMappingRow[]>,
    dataSource.query(
      `SELECT count(*)::int AS total, count(t.report_id)::int AS mapped_reports,
              count(DISTINCT t.report_id)::int AS unique_reports
         FROM math_tasks t WHERE ${where}`,
      params,
    ) as Promise<Array<{ total: number; mapped_reports: number; unique_reports: number }>>,
  ]);
  return { rows, ...counts };
}
