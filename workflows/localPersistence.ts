import type { SearchAttributePair } from '@temporalio/common';

/**
 * Patch of the task workflows' persistence: the persisting activity of an update runs as a local activity
 * (inside the workflow task, so the server dispatches no activity task and no second workflow task), and
 * search attributes are upserted only when a transition changes them. Measured in docs/benchmark.md.
 * Histories recorded before the patch replay the old path: a remote activity and an upsert per transition.
 */
export const LOCAL_PERSISTENCE_PATCH = 'task-local-persistence';

/** Whether two lists of search attributes hold the same values, so upserting the second changes nothing. */
export function sameSearchAttributes(a: SearchAttributePair[], b: SearchAttributePair[]): boolean {
  const values = (pairs: SearchAttributePair[]) =>
    new Map(pairs.map((pair) => [pair.key.name, JSON.stringify(pair.value)]));
  const left = values(a);
  const right = values(b);
  return left.size === right.size && [...left].every(([name, value]) => right.get(name) === value);
}
