import { bucketQuantile, RecentRequests } from '../../observability/recentRequests';

describe('bucketQuantile', () => {
  const bounds = [0.1, 0.2, 0.4];

  it('interpolates inside the bucket holding the rank, as histogram_quantile does', () => {
    // 10 observations: 4 up to 0.1, 4 in (0.1, 0.2], 2 in (0.2, 0.4].
    expect(bucketQuantile(0.5, bounds, [4, 4, 2, 0])).toBeCloseTo(0.125);
    expect(bucketQuantile(0.2, bounds, [4, 4, 2, 0])).toBeCloseTo(0.05);
    expect(bucketQuantile(0.9, bounds, [4, 4, 2, 0])).toBeCloseTo(0.3);
  });

  it('answers the highest bound for a quantile in the unbounded bucket', () => {
    expect(bucketQuantile(0.99, bounds, [0, 0, 1, 9])).toBe(0.4);
  });
});

describe('RecentRequests', () => {
  it('counts the last 60 s only and tells their rate and p99', () => {
    let now = 1_000_000_000;
    const recent = new RecentRequests([0.01, 0.1, 1], 60, () => now);
    expect(recent.summary()).toEqual({ requestsPerSecond: 0, quantileSeconds: null });
    for (let i = 0; i < 99; i += 1) recent.record(0.005);
    recent.record(0.5);
    now += 30_000;
    for (let i = 0; i < 20; i += 1) recent.record(0.05);
    const both = recent.summary();
    expect(both.requestsPerSecond).toBeCloseTo(120 / 60);
    expect(both.quantileSeconds).toBeGreaterThan(0.01);
    expect(both.quantileSeconds).toBeLessThanOrEqual(0.1);
    // 31 s later the first 100 requests have left the window.
    now += 31_000;
    const later = recent.summary();
    expect(later.requestsPerSecond).toBeCloseTo(20 / 60);
    expect(later.quantileSeconds).toBeGreaterThan(0.01);
    now += 60_000;
    expect(recent.summary()).toEqual({ requestsPerSecond: 0, quantileSeconds: null });
  });
});
