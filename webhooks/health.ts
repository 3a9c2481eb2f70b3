/**
 * An endpoint's health, as pure rules (unit-tested with a test clock; the delivery activity applies them).
 *
 * The circuit breaker: after {@link BREAKER_THRESHOLD} failed attempts in a row the endpoint is not sent to until a
 * cooldown has passed; then one delivery is sent alone as a probe. A success closes the breaker; a failure opens it
 * again for twice as long, up to {@link BREAKER_MAX_COOLDOWN_MS}. So a failing endpoint gets at most one attempt per
 * cooldown, whatever its backlog, and its deliveries do not spend their retries while it is open.
 *
 * Disabling: an endpoint whose attempts have failed without a success for {@link DISABLE_AFTER_MS} is disabled
 * (`disabled_reason: failing`); what is pending for it stays pending and is sent once it is resumed.
 */

const SECOND = 1_000;
const MINUTE = 60 * SECOND;
const DAY = 24 * 60 * MINUTE;

export const BREAKER_THRESHOLD = 5;
export const BREAKER_BASE_COOLDOWN_MS = 5 * SECOND;
export const BREAKER_MAX_COOLDOWN_MS = 5 * MINUTE;
export const DISABLE_AFTER_MS = 5 * DAY;
export const FAILING_REASON = 'failing';

export type BreakerState = 'closed' | 'open' | 'half_open';

export class CircuitBreaker {
  private failures: number;
  private openedAt: number | null = null;
  private cooldownMs = BREAKER_BASE_COOLDOWN_MS;
  private probing = false;

  /** `consecutiveFailures`: what the endpoint's record says, so a new run starts where the last one stopped. */
  constructor(
    consecutiveFailures: number,
    private readonly now: () => number,
  ) {
    this.failures = consecutiveFailures;
    if (consecutiveFailures >= BREAKER_THRESHOLD) this.openedAt = now();
  }

  state(): BreakerState {
    if (this.openedAt === null) return 'closed';
    return this.now() - this.openedAt >= this.cooldownMs ? 'half_open' : 'open';
  }

  /** How many more attempts may start now, given how many are in flight and the endpoint's bound. */
  slots(inFlight: number, maxInFlight: number): number {
    const state = this.state();
    if (state === 'closed') return Math.max(0, maxInFlight - inFlight);
    if (state === 'half_open' && !this.probing && inFlight === 0) return 1;
    return 0;
  }

  /** Milliseconds until a probe may be sent; 0 when closed or half-open. */
  cooldownLeftMs(): number {
    if (this.openedAt === null) return 0;
    return Math.max(0, this.openedAt + this.cooldownMs - this.now());
  }

  /** An attempt starts: when half-open, it is the probe. */
  started(): void {
    if (this.state() === 'half_open') this.probing = true;
  }

  succeeded(): void {
    this.failures = 0;
    this.openedAt = null;
    this.cooldownMs = BREAKER_BASE_COOLDOWN_MS;
    this.probing = false;
  }

  failed(): void {
    this.failures++;
    if (this.probing) {
      this.probing = false;
      this.cooldownMs = Math.min(BREAKER_MAX_COOLDOWN_MS, this.cooldownMs * 2);
      this.openedAt = this.now();
    } else if (this.openedAt === null && this.failures >= BREAKER_THRESHOLD) {
      this.openedAt = this.now();
    }
  }
}

/** Whether an endpoint failing since `failingSince` (null: it is not failing) is to be disabled at `now`. */
export function shouldDisable(failingSince: Date | null, now: Date): boolean {
  return failingSince !== null && now.getTime() - failingSince.getTime() >= DISABLE_AFTER_MS;
}
