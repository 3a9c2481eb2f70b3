import type { ServiceName } from '../entities/types';
import type { Queryable } from './queryable';

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

/** Claims the key for a new request; false when a receipt already holds it. */
export async function insertReceiptClaim(
  db: Queryable,
  k: ReceiptKey & { operationId: string; fingerprint: string; claimSeconds: number },
): Promise<boolean> {
  const inserted: unknown[] = await db.query(
    `INSERT INTO idempotency_records (service, member_id, idempotency_key, operation_id, request_hash, state, locked_until)
     VALUES ($1, $2, $3, $4, $5, 'IN_PROGRESS', now() + make_interval(secs => $6))
     ON CONFLICT DO NOTHING RETURNING 1`,
    [k.service, k.memberId, k.key, k.operationId, k.fingerprint, k.claimSeconds],
  );
  return inserted.length === 1;
}

export async function findReceipt(db: Queryable, k: ReceiptKey): Promise<StoredReceipt | undefined> {
  const rows: StoredReceipt[] = await db.query(
    `SELECT request_hash, state, locked_until < now() AS abandoned, response_status, response_body
       FROM idempotency_records WHERE service = $1 AND member_id = $2 AND idempotency_key = $3`,
    keyParams(k),
  );
  return rows[0];
}

/** Takes over a claim whose holder gave up (its lock ran out); false when another request took it first. */
export async function retakeAbandonedClaim(
  db: Queryable,
  k: ReceiptKey,
  claimSeconds: number,
): Promise<boolean> {
  // Wrapped in a SELECT: TypeORM answers a bare UPDATE with [rows, count], whose length is always 2.
  const taken: unknown[] = await db.query(
    `WITH taken AS (
         UPDATE idempotency_records SET locked_until = now() + make_interval(secs => $4)
          WHERE service = $1 AND member_id = $2 AND idempotency_key = $3 AND state = 'IN_PROGRESS'
            AND locked_until < now()
          RETURNING 1
       ) SELECT * FROM taken`,
    [...keyParams(k), claimSeconds],
  );
  return taken.length === 1;
}

/** Stores the response of a claimed request (`body` null when it must never be replayed). */
export async function completeReceipt(
  db: Queryable,
  k: ReceiptKey,
  status: number,
  body: unknown,
): Promise<void> {
  await db.query(
    `UPDATE idempotency_records SET state = 'COMPLETED', locked_until = NULL, response_status = $4,
              response_body = $5, completed_at = now()
        WHERE service = $1 AND member_id = $2 AND idempotency_key = $3`,
    [...keyParams(k), status, JSON.stringify(body)],
  );
}

/** Forgets the claim of a request that failed, so it may be retried with the same key. */
export async function releaseReceiptClaim(db: Queryable, k: ReceiptKey): Promise<void> {
  await db.query(
    `DELETE FROM idempotency_records WHERE service = $1 AND member_id = $2 AND idempotency_key = $3 AND state = 'IN_PROGRESS'`,
    keyParams(k),
  );
}
