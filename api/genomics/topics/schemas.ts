import Joi from 'joi';
import { type SchemaType, type Typed, typed } from '../../kernel/typedSchema';
import { DISPOSITIONS, WORKFLOW_STATUSES } from '../../../workflows/genomicsTask/state';
import { bigintString, dateTime } from '../../shared/schemas';
import { listLimit } from '../shared/pagination';
import { GENOMICS_BATCH_PATTERN, text, TOPIC_NUMBER_MAX } from '../shared/schemas';

export const topicParams = typed.object({ topicUid: text(256).required() });
export type TopicParams = SchemaType<typeof topicParams>;

/** A counter carried as a decimal string; unlike an id it may be 0. */
const counterString = () => Joi.string().pattern(/^(0|[1-9][0-9]{0,18})$/, 'decimal counter');

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

export const SEARCH_MAX = 200;
export const MARKDOWN_MAX = 2_000_000;
export const CREATE_TITLE_MAX = 500;
export const CREATE_CATEGORY_MAX = 200;
export const UPDATE_TITLE_MAX = 180;
export const UPDATE_CATEGORY_MAX = 180;
export const TAGS_MAX = 50;
export const TAG_MAX = 64;

/**
 * Every valid JSON encoding of a create body fits: 2,000,000 characters escaped as `\uXXXX` (6 bytes each,
 * e.g. a client that escapes all non-ASCII) plus the other fields. The configured 8 MiB covers only
 * unescaped UTF-8 (at most 3 bytes per character).
 */
export const CREATE_TOPIC_BODY_LIMIT_BYTES = 12 * 1024 * 1024;

const listQuery = (
  afterBatch: Typed<string, false, Joi.StringSchema>,
  afterTopic: Typed<number, false, Joi.NumberSchema>,
) =>
  typed
    .object({
      limit: listLimit(),
      search: text(SEARCH_MAX)
        .allow('')
        .description('Case-insensitive literal substring of uid, title or category.'),
      disposition: typed.string().valid(...DISPOSITIONS),
      afterBatch: afterBatch.description('Cursor: the `next.batch` of the previous page; needs afterTopic.'),
      afterTopic: afterTopic.description('Cursor: the `next.topic` of the previous page; needs afterBatch.'),
    })
    .with('afterBatch', 'afterTopic')
    .with('afterTopic', 'afterBatch');

/** The filters of an export of GET /api/v1/tasks: the list's, without its paging. */
export const taskExportFilters = typed.object({
  search: text(SEARCH_MAX)
    .allow('')
    .description('Case-insensitive literal substring of uid, title or category.'),
  disposition: typed.string().valid(...DISPOSITIONS),
});
export type TaskExportFilters = SchemaType<typeof taskExportFilters>;

/** /tasks: the cursor is a real batch and topic number. */
export const tasksQuery = listQuery(
  typed.string().pattern(GENOMICS_BATCH_PATTERN, 'batch'),
  typed.number().integer().min(1).max(TOPIC_NUMBER_MAX),
);
/** /topics: any cursor position (a batch prefix of up to 30 characters, any topic number from 1). */
export const topicsQuery = listQuery(text(30).allow(''), typed.number().integer().min(1));
export type TopicListQuery = SchemaType<typeof tasksQuery | typeof topicsQuery>;

export const topicListSchema = Joi.object({
  items: Joi.array().items(topicListItemSchema).required(),
  next: Joi.object({
    batch: Joi.string().required(),
    topic: Joi.number().integer().min(1).required(),
  })
    .allow(null)
    .required(),
});

export const createTopicBody = typed.object({
  batch: typed.string().pattern(GENOMICS_BATCH_PATTERN, 'batch').required(),
  topic: typed.number().integer().min(1).max(TOPIC_NUMBER_MAX).required(),
  title: text(CREATE_TITLE_MAX).required(),
  category: text(CREATE_CATEGORY_MAX).required(),
  markdown: text(MARKDOWN_MAX).allow('').required(),
});

/** 201 `{topicUid}` of the spec, as a receipt (which carries `topicUid`). */
export const createTopicResponse = receiptSchema;

export const updateTopicBody = typed.object({
  title: text(UPDATE_TITLE_MAX).required(),
  category: text(UPDATE_CATEGORY_MAX).required(),
});

export const tagsBody = typed.object({
  tags: typed.array(text(TAG_MAX)).max(TAGS_MAX).required(),
});
export const tagsResponse = receiptSchema.keys({ tags: Joi.array().items(Joi.string()).required() });

/** Keeps the first occurrence of each tag, in the order given (comparison is exact, case-sensitive). */
export const dedupeTags = (tags: string[]): string[] => [...new Set(tags)];

export const topicDetailSchema = Joi.object({
  topic: topicListItemSchema
    .keys({
      markdown: Joi.string().allow(null, '').required(),
      created_at: dateTime().required(),
      updated_at: dateTime().required(),
    })
    .required(),
  campaigns: Joi.array()
    .items(
      Joi.object({
        id: Joi.string().required(),
        name: Joi.string().required(),
        status: Joi.string().required(),
        created_at: dateTime().required(),
        updated_at: dateTime().required(),
      }),
    )
    .required(),
  clients: Joi.array()
    .items(
      Joi.object({
        id: bigintString().required(),
        name: Joi.string().required(),
        enabled: Joi.boolean().required(),
        created_at: dateTime().required(),
        updated_at: dateTime().required(),
      }),
    )
    .required(),
});
