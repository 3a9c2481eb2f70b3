import type { EntityManager } from 'typeorm';
import { WEBHOOK_WAKE_CHANNEL } from '../webhooks/events';

type Db = Pick<EntityManager, 'query'>;

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

/** What the delivery activity needs of its endpoint, read again whenever the endpoint may have changed. */
export interface EndpointForDelivery {
  deleted: boolean;
  status: string;
  url: string;
  secretSealed: string;
  previousSecretSealed: string | null;
  maxInFlight: number;
  consecutiveFailures: number;
  failingSince: Date | null;
}

export async function selectEndpointForDelivery(
  db: Db,
  endpointId: string,
): Promise<EndpointForDelivery | null> {
  const rows: Array<{
    deleted: boolean;
    status: string;
    url: string;
    secret_sealed: string;
    previous_secret_sealed: string | null;
    max_in_flight: number;
    consecutive_failures: number;
    failing_since: Date | null;
  }> = await db.query(
    `SELECT deleted_at IS NOT NULL AS deleted, status, url, secret_sealed,
            CASE WHEN previous_secret_expires_at > now() THEN previous_secret_sealed END AS previous_secret_sealed,
            max_in_flight, consecutive_failures, failing_since
       FROM webhook_endpoints WHERE id = $1`,
    [endpointId],
  );
  const row = rows[0];
  if (!row) return null;
  return {
    deleted: row.deleted,
    status: row.status,
    url: row.url,
    secretSealed: row.secret_sealed,
    previousSecretSealed: row.previous_secret_sealed,
    maxInFlight: row.max_in_flight,
    consecutiveFailures: row.consecutive_failures,
    failingSince: row.failing_since,
  };
}

/** A delivery claimed to be sent now: its body is the event's payload with its `sequence`. */
export interface ClaimedDelivery {
  deliveryId: string;
  subject: string;
  attemptCount: number;
  sequence: number;
  messageId: string;
  payload: { type: string; timestamp: string; data: unknown };
  /** When its event committed: the delivery's lag is measured from here. */
  committedAt: Date;
}

/** What one claim took, and when the endpoint's next subject head outside the busy ones is due. */
export interface Claim {
  deliveries: ClaimedDelivery[];
  /** 0 when one is due now (a withdrawal holds it, say), null when nothing else is pending outside them. */
  nextDueInMs: number | null;
}

/**
 * How many of an endpoint's oldest pending deliveries a claim looks at first. Their subjects' heads are found
 * among them without touching the rest of the backlog; only when these hold too few due heads (a few subjects
 * with long queues, all in flight or backing off) does the claim visit every pending subject, one index probe each.
 */
const CLAIM_WINDOW = 256;

/**
 * The oldest due deliveries of an endpoint, at most `limit`, at most one per subject, and only the oldest pending
 * delivery of each subject (so a subject's deliveries go one at a time, in commit order), skipping the subjects
 * already in flight. Each is marked as possibly received (`first_sent_at`, under its row lock against
 * `webhook_withdraw`; a row the withdrawal holds is skipped) and, when first sent, numbered in its subject. In the
 * same statement: when the next head not claimed and not busy is due.
 */
export async function claimDeliveries(
  db: Db,
  endpointId: string,
  busySubjects: string[],
  limit: number,
): Promise<Claim> {
  const rows: Array<{
    id: string | null;
    subject: string;
    attempt_count: number;
    sequence: number;
    message_id: string;
    payload: ClaimedDelivery['payload'];
    committed_at: Date;
    due_in_ms: number | null;
  }> = await db.query(
    `WITH RECURSIVE oldest AS (
       SELECT d.id, d.subject, d.next_attempt_at FROM webhook_deliveries d
        WHERE d.endpoint_id = $1 AND d.status = 'PENDING'
        ORDER BY d.id LIMIT $4
     ), oldest_heads AS (
       SELECT DISTINCT ON (subject) id, subject, next_attempt_at FROM oldest ORDER BY subject, id
     ), too_few AS (
       SELECT (SELECT count(*) FROM oldest) = $4
          AND (SELECT count(*) FROM oldest_heads
                WHERE next_attempt_at <= clock_timestamp() AND NOT (subject = ANY ($2::text[]))) < $3 AS yes
     ), subjects AS (
       (SELECT d.subject FROM webhook_deliveries d
         WHERE d.endpoint_id = $1 AND d.status = 'PENDING' AND (SELECT yes FROM too_few)
         ORDER BY d.subject LIMIT 1)
       UNION ALL
       SELECT (SELECT d.subject FROM webhook_deliveries d
                WHERE d.endpoint_id = $1 AND d.status = 'PENDING' AND d.subject > s.subject
                ORDER BY d.subject LIMIT 1)
         FROM subjects s WHERE s.subject IS NOT NULL
     ), heads AS (
       SELECT * FROM oldest_heads
       UNION
       SELECT h.* FROM subjects s CROSS JOIN LATERAL (
         SELECT d.id, d.subject, d.next_attempt_at FROM webhook_deliveries d
          WHERE d.endpoint_id = $1 AND d.status = 'PENDING' AND d.subject = s.subject
          ORDER BY d.id LIMIT 1) h
     ), due AS (
       SELECT id FROM heads
        WHERE next_attempt_at <= clock_timestamp() AND NOT (subject = ANY ($2::text[]))
        ORDER BY id LIMIT $3
     ), locked AS (
       SELECT d.id, d.subject, d.sequence FROM webhook_deliveries d
        WHERE d.id IN (SELECT id FROM due) AND d.status = 'PENDING'
          FOR UPDATE SKIP LOCKED
     ), numbered AS (
       INSERT INTO webhook_subject_sequences AS s (endpoint_id, subject, last_sequence)
       SELECT $1, l.subject, 1 FROM locked l WHERE l.sequence IS NULL
       ON CONFLICT (endpoint_id, subject) DO UPDATE SET last_sequence = s.last_sequence + 1
       RETURNING subject, last_sequence
     ), marked AS (
       UPDATE webhook_deliveries d
          SET first_sent_at = COALESCE(d.first_sent_at, clock_timestamp()),
              sequence = COALESCE(d.sequence, (SELECT n.last_sequence FROM numbered n WHERE n.subject = l.subject))
         FROM locked l
        WHERE d.id = l.id
       RETURNING d.id, d.event_id, d.subject, d.attempt_count, d.sequence
     ), next_due AS (
       -- GREATEST ignores a null: none pending stays null.
       SELECT CASE WHEN min(h.next_attempt_at) IS NOT NULL
                   THEN GREATEST(0, EXTRACT(EPOCH FROM min(h.next_attempt_at) - clock_timestamp()) * 1000)::float8
              END AS due_in_ms
         FROM heads h
        WHERE NOT (h.subject = ANY ($2::text[])) AND h.id NOT IN (SELECT id FROM locked)
     )
     SELECT m.id::text AS id, m.subject, m.attempt_count, m.sequence, v.message_id, v.payload,
            v.created_at AS committed_at, n.due_in_ms
       FROM next_due n
       LEFT JOIN (marked m JOIN webhook_events v ON v.id = m.event_id) ON true
      ORDER BY m.id`,
    [endpointId, busySubjects, limit, CLAIM_WINDOW],
  );
  const dueInMs = rows[0]?.due_in_ms;
  return {
    deliveries: rows
      .filter((row) => row.id !== null)
      .map((row) => ({
        deliveryId: row.id!,
        subject: row.subject,
        attemptCount: row.attempt_count,
        sequence: row.sequence,
        messageId: row.message_id,
        payload: row.payload,
        committedAt: row.committed_at,
      })),
    nextDueInMs: dueInMs === null || dueInMs === undefined ? null : Math.ceil(dueInMs),
  };
}

/** Pending deliveries per live endpoint: the backlog the metrics show. */
export async function selectBacklogs(
  db: Db,
): Promise<Array<{ endpointId: string; service: string; status: string; pending: number }>> {
  const rows: Array<{ id: string; service: string; status: string; pending: number }> = await db.query(
    `SELECT e.id, e.service, e.status,
            (SELECT count(*) FROM webhook_deliveries d WHERE d.endpoint_id = e.id AND d.status = 'PENDING')::int
              AS pending
       FROM webhook_endpoints e WHERE e.deleted_at IS NULL`,
  );
  return rows.map((row) => ({
    endpointId: row.id,
    service: row.service,
    status: row.status,
    pending: row.pending,
  }));
}

export interface AttemptResultRecord {
  deliveryId: string;
  attemptedAt: Date;
  statusCode: number | null;
  error: string | null;
  latencyMs: number;
  responseExcerpt: string;
  delivered: boolean;
  /** What follows a failure: try again after this long, or give up (FAILED); ignored on success. */
  retryAfterMs: number | null;
  /** Disable the endpoint with this reason (`gone`, `failing`); the delivery ends as FAILED on `gone`. */
  disableEndpoint: string | null;
}

/**
 * Attempts of one endpoint, in the order they ended: each is recorded with what it changes of its delivery (ended,
 * or due again later), and together they change the endpoint's health as one after the other would (a success
 * resets it; a failure counts, and may disable it), in one statement.
 */
export async function recordAttemptResults(
  db: Db,
  endpointId: string,
  records: AttemptResultRecord[],
): Promise<void> {
  if (records.length === 0) return;
  const ends = records.map((record) =>
    record.delivered
      ? 'SUCCEEDED'
      : record.disableEndpoint === 'gone' || record.retryAfterMs === null
        ? 'FAILED'
        : null,
  );
  // The endpoint's health after these attempts in turn: what follows the last success, if any, decides it.
  const lastSuccess = records.map((record) => record.delivered).lastIndexOf(true);
  const failuresSince = records.slice(lastSuccess + 1);
  const lastSuccessAt = lastSuccess >= 0 ? records[lastSuccess]!.attemptedAt : null;
  const disable = records.find((record) => record.disableEndpoint !== null)?.disableEndpoint ?? null;
  // The endpoint's row is locked before any delivery's, in the order an endpoint's deletion or update takes them:
  // the other order deadlocks with them.
  await db.query(
    `WITH endpoint_lock AS (
       SELECT id FROM webhook_endpoints WHERE id = $13 FOR UPDATE
     ), result AS (
       SELECT * FROM unnest($1::bigint[], $2::timestamptz[], $3::int[], $4::text[], $5::int[], $6::text[],
                            $7::text[], $8::float8[])
           AS r(delivery_id, attempted_at, status_code, error, latency_ms, response_excerpt, ends, retry_after_ms)
        WHERE EXISTS (SELECT 1 FROM endpoint_lock)
     ), attempt AS (
       INSERT INTO webhook_attempts (delivery_id, attempted_at, status_code, error, latency_ms, response_excerpt)
       SELECT delivery_id, attempted_at, status_code, error, latency_ms, response_excerpt FROM result
     ), delivery AS (
       UPDATE webhook_deliveries d
          SET attempt_count = d.attempt_count + 1, last_status_code = r.status_code,
              status = COALESCE(r.ends, d.status),
              finished_at = CASE WHEN r.ends IS NULL THEN NULL ELSE clock_timestamp() END,
              next_attempt_at = CASE WHEN r.ends IS NULL
                                     THEN clock_timestamp() + r.retry_after_ms * interval '1 millisecond'
                                     ELSE d.next_attempt_at END
         FROM result r
        WHERE d.id = r.delivery_id AND d.status = 'PENDING'
       RETURNING 1
     ), endpoint AS (
       UPDATE webhook_endpoints
          SET consecutive_failures = CASE WHEN $10::timestamptz IS NOT NULL THEN $9
                                          ELSE consecutive_failures + $9 END,
              failing_since = CASE WHEN $10::timestamptz IS NOT NULL THEN $11::timestamptz
                                   ELSE COALESCE(failing_since, $11::timestamptz) END,
              last_success_at = COALESCE($10::timestamptz, last_success_at),
              status = CASE WHEN $12::text IS NOT NULL AND status = 'ACTIVE' THEN 'DISABLED' ELSE status END,
              disabled_reason = CASE WHEN $12::text IS NOT NULL AND status = 'ACTIVE' THEN $12 ELSE disabled_reason END,
              updated_at = CASE WHEN $12::text IS NOT NULL AND status = 'ACTIVE' THEN now() ELSE updated_at END
        WHERE id = $13
       RETURNING 1
     )
     SELECT (SELECT count(*) FROM delivery) AS delivery, (SELECT count(*) FROM endpoint) AS endpoint`,
    [
      records.map((record) => record.deliveryId),
      records.map((record) => record.attemptedAt),
      records.map((record) => record.statusCode),
      records.map((record) => record.error),
      records.map((record) => record.latencyMs),
      records.map((record) => record.responseExcerpt),
      ends,
      records.map((record) => record.retryAfterMs ?? 0),
      failuresSince.length,
      lastSuccessAt,
      failuresSince[0]?.attemptedAt ?? null,
      disable,
      endpointId,
    ],
  );
}

/** Makes an endpoint's pending deliveries that wait out a backoff due now (its breaker closed: it is back). */
export async function makePendingDue(db: Db, endpointId: string): Promise<void> {
  await db.query(
    `UPDATE webhook_deliveries SET next_attempt_at = clock_timestamp()
      WHERE endpoint_id = $1 AND status = 'PENDING' AND next_attempt_at > clock_timestamp()`,
    [endpointId],
  );
}

/**
 * Says, for `ms` from now by the database's clock, that the endpoint's delivery looks for work by itself: the
 * transitions that queue its events need not notify it (`webhook_emit`, migration 1767500000040).
 */
export async function holdDeliveryPolling(db: Db, endpointId: string, ms: number): Promise<void> {
  await db.query(
    `INSERT INTO webhook_delivery_polling (endpoint_id, until)
     VALUES ($1, clock_timestamp() + $2 * interval '1 millisecond')
     ON CONFLICT (endpoint_id) DO UPDATE SET until = EXCLUDED.until`,
    [endpointId, ms],
  );
}

/**
 * Once the endpoint's polling has ended (or was never said) by the database's clock: the first transaction id not
 * yet assigned. A transaction that saw the polling and so skipped its notification got its id before
 * (`webhook_emit` inserts before it looks), so it is below this one. Null while the polling still holds.
 */
export async function pollingEndedAt(db: Db, endpointId: string): Promise<string | null> {
  const rows: Array<{ xmax: string }> = await db.query(
    `SELECT pg_snapshot_xmax(pg_current_snapshot())::text AS xmax
      WHERE NOT EXISTS (SELECT 1 FROM webhook_delivery_polling
                         WHERE endpoint_id = $1 AND until > clock_timestamp())`,
    [endpointId],
  );
  return rows[0]?.xmax ?? null;
}

/** Whether every transaction whose id is below `xid` has ended (committed or rolled back). */
export async function transactionsBeforeEnded(db: Db, xid: string): Promise<boolean> {
  const rows: Array<{ ended: boolean }> = await db.query(
    `SELECT pg_snapshot_xmin(pg_current_snapshot()) >= $1::xid8 AS ended`,
    [xid],
  );
  return rows[0]?.ended ?? false;
}
