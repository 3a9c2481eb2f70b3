/**
 * When a webhook delivery is tried again, as a pure function (unit-tested; the endpoint workflow applies it).
 * The schedule is Standard Webhooks' recommended one: at once, then 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h
 * after each failure (8 attempts over about 27 h), each wait jittered by ±20 % so receivers coming back up are not
 * hit by every sender at the same instant. A `Retry-After` the receiver sent replaces the wait (bounded).
 */

const SECOND = 1_000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

/** Waits before attempts 2 to 8; the first attempt is immediate. */
export const RETRY_WAITS_MS = [5 * SECOND, 5 * MINUTE, 30 * MINUTE, 2 * HOUR, 5 * HOUR, 10 * HOUR, 10 * HOUR];
export const MAX_ATTEMPTS = RETRY_WAITS_MS.length + 1;
export const JITTER = 0.2;
/** A Retry-After is honoured between these bounds (a receiver cannot park a delivery for days). */
export const RETRY_AFTER_MIN_MS = SECOND;
export const RETRY_AFTER_MAX_MS = 10 * HOUR;

/** What one attempt ended with, as the delivery activity reports it. */
export type AttemptOutcome =
  | { kind: 'delivered' }
  /** 410 Gone: the receiver asks us to stop; the endpoint is disabled. */
  | { kind: 'gone' }
  | { kind: 'failed'; retryAfterMs: number | null }
  /** Nothing was sent: the endpoint was deleted or paused, or the delivery is no longer pending. */
  | { kind: 'skipped' };

export type NextStep = { kind: 'done' } | { kind: 'retry'; afterMs: number } | { kind: 'give_up' };

/**
 * What follows an attempt, given how many attempts were made so far (this one included) and a random number in
 * [0, 1) (the workflow's deterministic `Math.random`).
 */
export function nextStep(outcome: AttemptOutcome, attemptsMade: number, random: number): NextStep {
  if (outcome.kind !== 'failed') return { kind: 'done' };
  if (attemptsMade >= MAX_ATTEMPTS) return { kind: 'give_up' };
  if (outcome.retryAfterMs !== null) {
    return {
      kind: 'retry',
      afterMs: Math.min(RETRY_AFTER_MAX_MS, Math.max(RETRY_AFTER_MIN_MS, outcome.retryAfterMs)),
    };
  }
  const wait = RETRY_WAITS_MS[Math.max(0, attemptsMade - 1)];
  return { kind: 'retry', afterMs: Math.round(wait * (1 - JITTER + 2 * JITTER * random)) };
}

/**
 * A `Retry-After` header in milliseconds from `now`: delay-seconds or an HTTP-date; null when absent or unreadable.
 */
export function parseRetryAfter(header: string | undefined, now: number): number | null {
  if (!header) return null;
  const trimmed = header.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * SECOND;
  const at = Date.parse(trimmed);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}
