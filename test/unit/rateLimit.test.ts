import { RateLimiter, type RateLimitStore, rateLimitHeaders } from '../../api/kernel/rateLimit';

/** The shared row of each subject, in memory, on the test's clock (a GCRA `tat`). */
function memoryStore(clock: { now: number }) {
  const tat = new Map<string, number>();
  const store: RateLimitStore & { writes: number } = {
    writes: 0,
    async consume(entries) {
      store.writes += 1;
      const debts = new Map<string, number>();
      for (const { subject, costMs } of entries) {
        const next = Math.max(tat.get(subject) ?? 0, clock.now) + costMs;
        tat.set(subject, next);
        debts.set(subject, next - clock.now);
      }
      return debts;
    },
    async read(subject) {
      return Math.max(0, (tat.get(subject) ?? 0) - clock.now);
    },
  };
  return store;
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('RateLimiter', () => {
  it('admits a burst, then refuses with the time until one more request fits', async () => {
    const clock = { now: 1_000_000 };
    const limiter = new RateLimiter(memoryStore(clock), { perSecond: 2, burst: 5 }, { now: () => clock.now });
    const decisions = [];
    for (let i = 0; i < 6; i++) decisions.push(await limiter.take('key:a'));
    expect(decisions.map((d) => d.allowed)).toEqual([true, true, true, true, true, false]);
    expect(decisions.map((d) => d.remaining)).toEqual([4, 3, 2, 1, 0, 0]);
    expect(decisions[4]).toMatchObject({ limit: 5, resetSeconds: 3 });
    expect(decisions[5].retryAfterSeconds).toBe(1);
    expect(rateLimitHeaders(decisions[5])).toEqual({
      'RateLimit-Limit': '5',
      'RateLimit-Remaining': '0',
      'RateLimit-Reset': '3',
      'Retry-After': '1',
    });
    clock.now += 500; // one token back at 2 per second
    expect((await limiter.take('key:a')).allowed).toBe(true);
    expect((await limiter.take('key:a')).allowed).toBe(false);
    expect((await limiter.take('key:b')).allowed).toBe(true);
  });

  it('shares one budget between limiters through the store, within one sync', async () => {
    const clock = { now: 5_000_000 };
    const store = memoryStore(clock);
    const options = { now: () => clock.now, syncEveryRequests: 1 };
    const a = new RateLimiter(store, { perSecond: 0.01, burst: 10 }, options);
    const b = new RateLimiter(store, { perSecond: 0.01, burst: 10 }, options);
    let admitted = 0;
    for (let i = 0; i < 40; i++) {
      if ((await (i % 2 ? a : b).take('key:shared')).allowed) admitted += 1;
      await settle();
    }
    // Each limiter sees the other's last request one sync late: at most one extra per other process.
    expect(admitted).toBeGreaterThanOrEqual(10);
    expect(admitted).toBeLessThanOrEqual(11);
  });

  it('batches writes: many requests of a hot key cost few store statements', async () => {
    const clock = { now: 9_000_000 };
    const store = memoryStore(clock);
    const limiter = new RateLimiter(
      store,
      { perSecond: 1000, burst: 100_000 },
      { now: () => clock.now, syncEveryMs: 60_000 },
    );
    for (let i = 0; i < 1000; i++) await limiter.take('key:hot');
    await limiter.close();
    // One sync per `burst / 50` = 2,000 requests, plus the closing flush.
    expect(store.writes).toBeLessThanOrEqual(2);
    expect(await store.read('key:hot')).toBeCloseTo(1000, 0);
  });

  it('keeps deciding from what it knows when the store fails, and resends later', async () => {
    const clock = { now: 2_000_000 };
    const store = memoryStore(clock);
    let failing = true;
    const errors: unknown[] = [];
    const flaky: RateLimitStore = {
      consume: (entries) => (failing ? Promise.reject(new Error('down')) : store.consume(entries)),
      read: (subject) => (failing ? Promise.reject(new Error('down')) : store.read(subject)),
    };
    const limiter = new RateLimiter(
      flaky,
      { perSecond: 1, burst: 3 },
      { now: () => clock.now, onError: (e) => errors.push(e) },
    );
    const allowed = [];
    for (let i = 0; i < 4; i++) allowed.push((await limiter.take('key:x')).allowed);
    await limiter.flush();
    expect(allowed).toEqual([true, true, true, false]);
    expect(errors.length).toBeGreaterThan(0);
    failing = false;
    await limiter.close();
    expect(await store.read('key:x')).toBe(3000);
  });
});
