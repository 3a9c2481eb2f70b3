import Joi from 'joi';
import type { ServiceName } from '../entities/types';
import { type SentWebhookEventType, WEBHOOK_WITHDRAWAL_EVENT_TYPES } from './events';

/**
 * The body of every webhook, per event type, as Joi schemas: the OpenAPI documents' `webhooks` object is derived
 * from them, the tests check every body received against them, and docs/webhooks.md shows their examples. A
 * body is Standard Webhooks' envelope `{type, timestamp, data}` with the delivery's per-subject `sequence`.
 */

const time = () => Joi.string().isoDate();
const id = () => Joi.string().pattern(/^[1-9][0-9]*$/);

const mathTaskData = Joi.object({
  task_id: Joi.string().required().description('The task (as in `/api/math/tasks/{task_id}`).'),
  event_id: Joi.string()
    .pattern(/^task:[1-9][0-9]*$/)
    .required()
    .description('The task event, as `/api/math/activity` lists it.'),
  action: Joi.string().required(),
  version: Joi.number().integer().min(1).required().description('The task version this transition made.'),
  from_state: Joi.string().required(),
  to_state: Joi.string().required(),
  review_state: Joi.string().required(),
  decision: Joi.string().allow(null).required(),
  assignee_id: id().allow(null).required(),
  client_id: id().allow(null).required(),
  archived: Joi.boolean().required(),
  actor_id: id().required().description('The member who acted.'),
  comment: Joi.string().allow(null).required(),
  detail: Joi.object().required(),
  occurred_at: time().required(),
});

const genomicsTopicData = Joi.object({
  topic_uid: Joi.string().required().description('The topic (as in `/api/v1/topics/{topicUid}`).'),
  event_id: id().required().description('The topic event, as `/api/v1/topics/{topicUid}/events` lists it.'),
  kind: Joi.string().required(),
  workflow_version: Joi.number().integer().min(1).required(),
  decision: Joi.string().required(),
  previous_decision: Joi.string().allow(null).required(),
  requires_re_review: Joi.boolean().required(),
  disposition: Joi.string().required(),
  campaign_id: Joi.string().allow(null).required(),
  planned_reviewer_id: id().allow(null).required(),
  workflow_status: Joi.string().required(),
  status: Joi.string().required(),
  phase: Joi.string().required(),
  actor_id: id().allow(null).required().description('The member who acted; null for the due-date timer.'),
  detail: Joi.object().required().description('The event’s detail, with the ids of records it created.'),
  occurred_at: time().required(),
});

const importData = Joi.object({
  import_id: id().required(),
  subject_id: Joi.string()
    .required()
    .description('The math run id, or `<batch>/<bundle_id>` of a genomics bundle.'),
  status: Joi.string().valid('SUCCEEDED', 'UNCHANGED', 'FAILED').required(),
  counts: Joi.object().unknown().required().description('Records by kind, as the import counted them.'),
  files_uploaded: Joi.number().integer().min(0).required(),
  bytes_uploaded: Joi.number().integer().min(0).required(),
  started_at: time().required(),
  finished_at: time().required(),
});

const keyData = Joi.object({
  key_id: Joi.string().uuid().required(),
  member_id: id().required().description('The key’s owner.'),
  revoked_by_member_id: id().allow(null).required().description('Null when an operator revoked it (CLI).'),
  revoked_at: time().required(),
});

/** The withdrawal's data; the subject field is the service's (`task_id` or `topic_uid`). */
const withdrawalData = (subject: Joi.PartialSchemaMap) =>
  Joi.object({
    ...subject,
    withdrawn_webhook_id: Joi.string()
      .pattern(/^msg_[0-9a-f]{32}$/)
      .required()
      .description('The `webhook-id` of the withdrawn event: it must be treated as never having happened.'),
    withdrawn_type: Joi.string().required().description('The withdrawn event’s type.'),
    withdrawn_event_id: Joi.string().required().description('The withdrawn event’s `data.event_id`.'),
    reason: Joi.string()
      .valid('unacknowledged_transition')
      .required()
      .description(
        'Its transition was committed by a workflow task that never completed (no client was told) and was replaced by the workflow’s next transition.',
      ),
    withdrawn_at: time().required(),
  });

const envelope = (type: string, data: Joi.ObjectSchema) =>
  Joi.object({
    type: Joi.string().valid(type).required(),
    timestamp: time().required().description('When the event committed (UTC).'),
    sequence: Joi.number()
      .integer()
      .min(1)
      .required()
      .description(
        'This delivery’s number among the deliveries of its subject (a task, topic, import or key) to this endpoint: 1, 2, 3… in commit order, given when it is first sent and the same on every retry and redelivery. A gap is a delivery that ended without success (the endpoint’s deliveries list shows it); a lower number than one already seen is a redelivery.',
      ),
    data: data.required(),
  });

const T0 = '2026-11-25T17:00:00.000Z';

const mathTaskExample = (action: string, from: string, to: string, extra: Record<string, unknown> = {}) => ({
  task_id: 'T-0001',
  event_id: 'task:118',
  action,
  version: 4,
  from_state: from,
  to_state: to,
  review_state: to,
  decision: null,
  assignee_id: '12',
  client_id: null,
  archived: false,
  actor_id: '3',
  comment: null,
  detail: {},
  occurred_at: T0,
  ...extra,
});

const genomicsTopicExample = (kind: string, extra: Record<string, unknown> = {}) => ({
  topic_uid: 'batch-001:1',
  event_id: '412',
  kind,
  workflow_version: 3,
  decision: 'PENDING',
  previous_decision: null,
  requires_re_review: false,
  disposition: 'ACTIVE',
  campaign_id: 'cmp-2026-spring',
  planned_reviewer_id: '7',
  workflow_status: 'IN_REVIEW',
  status: 'OPEN',
  phase: 'REVIEW',
  actor_id: '2',
  detail: {},
  occurred_at: T0,
  ...extra,
});

const importExample = (status: string) => ({
  import_id: '31',
  subject_id: 'run-2026-11-25',
  status,
  counts: { tasks: 120 },
  files_uploaded: status === 'FAILED' ? 0 : 240,
  bytes_uploaded: status === 'FAILED' ? 0 : 5_242_880,
  started_at: '2026-11-25T16:58:10.000Z',
  finished_at: T0,
});

const keyExample = {
  key_id: '6f1c2b1e-8a0e-4c55-9d7b-2f3f3c9b1a10',
  member_id: '12',
  revoked_by_member_id: '3',
  revoked_at: T0,
};

const withdrawalExample = (subject: Record<string, string>, withdrawnType: string, eventId: string) => ({
  ...subject,
  withdrawn_webhook_id: 'msg_0b9d5c3e2f8a4d1b9c7e6f5a4b3c2d1e',
  withdrawn_type: withdrawnType,
  withdrawn_event_id: eventId,
  reason: 'unacknowledged_transition',
  withdrawn_at: T0,
});

/** Who receives a withdrawal (the OpenAPI documents and docs/webhooks.md say the same). */
const WITHDRAWAL_RECIPIENTS =
  'Sent, whatever its event types, to every endpoint that an attempt of the withdrawn event may have reached; it cannot be subscribed to';

export interface WebhookEventDoc {
  summary: string;
  schema: Joi.ObjectSchema;
  example: { type: string; timestamp: string; sequence: number; data: Record<string, unknown> };
  recipients?: string;
}

function doc(
  type: string,
  summary: string,
  data: Joi.ObjectSchema,
  example: Record<string, unknown>,
  recipients?: string,
): WebhookEventDoc {
  return {
    summary,
    schema: envelope(type, data),
    example: { type, timestamp: T0, sequence: 1, data: example },
    ...(recipients ? { recipients } : {}),
  };
}

export const MATH_WEBHOOK_EVENTS: Record<SentWebhookEventType<'math'>, WebhookEventDoc> = {
  'math.task.assigned': doc(
    'math.task.assigned',
    'A task was assigned, reassigned or unassigned.',
    mathTaskData,
    mathTaskExample('assign', 'UNASSIGNED', 'ASSIGNED', {
      detail: { from_assignee_id: null, to_assignee_id: '12' },
    }),
  ),
  'math.task.started': doc(
    'math.task.started',
    'The assignee started the review.',
    mathTaskData,
    mathTaskExample('start', 'ASSIGNED', 'IN_REVIEW'),
  ),
  'math.task.feedback_added': doc(
    'math.task.feedback_added',
    'Feedback (a note) was added.',
    mathTaskData,
    mathTaskExample('feedback', 'IN_REVIEW', 'IN_REVIEW', { comment: 'Step 3 needs a citation.' }),
  ),
  'math.task.verdict_recorded': doc(
    'math.task.verdict_recorded',
    'A verdict completed the review: the decision.',
    mathTaskData,
    mathTaskExample('verdict', 'IN_REVIEW', 'COMPLETED', { decision: 'ACCEPTED', comment: 'Correct.' }),
  ),
  'math.task.reopened': doc(
    'math.task.reopened',
    'A completed review was reopened.',
    mathTaskData,
    mathTaskExample('reopen', 'COMPLETED', 'IN_REVIEW', { comment: 'New evidence.' }),
  ),
  'math.task.client_changed': doc(
    'math.task.client_changed',
    'The task’s client was set or cleared.',
    mathTaskData,
    mathTaskExample('client', 'ASSIGNED', 'ASSIGNED', { client_id: '4' }),
  ),
  'math.task.archived': doc(
    'math.task.archived',
    'The task was archived.',
    mathTaskData,
    mathTaskExample('archive', 'ASSIGNED', 'ASSIGNED', { archived: true }),
  ),
  'math.task.restored': doc(
    'math.task.restored',
    'The task was restored from the archive.',
    mathTaskData,
    mathTaskExample('restore', 'ASSIGNED', 'ASSIGNED'),
  ),
  'math.import.completed': doc(
    'math.import.completed',
    'A run import finished (SUCCEEDED, or UNCHANGED when nothing differed).',
    importData,
    importExample('SUCCEEDED'),
  ),
  'math.import.failed': doc(
    'math.import.failed',
    'A run import failed; `referee status` and the import’s record say why.',
    importData,
    importExample('FAILED'),
  ),
  'math.key.revoked': doc(
    'math.key.revoked',
    'An API key of the service was revoked (API or CLI).',
    keyData,
    keyExample,
  ),
  [WEBHOOK_WITHDRAWAL_EVENT_TYPES.math]: doc(
    WEBHOOK_WITHDRAWAL_EVENT_TYPES.math,
    'A task event sent before was withdrawn: its transition never took effect.',
    withdrawalData({ task_id: mathTaskData.extract('task_id') }),
    withdrawalExample({ task_id: 'T-0001' }, 'math.task.feedback_added', 'task:118'),
    WITHDRAWAL_RECIPIENTS,
  ),
};

export const GENOMICS_WEBHOOK_EVENTS: Record<SentWebhookEventType<'genomics'>, WebhookEventDoc> = {
  'genomics.topic.reviewer_assigned': doc(
    'genomics.topic.reviewer_assigned',
    'A reviewer was assigned (an assignment created).',
    genomicsTopicData,
    genomicsTopicExample('reviewer_assigned', { detail: { reviewer_id: '7', assignment_id: '88' } }),
  ),
  'genomics.topic.reviewer_removed': doc(
    'genomics.topic.reviewer_removed',
    'The planned reviewer was removed; an active assignment cancelled.',
    genomicsTopicData,
    genomicsTopicExample('reviewer_removed', { planned_reviewer_id: null }),
  ),
  'genomics.topic.comment_added': doc(
    'genomics.topic.comment_added',
    'A COMMENT review was submitted (no decision change).',
    genomicsTopicData,
    genomicsTopicExample('comment_added', {
      detail: { assignment_id: '88', verdict: 'COMMENT', review_id: '140' },
    }),
  ),
  'genomics.topic.review_submitted': doc(
    'genomics.topic.review_submitted',
    'A review was submitted and decided the topic.',
    genomicsTopicData,
    genomicsTopicExample('review_submitted', {
      decision: 'APPROVED',
      detail: { assignment_id: '88', verdict: 'APPROVE', review_id: '141' },
    }),
  ),
  'genomics.topic.decision_overridden': doc(
    'genomics.topic.decision_overridden',
    'An owner overrode the decision.',
    genomicsTopicData,
    genomicsTopicExample('decision_overridden', { decision: 'REJECTED', previous_decision: 'READY' }),
  ),
  'genomics.topic.review_reopened': doc(
    'genomics.topic.review_reopened',
    'A submitted review was reopened.',
    genomicsTopicData,
    genomicsTopicExample('review_reopened', { requires_re_review: true }),
  ),
  'genomics.topic.disposition_changed': doc(
    'genomics.topic.disposition_changed',
    'The disposition changed.',
    genomicsTopicData,
    genomicsTopicExample('disposition_changed', {
      disposition: 'DISCARDED',
      status: 'CLOSED',
      phase: 'DONE',
    }),
  ),
  'genomics.topic.revision_started': doc(
    'genomics.topic.revision_started',
    'A package revision was started.',
    genomicsTopicData,
    genomicsTopicExample('revision_started', { detail: { revision_id: '9' } }),
  ),
  'genomics.topic.revision_resumed': doc(
    'genomics.topic.revision_resumed',
    'An open package revision was resumed.',
    genomicsTopicData,
    genomicsTopicExample('revision_resumed', { detail: { revision_id: '9' } }),
  ),
  'genomics.topic.assignment_expired': doc(
    'genomics.topic.assignment_expired',
    'An assignment passed its due date (actor null: the timer).',
    genomicsTopicData,
    genomicsTopicExample('assignment_expired', { actor_id: null, disposition: 'TIMED_OUT' }),
  ),
  'genomics.import.completed': doc(
    'genomics.import.completed',
    'A bundle import finished (SUCCEEDED or UNCHANGED).',
    importData,
    importExample('SUCCEEDED'),
  ),
  'genomics.import.failed': doc(
    'genomics.import.failed',
    'A bundle import failed.',
    importData,
    importExample('FAILED'),
  ),
  'genomics.key.revoked': doc(
    'genomics.key.revoked',
    'An API key of the service was revoked (API or CLI).',
    keyData,
    keyExample,
  ),
  [WEBHOOK_WITHDRAWAL_EVENT_TYPES.genomics]: doc(
    WEBHOOK_WITHDRAWAL_EVENT_TYPES.genomics,
    'A topic event sent before was withdrawn: its transition never took effect.',
    withdrawalData({ topic_uid: genomicsTopicData.extract('topic_uid') }),
    withdrawalExample({ topic_uid: 'batch-001:1' }, 'genomics.topic.reviewer_assigned', '412'),
    WITHDRAWAL_RECIPIENTS,
  ),
};

export const WEBHOOK_EVENT_DOCS: {
  [S in ServiceName]: Record<SentWebhookEventType<S>, WebhookEventDoc>;
} = {
  math: MATH_WEBHOOK_EVENTS,
  genomics: GENOMICS_WEBHOOK_EVENTS,
};
