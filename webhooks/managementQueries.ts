import type { Queryable } from '../entities/queryable';
import type { ServiceName } from '../entities/types';
import type { WebhookDeliveryStatus } from '../entities/WebhookDelivery';
import type { WebhookEndpointStatus } from '../entities/WebhookEndpoint';
import { ENDPOINT_CHANGED, WEBHOOK_WAKE_CHANNEL } from './events';

/** Wakes the worker's endpoint workflows when the change commits. */
const WAKE = `SELECT pg_notify('${WEBHOOK_WAKE_CHANNEL}', '${ENDPOINT_CHANGED}')`;

export interface EndpointRow {
  id: string;
  url: string;
  description: string;
  event_types: string[];
  status: WebhookEndpointStatus;
  disabled_reason: string | null;
  previous_secret_expires_at: Date | null;
  max_in_flight: number;
  consecutive_failures: number;
  failing_since: Date | null;
  last_success_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

const ENDPOINT_COLUMNS = `id, url, description, event_types, status, disabled_reason,
  CASE WHEN previous_secret_expires_at > now() THEN previous_secret_expires_at END AS previous_secret_expires_at,
  max_in_flight, consecutive_failures, failing_since, last_success_at, created_at, updated_at`;

export async function countLiveEndpoints(db: Queryable, service: ServiceName): Promise<number> {
  const [row]: Array<{ n: number }> = await db.query(
    `SELECT count(*)::int AS n FROM webhook_endpoints WHERE service = $1 AND deleted_at IS NULL`,
    [service],
  );
  return row.n;
}

export async function insertEndpoint(
  db: Queryable,
  endpoint: {
    id: string;
    service: ServiceName;
    url: string;
    description: string;
    eventTypes: string[];
    secretSealed: string;
    /** Null when an operator created it (CLI). */
    memberId: string | null;
    maxInFlight: number;
  },
): Promise<EndpointRow> {
  const [row]: EndpointRow[] = await db.query(
    `INSERT INTO webhook_endpoints
       (id, service, url, description, event_types, secret_sealed, created_by_member_id, max_in_flight)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING ${ENDPOINT_COLUMNS}`,
    [
      endpoint.id,
      endpoint.service,
      endpoint.url,
      endpoint.description,
      endpoint.eventTypes,
      endpoint.secretSealed,
      endpoint.memberId,
      endpoint.maxInFlight,
    ],
  );
  return row;
}

export async function selectEndpoints(db: Queryable, service: ServiceName): Promise<EndpointRow[]> {
  return db.query(
    `SELECT ${ENDPOINT_COLUMNS} FROM webhook_endpoints WHERE service = $1 AND deleted_at IS NULL
      ORDER BY created_at, id`,
    [service],
  );
}

export async function selectEndpoint(
  db: Queryable,
  service: ServiceName,
  id: string,
  lock = false,
): Promise<EndpointRow | null> {
  const rows: EndpointRow[] = await db.query(
    `SELECT ${ENDPOINT_COLUMNS} FROM webhook_endpoints WHERE service = $1 AND id = $2 AND deleted_at IS NULL
     ${lock ? 'FOR UPDATE' : ''}`,
    [service, id],
  );
  return rows[0] ?? null;
}

/**
 * Changes what an Admin may change (`maxInFlight` null: unchanged). Resuming an endpoint that was paused or disabled
 * clears why it was disabled and its failure record, and makes its pending deliveries due now. Wakes the worker.
 */
export async function updateEndpoint(
  db: Queryable,
  service: ServiceName,
  id: string,
  change: {
    url: string;
    description: string;
    eventTypes: string[];
    status: WebhookEndpointStatus;
    maxInFlight: number | null;
  },
): Promise<EndpointRow | null> {
  const rows: EndpointRow[] = await db.query(
    `WITH before AS (
       SELECT id, status FROM webhook_endpoints WHERE service = $1 AND id = $2 AND deleted_at IS NULL
     ), changed AS (
       UPDATE webhook_endpoints e
          SET url = $3, description = $4, event_types = $5, status = $6, updated_at = now(),
              max_in_flight = COALESCE($7, e.max_in_flight),
              disabled_reason = CASE WHEN $6 = 'ACTIVE' THEN NULL ELSE e.disabled_reason END,
              consecutive_failures = CASE WHEN $6 = 'ACTIVE' AND e.status <> 'ACTIVE' THEN 0
                                          ELSE e.consecutive_failures END,
              failing_since = CASE WHEN $6 = 'ACTIVE' AND e.status <> 'ACTIVE' THEN NULL ELSE e.failing_since END
        WHERE e.service = $1 AND e.id = $2 AND e.deleted_at IS NULL
       RETURNING ${ENDPOINT_COLUMNS}
     ), resumed AS (
       UPDATE webhook_deliveries SET next_attempt_at = now()
        WHERE endpoint_id IN (SELECT id FROM before WHERE status <> 'ACTIVE' AND $6 = 'ACTIVE')
          AND status = 'PENDING' AND next_attempt_at > now()
       RETURNING 1
     ), woken AS (${WAKE} FROM changed)
     SELECT *, (SELECT count(*) FROM woken) AS woken, (SELECT count(*) FROM resumed) AS resumed FROM changed`,
    [service, id, change.url, change.description, change.eventTypes, change.status, change.maxInFlight],
  );
  return rows[0] ?? null;
}

/** Deletes an endpoint: no new deliveries, its pending ones end as FAILED, its rows stay readable to operators. */
export async function deleteEndpoint(db: Queryable, service: ServiceName, id: string): Promise<boolean> {
  const [row]: Array<{ deleted: number }> = await db.query(
    `WITH deleted AS (
       UPDATE webhook_endpoints SET deleted_at = now(), updated_at = now()
        WHERE service = $1 AND id = $2 AND deleted_at IS NULL RETURNING id
     ), ended AS (
       UPDATE webhook_deliveries SET status = 'FAILED', finished_at = now()
        WHERE endpoint_id IN (SELECT id FROM deleted) AND status = 'PENDING' RETURNING 1
     ), woken AS (${WAKE} FROM deleted)
     SELECT (SELECT count(*) FROM deleted)::int AS deleted, (SELECT count(*) FROM ended) AS ended,
            (SELECT count(*) FROM woken) AS woken`,
    [service, id],
  );
  return row.deleted > 0;
}

/**
 * The new secret signs from now on; the previous one also signs until `graceUntil` (none when null). The endpoint's
 * delivery is told at commit, so it signs its next request with the new secret.
 */
export async function rotateEndpointSecret(
  db: Queryable,
  service: ServiceName,
  id: string,
  secretSealed: string,
  graceSeconds: number,
): Promise<EndpointRow | null> {
  const rows: EndpointRow[] = await db.query(
    `WITH rotated AS (
       UPDATE webhook_endpoints
          SET previous_secret_sealed = CASE WHEN $4 > 0 THEN secret_sealed END,
              previous_secret_expires_at = CASE WHEN $4 > 0 THEN now() + $4 * interval '1 second' END,
              secret_sealed = $3, updated_at = now()
        WHERE service = $1 AND id = $2 AND deleted_at IS NULL
       RETURNING ${ENDPOINT_COLUMNS}
     ), woken AS (${WAKE} FROM rotated)
     SELECT *, (SELECT count(*) FROM woken) AS woken FROM rotated`,
    [service, id, secretSealed, graceSeconds],
  );
  return rows[0] ?? null;
}

export interface AttemptRow {
  attempted_at: Date;
  status_code: number | null;
  error: string | null;
  latency_ms: number;
  response_excerpt: string;
}

export interface DeliveryRow {
  id: string;
  message_id: string;
  event_type: string;
  subject: string;
  status: WebhookDeliveryStatus;
  /** Null until it is first sent. */
  sequence: number | null;
  attempt_count: number;
  next_attempt_at: Date;
  created_at: Date;
  finished_at: Date | null;
  attempts: Array<Omit<AttemptRow, 'attempted_at'> & { attempted_at: string }>;
}

const DELIVERY_COLUMNS = `d.id::text, v.message_id, v.type AS event_type, v.subject, d.status, d.sequence,
  d.attempt_count,
  d.next_attempt_at, d.created_at, d.finished_at,
  COALESCE((SELECT jsonb_agg(jsonb_build_object(
      'attempted_at', a.attempted_at, 'status_code', a.status_code, 'error', a.error,
      'latency_ms', a.latency_ms, 'response_excerpt', a.response_excerpt) ORDER BY a.id)
    FROM webhook_attempts a WHERE a.delivery_id = d.id), '[]'::jsonb) AS attempts`;

/** An endpoint's deliveries newest first: a page by offset (math) or before an id (genomics). */
export async function selectDeliveries(
  db: Queryable,
  endpointId: string,
  page: { limit: number; offset?: number; beforeId?: string },
): Promise<DeliveryRow[]> {
  return db.query(
    `SELECT ${DELIVERY_COLUMNS} FROM webhook_deliveries d JOIN webhook_events v ON v.id = d.event_id
      WHERE d.endpoint_id = $1 AND ($2::bigint IS NULL OR d.id < $2)
      ORDER BY d.id DESC LIMIT $3 OFFSET $4`,
    [endpointId, page.beforeId ?? null, page.limit, page.offset ?? 0],
  );
}

export async function countDeliveries(db: Queryable, endpointId: string): Promise<number> {
  const [row]: Array<{ n: number }> = await db.query(
    `SELECT count(*)::int AS n FROM webhook_deliveries WHERE endpoint_id = $1`,
    [endpointId],
  );
  return row.n;
}

export async function selectDelivery(
  db: Queryable,
  endpointId: string,
  deliveryId: string,
): Promise<DeliveryRow | null> {
  const rows: DeliveryRow[] = await db.query(
    `SELECT ${DELIVERY_COLUMNS} FROM webhook_deliveries d JOIN webhook_events v ON v.id = d.event_id
      WHERE d.endpoint_id = $1 AND d.id = $2`,
    [endpointId, deliveryId],
  );
  return rows[0] ?? null;
}

/**
 * Makes an ended delivery pending again, due now, with a fresh retry schedule; the event (and so the
 * `webhook-id`) is the same. Null when there is no such delivery; `pending` when it has not ended; `withdrawn` when
 * its event was withdrawn (never sent again). The event row is share-locked against a concurrent withdrawal.
 */
export async function reopenDelivery(
  db: Queryable,
  endpointId: string,
  deliveryId: string,
): Promise<'reopened' | 'pending' | 'withdrawn' | null> {
  const [row]: Array<{ found: boolean; withdrawn: boolean; reopened: boolean }> = await db.query(
    `WITH event AS (
       SELECT v.withdrawn_at IS NOT NULL AS withdrawn FROM webhook_events v
        WHERE v.id = (SELECT event_id FROM webhook_deliveries WHERE endpoint_id = $1 AND id = $2)
          FOR SHARE
     ), reopened AS (
       UPDATE webhook_deliveries SET status = 'PENDING', finished_at = NULL, attempt_count = 0,
              next_attempt_at = now()
        WHERE endpoint_id = $1 AND id = $2 AND status <> 'PENDING'
          AND EXISTS (SELECT 1 FROM event WHERE NOT withdrawn)
       RETURNING id
     ), woken AS (${WAKE} FROM reopened)
     SELECT EXISTS (SELECT 1 FROM event) AS found, EXISTS (SELECT 1 FROM event WHERE withdrawn) AS withdrawn,
            EXISTS (SELECT 1 FROM reopened) AS reopened, (SELECT count(*) FROM woken) AS woken`,
    [endpointId, deliveryId],
  );
  if (!row.found) return null;
  if (row.withdrawn) return 'withdrawn';
  return row.reopened ? 'reopened' : 'pending';
}
