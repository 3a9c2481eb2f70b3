import Joi from 'joi';
import { typed } from '../../kernel/typedSchema';
import { DISPOSITIONS, GENOMICS_DECISIONS, REVIEW_VERDICTS } from '../../../workflows/genomicsTask/state';
import { bigintString } from '../../shared/schemas';
import { campaignId, decimalId, text } from '../shared/schemas';
import { receiptSchema } from '../topics/schemas';

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

export const reviewerBody = typed.object({
  reviewerId: decimalId().allow(null).required(),
  instructions: text(INSTRUCTIONS_MAX).allow('').required(),
  dueAt: typed.as<string | null, true>()(
    Joi.when('reviewerId', {
      is: Joi.valid(null),
      then: Joi.valid(null)
        .required()
        .messages({ 'any.only': '{{#label}} must be null when reviewerId is null' }),
      otherwise: zonedDateTime().allow(null).required(),
    }),
  ),
});
export const reviewerResponse = receiptSchema.keys({
  topicUid: Joi.string().required(),
  reviewerId: bigintString().allow(null).required(),
  assignmentId: bigintString().allow(null).required(),
});

export const reviewBody = typed.object({
  assignmentId: decimalId().required(),
  verdict: typed
    .string()
    .valid(...REVIEW_VERDICTS)
    .required(),
  body: text(REVIEW_BODY_MAX).required(),
});
export const reviewResponse = receiptSchema.keys({
  feedbackId: bigintString().required(),
  assignmentStatus: Joi.string().required(),
});

export const decisionBody = typed.object({
  expectedDecision: typed
    .string()
    .valid(...GENOMICS_DECISIONS)
    .required(),
  decision: typed
    .string()
    .valid(...GENOMICS_DECISIONS)
    .required(),
  campaignId: campaignId().required(),
  reason: text(REASON_MAX).required(),
});

export const reopenBody = typed.object({
  expectedDecision: text(30).required(),
  campaignId: campaignId().required(),
  reason: text(REASON_MAX).required(),
});

export const dispositionBody = typed.object({
  disposition: typed
    .string()
    .valid(...DISPOSITIONS)
    .required(),
  expectedDisposition: typed
    .string()
    .valid(...DISPOSITIONS)
    .required()
    .description('The disposition the caller saw; a mismatch is a 409 and changes nothing.'),
  reason: text(REASON_MAX).required(),
});

export const revisionBody = typed.object({
  campaignId: campaignId().required(),
  notes: text(REVISION_NOTES_MAX).allow('').required(),
});
export const revisionResponse = receiptSchema.keys({
  revisionId: bigintString().required(),
  resumed: Joi.boolean().required(),
});
