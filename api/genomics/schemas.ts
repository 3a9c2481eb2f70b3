import Joi from 'joi';
import { ASSIGNMENT_STATUSES, DISPOSITIONS, WORKFLOW_STATUSES } from '../../workflows/genomicsTask/state';
import { bigintString, dateTime } from '../shared/schemas';

/** The largest value of a PostgreSQL bigint; ids that match the spec's pattern but exceed it exist nowhere. */
const BIGINT_MAX = 9_223_372_036_854_775_807n;
export const fitsBigint = (id: string): boolean => BigInt(id) <= BIGINT_MAX;

const lonelySurrogate = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * Text that PostgreSQL stores exactly as sent: no NUL character and no unpaired UTF-16 surrogate (either
 * would be refused by the database or silently replaced). Lengths count UTF-16 code units, as JSON does.
 */
export const text = (max: number) =>
  Joi.string()
    .max(max)
    .custom((value: string, helpers) =>
      value.includes('\u0000') || lonelySurrogate.test(value) ? helpers.error('string.storable') : value,
    )
    .messages({ 'string.storable': '{{#label}} must not contain NUL characters or unpaired surrogates' });

/** A decimal id as the spec writes it (`^[1-9][0-9]{0,18}$`). */
export const decimalId = () => Joi.string().pattern(/^[1-9][0-9]{0,18}$/, 'decimal id');

/** A counter carried as a decimal string; unlike an id it may be 0. */
const counterString = () => Joi.string().pattern(/^(0|[1-9][0-9]{0,18})$/, 'decimal counter');

export const GENOMICS_BATCH_PATTERN = /^batch-[0-9]{3,6}$/;
export const TOPIC_NUMBER_MAX = 2_147_483_647;
export const CAMPAIGN_ID_MAX = 256;
export const campaignId = () => text(CAMPAIGN_ID_MAX);

export interface TopicParams {
  topicUid: string;
}
export const topicParams = Joi.object<TopicParams>({ topicUid: text(256).required() });

/** `limit` and `before` of the record lists (events, notes, reports, revisions, assignments). */
export interface PageQuery {
  limit: number;
  before?: string;
}
export const DEFAULT_LIMIT = 50;
export const listLimit = () => Joi.number().integer().min(1).max(100).default(DEFAULT_LIMIT);
export const pageQuery = Joi.object<PageQuery>({ limit: listLimit(), before: decimalId() });

export const EXCLUSIVITIES = ['NONE', 'EXCLUSIVE', 'SHARED'] as const;

/** The task / topic list item of the spec: every field always present. */
export const topicListItemSchema = Joi.object({
  uid: Joi.string().required(),
  batch: Joi.string().required(),
  topic: bigintString().required(),
  title: Joi.string().allow(null, '').required(),
  category: Joi.string().allow(null, '').required(),
  workflow_status: Joi.string()
    .valid(...WORKFLOW_STATUSES)
    .required(),
  decision: Joi.string().required(),
  previous_decision: Joi.string().allow(null).required(),
  requires_re_review: Joi.boolean().required(),
  decision_campaign_id: Joi.string().allow(null).required(),
  submission_campaign_id: Joi.string().allow(null).required(),
  disposition: Joi.string()
    .valid(...DISPOSITIONS)
    .required(),
  planned_reviewer_id: bigintString().allow(null).required(),
  current_package_version_id: bigintString().allow(null).required(),
  deliverable_selection_revision: counterString().required(),
  client_ids: Joi.array().items(bigintString()).required(),
  exclusivity: Joi.string()
    .valid(...EXCLUSIVITIES)
    .required(),
  campaign_id: Joi.string().allow(null).required(),
  status: Joi.string().allow(null).required(),
  phase: Joi.string().allow(null).required(),
  classification: Joi.string().allow(null).required(),
  tags: Joi.array().items(Joi.string()).required(),
});

export const RECORD_TYPES = ['topic', 'note', 'assignment', 'review', 'revision'] as const;
export type RecordType = (typeof RECORD_TYPES)[number];

/**
 * The operation receipt every genomics mutation returns (operations the spec gives named fields add them):
 * the affected record (type, id and the record itself), the event the mutation wrote, and the topic's
 * task state after it. A retry with the same Idempotency-Key returns this same body.
 */
export const receiptSchema = Joi.object({
  topicUid: Joi.string().required(),
  recordType: Joi.string()
    .valid(...RECORD_TYPES)
    .required(),
  recordId: Joi.string().required().description('The record id; the topicUid when the record is the topic.'),
  eventId: bigintString().required(),
  topic: topicListItemSchema.required(),
  record: Joi.object().unknown(true).allow(null).required(),
});

export const assignmentSchema = Joi.object({
  id: bigintString().required(),
  reviewer_id: bigintString().required(),
  status: Joi.string()
    .valid(...ASSIGNMENT_STATUSES)
    .required(),
  instructions: Joi.string().allow('').required(),
  due_at: dateTime().allow(null).required(),
  assigned_by: bigintString().allow(null).required(),
  created_at: dateTime().required(),
  updated_at: dateTime().required(),
  submitted_at: dateTime().allow(null).required(),
  closed_at: dateTime().allow(null).required(),
});
