import type { DataSource } from 'typeorm';
import type { ImportRun } from '../../../entities/ImportRun';
import type { RowPick } from '../../../entities/rows';
import type { Principal } from '../../kernel/authenticate';
import { reviewStatusColumns } from '../shared/reviewStatus';
import { visibleRuns, visibleTasks } from '../visibility';

interface FreshnessRow {
  latest_run_id: string | null;
  latest_run_imported_at: Date | null;
  latest_run_completed_at: Date | null;
  latest_completed_at: Date | null;
  latest_task_imported_at: Date | null;
  latest_task_updated_at: Date | null;
}

/** Counts over the caller's visible tasks, plus how many are assigned to the caller. */
export async function monitorCounts(dataSource: DataSource, principal: Principal) {
  const params: unknown[] = [principal.member.id];
  const visible = visibleTasks(principal, 't', params);
  const [row] = await dataSource.query(
    `SELECT ${reviewStatusColumns('t')},
            count(t.task_id) FILTER (WHERE t.assignee_id = $1)::int AS assigned_to_you,
            max(t.imported_at) AS latest_task_imported_at, max(t.updated_at) AS latest_task_updated_at
       FROM math_tasks t WHERE ${visible}`,
    params,
  );
  return row as Record<string, unknown> & {
    assigned_to_you: number;
    latest_task_imported_at: Date | null;
    latest_task_updated_at: Date | null;
  };
}

/** The newest imported run the caller can see through their tasks, and the latest completion time. */
export async function runFreshness(dataSource: DataSource, principal: Principal) {
  const params: unknown[] = [];
  const visible = visibleRuns(principal, 'r.run_id', params);
  const [row] = await dataSource.query(
    `SELECT latest.run_id AS latest_run_id, latest.imported_at AS latest_run_imported_at,
            latest.completed_at AS latest_run_completed_at,
            (SELECT max(r.completed_at) FROM math_runs r WHERE ${visible}) AS latest_completed_at
       FROM (SELECT 1) one
       LEFT JOIN LATERAL (
         SELECT r.run_id, r.imported_at, r.completed_at FROM math_runs r WHERE ${visible}
          ORDER BY r.imported_at DESC, r.run_id LIMIT 1
       ) latest ON TRUE`,
    params,
  );
  return row as Omit<FreshnessRow, 'latest_task_imported_at' | 'latest_task_updated_at'>;
}

/** The caller's newest finished import (an unchanged re-import counts: it confirms the data is current). */
export async function importFreshness(dataSource: DataSource, principal: Principal) {
  const params: unknown[] = [];
  const visible = visibleRuns(principal, 'i.subject_id', params);
  const [row] = await dataSource.query(
    `SELECT i.finished_at, i.status FROM import_runs i
      WHERE i.service = 'math' AND i.finished_at IS NOT NULL AND ${visible}
      ORDER BY i.finished_at DESC LIMIT 1`,
    params,
  );
  return (row ?? { finished_at: null, status: null }) as
    RowPick<ImportRun, 'finished_at' | 'status'> | { finished_at: null; status: null };
}
