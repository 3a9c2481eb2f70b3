/** Ids and Temporal UI texts shared by both task workflows; each service's ids.ts holds its own keys. */

export type TaskService = 'math' | 'genomics';

/**
 * Update id of a task mutation: derived from the member's Idempotency-Key, so a retry is the same update and
 * the workflow answers it with the first receipt. Without a key each call is its own update (a random id).
 */
export const taskUpdateId = (service: TaskService, memberId: string, idempotencyKey: string): string =>
  `${service}:${memberId}:${idempotencyKey}`;

const SUMMARY_TITLE_CHARS = 120;

/** The one line the Temporal UI lists for a task workflow, e.g. `Math task T-1: Prove the lemma`. */
export function taskWorkflowSummary(label: string, key: string, title: string | null): string {
  const oneLine = (title ?? '').replace(/\s+/g, ' ').trim();
  const shown =
    oneLine.length > SUMMARY_TITLE_CHARS ? `${oneLine.slice(0, SUMMARY_TITLE_CHARS - 1)}…` : oneLine;
  return shown ? `${label} ${key}: ${shown}` : `${label} ${key}`;
}

/** Who acted, as the Temporal UI shows it on a persistence activity. */
export interface ActorLabel {
  memberId: string | null;
  /** The member's display name when the API sent it (histories recorded before it was sent lack it). */
  displayName?: string;
}

/** Summary of a persistence activity: the action and who took it, e.g. `assign by Ada Lovelace`. */
export function transitionSummary(action: string, actor: ActorLabel): string {
  const who =
    actor.displayName ?? (actor.memberId ? `member ${actor.memberId}` : 'the workflow (due-date timer)');
  return `${action} by ${who}`;
}
