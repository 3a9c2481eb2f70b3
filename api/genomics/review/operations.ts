import Joi from 'joi';
import {
  DISPOSITIONS,
  type Disposition,
  GENOMICS_DECISIONS,
  type GenomicsDecision,
  REVIEW_VERDICTS,
  type ReviewVerdict,
} from '../../../workflows/genomicsTask/state';
import type { AppDeps } from '../../kernel/deps';
import { problems } from '../../kernel/errors';
import { defineOperation, type NoHeaders } from '../../kernel/operation';
import { bigintString } from '../../shared/schemas';
import { findAssignment } from '../records/queries';
import { campaignId, decimalId, fitsBigint, text } from '../shared/schemas';
import { campaignExists, findTopic, type TopicRow } from '../topics/queries';
import { buildReceipt } from '../topics/receipts';
import { receiptSchema, type TopicParams, topicParams } from '../topics/schemas';
import { findGenomicsMember } from './queries';
import { applyGenomicsAction } from './workflow';
import { genomicsProblems } from '../problems';

export const INSTRUCTIONS_MAX = 10_000;
export const REVIEW_BODY_MAX = 50_000;
export const REASON_MAX = 2_000;
export const REVISION_NOTES_MAX = 10_000;

/** A full RFC 3339 date-time with a zone (joi's isoDate alone also takes a bare date). */
const zonedDateTime = () =>
  Joi.string()
    .isoDate()
    .pattern(
      /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/i,
      'date-time with zone',
    );

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

const receiptOf = (deps: AppDeps, topic: TopicRow, r: Awaited<ReturnType<typeof applyGenomicsAction>>) =>
  buildReceipt(deps.dataSource, deps.config.s3.bucket, {
    topicUid: topic.uid,
    recordType: r.recordType,
    recordId: r.recordId,
    eventId: r.eventId,
  });

interface ReviewerBody {
  reviewerId: string | null;
  instructions: string;
  dueAt: string | null;
}
const reviewerBody = Joi.object<ReviewerBody>({
  reviewerId: decimalId().allow(null).required(),
  instructions: text(INSTRUCTIONS_MAX).allow('').required(),
  dueAt: Joi.when('reviewerId', {
    is: Joi.valid(null),
    then: Joi.valid(null)
      .required()
      .messages({ 'any.only': '{{#label}} must be null when reviewerId is null' }),
    otherwise: zonedDateTime().allow(null).required(),
  }),
});

export const setReviewer = defineOperation<
  TopicParams,
  Record<string, never>,
  ReviewerBody,
  NoHeaders,
  TopicRow
>({
  operationId: 'genomics.setReviewer',
  summary: 'Assign a reviewer (with instructions and an optional due date) or remove the reviewer (null).',
  method: 'PUT',
  path: '/api/v1/topics/:topicUid/reviewer',
  minRole: 'OWNER',
  scopes: ['write'],
  idempotency: 'required',
  request: { params: topicParams, body: reviewerBody },
  examples: {
    assign: {
      summary: 'Assign a reviewer with a due date',
      value: { reviewerId: '2', instructions: 'Check the splice calls.', dueAt: '2099-01-01T12:00:00Z' },
    },
  },
  response: {
    status: 200,
    schema: receiptSchema.keys({
      topicUid: Joi.string().required(),
      reviewerId: bigintString().allow(null).required(),
      assignmentId: bigintString().allow(null).required(),
    }),
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
  async handler({ body, principal, deps, idempotencyKey, prepared: topic }) {
    const dueAt = body.dueAt === null ? null : new Date(body.dueAt).toISOString();
    const result = await applyGenomicsAction(
      deps,
      principal,
      topic,
      body.reviewerId === null
        ? { action: 'removeReviewer', instructions: body.instructions }
        : { action: 'assignReviewer', reviewerId: body.reviewerId, instructions: body.instructions, dueAt },
      idempotencyKey,
    );
    const receipt = await receiptOf(deps, topic, result);
    return {
      body: {
        ...receipt,
        reviewerId: body.reviewerId,
        assignmentId: body.reviewerId === null ? null : result.recordId,
      },
    };
  },
});

interface ReviewBody {
  assignmentId: string;
  verdict: ReviewVerdict;
  body: string;
}
const reviewBody = Joi.object<ReviewBody>({
  assignmentId: decimalId().required(),
  verdict: Joi.string()
    .valid(...REVIEW_VERDICTS)
    .required(),
  body: text(REVIEW_BODY_MAX).required(),
});

export const submitReview = defineOperation<
  TopicParams,
  Record<string, never>,
  ReviewBody,
  NoHeaders,
  TopicRow
>({
  operationId: 'genomics.submitReview',
  summary: 'Submit a review verdict or a comment on the caller’s assignment.',
  method: 'POST',
  path: '/api/v1/topics/:topicUid/reviews',
  minRole: 'REVIEWER',
  scopes: ['write'],
  idempotency: 'required',
  request: { params: topicParams, body: reviewBody },
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
    schema: receiptSchema.keys({
      feedbackId: bigintString().required(),
      assignmentStatus: Joi.string().required(),
    }),
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
  async handler({ body, principal, deps, idempotencyKey, prepared: topic }) {
    const result = await applyGenomicsAction(
      deps,
      principal,
      topic,
      { action: 'submitReview', assignmentId: body.assignmentId, verdict: body.verdict, body: body.body },
      idempotencyKey,
    );
    const receipt = await receiptOf(deps, topic, result);
    return {
      body: { ...receipt, feedbackId: result.recordId, assignmentStatus: result.assignmentStatus },
    };
  },
});

interface DecisionBody {
  expectedDecision: GenomicsDecision;
  decision: GenomicsDecision;
  campaignId: string;
  reason: string;
}
const decisionBody = Joi.object<DecisionBody>({
  expectedDecision: Joi.string()
    .valid(...GENOMICS_DECISIONS)
    .required(),
  decision: Joi.string()
    .valid(...GENOMICS_DECISIONS)
    .required(),
  campaignId: campaignId().required(),
  reason: text(REASON_MAX).required(),
});

export const overrideDecision = defineOperation<
  TopicParams,
  Record<string, never>,
  DecisionBody,
  NoHeaders,
  TopicRow
>({
  operationId: 'genomics.overrideDecision',
  summary: 'Override the decision, if it still is `expectedDecision` (else 409).',
  method: 'POST',
  path: '/api/v1/topics/:topicUid/decision',
  minRole: 'OWNER',
  scopes: ['write'],
  idempotency: 'required',
  request: { params: topicParams, body: decisionBody },
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
  async handler({ body, principal, deps, idempotencyKey, prepared: topic }) {
    const result = await applyGenomicsAction(
      deps,
      principal,
      topic,
      { action: 'overrideDecision', ...body },
      idempotencyKey,
    );
    return { body: await receiptOf(deps, topic, result) };
  },
});

interface ReopenBody {
  expectedDecision: string;
  campaignId: string;
  reason: string;
}
const reopenBody = Joi.object<ReopenBody>({
  expectedDecision: text(30).required(),
  campaignId: campaignId().required(),
  reason: text(REASON_MAX).required(),
});

export const reopenReview = defineOperation<
  TopicParams,
  Record<string, never>,
  ReopenBody,
  NoHeaders,
  TopicRow
>({
  operationId: 'genomics.reopenReview',
  summary: 'Reopen the submitted review, if the decision still is `expectedDecision` (else 409).',
  method: 'POST',
  path: '/api/v1/topics/:topicUid/reopen',
  minRole: 'OWNER',
  scopes: ['write'],
  idempotency: 'required',
  request: { params: topicParams, body: reopenBody },
  examples: {
    reopen: {
      summary: 'Reopen the submitted review',
      value: { expectedDecision: 'READY', campaignId: 'cmp-2026-spring', reason: 'New evidence arrived.' },
    },
  },
  response: { status: 200, schema: receiptSchema, description: 'Receipt naming the reopened assignment.' },
  errors: [400, 404, 409, 503],
  prepare: ({ params, body, deps }) => topicWithCampaign(deps, params.topicUid, body.campaignId),
  async handler({ body, principal, deps, idempotencyKey, prepared: topic }) {
    const result = await applyGenomicsAction(
      deps,
      principal,
      topic,
      { action: 'reopenReview', ...body },
      idempotencyKey,
    );
    return { body: await receiptOf(deps, topic, result) };
  },
});

interface DispositionBody {
  disposition: Disposition;
  expectedDisposition: Disposition;
  reason: string;
}
const dispositionBody = Joi.object<DispositionBody>({
  disposition: Joi.string()
    .valid(...DISPOSITIONS)
    .required(),
  expectedDisposition: Joi.string()
    .valid(...DISPOSITIONS)
    .required()
    .description('The disposition the caller saw; a mismatch is a 409 and changes nothing.'),
  reason: text(REASON_MAX).required(),
});

export const setDisposition = defineOperation<
  TopicParams,
  Record<string, never>,
  DispositionBody,
  NoHeaders,
  TopicRow
>({
  operationId: 'genomics.setDisposition',
  summary: 'Change the task disposition, if it still is `expectedDisposition` (else 409).',
  method: 'PUT',
  path: '/api/v1/topics/:topicUid/disposition',
  minRole: 'OWNER',
  scopes: ['write'],
  idempotency: 'required',
  request: { params: topicParams, body: dispositionBody },
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
  prepare: ({ params, deps }) => findTopic(deps.dataSource, params.topicUid),
  async handler({ body, principal, deps, idempotencyKey, prepared: topic }) {
    const result = await applyGenomicsAction(
      deps,
      principal,
      topic,
      { action: 'setDisposition', ...body },
      idempotencyKey,
    );
    return { body: await receiptOf(deps, topic, result) };
  },
});

interface RevisionBody {
  campaignId: string;
  notes: string;
}
const revisionBody = Joi.object<RevisionBody>({
  campaignId: campaignId().required(),
  notes: text(REVISION_NOTES_MAX).allow('').required(),
});

export const startRevision = defineOperation<
  TopicParams,
  Record<string, never>,
  RevisionBody,
  NoHeaders,
  TopicRow
>({
  operationId: 'genomics.startRevision',
  summary: 'Start a package revision for a campaign, or resume the unfinished one.',
  method: 'POST',
  path: '/api/v1/topics/:topicUid/revisions',
  minRole: 'REVIEWER',
  scopes: ['write'],
  idempotency: 'required',
  request: { params: topicParams, body: revisionBody },
  examples: {
    revision: {
      summary: 'Start a revision in a campaign',
      value: { campaignId: 'cmp-2026-spring', notes: 'Re-run alignment with the new reference.' },
    },
  },
  response: {
    status: 201,
    schema: receiptSchema.keys({ revisionId: bigintString().required(), resumed: Joi.boolean().required() }),
    description: 'Receipt naming the started or resumed revision.',
  },
  errors: [400, 404, 409, 503],
  prepare: ({ params, body, deps }) => topicWithCampaign(deps, params.topicUid, body.campaignId),
  async handler({ body, principal, deps, idempotencyKey, prepared: topic }) {
    const result = await applyGenomicsAction(
      deps,
      principal,
      topic,
      { action: 'startRevision', campaignId: body.campaignId, notes: body.notes },
      idempotencyKey,
    );
    const receipt = await receiptOf(deps, topic, result);
    return {
      status: 201,
      body: { ...receipt, revisionId: result.recordId, resumed: result.eventKind === 'revision_resumed' },
    };
  },
});

export const reviewOperations = [
  setReviewer,
  submitReview,
  overrideDecision,
  reopenReview,
  setDisposition,
  startRevision,
];
