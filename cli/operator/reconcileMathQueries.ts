import type { DataSource } from 'typeorm';
import { MOVE_MATH_TASK_SQL, moveMathTaskParams } from '../../activities/mathTransitionQueries';
import type { Queryable } from '../../entities/queryable';
import type { MathTaskState } from '../../workflows/mathTask/state';

/* reconcile's statements on math_tasks: the projection it pages through, and its guarded rewrite. */

/** A math task's projected state, as reconcile compares it. */
export interface MathRow {
  task_id: string;
  version: number;
  review_state: MathTaskState['reviewState'];
  decision: MathTaskState['decision'];
  assignee_id: string | null;
  client_id: string | null;
  archived: boolean;
}

const COLUMNS = `task_id, version, review_state, decision, assignee_id::text, client_id::text, archived`;

export async function countMathTasks(dataSource: DataSource): Promise<number> {
  const [{ n }]: Array<{ n: number }> = await dataSource.query('SELECT count(*)::int AS n FROM math_tasks');
  return n;
}

/** The next `limit` tasks in task id order after `after` (from the first when null). */
export function mathTasksAfter(
  dataSource: DataSource,
  after: string | null,
  limit: number,
): Promise<MathRow[]> {
  return dataSource.query(
    `SELECT ${COLUMNS} FROM math_tasks WHERE $1::text IS NULL OR task_id > $1 ORDER BY task_id LIMIT $2`,
    [after, limit],
  );
}

/** The task as it is now, or null when it was deleted. */
export async function mathTaskRow(dataSource: DataSource, taskId: string): Promise<MathRow | null> {
  const [fresh]: MathRow[] = await dataSource.query(`SELECT ${COLUMNS} FROM math_tasks WHERE task_id = $1`, [
    taskId,
  ]);
  return fresh ?? null;
}

/**
 * The activity's own projection write, guarded by the version compared (never over a newer transition): false
 * when the task moved on.
 */
export async function moveMathTaskAt(tx: Queryable, row: MathRow, state: MathTaskState): Promise<boolean> {
  const [{ n }]: Array<{ n: number }> = await tx.query(
    `WITH moved AS (${MOVE_MATH_TASK_SQL} RETURNING 1) SELECT count(*)::int AS n FROM moved`,
    moveMathTaskParams(row.task_id, row.version, state),
  );
  return n === 1;
}
