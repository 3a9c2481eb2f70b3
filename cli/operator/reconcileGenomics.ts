import { genomicsTaskStateQuery } from '../../workflows/genomicsTask/messages';
import { genomicsTaskWorkflowId } from '../../workflows/genomicsTask/ids';
import {
  deriveGenomicsLabels,
  type GenomicsTaskState,
  initialGenomicsState,
} from '../../workflows/genomicsTask/state';
import {
  countGenomicsTopics,
  fixAssignment,
  type GenomicsRow,
  genomicsTopicRow,
  genomicsTopicsAfter,
  moveTopicAt,
} from './reconcileGenomicsQueries';
import { type Difference, differences, type ServiceReconciler, UnrepairableError } from './reconcileTypes';

/** The compared part of a topic: the state the workflow owns (assignment without its feedback count) and labels. */
function comparable(state: GenomicsTaskState) {
  const { assignment, ...topic } = state;
  return {
    ...topic,
    ...deriveGenomicsLabels(state),
    assignment: assignment
      ? {
          id: assignment.id,
          reviewerId: assignment.reviewerId,
          status: assignment.status,
          dueAt: assignment.dueAt,
        }
      : null,
  };
}

function projected(row: GenomicsRow) {
  return {
    version: row.workflow_version,
    decision: row.decision,
    previousDecision: row.previous_decision,
    requiresReReview: row.requires_re_review,
    decisionCampaignId: row.decision_campaign_id,
    submissionCampaignId: row.submission_campaign_id,
    campaignId: row.campaign_id,
    disposition: row.disposition,
    plannedReviewerId: row.planned_reviewer_id,
    currentPackageVersionId: row.current_package_version_id,
    deliverableSelectionRevision: Number(row.deliverable_selection_revision),
    workflowStatus: row.workflow_status,
    status: row.status,
    phase: row.phase,
    classification: row.classification,
    assignment: row.assignment_id
      ? {
          id: row.assignment_id,
          reviewerId: row.assignment_reviewer_id,
          status: row.assignment_status,
          dueAt: row.assignment_due_at ? row.assignment_due_at.toISOString() : null,
        }
      : null,
  };
}

/** Genomics topics: `genomics_topics` (and the latest assignment) against `genomics-task/<uid>`'s query. */
export const genomicsReconciler: ServiceReconciler<GenomicsRow, GenomicsTaskState> = {
  service: 'genomics',
  workflowType: 'genomicsTaskWorkflow',
  workflowId: (row) => genomicsTaskWorkflowId(row.uid),
  subjectId: (row) => row.uid,
  cursor: (row) => row.id,
  version: (row) => row.workflow_version,
  stateVersion: (state) => state.version,
  stateQuery: genomicsTaskStateQuery,
  count: countGenomicsTopics,
  page: genomicsTopicsAfter,
  reread: (dataSource, row) => genomicsTopicRow(dataSource, row.id),
  // A topic no action reached has no workflow: it must be in the state its workflow would start from.
  compare: (row, state): Difference[] =>
    differences(projected(row), comparable(state ?? initialGenomicsState(row.campaign_id))),
  async repair(tx, row, state) {
    if (!(await moveTopicAt(tx, row, state))) return false;
    const { assignment } = state;
    // The assignment the workflow names must exist: one lost with a restored backup cannot be recreated here.
    if (assignment && !(await fixAssignment(tx, row.id, assignment)))
      throw new UnrepairableError(`assignment ${assignment.id} of ${row.uid} is missing`);
    return true;
  },
};
