import { defineQuery, defineUpdate } from '@temporalio/workflow';
import type {
  AssignmentStatus,
  GenomicsAction,
  GenomicsActionKind,
  GenomicsActor,
  GenomicsEventKind,
  GenomicsTaskState,
  GenomicsTransition,
} from './state';

/** Start argument (and continue-as-new argument) of a genomics task workflow. */
export interface GenomicsTaskWorkflowInput {
  topicUid: string;
  /** The topic row's bigint id, as a decimal string. */
  topicId: string;
  /** The projection read from PostgreSQL when the workflow is first started; carried state afterwards. */
  state: GenomicsTaskState;
  /** Receipts of the most recent updates, so a retried update id is answered after continue-as-new too. */
  recentReceipts?: GenomicsActionReceipt[];
}

export interface GenomicsActionRequest {
  /** APIs send `action` (as math does); updates recorded before that named it `kind` (see `RecordedGenomicsAction`). */
  action: GenomicsAction | RecordedGenomicsAction;
  actor: GenomicsActor;
}

/**
 * A genomics action as updates recorded before the field was renamed carry it: `kind` where it is now `action`.
 * Workers accept both, so histories replay and an API of the previous release keeps working during a rollout
 * (docs/workflow-evolution.md); a later release may drop it.
 */
export type RecordedGenomicsAction = GenomicsAction extends infer A
  ? A extends { action: infer K }
    ? Omit<A, 'action'> & { kind: K }
    : never
  : never;

/** The action of a request in its current shape, whichever shape it was sent in. */
export function currentGenomicsAction(action: GenomicsAction | RecordedGenomicsAction): GenomicsAction {
  if ('action' in action) return action;
  const { kind, ...fields } = action;
  return { ...fields, action: kind } as GenomicsAction;
}

/** What a committed action returns; also kept per update id for deduplication. */
export interface GenomicsActionReceipt {
  updateId: string;
  topicUid: string;
  action: GenomicsActionKind;
  version: number;
  eventId: string;
  /** What happened, e.g. `revision_started` or `revision_resumed`. */
  eventKind: GenomicsEventKind;
  recordType: GenomicsTransition['record']['type'];
  /** The affected record's id (null only for the topic itself). */
  recordId: string | null;
  /** The current assignment's status after the action, or null when the topic has none. */
  assignmentStatus: AssignmentStatus | null;
}

export const applyGenomicsActionUpdate = defineUpdate<GenomicsActionReceipt, [GenomicsActionRequest]>(
  'applyGenomicsAction',
);
export const genomicsTaskStateQuery = defineQuery<GenomicsTaskState>('genomicsTaskState');
