import type { SearchAttributePair } from '@temporalio/common';
import {
  GenomicsDecision,
  GenomicsDisposition,
  GenomicsReviewer,
  GenomicsTopicUid,
} from '../searchAttributes';
import type { GenomicsTaskState } from './state';

/** The topicUid of a topic: `<batch>:<topic number>`, e.g. `batch-001:42`. */
export const genomicsTopicUid = (batch: string, topic: number | string): string => `${batch}:${topic}`;

/** Workflow id of a genomics topic's task: a pure function of the business key. */
export const genomicsTaskWorkflowId = (topicUid: string): string => `genomics-task/${topicUid}`;

/** Search attributes of a task workflow; what operators filter on in the Temporal UI. */
export function genomicsSearchAttributes(topicUid: string, state: GenomicsTaskState): SearchAttributePair[] {
  return [
    { key: GenomicsTopicUid, value: topicUid },
    { key: GenomicsDecision, value: state.decision },
    { key: GenomicsDisposition, value: state.disposition },
    { key: GenomicsReviewer, value: state.plannedReviewerId ?? 'none' },
  ];
}
