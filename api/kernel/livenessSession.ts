import { type ClaimHolder, openLivenessSession } from '../../access/idempotencyQueries';
import { OwnSession } from './ownSession';

export interface LivenessSessionOptions {
  /** Delay before reconnecting after the session was lost. */
  reconnectMs?: number;
  onError?: (error: unknown) => void;
}

/**
 * This API process as PostgreSQL sees it: one idle session of its own for the life of the process. When the
 * process dies its socket closes and PostgreSQL ends the session, so another process that meets one of its
 * Idempotency-Key claims knows the holder is dead and takes the claim over at once (docs/decisions-system.md,
 * "Idempotency-Key after a crash"). While the session is down, new claims name no holder and end by their lease
 * only; a reconnected session is a new holder, and the claims of the lost one may be taken over, so their requests
 * still in flight fail to complete (their writes roll back) rather than commit twice.
 */
export class LivenessSession {
  private current: ClaimHolder | null = null;
  private readonly session: OwnSession<ClaimHolder>;

  constructor(databaseUrl: string, options: LivenessSessionOptions = {}) {
    this.session = new OwnSession(databaseUrl, {
      applicationName: 'referee-liveness',
      reconnectMs: options.reconnectMs ?? 1_000,
      onError: options.onError ?? (() => undefined),
      open: openLivenessSession,
      up: (holder) => (this.current = holder),
      lost: () => (this.current = null),
    });
  }

  /** The holder a claim made now records. */
  get holder(): ClaimHolder | null {
    return this.current;
  }

  /** Connects; if that fails, claims name no holder until a retry succeeds. */
  async start(): Promise<void> {
    await this.session.start();
  }

  async close(): Promise<void> {
    this.current = null;
    await this.session.close();
  }
}
