import type { DataSource, EntityManager } from 'typeorm';
import { faultPoint } from './testFaults';
import {
  assertSupersedes,
  auditReplaced,
  projectionDiverged,
  type TransitionFence,
  type WrittenTransition,
} from './transitionFence';
import { emitWebhookSql, isoUtcSql, type MathWebhookEventType } from '../webhooks/events';
import { withdrawWebhookEvents } from './webhookQueries';
import type { MathActionName, MathTaskState, MathTransition } from '../workflows/mathTask/state';

export interface PersistMathTransitionInput {
  taskId: string;
  previousVersion: number;
  next: MathTaskState;
  event: MathTransition['event'];
  updateId: string;
  /** Present when the transition is persisted inside the update's workflow task (a local activity). */
  fence?: TransitionFence;
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
async function writeMathTransition(
  db: Pick<EntityManager, 'query'>,
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
      input.fence?.workflowTaskTime ?? null,
      MATH_ACTION_WEBHOOK_EVENTS[event.action],
      JSON.stringify(mathTransitionWebhookData(input.taskId, next, event)),
    ],
  );
  return updated;
}

/**
 * Persists what the workflow decided. Idempotent by update id: a retry after a commit finds its own event and
 * succeeds. With a fence (a transition persisted inside the update's workflow task), a transition the workflow
 * never recorded, written by an earlier workflow task that did not complete, is replaced and the replacement
 * audited (docs/decisions.md).
 */
export function mathTransitionActivities(dataSource: DataSource) {
  return {
    async persistMathTransition(input: PersistMathTransitionInput): Promise<void> {
      faultPoint('before-commit', input.updateId);
      // One statement, so one round trip and its own transaction: the event is written only with the row.
      if (await writeMathTransition(dataSource, input, input.previousVersion)) {
        faultPoint('after-commit', input.updateId);
        return;
      }
      const applied: unknown[] = await dataSource.query(
        'SELECT 1 FROM math_task_events WHERE task_id = $1 AND version = $2 AND update_id = $3',
        [input.taskId, input.next.version, input.updateId],
      );
      if (applied.length > 0) return;
      const fence = input.fence;
      if (!fence) throw projectionDiverged(input.taskId, input.previousVersion);
      await dataSource.transaction((tx) => replaceUnacknowledged(tx, input, fence));
      faultPoint('after-commit', input.updateId);
    },
  };
}

/**
 * Under the task row's lock: the transitions above the workflow's version were never recorded by it (the workflow
 * decides from its recorded state, one transition at a time). Unless a newer workflow task wrote one, they are
 * audited, removed with their webhook events withdrawn, and this transition is written in their place; the
 * projection row is wholly the workflow's next state, so nothing else needs undoing.
 */
async function replaceUnacknowledged(
  tx: EntityManager,
  input: PersistMathTransitionInput,
  fence: TransitionFence,
): Promise<void> {
  const [task]: Array<{ version: number }> = await tx.query(
    'SELECT version FROM math_tasks WHERE task_id = $1 FOR UPDATE',
    [input.taskId],
  );
  if (!task || task.version < input.previousVersion)
    throw projectionDiverged(input.taskId, input.previousVersion);
  const written: WrittenTransition[] = (
    await tx.query(
      `SELECT version, update_id, workflow_task_time, to_jsonb(e) - 'id' AS event
         FROM math_task_events e WHERE task_id = $1 AND version > $2 ORDER BY version`,
      [input.taskId, input.previousVersion],
    )
  ).map((row: { version: number; update_id: string; workflow_task_time: Date | null; event: object }) => ({
    version: row.version,
    updateId: row.update_id,
    workflowTaskTime: row.workflow_task_time,
    event: row.event,
  }));
  // Our own write at the next version was looked for before the lock; under it, look once more.
  if (written.some((w) => w.updateId === input.updateId && w.version === input.next.version)) return;
  assertSupersedes(written, fence);
  await auditReplaced(tx, 'math', fence, input.previousVersion, input.updateId, written);
  const removed: Array<{ id: string }> = await tx.query(
    // A CTE, so the driver answers with the rows (a bare DELETE answers [rows, count]).
    `WITH removed AS (DELETE FROM math_task_events WHERE task_id = $1 AND version > $2 RETURNING id)
     SELECT id::text FROM removed`,
    [input.taskId, input.previousVersion],
  );
  // Their webhook events go with them (ids as the payloads carry them), before the replacement's own.
  await withdrawWebhookEvents(
    tx,
    'math',
    input.taskId,
    removed.map((row) => `task:${row.id}`),
  );
  if (!(await writeMathTransition(tx, input, task.version)))
    throw projectionDiverged(input.taskId, task.version);
}
