import type { SearchAttributePair } from '@temporalio/common';

/**
 * Patch of the task workflows' persistence: the persisting activity of an update runs as a local activity
 * (inside the workflow task, so the server dispatches no activity task and no second workflow task), and
 * search attributes are upserted only when a transition changes them. Measured in docs/benchmark.md.
 * Histories recorded before the patch replay the old path: a remote activity and an upsert per transition.
 */
export const LOCAL_PERSISTENCE_PATCH = 'task-local-persistence';

/**
 * Patch that takes the local activity back: a local activity commits to PostgreSQL before the workflow task
 * that accepts the update completes, so a worker killed in between leaves a committed transition the
 * workflow never recorded, and another update can then be decided on the older state (the crash soak caught
 * this as `projection_diverged`). New executions persist through a remote activity again, which is scheduled
 * in history before it writes; search attributes are still upserted only when they change. Histories with
 * only the older marker replay the local path.
 */
export const DURABLE_PERSISTENCE_PATCH = 'task-durable-persistence';

/**
 * Patch that persists a transition inside the update's own workflow task again (a local activity), made safe by
 * a protocol instead of a second workflow task: each write carries its update id and the start time of the
 * workflow task that decided it (a fence), a retried workflow task finds its own write, and a write the workflow
 * never recorded (its workflow task never completed, so no client was told) is replaced by the workflow's next
 * transition and audited (docs/decisions.md, "Transitions persisted in the update's workflow task"). The
 * due-date timer's remote activity carries the fence too. Histories without the marker replay the older paths.
 */
export const FENCED_LOCAL_PERSISTENCE_PATCH = 'task-fenced-local-persistence';

/** Whether two lists of search attributes hold the same values, so upserting the second changes nothing. */
export function sameSearchAttributes(a: SearchAttributePair[], b: SearchAttributePair[]): boolean {
  const values = (pairs: SearchAttributePair[]) =>
    new Map(pairs.map((pair) => [pair.key.name, JSON.stringify(pair.value)]));
  const left = values(a);
  const right = values(b);
  return left.size === right.size && [...left].every(([name, value]) => right.get(name) === value);
}
