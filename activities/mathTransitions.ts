import type { DataSource, EntityManager } from 'typeorm';
import { ForegroundWork } from './foreground';
import { faultPoint } from './testFaults';
import { assertSupersedes, projectionDiverged } from './transitionFence';
import { auditReplaced } from './projectionRepairQueries';
import { withdrawWebhookEvents } from './webhookQueries';
import {
  deleteTransitionsAbove,
  lockTaskVersion,
  type PersistMathTransitionInput,
  selectTransitionsAbove,
  transitionApplied,
  writeMathTransition,
} from './mathTransitionQueries';

export type { PersistMathTransitionInput } from './mathTransitionQueries';

/**
 * Persists what the workflow decided. Idempotent by update id: a retry after a commit finds its own event and
 * succeeds. A transition the workflow never recorded, written by an earlier workflow task that did not complete,
 * is replaced and the replacement audited (docs/decisions.md).
 */
export function mathTransitionActivities(dataSource: DataSource, foreground = new ForegroundWork()) {
  return {
    async persistMathTransition(input: PersistMathTransitionInput): Promise<void> {
      foreground.mark();
      faultPoint('before-commit', input.updateId);
      // One statement, so one round trip and its own transaction: the event is written only with the row.
      if (await writeMathTransition(dataSource, input, input.previousVersion)) {
        faultPoint('after-commit', input.updateId);
        return;
      }
      if (await transitionApplied(dataSource, input.taskId, input.next.version, input.updateId)) return;
      await dataSource.transaction((tx) => replaceUnacknowledged(tx, input));
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
async function replaceUnacknowledged(tx: EntityManager, input: PersistMathTransitionInput): Promise<void> {
  const { fence } = input;
  const version = await lockTaskVersion(tx, input.taskId);
  if (version === null || version < input.previousVersion)
    throw projectionDiverged(input.taskId, input.previousVersion);
  const written = await selectTransitionsAbove(tx, input.taskId, input.previousVersion);
  // Our own write at the next version was looked for before the lock; under it, look once more.
  if (written.some((w) => w.updateId === input.updateId && w.version === input.next.version)) return;
  assertSupersedes(written, fence);
  await auditReplaced(tx, 'math', fence, input.previousVersion, input.updateId, written);
  const removed = await deleteTransitionsAbove(tx, input.taskId, input.previousVersion);
  // Their webhook events go with them (ids as the payloads carry them), before the replacement's own.
  await withdrawWebhookEvents(
    tx,
    'math',
    input.taskId,
    removed.map((id) => `task:${id}`),
  );
  if (!(await writeMathTransition(tx, input, version))) throw projectionDiverged(input.taskId, version);
}
