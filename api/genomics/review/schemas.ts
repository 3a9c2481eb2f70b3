import Joi from 'joi';
import {
  DISPOSITIONS,
  type Disposition,
  GENOMICS_DECISIONS,
  type GenomicsDecision,
  REVIEW_VERDICTS,
  type ReviewVerdict,
} from '../../../workflows/genomicsTask/state';
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

export interface ReviewerBody {
  reviewerId: string | null;
  instructions: string;
  dueAt: string | null;
}
export const reviewerBody = Joi.object<ReviewerBody>({
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
export const reviewerResponse = receiptSchema.keys({
  topicUid: Joi.string().required(),
  reviewerId: bigintString().allow(null).required(),
  assignmentId: bigintString().allow(null).required(),
});

export interface ReviewBody {
  assignmentId: string;
  verdict: ReviewVerdict;
  body: string;
}
export const reviewBody = Joi.object<ReviewBody>({
  assignmentId: decimalId().required(),
  verdict: Joi.string()
    .valid(...REVIEW_VERDICTS)
    .required(),
  body: text(REVIEW_BODY_MAX).required(),
});
export const reviewResponse = receiptSchema.keys({
  feedbackId: bigintString().required(),
  assignmentStatus: Joi.string().required(),
});

export interface DecisionBody {
  expectedDecision: GenomicsDecision;
  decision: GenomicsDecision;
  campaignId: string;
  reason: string;
}
export const decisionBody = Joi.object<DecisionBody>({
  expectedDecision: Joi.string()
    .valid(...GENOMICS_DECISIONS)
    .required(),
  decision: Joi.string()
    .valid(...GENOMICS_DECISIONS)
    .required(),
  campaignId: campaignId().required(),
  reason: text(REASON_MAX).required(),
});

export interface ReopenBody {
  expectedDecision: string;
  campaignId: string;
  reason: string;
}
export const reopenBody = Joi.object<ReopenBody>({
  expectedDecision: text(30).required(),
  campaignId: campaignId().required(),
  reason: text(REASON_MAX).required(),
});

export interface DispositionBody {
  disposition: Disposition;
  expectedDisposition: Disposition;
  reason: string;
}
export const dispositionBody = Joi.object<DispositionBody>({
  disposition: Joi.string()
    .valid(...DISPOSITIONS)
    .required(),
  expectedDisposition: Joi.string()
    .valid(...DISPOSITIONS)
    .required()
    .description('The disposition the caller saw; a mismatch is a 409 and changes nothing.'),
  reason: text(REASON_MAX).required(),
});

export interface RevisionBody {
  campaignId: string;
  notes: string;
}
export const revisionBody = Joi.object<RevisionBody>({
  campaignId: campaignId().required(),
  notes: text(REVISION_NOTES_MAX).allow('').required(),
});
export const revisionResponse = receiptSchema.keys({
  revisionId: bigintString().required(),
  resumed: Joi.boolean().required(),
});
