import type { DeliveryRow, EndpointRow } from '../../../webhooks/managementQueries';
// Both services present webhook endpoints and deliveries in one shape, so one presenter serves both APIs.

/** A webhook endpoint: every field listed here; its secret never (only the create/rotate answer carries it). */
export function presentWebhook(e: EndpointRow) {
  return {
    id: e.id,
    url: e.url,
    description: e.description,
    event_types: e.event_types,
    status: e.status,
    disabled_reason: e.disabled_reason,
    previous_secret_expires_at: e.previous_secret_expires_at?.toISOString() ?? null,
    max_in_flight: e.max_in_flight,
    consecutive_failures: e.consecutive_failures,
    failing_since: e.failing_since?.toISOString() ?? null,
    last_success_at: e.last_success_at?.toISOString() ?? null,
    created_at: e.created_at.toISOString(),
    updated_at: e.updated_at.toISOString(),
  };
}

/** A delivery and its attempts; `message_id` is the `webhook-id` header every attempt carried. */
export function presentDelivery(d: DeliveryRow) {
  return {
    id: d.id,
    message_id: d.message_id,
    event_type: d.event_type,
    subject: d.subject,
    status: d.status,
    sequence: d.sequence,
    attempt_count: d.attempt_count,
    next_attempt_at: d.status === 'PENDING' ? d.next_attempt_at.toISOString() : null,
    created_at: d.created_at.toISOString(),
    finished_at: d.finished_at?.toISOString() ?? null,
    attempts: d.attempts.map((a) => ({
      attempted_at: new Date(a.attempted_at).toISOString(),
      status_code: a.status_code,
      error: a.error,
      latency_ms: a.latency_ms,
      response_excerpt: a.response_excerpt,
    })),
  };
}
