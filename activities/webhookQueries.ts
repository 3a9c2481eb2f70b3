import type { EntityManager } from 'typeorm';
import { WEBHOOK_WAKE_CHANNEL } from '../webhooks/events';

type Db = Pick<EntityManager, 'query'>;

/** What the endpoint workflow does next: nothing (gone), wait for work, wait out a backoff, or attempt. */
export type NextDelivery =
  | { kind: 'deleted' }
  | { kind: 'idle' }
  | { kind: 'waiting'; dueInMs: number }
  | { kind: 'due'; deliveryId: string; attemptCount: number };

export async function selectNextDelivery(db: Db, endpointId: string): Promise<NextDelivery> {
  const rows: Array<{
    deleted: boolean;
    status: string;
    delivery_id: string | null;
    attempt_count: number | null;
    due_in_ms: number | null;
  }> = await db.query(
    `SELECT e.deleted_at IS NOT NULL AS deleted, e.status, d.id::text AS delivery_id, d.attempt_count,
            GREATEST(0, EXTRACT(EPOCH FROM d.next_attempt_at - clock_timestamp()) * 1000)::float8 AS due_in_ms
       FROM webhook_endpoints e
       LEFT JOIN LATERAL (
         SELECT id, attempt_count, next_attempt_at FROM webhook_deliveries
          WHERE endpoint_id = e.id AND status = 'PENDING' ORDER BY id LIMIT 1
       ) d ON true
      WHERE e.id = $1`,
    [endpointId],
  );
  const row = rows[0];
  if (!row || row.deleted) return { kind: 'deleted' };
  if (row.status !== 'ACTIVE' || row.delivery_id === null) return { kind: 'idle' };
  if (row.due_in_ms !== null && row.due_in_ms > 0)
    return { kind: 'waiting', dueInMs: Math.ceil(row.due_in_ms) };
  return { kind: 'due', deliveryId: row.delivery_id, attemptCount: row.attempt_count ?? 0 };
}

/** Everything one attempt needs, when the delivery is still pending and its endpoint active. */
export interface DeliveryToAttempt {
  deliveryId: string;
  endpointId: string;
  url: string;
  secretSealed: string;
  previousSecretSealed: string | null;
  messageId: string;
  payload: unknown;
}

export async function selectDeliveryToAttempt(db: Db, deliveryId: string): Promise<DeliveryToAttempt | null> {
  const rows: Array<{
    endpoint_id: string;
    url: string;
    secret_sealed: string;
    previous_secret_sealed: string | null;
    message_id: string;
    payload: unknown;
  }> = await db.query(
    `SELECT e.id AS endpoint_id, e.url, e.secret_sealed,
            CASE WHEN e.previous_secret_expires_at > now() THEN e.previous_secret_sealed END AS previous_secret_sealed,
            v.message_id, v.payload
       FROM webhook_deliveries d
       JOIN webhook_endpoints e ON e.id = d.endpoint_id
       JOIN webhook_events v ON v.id = d.event_id
      WHERE d.id = $1 AND d.status = 'PENDING' AND e.status = 'ACTIVE' AND e.deleted_at IS NULL`,
    [deliveryId],
  );
  const row = rows[0];
  if (!row) return null;
  return {
    deliveryId,
    endpointId: row.endpoint_id,
    url: row.url,
    secretSealed: row.secret_sealed,
    previousSecretSealed: row.previous_secret_sealed,
    messageId: row.message_id,
    payload: row.payload,
  };
}

export interface AttemptRecord {
  deliveryId: string;
  attemptedAt: Date;
  statusCode: number | null;
  error: string | null;
  latencyMs: number;
  responseExcerpt: string;
  /** The delivery's new state: still pending (the workflow schedules the retry), succeeded, or failed. */
  finish: 'SUCCEEDED' | 'FAILED' | null;
  /** Disable the endpoint (410 Gone) with this reason. */
  disableEndpoint: string | null;
}

/** One attempt, and what it changes of its delivery (and, on 410, its endpoint), in one transaction. */
export async function insertAttempt(db: Db, record: AttemptRecord): Promise<void> {
  await db.query(
    `WITH attempt AS (
       INSERT INTO webhook_attempts (delivery_id, attempted_at, status_code, error, latency_ms, response_excerpt)
       VALUES ($1, $2, $3, $4, $5, $6)
     ), delivery AS (
       UPDATE webhook_deliveries
          SET attempt_count = attempt_count + 1, last_status_code = $3,
              status = COALESCE($7, status), finished_at = CASE WHEN $7 IS NULL THEN NULL ELSE clock_timestamp() END
        WHERE id = $1 AND status = 'PENDING'
       RETURNING endpoint_id
     ), disabled AS (
       UPDATE webhook_endpoints SET status = 'DISABLED', disabled_reason = $8, updated_at = now()
        WHERE $8::text IS NOT NULL AND id IN (SELECT endpoint_id FROM delivery)
       RETURNING 1
     )
     SELECT (SELECT count(*) FROM disabled) AS disabled`,
    [
      record.deliveryId,
      record.attemptedAt,
      record.statusCode,
      record.error,
      record.latencyMs,
      record.responseExcerpt,
      record.finish,
      record.disableEndpoint,
    ],
  );
}

/** After a failed attempt: try again at a time, or give up. */
export async function scheduleRetry(db: Db, deliveryId: string, afterMs: number): Promise<void> {
  await db.query(
    `UPDATE webhook_deliveries SET next_attempt_at = clock_timestamp() + $2 * interval '1 millisecond'
      WHERE id = $1 AND status = 'PENDING'`,
    [deliveryId, afterMs],
  );
}

export async function giveUpDelivery(db: Db, deliveryId: string): Promise<void> {
  await db.query(
    `UPDATE webhook_deliveries SET status = 'FAILED', finished_at = clock_timestamp()
      WHERE id = $1 AND status = 'PENDING'`,
    [deliveryId],
  );
}

/** Whether the endpoint workflow should look again: deleted, or a pending delivery is due on an active endpoint. */
export async function endpointHasWork(db: Db, endpointId: string): Promise<boolean> {
  const next = await selectNextDelivery(db, endpointId);
  return next.kind === 'deleted' || next.kind === 'due';
}

/**
 * Withdraws the webhook events of transitions being replaced as unacknowledged (`event_id`s of their payloads), in
 * the replacing transaction: their unended deliveries are cancelled, and `<service>.<subject>.withdrawn` follows
 * every one an attempt may have reached (migration 1767100000026). A no-op when none was emitted.
 */
export async function withdrawWebhookEvents(
  db: Db,
  service: 'math' | 'genomics',
  subject: string,
  eventIds: string[],
): Promise<void> {
  if (eventIds.length === 0) return;
  await db.query('SELECT webhook_withdraw($1, $2, $3)', [service, subject, eventIds]);
}

/**
 * Marks a pending delivery as possibly received, just before its attempt connects; false when it is no longer
 * pending (withdrawn or ended meanwhile), so nothing is sent. Under the row's lock against `webhook_withdraw`.
 */
export async function markDeliverySending(db: Db, deliveryId: string): Promise<boolean> {
  const rows: unknown[] = await db.query(
    // A CTE, so the driver answers with the rows (a bare UPDATE answers [rows, count]).
    `WITH marked AS (
       UPDATE webhook_deliveries SET first_sent_at = COALESCE(first_sent_at, clock_timestamp())
        WHERE id = $1 AND status = 'PENDING' RETURNING 1
     )
     SELECT 1 FROM marked`,
    [deliveryId],
  );
  return rows.length > 0;
}

export async function listenForWebhookDeliveries(client: {
  query(sql: string): Promise<unknown>;
}): Promise<void> {
  await client.query(`LISTEN ${WEBHOOK_WAKE_CHANNEL}`);
}

/**
 * Active endpoints with a pending delivery, oldest endpoint first: the ones whose delivery workflow must be running
 * (the sweep, activities/webhookSweep.ts). One probe of `webhook_deliveries_pending` per live endpoint.
 */
export async function selectEndpointsWithPendingDeliveries(db: Db): Promise<string[]> {
  const rows: Array<{ id: string }> = await db.query(
    `SELECT e.id FROM webhook_endpoints e
      WHERE e.deleted_at IS NULL AND e.status = 'ACTIVE'
        AND EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.endpoint_id = e.id AND d.status = 'PENDING')
      ORDER BY e.created_at, e.id`,
  );
  return rows.map((row) => row.id);
}
