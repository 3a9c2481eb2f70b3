import type { EntityManager } from 'typeorm';
import { holdDeliveryPolling, pollingEndedAt, transactionsBeforeEnded } from './webhookQueries';

/** How long one statement of the polling holds; renewed once half of it has passed. */
const POLLING_HOLD_MS = 2_000;
/** The longest wait for the transactions that saw the polling to end; the idle look catches a longer one. */
const CLOSING_MAX_MS = 10_000;

/**
 * An endpoint's delivery that keeps finding work looks again every `lookIntervalMs` by itself and says so in
 * `webhook_delivery_polling`, so the transitions that queue its events skip their NOTIFY: a notifying transaction
 * takes a database-wide lock for its commit, which made concurrent transitions commit one after another. Once it
 * finds nothing it lets the statement lapse, keeps looking until every transaction that may have seen it has ended,
 * looks once more, and waits for notifications again.
 */
export class DeliveryPolling {
  /** A run before this one (ended, or on a worker that died) may have said it polls: this one starts closing it. */
  private heldUntil = Date.now();
  private closing: { xid: string | null; since: number } | null = null;

  constructor(
    private readonly db: Pick<EntityManager, 'query'>,
    private readonly endpointId: string,
    private readonly lookIntervalMs: number,
  ) {}

  /** After a look that found work or not: the longest wait before the next look. */
  async afterLook(foundWork: boolean, waitMs: number): Promise<number> {
    if (foundWork) {
      if (this.heldUntil - Date.now() < POLLING_HOLD_MS / 2) {
        await holdDeliveryPolling(this.db, this.endpointId, POLLING_HOLD_MS);
        this.heldUntil = Date.now() + POLLING_HOLD_MS;
      }
      this.closing = null;
      return Math.min(waitMs, this.lookIntervalMs);
    }
    if (this.heldUntil === 0) return waitMs;
    if (Date.now() < this.heldUntil) return Math.min(waitMs, this.lookIntervalMs);
    this.closing ??= { xid: null, since: Date.now() };
    this.closing.xid ??= await pollingEndedAt(this.db, this.endpointId);
    const ended = this.closing.xid !== null && (await transactionsBeforeEnded(this.db, this.closing.xid));
    if (ended || Date.now() - this.closing.since > CLOSING_MAX_MS) {
      // One more look, which sees what those transactions committed; after it, notifications wake the delivery.
      this.heldUntil = 0;
      this.closing = null;
      return 0;
    }
    return Math.min(waitMs, this.lookIntervalMs);
  }
}
