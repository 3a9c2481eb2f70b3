import type { AppDeps } from '../../kernel/deps';
import { problems } from '../../kernel/errors';
import { findAssignment } from '../records/queries';
import { fitsBigint } from '../shared/schemas';
import { campaignExists, findTopic, type TopicRow } from '../topics/queries';
import { receiptSchema } from '../topics/schemas';
import { defineReviewAction } from './actionOperation';
import { findGenomicsMember } from './queries';
import {
  decisionBody,
  dispositionBody,
  reopenBody,
  reviewBody,
  reviewerBody,
  reviewerResponse,
  reviewResponse,
  revisionBody,
  revisionResponse,
} from './schemas';
import { genomicsProblems } from '../problems';

/**
 * The topic, and its campaign checked in the same round trip; a missing topic (404) is reported before an
 * unknown campaign (400), as when they were read one after the other.
 */
async function topicWithCampaign(deps: AppDeps, topicUid: string, campaignId: string): Promise<TopicRow> {
  const [topic, campaign] = await Promise.allSettled([
    findTopic(deps.dataSource, topicUid),
    campaignExists(deps.dataSource, campaignId),
  ]);
  if (topic.status === 'rejected') throw topic.reason;
  if (campaign.status === 'rejected') throw campaign.reason;
  if (!campaign.value) throw genomicsProblems.badRequest('unknown_campaign', `No campaign ${campaignId}.`);
  return topic.value;
}

async function requireAssignableMember(deps: AppDeps, memberId: string): Promise<void> {
  const member = fitsBigint(memberId) ? await findGenomicsMember(deps.dataSource, memberId) : null;
  if (!member || member.primaryAdmin) {
    throw genomicsProblems.badRequest('unknown_member', `No assignable genomics member ${memberId}.`);
  }
  if (!member.enabled)
    throw genomicsProblems.badRequest('member_disabled', `Member ${memberId} is disabled.`);
}

export const setReviewer = defineReviewAction({
  operationId: 'genomics.setReviewer',
  summary: 'Assign a reviewer (with instructions and an optional due date) or remove the reviewer (null).',
  method: 'PUT',
  path: '/api/v1/topics/:topicUid/reviewer',
  minRole: 'OWNER',
  scopes: ['write'],
  idempotency: 'required',
  body: reviewerBody,
  examples: {
    assign: {
      summary: 'Assign a reviewer with a due date',
      value: { reviewerId: '2', instructions: 'Check the splice calls.', dueAt: '2099-01-01T12:00:00Z' },
    },
  },
  response: {
    status: 200,
    schema: reviewerResponse,
    description: 'The reviewer and the new assignment (both null after a removal), with the receipt.',
  },
  errors: [400, 404, 409, 503],
  async prepare({ params, body, deps }) {
    const topic = await findTopic(deps.dataSource, params.topicUid);
    if (body.reviewerId !== null) await requireAssignableMember(deps, body.reviewerId);
    if (body.dueAt !== null && Date.parse(body.dueAt) <= Date.now()) {
      throw problems.validation([{ path: 'body.dueAt', message: 'body.dueAt must be in the future' }]);
    }
    return topic;
  },
  action: ({ reviewerId, instructions, dueAt }) =>
    reviewerId === null
      ? { action: 'removeReviewer', instructions }
      : {
          action: 'assignReviewer',
          reviewerId,
          instructions,
          dueAt: dueAt === null ? null : new Date(dueAt).toISOString(),
        },
  namedFields: (result, { reviewerId }) => ({
    reviewerId,
    assignmentId: reviewerId === null ? null : result.recordId,
  }),
});

export const submitReview = defineReviewAction({
  operationId: 'genomics.submitReview',
  summary: 'Submit a review verdict or a comment on the caller’s assignment.',
  method: 'POST',
  path: '/api/v1/topics/:topicUid/reviews',
  minRole: 'REVIEWER',
  scopes: ['write'],
  idempotency: 'required',
  body: reviewBody,
  examples: {
    review: {
      summary: 'Submit a verdict on your assignment',
      value: {
        assignmentId: '1',
        verdict: 'MINOR_REPAIR',
        body: 'Exon 11 coverage is thin; re-run with deeper reads.',
      },
    },
  },
  response: {
    status: 200,
    schema: reviewResponse,
    description: 'The feedback id and the assignment’s status after it, with the receipt.',
  },
  errors: [400, 403, 404, 409, 503],
  async prepare({ params, body, deps }) {
    const topic = await findTopic(deps.dataSource, params.topicUid);
    if (!(await findAssignment(deps.dataSource, topic.id, body.assignmentId))) {
      throw problems.notFound(`Assignment ${body.assignmentId}`);
    }
    return topic;
  },
  action: ({ assignmentId, verdict, body }) => ({ action: 'submitReview', assignmentId, verdict, body }),
  namedFields: (result) => ({ feedbackId: result.recordId, assignmentStatus: result.assignmentStatus }),
});

export const overrideDecision = defineReviewAction({
  operationId: 'genomics.overrideDecision',
  summary: 'Override the decision, if it still is `expectedDecision` (else 409).',
  method: 'POST',
  path: '/api/v1/topics/:topicUid/decision',
  minRole: 'OWNER',
  scopes: ['write'],
  idempotency: 'required',
  body: decisionBody,
  examples: {
    override: {
      summary: 'Override the decision',
      value: {
        expectedDecision: 'MINOR_REPAIR',
        decision: 'READY',
        campaignId: 'cmp-2026-spring',
        reason: 'Deeper reads confirm the call.',
      },
    },
  },
  response: { status: 200, schema: receiptSchema, description: 'Receipt of the override.' },
  errors: [400, 404, 409, 503],
  prepare: ({ params, body, deps }) => topicWithCampaign(deps, params.topicUid, body.campaignId),
  action: (body) => ({ action: 'overrideDecision', ...body }),
});

export const reopenReview = defineReviewAction({
  operationId: 'genomics.reopenReview',
  summary: 'Reopen the submitted review, if the decision still is `expectedDecision` (else 409).',
  method: 'POST',
  path: '/api/v1/topics/:topicUid/reopen',
  minRole: 'OWNER',
  scopes: ['write'],
  idempotency: 'required',
  body: reopenBody,
  examples: {
    reopen: {
      summary: 'Reopen the submitted review',
      value: { expectedDecision: 'READY', campaignId: 'cmp-2026-spring', reason: 'New evidence arrived.' },
    },
  },
  response: { status: 200, schema: receiptSchema, description: 'Receipt naming the reopened assignment.' },
  errors: [400, 404, 409, 503],
  prepare: ({ params, body, deps }) => topicWithCampaign(deps, params.topicUid, body.campaignId),
  action: (body) => ({ action: 'reopenReview', ...body }),
});

export const setDisposition = defineReviewAction({
  operationId: 'genomics.setDisposition',
  summary: 'Change the task disposition, if it still is `expectedDisposition` (else 409).',
  method: 'PUT',
  path: '/api/v1/topics/:topicUid/disposition',
  minRole: 'OWNER',
  scopes: ['write'],
  idempotency: 'required',
  body: dispositionBody,
  examples: {
    dispose: {
      summary: 'Close the task as rejected',
      value: {
        expectedDisposition: 'ACTIVE',
        disposition: 'REJECTED',
        reason: 'Out of scope for this campaign.',
      },
    },
  },
  response: { status: 200, schema: receiptSchema, description: 'Receipt of the change.' },
  errors: [400, 404, 409, 503],
  action: (body) => ({ action: 'setDisposition', ...body }),
});

export const startRevision = defineReviewAction({
  operationId: 'genomics.startRevision',
  summary: 'Start a package revision for a campaign, or resume the unfinished one.',
  method: 'POST',
  path: '/api/v1/topics/:topicUid/revisions',
  minRole: 'REVIEWER',
  scopes: ['write'],
  idempotency: 'required',
  body: revisionBody,
  examples: {
    revision: {
      summary: 'Start a revision in a campaign',
      value: { campaignId: 'cmp-2026-spring', notes: 'Re-run alignment with the new reference.' },
    },
  },
  response: {
    status: 201,
    schema: revisionResponse,
    description: 'Receipt naming the started or resumed revision.',
  },
  errors: [400, 404, 409, 503],
  prepare: ({ params, body, deps }) => topicWithCampaign(deps, params.topicUid, body.campaignId),
  action: ({ campaignId, notes }) => ({ action: 'startRevision', campaignId, notes }),
  namedFields: (result) => ({
    revisionId: result.recordId,
    resumed: result.eventKind === 'revision_resumed',
  }),
});

export const reviewOperations = [
  setReviewer,
  submitReview,
  overrideDecision,
  reopenReview,
  setDisposition,
  startRevision,
];
