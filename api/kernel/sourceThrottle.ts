/** What a throttle answers for one request. */
export interface ThrottleDecision {
  allowed: boolean;
  /** Seconds until the source may send one more (a refusal's `Retry-After`). */
  retryAfterSeconds: number;
}

export interface SourceThrottleOptions {
  /** Requests one source may make per minute, and at once from a rested start. */
  perMinute: number;
  /** Sources remembered at once; past it the least recently seen is forgotten (default 10,000). */
  maxSources?: number;
  now?: () => number;
}

/**
 * A token bucket per source address, in this process's memory: for requests made before any credential (sign-in
 * starts), which must be refused before they write anything. Bounded in memory by `maxSources`.
 */
export class SourceThrottle {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();
  private readonly refillPerMs: number;
  private readonly maxSources: number;
  private readonly now: () => number;

  constructor(private readonly options: SourceThrottleOptions) {
    this.refillPerMs = options.perMinute / 60_000;
    this.maxSources = options.maxSources ?? 10_000;
    this.now = options.now ?? Date.now;
  }

  take(source: string): ThrottleDecision {
    const now = this.now();
    const capacity = this.options.perMinute;
    const bucket = this.buckets.get(source) ?? { tokens: capacity, at: now };
    // Re-inserted on every use: the Map's first entry is the least recently seen source.
    this.buckets.delete(source);
    bucket.tokens = Math.min(capacity, bucket.tokens + (now - bucket.at) * this.refillPerMs);
    bucket.at = now;
    this.buckets.set(source, bucket);
    if (this.buckets.size > this.maxSources) this.buckets.delete(this.buckets.keys().next().value!);
    if (bucket.tokens < 1) {
      return {
        allowed: false,
        retryAfterSeconds: Math.max(1, Math.ceil((1 - bucket.tokens) / this.refillPerMs / 1000)),
      };
    }
    bucket.tokens -= 1;
    return { allowed: true, retryAfterSeconds: 0 };
  }
}
