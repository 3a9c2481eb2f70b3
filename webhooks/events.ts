import type { ServiceName } from '../entities/types';

/**
 * Every webhook event type, per service: what a receiver can subscribe to. The transition that commits an event
 * writes it through `webhook_emit` in its own transaction (docs/webhooks.md lists each payload with an example).
 * Types are `<service>.<subject>.<what happened>`; payload fields are snake_case in both services, like their
 * records.
 */
export const WEBHOOK_EVENT_TYPES = {
  math: [
    'math.task.assigned',
    'math.task.started',
    'math.task.feedback_added',
    'math.task.verdict_recorded',
    'math.task.reopened',
    'math.task.client_changed',
    'math.task.archived',
    'math.task.restored',
    'math.import.completed',
    'math.import.failed',
    'math.key.revoked',
  ],
  genomics: [
    'genomics.topic.reviewer_assigned',
    'genomics.topic.reviewer_removed',
    'genomics.topic.comment_added',
    'genomics.topic.review_submitted',
    'genomics.topic.decision_overridden',
    'genomics.topic.review_reopened',
    'genomics.topic.disposition_changed',
    'genomics.topic.revision_started',
    'genomics.topic.revision_resumed',
    'genomics.topic.assignment_expired',
    'genomics.import.completed',
    'genomics.import.failed',
    'genomics.key.revoked',
  ],
} as const satisfies Record<ServiceName, readonly string[]>;

/**
 * The compensating event of each service: it withdraws an event whose transition was replaced as unacknowledged
 * (a workflow task that committed it never completed; docs/decisions.md). Not subscribable: `webhook_withdraw`
 * sends it to every endpoint an attempt of the withdrawn event may have reached, whatever its event types.
 */
export const WEBHOOK_WITHDRAWAL_EVENT_TYPES = {
  math: 'math.task.withdrawn',
  genomics: 'genomics.topic.withdrawn',
} as const satisfies Record<ServiceName, string>;

export type MathWebhookEventType = (typeof WEBHOOK_EVENT_TYPES.math)[number];
export type GenomicsWebhookEventType = (typeof WEBHOOK_EVENT_TYPES.genomics)[number];
export type WebhookEventType = MathWebhookEventType | GenomicsWebhookEventType;
/** Every type a body can carry: the subscribable ones and the withdrawal. */
export type SentWebhookEventType<S extends ServiceName> =
  (typeof WEBHOOK_EVENT_TYPES)[S][number] | (typeof WEBHOOK_WITHDRAWAL_EVENT_TYPES)[S];

/**
 * The one SQL call that writes an event: the outbox row and a delivery per subscribed endpoint, or nothing when
 * no endpoint subscribes. `$service, $type, $subject, $data` are placeholders the caller numbers.
 */
export const emitWebhookSql = (params: { service: string; type: string; subject: string; data: string }) =>
  `webhook_emit(${params.service}, ${params.type}, ${params.subject}, ${params.data}::jsonb)`;

/**
 * The PostgreSQL channel notified when a delivery is queued or an endpoint changes (`webhook_emit` in the migrations,
 * webhooks/managementQueries.ts); the worker's endpoint workflows are woken from it (activities/webhookWakeups.ts).
 */
export const WEBHOOK_WAKE_CHANNEL = 'referee_webhook_deliveries';
/** The payload of a notification that an endpoint changed; a new event's payload is its service. */
export const ENDPOINT_CHANGED = 'endpoint';

/** A timestamptz SQL expression as the API writes times: UTC ISO-8601 with milliseconds and `Z`. */
export const isoUtcSql = (expression: string) =>
  `to_char(${expression} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/** The stored payload of an event (`webhook_events.payload`), as `webhook_emit` wrote it. */
export interface StoredWebhookPayload {
  type: string;
  timestamp: string;
  data: unknown;
}

/**
 * The body one endpoint receives: the event's payload with the delivery's `sequence`, its number among the
 * subject's deliveries to that endpoint (docs/webhooks.md). The same on every attempt and redelivery.
 */
export const webhookBody = (payload: StoredWebhookPayload, sequence: number) =>
  JSON.stringify({ type: payload.type, timestamp: payload.timestamp, sequence, data: payload.data });
