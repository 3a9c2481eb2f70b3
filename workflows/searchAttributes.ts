import { defineSearchAttributeKey, SearchAttributeType } from '@temporalio/common';

/**
 * Custom search attributes of the task workflows, so operators can find a task in the Temporal UI.
 * Ids, states and dates only: search attributes are stored unencrypted. SQL visibility stores holds at
 * most 10 Keyword attributes per namespace, and these use 9.
 */
export const MathReviewState = defineSearchAttributeKey('MathReviewState', SearchAttributeType.KEYWORD);
export const MathDecision = defineSearchAttributeKey('MathDecision', SearchAttributeType.KEYWORD);
export const MathAssignee = defineSearchAttributeKey('MathAssignee', SearchAttributeType.KEYWORD);
export const MathClient = defineSearchAttributeKey('MathClient', SearchAttributeType.KEYWORD);
export const MathArchived = defineSearchAttributeKey('MathArchived', SearchAttributeType.BOOL);
export const MathRun = defineSearchAttributeKey('MathRun', SearchAttributeType.KEYWORD);
export const GenomicsTopicUid = defineSearchAttributeKey('GenomicsTopicUid', SearchAttributeType.KEYWORD);
export const GenomicsDecision = defineSearchAttributeKey('GenomicsDecision', SearchAttributeType.KEYWORD);
export const GenomicsDisposition = defineSearchAttributeKey(
  'GenomicsDisposition',
  SearchAttributeType.KEYWORD,
);
export const GenomicsReviewer = defineSearchAttributeKey('GenomicsReviewer', SearchAttributeType.KEYWORD);

/** Every custom attribute with the type name `temporal server start-dev --search-attribute` expects. */
export const customSearchAttributes: Record<string, 'Keyword' | 'Bool'> = {
  MathReviewState: 'Keyword',
  MathDecision: 'Keyword',
  MathAssignee: 'Keyword',
  MathClient: 'Keyword',
  MathArchived: 'Bool',
  MathRun: 'Keyword',
  GenomicsTopicUid: 'Keyword',
  GenomicsDecision: 'Keyword',
  GenomicsDisposition: 'Keyword',
  GenomicsReviewer: 'Keyword',
};
