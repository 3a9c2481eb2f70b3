import { ApplicationFailure } from '@temporalio/activity';
import type { DataSource } from 'typeorm';
import type { MathTaskState, MathTransition } from '../workflows/mathTask/state';

export interface PersistMathTransitionInput {
  taskId: string;
  previousVersion: number;
  next: MathTaskState;
  event: MathTransition['event'];
  updateId: string;
}

/**
 * The task projection's UPDATE to a state, from the version it was at (`$1` the task, `$2` that version): what a
 * transition writes, and what `ops reconcile --repair` writes from the workflow's state.
 */
export const MOVE_MATH_TASK_SQL = `UPDATE math_tasks
     SET review_state = $3, decision = $4, assignee_id = $5, client_id = $6, archived = $7,
         version = $8, updated_at = now()
   WHERE task_id = $1 AND version = $2`;

export function moveMathTaskParams(taskId: string, fromVersion: number, state: MathTaskState): unknown[] {
  return [
    taskId,
    fromVersion,
    state.reviewState,
    state.decision,
    state.assigneeId,
    state.clientId,
    state.archived,
    state.version,
  ];
}

/**
 * Writes what the workflow decided: the task projection and its event, in one statement.
 * Guarded by the previous version, and idempotent: a retry after a commit finds its own event and succeeds.
 */
export function mathTransitionActivities(dataSource: DataSource) {
  return {
    async persistMathTransition(input: PersistMathTransitionInput): Promise<void> {
      const { next, event } = input;
      // One statement, so one round trip and its own transaction: the event is written only with the row.
      const [{ updated }]: Array<{ updated: boolean }> = await dataSource.query(
        `WITH moved AS (${MOVE_MATH_TASK_SQL} RETURNING task_id), recorded AS (
           INSERT INTO math_task_events
             (task_id, version, action, actor_id, comment, from_state, to_state, detail, update_id)
           SELECT task_id, $9, $10, $11, $12, $13, $14, $15, $16 FROM moved
           RETURNING 1
         )
         SELECT EXISTS (SELECT 1 FROM recorded) AS updated`,
        [
          ...moveMathTaskParams(input.taskId, input.previousVersion, next),
          event.version,
          event.action,
          event.actorId,
          event.comment,
          event.fromState,
          event.toState,
          JSON.stringify(event.detail),
          input.updateId,
        ],
      );
      if (updated) return;
      const applied: unknown[] = await dataSource.query(
        'SELECT 1 FROM math_task_events WHERE task_id = $1 AND version = $2 AND update_id = $3',
        [input.taskId, next.version, input.updateId],
      );
      if (applied.length === 0) {
        throw ApplicationFailure.nonRetryable(
          `Projection of ${input.taskId} is not at version ${input.previousVersion}`,
          'projection_diverged',
        );
      }
    },
  };
}
