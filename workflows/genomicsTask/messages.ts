import { defineQuery, defineUpdate } from '@temporalio/workflow';
import type { MovableInput } from '../versioning';
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
export interface GenomicsTaskWorkflowInput extends MovableInput {
  topicUid: string;
  /** The topic row's bigint id, as a decimal string. */
  topicId: string;
  /** The projection read from PostgreSQL when the workflow is first started; carried state afterwards. */
  state: GenomicsTaskState;
  /** Receipts of the most recent updates, so a retried update id is answered after continue-as-new too. */
  recentReceipts?: GenomicsActionReceipt[];
}

export interface GenomicsActionRequest {
  action: GenomicsAction;
  actor: GenomicsActor;
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
