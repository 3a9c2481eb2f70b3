import { createHash } from 'node:crypto';
import Joi from 'joi';
import {
  completeReceipt,
  findReceipt,
  insertReceiptClaim,
  releaseReceiptClaim,
  retakeAbandonedClaim,
} from '../../domain/idempotencyQueries';
import type { Queryable } from '../../domain/queryable';
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

/**
 * Runs `execute` at most once per (service, member, key). A retry of the same request gets the stored
 * receipt; a different request under the same key, or a duplicate still in flight, gets 409. A failed
 * request stores nothing, so it may be retried with the same key.
 */
export async function runIdempotently(
  db: Queryable,
  scope: Scope,
  execute: () => Promise<OperationResponse>,
  onReplay: 'receipt' | 'conflict' = 'receipt',
): Promise<OperationResponse> {
  const claimed = await claim(db, scope);
  if (claimed !== 'claimed') {
    if (onReplay === 'conflict') {
      throw problems.conflict(
        'idempotent_replay_refused',
        'This request was already made with this Idempotency-Key.',
      );
    }
    return claimed;
  }
  try {
    const response = await execute();
    // A receipt that is never replayed is not kept either: it may carry a secret (a new key's token).
    const body = onReplay === 'conflict' ? null : (response.body ?? null);
    await completeReceipt(db, scope, response.status ?? 200, body);
    return response;
  } catch (error) {
    await releaseReceiptClaim(db, scope);
    throw error;
  }
}

async function claim(db: Queryable, s: Scope): Promise<'claimed' | OperationResponse> {
  if (await insertReceiptClaim(db, { ...s, claimSeconds: CLAIM_SECONDS })) return 'claimed';

  const row = await findReceipt(db, s);
  if (!row) return claim(db, s);
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
    if (await retakeAbandonedClaim(db, s, CLAIM_SECONDS)) return 'claimed';
  }
  throw problems.conflict(
    'idempotency_request_in_progress',
    'A request with this Idempotency-Key is still being processed; retry shortly.',
  );
}
