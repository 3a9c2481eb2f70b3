import { mathTaskStateQuery } from '../../workflows/mathTask/messages';
import { mathTaskWorkflowId } from '../../workflows/mathTask/ids';
import { initialMathState, type MathTaskState } from '../../workflows/mathTask/state';
import {
  countMathTasks,
  type MathRow,
  mathTaskRow,
  mathTasksAfter,
  moveMathTaskAt,
} from './reconcileMathQueries';
import { type Difference, differences, type ServiceReconciler } from './reconcileTypes';

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
  count: countMathTasks,
  page: mathTasksAfter,
  reread: (dataSource, row) => mathTaskRow(dataSource, row.task_id),
  // A task no action reached has no workflow: it must be in the state its workflow would start from.
  compare: (row, state): Difference[] =>
    differences(projected(row), state ?? initialMathState(row.client_id)),
  repair: (tx, row, state) => moveMathTaskAt(tx, row, state),
};
