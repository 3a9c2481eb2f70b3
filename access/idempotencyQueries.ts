import type { ServiceName } from '../entities/types';
import type { Queryable } from '../entities/queryable';
import { insertWriteRequestSql, type WriteRequest } from './authQueries';

/** One idempotency receipt's identity: the caller's key, per service and member. */
export interface ReceiptKey {
  service: ServiceName;
  memberId: string;
  key: string;
}

export interface StoredReceipt {
  request_hash: string;
  state: 'IN_PROGRESS' | 'COMPLETED';
  /** An in-progress claim whose holder is gone or whose lease ran out: another request may take it over. */
  abandoned: boolean;
  response_status: number | null;
  response_body: unknown;
}

const keyParams = (k: ReceiptKey) => [k.service, k.memberId, k.key];

/**
 * A held claim, named by the `locked_until` it set (as PostgreSQL's text, exact to the microsecond): a process
 * that took the claim over after it ran out set another one, so the first holder can no longer complete it.
 */
export type Claim = string;

/**
 * The API process that holds a claim, named by its liveness session: the session's backend pid and its start
 * (PostgreSQL's text, exact to the microsecond), which together name one session for the life of the cluster. A
 * claim made while its process has no liveness session names no holder (null) and ends by its lease only.
 */
export interface ClaimHolder {
  pid: number;
  started: string;
}

/**
 * Readies `connection` as its process's liveness session and returns the holder it names. An idle session is
 * what it is, so a server-wide `idle_session_timeout` must not end it (and with it the process's claims).
 */
export async function openLivenessSession(connection: {
  query(sql: string): Promise<{ rows: unknown[] }>;
}): Promise<ClaimHolder> {
  await connection.query('SET idle_session_timeout = 0');
  const { rows } = await connection.query(
    'SELECT pid, backend_start::text AS started FROM pg_stat_activity WHERE pid = pg_backend_pid()',
  );
  return rows[0] as ClaimHolder;
}

/**
 * True for a claim whose holder is certainly dead: it names a liveness session PostgreSQL no longer has. A session
 * of another database role shows no start time; it counts as alive, and its lease ends the claim.
 */
const HOLDER_GONE = `(idempotency_records.holder_pid IS NOT NULL AND NOT EXISTS (
    SELECT 1 FROM pg_stat_activity a
     WHERE a.pid = idempotency_records.holder_pid
       AND (a.backend_start = idempotency_records.holder_started OR a.backend_start IS NULL)))`;

const ABANDONED = `(idempotency_records.locked_until < now() OR ${HOLDER_GONE})`;

const holderParams = (holder: ClaimHolder | null) => [holder?.pid ?? null, holder?.started ?? null];

/** Claims the key for a new request; null when a receipt already holds it. */
export async function insertReceiptClaim(
  db: Queryable,
  k: ReceiptKey & {
    operationId: string;
    fingerprint: string;
    claimSeconds: number;
    holder: ClaimHolder | null;
  },
): Promise<Claim | null> {
  const inserted: Array<{ claim: Claim }> = await db.query(
    `INSERT INTO idempotency_records (service, member_id, idempotency_key, operation_id, request_hash, state,
                                      locked_until, holder_pid, holder_started)
     VALUES ($1, $2, $3, $4, $5, 'IN_PROGRESS', now() + make_interval(secs => $6), $7, $8)
     ON CONFLICT DO NOTHING RETURNING locked_until::text AS claim`,
    [k.service, k.memberId, k.key, k.operationId, k.fingerprint, k.claimSeconds, ...holderParams(k.holder)],
  );
  return inserted[0]?.claim ?? null;
}

export async function findReceipt(db: Queryable, k: ReceiptKey): Promise<StoredReceipt | undefined> {
  const rows: StoredReceipt[] = await db.query(
    `SELECT request_hash, state, ${ABANDONED} AS abandoned, response_status, response_body
       FROM idempotency_records WHERE service = $1 AND member_id = $2 AND idempotency_key = $3`,
    keyParams(k),
  );
  return rows[0];
}

/**
 * Takes over a claim whose holder died or gave up (its lease ran out) for `holder`; null when another request
 * took it first. The new lease is later than the old one, so the claim's name changes and the old holder can no
 * longer complete it.
 */
export async function retakeAbandonedClaim(
  db: Queryable,
  k: ReceiptKey,
  claimSeconds: number,
  holder: ClaimHolder | null,
): Promise<Claim | null> {
  // Wrapped in a SELECT: TypeORM answers a bare UPDATE with [rows, count], whose length is always 2.
  const taken: Array<{ claim: Claim }> = await db.query(
    `WITH taken AS (
         UPDATE idempotency_records
            SET locked_until = GREATEST(now() + make_interval(secs => $4), locked_until + interval '1 microsecond'),
                holder_pid = $5, holder_started = $6
          WHERE service = $1 AND member_id = $2 AND idempotency_key = $3 AND state = 'IN_PROGRESS'
            AND ${ABANDONED}
          RETURNING locked_until::text AS claim
       ) SELECT * FROM taken`,
    [...keyParams(k), claimSeconds, ...holderParams(holder)],
  );
  return taken[0]?.claim ?? null;
}

/**
 * Stores the response of a request under its claim (`body` null when it must never be replayed); false when the
 * claim is no longer this request's (it ran out and another request took it over). With `writeRequest`, the
 * request's `write_request` key event (at the response's status) is recorded in the same statement, whether or not
 * the claim was still this request's: one round trip and one commit for both.
 */
export async function completeReceipt(
  db: Queryable,
  k: ReceiptKey,
  claim: Claim,
  response: { status: number; body: unknown },
  writeRequest?: WriteRequest,
): Promise<boolean> {
  const params = [...keyParams(k), claim, response.status, JSON.stringify(response.body)];
  // A data-modifying CTE runs whether or not the query reads it.
  const recorded = writeRequest ? `, recorded AS (${insertWriteRequestSql('$7', '$8', '$9', '$5')})` : '';
  if (writeRequest) params.push(writeRequest.keyId, writeRequest.method, writeRequest.path);
  const completed: unknown[] = await db.query(
    `WITH completed AS (
         UPDATE idempotency_records SET state = 'COMPLETED', locked_until = NULL, holder_pid = NULL,
                holder_started = NULL, response_status = $5, response_body = $6, completed_at = now()
          WHERE service = $1 AND member_id = $2 AND idempotency_key = $3 AND state = 'IN_PROGRESS'
            AND locked_until = $4::timestamptz
          RETURNING 1
       )${recorded} SELECT * FROM completed`,
    params,
  );
  return completed.length === 1;
}

/** Forgets the claim of a request that failed, so it may be retried with the same key (if still this one's). */
export async function releaseReceiptClaim(db: Queryable, k: ReceiptKey, claim: Claim): Promise<void> {
  await db.query(
    `DELETE FROM idempotency_records
      WHERE service = $1 AND member_id = $2 AND idempotency_key = $3 AND state = 'IN_PROGRESS'
        AND locked_until = $4::timestamptz`,
    [...keyParams(k), claim],
  );
}
