import { createHash } from 'node:crypto';
import Joi from 'joi';
import type { ServiceName } from '../../entities/types';
import { problems } from './errors';
import type { OperationResponse } from './operation';

/** The header pattern both specs give. */
export const idempotencyKeySchema = Joi.string()
  .pattern(/^[A-Za-z0-9._:-]{16,128}$/)
  .messages({
    'string.pattern.base': 'Idempotency-Key must be 16 to 128 letters, digits, ".", "_", ":" or "-".',
  });

/** How long an in-progress claim holds before another process may take it over (its owner died). */
const CLAIM_SECONDS = 60;

/** A hash of what was asked: the same key with a different request is a conflict, not a replay. */
export function requestFingerprint(method: string, path: string, body: unknown): string {
  return createHash('sha256').update(`${method} ${path}\n`).update(canonicalJson(body)).digest('hex');
}

function canonicalJson(value: unknown): string {
  if (value === undefined) return '';
  if (Buffer.isBuffer(value)) return createHash('sha256').update(value).digest('hex');
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : 1));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
}

interface Scope {
  service: ServiceName;
  memberId: string;
  key: string;
  operationId: string;
  fingerprint: string;
}

type Query = (sql: string, params: unknown[]) => Promise<unknown[]>;

/**
 * Runs `execute` at most once per (service, member, key). A retry of the same request gets the stored
 * receipt; a different request under the same key, or a duplicate still in flight, gets 409. A failed
 * request stores nothing, so it may be retried with the same key.
 */
export async function runIdempotently(
  query: Query,
  scope: Scope,
  execute: () => Promise<OperationResponse>,
  onReplay: 'receipt' | 'conflict' = 'receipt',
): Promise<OperationResponse> {
  const claimed = await claim(query, scope);
  if (claimed !== 'claimed') {
    if (onReplay === 'conflict') {
      throw problems.conflict(
        'idempotent_replay_refused',
        'This request was already made with this Idempotency-Key.',
      );
    }
    return claimed;
  }
  const keyParams = [scope.service, scope.memberId, scope.key];
  try {
    const response = await execute();
    await query(
      `UPDATE idempotency_records SET state = 'COMPLETED', locked_until = NULL, response_status = $4,
              response_body = $5, completed_at = now()
        WHERE service = $1 AND member_id = $2 AND idempotency_key = $3`,
      // A receipt that is never replayed is not kept either: it may carry a secret (a new key's token).
      [
        ...keyParams,
        response.status ?? 200,
        JSON.stringify(onReplay === 'conflict' ? null : (response.body ?? null)),
      ],
    );
    return response;
  } catch (error) {
    await query(
      `DELETE FROM idempotency_records WHERE service = $1 AND member_id = $2 AND idempotency_key = $3 AND state = 'IN_PROGRESS'`,
      keyParams,
    );
    throw error;
  }
}

async function claim(query: Query, s: Scope): Promise<'claimed' | OperationResponse> {
  const inserted = await query(
    `INSERT INTO idempotency_records (service, member_id, idempotency_key, operation_id, request_hash, state, locked_until)
     VALUES ($1, $2, $3, $4, $5, 'IN_PROGRESS', now() + make_interval(secs => $6))
     ON CONFLICT DO NOTHING RETURNING 1`,
    [s.service, s.memberId, s.key, s.operationId, s.fingerprint, CLAIM_SECONDS],
  );
  if (inserted.length === 1) return 'claimed';

  const rows = (await query(
    `SELECT request_hash, state, locked_until < now() AS abandoned, response_status, response_body
       FROM idempotency_records WHERE service = $1 AND member_id = $2 AND idempotency_key = $3`,
    [s.service, s.memberId, s.key],
  )) as Array<{
    request_hash: string;
    state: 'IN_PROGRESS' | 'COMPLETED';
    abandoned: boolean;
    response_status: number | null;
    response_body: unknown;
  }>;
  const row = rows[0];
  if (!row) return claim(query, s);
  if (row.request_hash !== s.fingerprint) {
    throw problems.conflict(
      'idempotency_key_reused',
      'This Idempotency-Key was already used for a different request; use a new key.',
    );
  }
  if (row.state === 'COMPLETED') {
    return {
      status: row.response_status ?? 200,
      body: row.response_body,
      headers: { 'Idempotent-Replayed': 'true' },
    };
  }
  if (row.abandoned) {
    // Wrapped in a SELECT: TypeORM answers a bare UPDATE with [rows, count], whose length is always 2.
    const taken = await query(
      `WITH taken AS (
         UPDATE idempotency_records SET locked_until = now() + make_interval(secs => $4)
          WHERE service = $1 AND member_id = $2 AND idempotency_key = $3 AND state = 'IN_PROGRESS'
            AND locked_until < now()
          RETURNING 1
       ) SELECT * FROM taken`,
      [s.service, s.memberId, s.key, CLAIM_SECONDS],
    );
    if (taken.length === 1) return 'claimed';
  }
  throw problems.conflict(
    'idempotency_request_in_progress',
    'A request with this Idempotency-Key is still being processed; retry shortly.',
  );
}
