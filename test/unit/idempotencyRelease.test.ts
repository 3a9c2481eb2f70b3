import { releaseClaim } from '../../api/kernel/idempotency';

/*
 * The claim of a request that failed is released even when PostgreSQL was out of reach at that moment (the
 * reason the request failed): released again in the background until it succeeds, so a retry after the store is
 * back finds its key free instead of "in progress" until the claim lapses (docs/chaos.md, "Network faults").
 */
const settledWith = (run: (settled: (released: boolean) => void) => Promise<void>) =>
  new Promise<boolean>((resolve) => void run(resolve));

describe('releaseClaim', () => {
  it('releases before it returns when it can', async () => {
    const release = jest.fn(async () => {});
    let released: boolean | undefined;
    await releaseClaim(release, { settled: (r) => (released = r) });
    expect(released).toBe(true);
    expect(release).toHaveBeenCalledTimes(1);
  });

  it('returns after a failed first try, and tries again in the background until the store answers', async () => {
    let calls = 0;
    const release = async () => {
      calls += 1;
      if (calls < 3) throw new Error('Connection terminated unexpectedly');
    };
    const released = await settledWith(async (settled) => {
      await releaseClaim(release, { retryMs: 5, giveUpAfterMs: 1000, settled });
      expect(calls).toBe(1);
    });
    expect(released).toBe(true);
    expect(calls).toBe(3);
  });

  it('gives up once the claim would have lapsed anyway', async () => {
    const release = jest.fn(async () => {
      throw new Error('Query read timeout');
    });
    const released = await settledWith((settled) =>
      releaseClaim(release, { retryMs: 10, giveUpAfterMs: 35, settled }),
    );
    expect(released).toBe(false);
    expect(release.mock.calls.length).toBeGreaterThanOrEqual(3);
    expect(release.mock.calls.length).toBeLessThanOrEqual(5);
  });
});
