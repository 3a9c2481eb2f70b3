/**
 * Per-key request rate limit that holds across API processes without a database write per request.
 *
 * The budget of a key is a token bucket (GCRA): refilled at `perSecond`, holding at most `burst` requests.
 * Its shared state is one row (`rate_limit_buckets.tat`, the instant the bucket is full again). Each process
 * decides locally from the last state it read plus what it admitted since, and adds its admitted requests to
 * the row in one batched statement every `syncEveryMs` (or as soon as a key has `syncEveryRequests` unsent).
 * A key the process has not seen for `staleAfterMs` is read first, so low-rate traffic is judged exactly.
 *
 * Tolerance: another process's consumption is seen at most one sync late, so P processes may together
 * admit about P × (syncEveryRequests + what arrives during one sync) requests beyond the burst. The
 * overshoot is then owed: the shared debt makes every process refuse until it has drained.
 */
import { consumeRateLimitDebt, readRateLimitDebt } from '../../access/rateLimitQueries';
import type { Queryable } from '../../entities/queryable';

/** The limit of one key. `perSecond` 0 turns the limiter off. */
export interface RateLimitPolicy {
  perSecond: number;
  burst: number;
}

/** What the limiter answers for one request; the header values of draft-ietf-httpapi-ratelimit-headers. */
export interface RateLimitDecision {
  allowed: boolean;
  /** `RateLimit-Limit`: the burst, i.e. requests allowed at once from a full bucket. */
  limit: number;
  /** `RateLimit-Remaining`: requests still allowed right now. */
  remaining: number;
  /** `RateLimit-Reset`: seconds until the bucket is full again. */
  resetSeconds: number;
  /** `Retry-After` of a refusal: seconds until one more request is allowed. */
  retryAfterSeconds: number;
}

/** The shared side: debts in milliseconds (how long until the bucket is full), by subject. */
export interface RateLimitStore {
  /** Adds consumption (in milliseconds of refill) and returns each subject's debt afterwards. */
  consume(entries: Array<{ subject: string; costMs: number }>): Promise<Map<string, number>>;
  /** The current debt of one subject (0 when unknown). */
  read(subject: string): Promise<number>;
}

/** The PostgreSQL store: one row per subject, one statement per batch of subjects. */
export function postgresRateLimitStore(db: Queryable): RateLimitStore {
  return {
    consume: (entries) => consumeRateLimitDebt(db, entries),
    read: (subject) => readRateLimitDebt(db, subject),
  };
}

export interface RateLimiterOptions {
  /** How often admitted requests are added to the shared row (default 200 ms). */
  syncEveryMs?: number;
  /** Unsent admitted requests of one key that trigger a sync at once (default burst / 50, at least 1). */
  syncEveryRequests?: number;
  /** A key whose state is older than this is read from the store before deciding (default 1000 ms). */
  staleAfterMs?: number;
  /** Store failures; the limiter then decides from what it knows (it never fails a request itself). */
  onError?: (error: unknown) => void;
  now?: () => number;
}

interface Bucket {
  /** Debt (ms) the store reported at `syncedAt` (local clock). */
  debtMs: number;
  syncedAt: number;
  /** Admitted here, not yet sent. */
  pending: number;
  /** Admitted here, in the statement now in flight. */
  sending: number;
  loading: Promise<void> | null;
  lastUsed: number;
}

/** Forget keys idle this long (their state is re-read from the store on their next request). */
const IDLE_FORGET_MS = 60_000;

/** Local token buckets reconciled with a shared store; see the module comment. */
export class RateLimiter {
  private readonly buckets = new Map<string, Bucket>();
  private readonly costMs: number;
  private readonly capacityMs: number;
  private readonly syncEveryMs: number;
  private readonly syncEveryRequests: number;
  private readonly staleAfterMs: number;
  private readonly onError: (error: unknown) => void;
  private readonly now: () => number;
  private timer: NodeJS.Timeout | null = null;
  private flushing: Promise<void> | null = null;
  private flushAgain = false;
  private lastSweep = 0;

  constructor(
    private readonly store: RateLimitStore,
    readonly policy: RateLimitPolicy,
    options: RateLimiterOptions = {},
  ) {
    this.costMs = policy.perSecond > 0 ? 1000 / policy.perSecond : 0;
    this.capacityMs = this.costMs * policy.burst;
    this.syncEveryMs = options.syncEveryMs ?? 200;
    this.syncEveryRequests = options.syncEveryRequests ?? Math.max(1, Math.floor(policy.burst / 50));
    this.staleAfterMs = options.staleAfterMs ?? 1000;
    this.onError = options.onError ?? (() => undefined);
    this.now = options.now ?? Date.now;
  }

  get enabled(): boolean {
    return this.policy.perSecond > 0;
  }

  /** Admits or refuses one request of `subject`, counting it when admitted. */
  async take(subject: string): Promise<RateLimitDecision> {
    let bucket = this.buckets.get(subject);
    if (!bucket) {
      bucket = { debtMs: 0, syncedAt: -Infinity, pending: 0, sending: 0, loading: null, lastUsed: 0 };
      this.buckets.set(subject, bucket);
    }
    bucket.lastUsed = this.now();
    if (bucket.lastUsed - bucket.syncedAt > this.staleAfterMs) await this.load(subject, bucket);

    const debt = this.debtOf(bucket);
    if (debt + this.costMs > this.capacityMs) {
      const retryAfterMs = debt + this.costMs - this.capacityMs;
      return this.decision(false, debt, Math.max(1, Math.ceil(retryAfterMs / 1000)));
    }
    bucket.pending += 1;
    if (bucket.pending >= this.syncEveryRequests) void this.flush();
    else this.scheduleFlush();
    return this.decision(true, debt + this.costMs, 0);
  }

  /** Sends every admitted request not yet in the store; resolves when the store has them. */
  flush(): Promise<void> {
    if (this.flushing) {
      this.flushAgain = true;
      return this.flushing;
    }
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.flushing = this.sendPending().finally(() => {
      this.flushing = null;
      if (this.flushAgain) {
        this.flushAgain = false;
        void this.flush();
      } else if ([...this.buckets.values()].some((b) => b.pending > 0)) this.scheduleFlush();
    });
    return this.flushing;
  }

  /** Flushes what is pending and stops the timer (API shutdown). */
  async close(): Promise<void> {
    await this.flush();
    if (this.flushing) await this.flushing;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  private debtOf(bucket: Bucket): number {
    const drained = Math.max(0, bucket.debtMs - (this.now() - bucket.syncedAt));
    return drained + (bucket.pending + bucket.sending) * this.costMs;
  }

  private decision(allowed: boolean, debtMs: number, retryAfterSeconds: number): RateLimitDecision {
    const free = Math.max(0, this.capacityMs - debtMs);
    return {
      allowed,
      limit: this.policy.burst,
      remaining: Math.min(this.policy.burst, Math.floor(free / this.costMs + 1e-9)),
      resetSeconds: Math.max(0, Math.ceil(debtMs / 1000)),
      retryAfterSeconds,
    };
  }

  private load(subject: string, bucket: Bucket): Promise<void> {
    bucket.loading ??= this.store
      .read(subject)
      .then((debtMs) => {
        // Requests in flight to the store are in `sending`; the store's answer may or may not include them.
        bucket.debtMs = debtMs;
        bucket.syncedAt = this.now();
      })
      .catch((error: unknown) => {
        bucket.syncedAt = this.now();
        this.onError(error);
      })
      .finally(() => {
        bucket.loading = null;
      });
    return bucket.loading;
  }

  private scheduleFlush(): void {
    if (this.timer || this.flushing) return;
    this.timer = setTimeout(() => void this.flush(), this.syncEveryMs);
    this.timer.unref();
  }

  private async sendPending(): Promise<void> {
    const batch: Array<{ subject: string; bucket: Bucket; count: number }> = [];
    for (const [subject, bucket] of this.buckets) {
      if (bucket.pending === 0) continue;
      batch.push({ subject, bucket, count: bucket.pending });
      bucket.sending += bucket.pending;
      bucket.pending = 0;
    }
    this.forgetIdle();
    if (batch.length === 0) return;
    try {
      const debts = await this.store.consume(
        batch.map(({ subject, count }) => ({ subject, costMs: count * this.costMs })),
      );
      const at = this.now();
      for (const { subject, bucket, count } of batch) {
        bucket.sending -= count;
        const debt = debts.get(subject);
        if (debt === undefined) continue;
        bucket.debtMs = debt;
        bucket.syncedAt = at;
      }
    } catch (error) {
      for (const { bucket, count } of batch) {
        bucket.sending -= count;
        bucket.pending += count;
      }
      this.onError(error);
    }
  }

  private forgetIdle(): void {
    const now = this.now();
    if (now - this.lastSweep < IDLE_FORGET_MS) return;
    this.lastSweep = now;
    for (const [subject, bucket] of this.buckets) {
      if (bucket.pending === 0 && bucket.sending === 0 && now - bucket.lastUsed > IDLE_FORGET_MS)
        this.buckets.delete(subject);
    }
  }
}

/** The headers of a decision: draft-ietf-httpapi-ratelimit-headers names, plus Retry-After on a refusal. */
export function rateLimitHeaders(decision: RateLimitDecision): Record<string, string> {
  return {
    'RateLimit-Limit': String(decision.limit),
    'RateLimit-Remaining': String(decision.remaining),
    'RateLimit-Reset': String(decision.resetSeconds),
    ...(decision.allowed ? {} : { 'Retry-After': String(decision.retryAfterSeconds) }),
  };
}
