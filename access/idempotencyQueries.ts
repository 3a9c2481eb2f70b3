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

/** Claims the key for a new request; null when a receipt already holds it. */
export async function insertReceiptClaim(
  db: Queryable,
  k: ReceiptKey & { operationId: string; fingerprint: string; claimSeconds: number },
): Promise<Claim | null> {
  const inserted: Array<{ claim: Claim }> = await db.query(
    `INSERT INTO idempotency_records (service, member_id, idempotency_key, operation_id, request_hash, state, locked_until)
     VALUES ($1, $2, $3, $4, $5, 'IN_PROGRESS', now() + make_interval(secs => $6))
     ON CONFLICT DO NOTHING RETURNING locked_until::text AS claim`,
    [k.service, k.memberId, k.key, k.operationId, k.fingerprint, k.claimSeconds],
  );
  return inserted[0]?.claim ?? null;
}

export async function findReceipt(db: Queryable, k: ReceiptKey): Promise<StoredReceipt | undefined> {
  const rows: StoredReceipt[] = await db.query(
    `SELECT request_hash, state, locked_until < now() AS abandoned, response_status, response_body
       FROM idempotency_records WHERE service = $1 AND member_id = $2 AND idempotency_key = $3`,
    keyParams(k),
  );
  return rows[0];
}

/** Takes over a claim whose holder gave up (its lock ran out); null when another request took it first. */
export async function retakeAbandonedClaim(
  db: Queryable,
  k: ReceiptKey,
  claimSeconds: number,
): Promise<Claim | null> {
  // Wrapped in a SELECT: TypeORM answers a bare UPDATE with [rows, count], whose length is always 2.
  const taken: Array<{ claim: Claim }> = await db.query(
    `WITH taken AS (
         UPDATE idempotency_records
            SET locked_until = GREATEST(now() + make_interval(secs => $4), locked_until + interval '1 microsecond')
          WHERE service = $1 AND member_id = $2 AND idempotency_key = $3 AND state = 'IN_PROGRESS'
            AND locked_until < now()
          RETURNING locked_until::text AS claim
       ) SELECT * FROM taken`,
    [...keyParams(k), claimSeconds],
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
         UPDATE idempotency_records SET state = 'COMPLETED', locked_until = NULL, response_status = $5,
                response_body = $6, completed_at = now()
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
