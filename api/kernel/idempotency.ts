import { createHash } from 'node:crypto';
import Joi from 'joi';
import type { DataSource, EntityManager } from 'typeorm';
import {
  type Claim,
  type ClaimHolder,
  completeReceipt,
  findReceipt,
  insertReceiptClaim,
  releaseReceiptClaim,
  retakeAbandonedClaim,
} from '../../access/idempotencyQueries';
import type { WriteRequest } from '../../access/authQueries';
import type { ServiceName } from '../../entities/types';
import { problems } from './errors';
import type { OperationResponse } from './operation';

/** The response header that marks a stored receipt answered again. */
export const IDEMPOTENT_REPLAYED = 'Idempotent-Replayed';

/** The header pattern both specs give. */
export const idempotencyKeySchema = Joi.string()
  .pattern(/^[A-Za-z0-9._:-]{16,128}$/)
  .messages({
    'string.pattern.base': 'Idempotency-Key must be 16 to 128 letters, digits, ".", "_", ":" or "-".',
  });

/**
 * How long an in-progress claim holds while its holder's liveness session is still there: a holder alive but
 * stuck, or one whose death PostgreSQL has not seen yet. A claim whose holder's session has ended is taken over
 * at once.
 */
const CLAIM_SECONDS = 60;

/** What claiming a key needs of its API process: its database and the liveness session its claims name. */
export interface ClaimingProcess {
  dataSource: DataSource;
  liveness: { readonly holder: ClaimHolder | null };
}

/** A hash of what was asked: the same key with a different request is a conflict, not a replay. */
export function requestFingerprint(method: string, path: string, body: unknown, credential = ''): string {
  return createHash('sha256')
    .update(`${method} ${path}\n${credential}\n`)
    .update(canonicalJson(body))
    .digest('hex');
}

/**
 * What a receipt is scoped to besides its member: the API key that made it, or (a console session, a dashboard
 * assertion) the role and scopes it acted with. The same Idempotency-Key from another credential of the member is
 * another request (422 idempotency_key_reused), so a narrower key never replays what a wider one was answered.
 */
export const credentialScope = (principal: {
  key: { id: string } | null;
  role: string;
  scopes: readonly string[];
}): string =>
  principal.key ? `key:${principal.key.id}` : `${principal.role}:${[...principal.scopes].sort().join(',')}`;

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
  /** The status of a response that names none (the operation's documented one), as the receipt stores it. */
  defaultStatus: number;
}

/**
 * Runs an operation's writes in one transaction and returns the response it builds there. Under an
 * Idempotency-Key the receipt is stored in the same transaction, so the writes and their receipt commit together:
 * a process killed in between leaves neither, and the retry runs once more instead of writing twice.
 */
export type ReceiptTransaction = (
  work: (tx: EntityManager) => Promise<OperationResponse>,
) => Promise<OperationResponse>;

/** The transaction of a request without an Idempotency-Key: only the writes. */
export const plainTransaction =
  (dataSource: DataSource): ReceiptTransaction =>
  (work) =>
    dataSource.transaction(work);

export interface IdempotentRunOptions {
  /** What a retry with a used key gets: the stored receipt (default), or 409. */
  onReplay?: 'receipt' | 'conflict';
  /**
   * The request's `write_request` key event: recorded in the statement that stores the receipt after the
   * request's work (a workflow action), then `recorded` is called; the caller records it in every other case.
   */
  writeRequest?: WriteRequest & { recorded: () => void };
}

/**
 * Runs `execute` at most once per (service, member, key). A retry of the same request gets the stored
 * receipt; a different request under the same key, or a duplicate still in flight, gets 409. A failed
 * request stores nothing, so it may be retried with the same key. An operation that writes only PostgreSQL
 * writes through the `ReceiptTransaction` it is given; one that changes a workflow is made once by its update id,
 * and its receipt is stored after it.
 */
export async function runIdempotently(
  deps: ClaimingProcess,
  scope: Scope,
  execute: (transaction: ReceiptTransaction) => Promise<OperationResponse>,
  options: IdempotentRunOptions = {},
): Promise<OperationResponse> {
  const { onReplay = 'receipt', writeRequest } = options;
  const { dataSource } = deps;
  const claimed = await claim(deps, scope);
  if (typeof claimed !== 'string') {
    if (onReplay === 'conflict') {
      throw problems.conflict(
        'idempotent_replay_refused',
        'This request was already made with this Idempotency-Key.',
      );
    }
    return claimed;
  }
  // A receipt that is never replayed is not kept either: it may carry a secret (a new key's token).
  const receiptOf = (response: OperationResponse) => ({
    status: response.status ?? scope.defaultStatus,
    body: onReplay === 'conflict' ? null : (response.body ?? null),
  });
  let stored = false;
  const transaction: ReceiptTransaction = (work) => {
    if (stored)
      throw new Error(`${scope.operationId} stored its receipt already: one transaction per request`);
    return dataSource.transaction(async (tx) => {
      const response = await work(tx);
      if (!(await completeReceipt(tx, scope, claimed, receiptOf(response)))) throw requestInProgress();
      stored = true;
      return response;
    });
  };
  try {
    const response = await execute(transaction);
    if (!stored) {
      // Lost only if this request outlived its claim; the request that took it over stores the same answer.
      await completeReceipt(dataSource, scope, claimed, receiptOf(response), writeRequest);
      writeRequest?.recorded();
    }
    return response;
  } catch (error) {
    if (!stored) await releaseClaim(() => releaseReceiptClaim(dataSource, scope, claimed));
    throw error;
  }
}

/** How often a claim whose release failed is released again, while the claim still holds. */
const RELEASE_RETRY_MS = 1000;

/**
 * Releases the claim of a request that failed, so that its retry runs at once. When PostgreSQL cannot be reached
 * (the usual reason the request failed) the release is tried again every second in the background until it
 * succeeds or the claim has lapsed anyway: a retry after the store is back then finds the key free within a
 * second, instead of answered 409 until the claim lapses. The request's own error is what its client gets.
 * `settled` learns whether the claim was released in the end.
 */
export async function releaseClaim(
  release: () => Promise<void>,
  opts: { retryMs?: number; giveUpAfterMs?: number; settled?: (released: boolean) => void } = {},
): Promise<void> {
  const retryMs = opts.retryMs ?? RELEASE_RETRY_MS;
  const giveUpAt = Date.now() + (opts.giveUpAfterMs ?? CLAIM_SECONDS * 1000);
  const attempt = async (): Promise<boolean> => {
    try {
      await release();
      return true;
    } catch {
      return false;
    }
  };
  if (await attempt()) return opts.settled?.(true);
  void (async () => {
    while (Date.now() + retryMs <= giveUpAt) {
      await new Promise((resolve) => setTimeout(resolve, retryMs).unref());
      if (await attempt()) return opts.settled?.(true);
    }
    opts.settled?.(false);
  })();
}

/** Seconds a client waits before retrying a request whose key another request still holds. */
const IN_PROGRESS_RETRY_AFTER_SECONDS = 1;

const requestInProgress = () =>
  problems.conflict(
    'idempotency_request_in_progress',
    `A request with this Idempotency-Key is still being processed; retry in ${IN_PROGRESS_RETRY_AFTER_SECONDS} s.`,
    {},
    { 'Retry-After': String(IN_PROGRESS_RETRY_AFTER_SECONDS) },
  );

async function claim(claimant: ClaimingProcess, s: Scope): Promise<Claim | OperationResponse> {
  const db = claimant.dataSource;
  const inserted = await insertReceiptClaim(db, {
    ...s,
    claimSeconds: CLAIM_SECONDS,
    holder: claimant.liveness.holder,
  });
  if (inserted) return inserted;

  const row = await findReceipt(db, s);
  if (!row) return claim(claimant, s);
  if (row.request_hash !== s.fingerprint) {
    throw problems.conflict(
      'idempotency_key_reused',
      'This Idempotency-Key was already used for a different request; use a new key.',
    );
  }
  if (row.state === 'COMPLETED') {
    return {
      status: row.response_status ?? s.defaultStatus,
      body: row.response_body,
      headers: { [IDEMPOTENT_REPLAYED]: 'true' },
    };
  }
  if (row.abandoned) {
    const retaken = await retakeAbandonedClaim(db, s, CLAIM_SECONDS, claimant.liveness.holder);
    if (retaken) return retaken;
  }
  throw requestInProgress();
}
