/**
 * The requests of the last minute, counted per second in latency buckets, so a process can tell its live request
 * rate and p99 without a Prometheus server (`referee status` reads them). Recording is one array increment.
 */
export class RecentRequests {
  private readonly slots: Array<{ second: number; counts: Uint32Array }>;

  constructor(
    /** Upper bounds of the latency buckets in seconds, ascending; a last bucket catches everything above. */
    readonly bounds: readonly number[],
    readonly windowSeconds = 60,
    private readonly nowMs: () => number = Date.now,
  ) {
    this.slots = Array.from({ length: windowSeconds }, () => ({
      second: -1,
      counts: new Uint32Array(bounds.length + 1),
    }));
  }

  record(durationSeconds: number): void {
    const second = Math.floor(this.nowMs() / 1000);
    const slot = this.slots[second % this.windowSeconds];
    if (slot.second !== second) {
      slot.second = second;
      slot.counts.fill(0);
    }
    let bucket = 0;
    while (bucket < this.bounds.length && durationSeconds > this.bounds[bucket]) bucket += 1;
    slot.counts[bucket] += 1;
  }

  /** Requests per second and the 0.99 quantile of their latency over the window; null quantile: no request. */
  summary(quantile = 0.99): { requestsPerSecond: number; quantileSeconds: number | null } {
    const now = Math.floor(this.nowMs() / 1000);
    const counts = new Array<number>(this.bounds.length + 1).fill(0);
    for (const slot of this.slots) {
      // The current second is still filling: the window is the last `windowSeconds` whole seconds and this one.
      if (slot.second < 0 || now - slot.second >= this.windowSeconds) continue;
      slot.counts.forEach((count, bucket) => (counts[bucket] += count));
    }
    const total = counts.reduce((sum, count) => sum + count, 0);
    return {
      requestsPerSecond: total / this.windowSeconds,
      quantileSeconds: total === 0 ? null : bucketQuantile(quantile, this.bounds, counts),
    };
  }
}

/**
 * The quantile of bucketed observations, interpolated linearly inside its bucket as Prometheus'
 * histogram_quantile does; a quantile in the last (unbounded) bucket is the highest bound.
 */
export function bucketQuantile(
  quantile: number,
  bounds: readonly number[],
  counts: readonly number[],
): number {
  const total = counts.reduce((sum, count) => sum + count, 0);
  const rank = quantile * total;
  let seen = 0;
  for (let bucket = 0; bucket < counts.length; bucket += 1) {
    if (seen + counts[bucket] >= rank && counts[bucket] > 0) {
      if (bucket >= bounds.length) return bounds[bounds.length - 1];
      const lower = bucket === 0 ? 0 : bounds[bucket - 1];
      return lower + (bounds[bucket] - lower) * ((rank - seen) / counts[bucket]);
    }
    seen += counts[bucket];
  }
  return bounds[bounds.length - 1];
}
