import type { DataSource } from 'typeorm';
import { genomicsSearchAttributes, genomicsTaskWorkflowId } from '../../../workflows/genomicsTask/ids';
import { taskUpdateId, taskWorkflowSummary } from '../../../workflows/ids';
import {
  applyGenomicsActionUpdate,
  type GenomicsActionReceipt,
  type GenomicsActionRequest,
} from '../../../workflows/genomicsTask/messages';
import type {
  GenomicsAction,
  GenomicsRejectionCode,
  GenomicsTaskState,
  TopicDecision,
} from '../../../workflows/genomicsTask/state';
import type { genomicsTaskWorkflow } from '../../../workflows/genomicsTask/workflow';
import type { Principal } from '../../kernel/authenticate';
import type { AppDeps } from '../../kernel/deps';
import { problems } from '../../kernel/errors';
import { rejectionFrom, updateTaskWorkflow, workflowActorOf } from '../../kernel/temporal';
import type { TopicRow } from '../topics/queries';
import { latestAssignment } from './queries';
import { genomicsProblems } from '../problems';

/** The workflow's start state, read from the projection (used only when the workflow does not exist yet). */
async function projectedState(dataSource: DataSource, topic: TopicRow): Promise<GenomicsTaskState> {
  const assignment = await latestAssignment(dataSource, topic.id);
  return {
    version: topic.workflow_version,
    decision: topic.decision as TopicDecision,
    previousDecision: topic.previous_decision,
    requiresReReview: topic.requires_re_review,
    decisionCampaignId: topic.decision_campaign_id,
    submissionCampaignId: topic.submission_campaign_id,
    campaignId: topic.campaign_id,
    disposition: topic.disposition,
    plannedReviewerId: topic.planned_reviewer_id,
    currentPackageVersionId: topic.current_package_version_id,
    deliverableSelectionRevision: Number(topic.deliverable_selection_revision),
    assignment: assignment
      ? {
          id: assignment.id,
          reviewerId: assignment.reviewer_id,
          status: assignment.status,
          dueAt: assignment.due_at ? assignment.due_at.toISOString() : null,
          feedbackCount: assignment.feedback_count,
        }
      : null,
  };
}

/**
 * Sends one review action to the topic's task workflow (`genomics-task/<topicUid>`, started lazily) as a
 * Workflow Update whose id derives from the caller's Idempotency-Key, and returns the committed receipt.
 */
export async function applyGenomicsAction(
  deps: AppDeps,
  principal: Principal,
  topic: TopicRow,
  action: GenomicsAction,
  idempotencyKey: string | null,
): Promise<GenomicsActionReceipt> {
  return updateTaskWorkflow<GenomicsActionReceipt, [GenomicsActionRequest], typeof genomicsTaskWorkflow>(
    deps,
    {
      update: applyGenomicsActionUpdate,
      args: [{ action, actor: workflowActorOf(principal) }],
      updateId: idempotencyKey ? taskUpdateId('genomics', principal.member.id, idempotencyKey) : null,
      workflowType: 'genomicsTaskWorkflow',
      workflowId: genomicsTaskWorkflowId(topic.uid),
      // Every recorded transition raised workflow_version, through the workflow.
      knownToExist: topic.workflow_version > 0,
      start: async () => {
        const state = await projectedState(deps.dataSource, topic);
        return {
          args: [{ topicUid: topic.uid, topicId: topic.id, state }],
          searchAttributes: genomicsSearchAttributes(topic.uid, state),
          memo: { title: topic.title },
          staticSummary: taskWorkflowSummary('Genomics topic', topic.uid, topic.title),
        };
      },
      rejection: genomicsRejection,
    },
  );
}

const current = (details: unknown[]) => (details[0] ?? {}) as { decision?: string; disposition?: string };

/** The state machine's rejections, as HTTP errors. */
export const genomicsRejection = rejectionFrom<GenomicsRejectionCode>({
  decision_conflict: (message, details) =>
    genomicsProblems.conflict('decision_conflict', message, { current_decision: current(details).decision }),
  disposition_conflict: (message, details) =>
    genomicsProblems.conflict('disposition_conflict', message, {
      current_disposition: current(details).disposition,
    }),
  topic_closed: (message, details) =>
    genomicsProblems.conflict('topic_closed', message, { current_disposition: current(details).disposition }),
  assignment_not_active: (message) => genomicsProblems.conflict('assignment_not_active', message),
  no_submitted_review: (message) => genomicsProblems.conflict('no_submitted_review', message),
  not_your_assignment: (message) => problems.forbidden(message),
  operator_only: (message) => problems.forbidden(message),
  system_only: (message) => problems.forbidden(message),
  not_due: (message) => genomicsProblems.conflict('not_due', message),
});
