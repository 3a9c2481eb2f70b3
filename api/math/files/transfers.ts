import { randomUUID } from 'node:crypto';
import { apiKeyOf, type Principal } from '../../kernel/authenticate';
import type { AppDeps } from '../../kernel/deps';
import { problems } from '../../kernel/errors';
import { acquireTransferLease, releaseTransferLease, renewTransferLease } from './queries';

/** A lease not renewed for this long is taken to belong to a dead process and stops counting. */
const LEASE_SECONDS = 60;
const RENEW_EVERY_MS = (LEASE_SECONDS * 1000) / 3;
/** What a refused client is told to wait: transfers are short, and a freed slot is reused at once. */
export const TRANSFER_RETRY_AFTER_SECONDS = 2;

/** One upload or download in flight, counted against its API key until released. */
export interface TransferSlot {
  /** Frees the slot; harmless twice. */
  release(): Promise<void>;
}

/**
 * Takes one of the key's `fileConcurrencyPerKey` transfer slots, or throws 429 with Retry-After.
 * Slots are rows in `file_transfer_leases`, taken under a per-key advisory transaction lock (inside one
 * function call), so the limit holds across API processes without pinning a connection for the length of a
 * transfer. The holder renews its lease while the transfer runs; a crashed process's leases expire within a
 * minute.
 */
export async function acquireTransferSlot(
  deps: AppDeps,
  principal: Principal,
  direction: 'upload' | 'download',
  operationId: string,
): Promise<TransferSlot> {
  const lease = transferLease(deps, principal, direction, operationId);
  // One round trip: lock, purge, count and insert happen in acquire_file_transfer_lease (its migration).
  const acquired = await acquireTransferLease(
    deps.dataSource,
    { leaseId: lease.leaseId, keyId: lease.keyId, direction, operationId },
    lease.limit,
    LEASE_SECONDS,
  );
  if (!acquired) throw transferRefusal(deps, principal);
  return heldTransferSlot(deps, lease.leaseId);
}

/**
 * A lease to take inside a statement of the caller's (the read that finds the file), so that the read and the
 * slot share one round trip: `call(n)` is the SQL expression taking it with its parameters numbered from `$n`,
 * true when taken. A taken lease becomes a slot through {@link heldTransferSlot}, a refused one a 429 through
 * {@link transferRefusal}.
 */
export function transferLease(
  deps: AppDeps,
  principal: Principal,
  direction: 'upload' | 'download',
  operationId: string,
) {
  const limit = deps.config.fileConcurrencyPerKey;
  const keyId = apiKeyOf(principal).id;
  const leaseId = randomUUID();
  return {
    leaseId,
    keyId,
    limit,
    params: [leaseId, keyId, direction, operationId, limit, LEASE_SECONDS],
    call: (n: number) =>
      `acquire_file_transfer_lease($${n}, $${n + 1}, $${n + 2}, $${n + 3}, $${n + 4}, $${n + 5})`,
    /** Gives a taken lease back when the request is refused after the statement (before any slot). */
    release: () => releaseTransferLease(deps.dataSource, leaseId),
  };
}

/** A lease taken inside another statement (see {@link transferLease}). */
export type LeaseInStatement = ReturnType<typeof transferLease>;

/** The 429 of a key whose transfer slots are all in use. */
export function transferRefusal(deps: AppDeps, principal: Principal) {
  const limit = deps.config.fileConcurrencyPerKey;
  deps.metrics.rateLimitRefused(principal.service, 'file_transfers');
  return problems.tooManyRequests(
    `This API key already has ${limit} file transfers in progress; retry when one has finished.`,
    TRANSFER_RETRY_AFTER_SECONDS,
  );
}

/** The slot of a lease taken: renewed while the transfer runs, deleted on release. */
export function heldTransferSlot(deps: AppDeps, leaseId: string): TransferSlot {
  const renew = setInterval(() => {
    renewTransferLease(deps.dataSource, leaseId, LEASE_SECONDS).catch((error: unknown) =>
      deps.logger.warn({ err: error }, 'could not renew a file-transfer lease'),
    );
  }, RENEW_EVERY_MS);
  renew.unref();

  let released: Promise<void> | null = null;
  return {
    release() {
      released ??= (async () => {
        clearInterval(renew);
        await releaseTransferLease(deps.dataSource, leaseId).catch((error: unknown) =>
          deps.logger.warn({ err: error }, 'could not release a file-transfer lease; it will expire'),
        );
      })();
      return released;
    },
  };
}
