import type { DataSource, EntityManager } from 'typeorm';
import { MOVE_MATH_TASK_SQL, moveMathTaskParams } from '../../activities/mathTransitionQueries';
import { mathTaskStateQuery } from '../../workflows/mathTask/messages';
import { mathTaskWorkflowId } from '../../workflows/mathTask/ids';
import { initialMathState, type MathTaskState } from '../../workflows/mathTask/state';
import { type Difference, differences, type ServiceReconciler } from './reconcileTypes';

interface MathRow {
  task_id: string;
  version: number;
  review_state: MathTaskState['reviewState'];
  decision: MathTaskState['decision'];
  assignee_id: string | null;
  client_id: string | null;
  archived: boolean;
}

const COLUMNS = `task_id, version, review_state, decision, assignee_id::text, client_id::text, archived`;

const projected = (row: MathRow): MathTaskState => ({
  version: row.version,
  reviewState: row.review_state,
  decision: row.decision,
  assigneeId: row.assignee_id,
  clientId: row.client_id,
  archived: row.archived,
});

/** Math tasks: `math_tasks` against `math-task/<task_id>`'s `mathTaskState` query. */
export const mathReconciler: ServiceReconciler<MathRow, MathTaskState> = {
  service: 'math',
  workflowType: 'mathTaskWorkflow',
  workflowId: (row) => mathTaskWorkflowId(row.task_id),
  subjectId: (row) => row.task_id,
  cursor: (row) => row.task_id,
  version: (row) => row.version,
  stateVersion: (state) => state.version,
  stateQuery: mathTaskStateQuery,
  async count(dataSource: DataSource) {
    const [{ n }]: Array<{ n: number }> = await dataSource.query('SELECT count(*)::int AS n FROM math_tasks');
    return n;
  },
  page(dataSource, after, limit) {
    return dataSource.query(
      `SELECT ${COLUMNS} FROM math_tasks WHERE $1::text IS NULL OR task_id > $1 ORDER BY task_id LIMIT $2`,
      [after, limit],
    );
  },
  async reread(dataSource, row) {
    const [fresh]: MathRow[] = await dataSource.query(
      `SELECT ${COLUMNS} FROM math_tasks WHERE task_id = $1`,
      [row.task_id],
    );
    return fresh ?? null;
  },
  // A task no action reached has no workflow: it must be in the state its workflow would start from.
  compare: (row, state): Difference[] =>
    differences(projected(row), state ?? initialMathState(row.client_id)),
  async repair(tx: EntityManager, row, state) {
    // The activity's own projection write, guarded by the version compared (never over a newer transition).
    const [{ n }]: Array<{ n: number }> = await tx.query(
      `WITH moved AS (${MOVE_MATH_TASK_SQL} RETURNING 1) SELECT count(*)::int AS n FROM moved`,
      moveMathTaskParams(row.task_id, row.version, state),
    );
    return n === 1;
  },
};
