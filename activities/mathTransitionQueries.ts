import type { EntityManager } from 'typeorm';
import { emitWebhookSql, isoUtcSql, type MathWebhookEventType } from '../webhooks/events';
import type { MathActionName, MathTaskState, MathTransition } from '../workflows/mathTask/state';
import type { TransitionFence, WrittenTransition } from './transitionFence';

/**
 * The statements of a math task transition: what the task workflow's persisting activity writes
 * (mathTransitions.ts) and the projection `referee reconcile --repair` writes from a workflow's state.
 */

type Db = Pick<EntityManager, 'query'>;

export interface PersistMathTransitionInput {
  taskId: string;
  previousVersion: number;
  next: MathTaskState;
  event: MathTransition['event'];
  updateId: string;
  /** Which workflow task decided the transition (docs/decisions.md). */
  fence: TransitionFence;
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

/** The webhook event each task action commits (docs/webhooks.md). */
export const MATH_ACTION_WEBHOOK_EVENTS: Record<MathActionName, MathWebhookEventType> = {
  assign: 'math.task.assigned',
  start: 'math.task.started',
  feedback: 'math.task.feedback_added',
  verdict: 'math.task.verdict_recorded',
  reopen: 'math.task.reopened',
  client: 'math.task.client_changed',
  archive: 'math.task.archived',
  restore: 'math.task.restored',
};

/** The webhook payload's data of a task transition, before the event's id and time (added where it commits). */
export function mathTransitionWebhookData(
  taskId: string,
  next: MathTaskState,
  event: MathTransition['event'],
) {
  return {
    task_id: taskId,
    action: event.action,
    version: event.version,
    from_state: event.fromState,
    to_state: event.toState,
    review_state: next.reviewState,
    decision: next.decision,
    assignee_id: next.assigneeId,
    client_id: next.clientId,
    archived: next.archived,
    actor_id: event.actorId,
    comment: event.comment,
    detail: event.detail,
  };
}

/**
 * Writes what the workflow decided: the task projection, its event and its webhook event (when an endpoint
 * subscribes), in one statement, guarded by the version the projection is at. Every transition is written here, on the first try and when it replaces an unacknowledged one.
 * Returns whether the projection was at `fromVersion` (and so was written).
 */
export async function writeMathTransition(
  db: Db,
  input: PersistMathTransitionInput,
  fromVersion: number,
): Promise<boolean> {
  const { next, event } = input;
  const [{ updated }]: Array<{ updated: boolean }> = await db.query(
    `WITH moved AS (${MOVE_MATH_TASK_SQL} RETURNING task_id), recorded AS (
       INSERT INTO math_task_events
         (task_id, version, action, actor_id, comment, from_state, to_state, detail, update_id, workflow_task_time)
       SELECT task_id, $9, $10, $11, $12, $13, $14, $15, $16, $17 FROM moved
       RETURNING id, task_id, created_at
     ), emitted AS (
       SELECT ${emitWebhookSql({
         service: "'math'",
         type: '$18',
         subject: 'task_id::text',
         data: `($19::jsonb || jsonb_build_object('event_id', 'task:' || id, 'occurred_at', ${isoUtcSql('created_at')}))`,
       })} FROM recorded
     )
     SELECT EXISTS (SELECT 1 FROM recorded) AS updated, (SELECT count(*) FROM emitted) AS emitted`,
    [
      ...moveMathTaskParams(input.taskId, fromVersion, next),
      event.version,
      event.action,
      event.actorId,
      event.comment,
      event.fromState,
      event.toState,
      JSON.stringify(event.detail),
      input.updateId,
      input.fence.workflowTaskTime,
      MATH_ACTION_WEBHOOK_EVENTS[event.action],
      JSON.stringify(mathTransitionWebhookData(input.taskId, next, event)),
    ],
  );
  return updated;
}

/** Whether this update's transition to `version` was committed already (a retry after its commit). */
export async function transitionApplied(
  db: Db,
  taskId: string,
  version: number,
  updateId: string,
): Promise<boolean> {
  const applied: unknown[] = await db.query(
    'SELECT 1 FROM math_task_events WHERE task_id = $1 AND version = $2 AND update_id = $3',
    [taskId, version, updateId],
  );
  return applied.length > 0;
}

/** The task's version, its row locked; null when there is no such task. */
export async function lockTaskVersion(tx: Db, taskId: string): Promise<number | null> {
  const [task]: Array<{ version: number }> = await tx.query(
    'SELECT version FROM math_tasks WHERE task_id = $1 FOR UPDATE',
    [taskId],
  );
  return task ? task.version : null;
}

/** The task's events above `version`, oldest first, as the audit of a replacement keeps them. */
export async function selectTransitionsAbove(
  tx: Db,
  taskId: string,
  version: number,
): Promise<WrittenTransition[]> {
  const rows: Array<{ version: number; update_id: string; workflow_task_time: Date | null; event: object }> =
    await tx.query(
      `SELECT version, update_id, workflow_task_time, to_jsonb(e) - 'id' AS event
         FROM math_task_events e WHERE task_id = $1 AND version > $2 ORDER BY version`,
      [taskId, version],
    );
  return rows.map((row) => ({
    version: row.version,
    updateId: row.update_id,
    workflowTaskTime: row.workflow_task_time,
    event: row.event as Record<string, unknown>,
  }));
}

/** Removes the task's events above `version`; returns their ids. */
export async function deleteTransitionsAbove(tx: Db, taskId: string, version: number): Promise<string[]> {
  const removed: Array<{ id: string }> = await tx.query(
    // A CTE, so the driver answers with the rows (a bare DELETE answers [rows, count]).
    `WITH removed AS (DELETE FROM math_task_events WHERE task_id = $1 AND version > $2 RETURNING id)
     SELECT id::text FROM removed`,
    [taskId, version],
  );
  return removed.map((row) => row.id);
}
