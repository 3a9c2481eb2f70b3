import {
  BREAKER_BASE_COOLDOWN_MS,
  BREAKER_MAX_COOLDOWN_MS,
  BREAKER_THRESHOLD,
  CircuitBreaker,
  DISABLE_AFTER_MS,
  shouldDisable,
} from '../../webhooks/health';

/** A test clock: time moves only when the test says so. */
function testClock(start = 1_000_000) {
  let now = start;
  return { now: () => now, advance: (ms: number) => (now += ms) };
}

describe('the circuit breaker of an endpoint', () => {
  it('stays closed below the threshold and allows the endpoint’s bound in flight', () => {
    const clock = testClock();
    const breaker = new CircuitBreaker(0, clock.now);
    for (let i = 0; i < BREAKER_THRESHOLD - 1; i++) breaker.failed();
    expect(breaker.state()).toBe('closed');
    expect(breaker.slots(3, 16)).toBe(13);
  });

  it('opens at the threshold, sends nothing while cooling down, then one probe alone', () => {
    const clock = testClock();
    const breaker = new CircuitBreaker(0, clock.now);
    for (let i = 0; i < BREAKER_THRESHOLD; i++) breaker.failed();
    expect(breaker.state()).toBe('open');
    expect(breaker.slots(0, 16)).toBe(0);
    expect(breaker.cooldownLeftMs()).toBe(BREAKER_BASE_COOLDOWN_MS);
    clock.advance(BREAKER_BASE_COOLDOWN_MS);
    expect(breaker.state()).toBe('half_open');
    expect(breaker.slots(0, 16)).toBe(1);
    expect(breaker.slots(1, 16)).toBe(0);
    breaker.started();
    expect(breaker.slots(0, 16)).toBe(0);
  });

  it('a failed probe opens it again for twice as long, up to the maximum; a successful one closes it', () => {
    const clock = testClock();
    const breaker = new CircuitBreaker(BREAKER_THRESHOLD, clock.now);
    expect(breaker.state()).toBe('open');
    let cooldown = BREAKER_BASE_COOLDOWN_MS;
    for (let round = 0; round < 12; round++) {
      clock.advance(cooldown);
      expect(breaker.slots(0, 16)).toBe(1);
      breaker.started();
      breaker.failed();
      cooldown = Math.min(BREAKER_MAX_COOLDOWN_MS, cooldown * 2);
      expect(breaker.cooldownLeftMs()).toBe(cooldown);
    }
    expect(cooldown).toBe(BREAKER_MAX_COOLDOWN_MS);
    clock.advance(cooldown);
    breaker.started();
    breaker.succeeded();
    expect(breaker.state()).toBe('closed');
    expect(breaker.slots(0, 16)).toBe(16);
    // Closed again: it takes the threshold anew to open, with the base cooldown.
    for (let i = 0; i < BREAKER_THRESHOLD; i++) breaker.failed();
    expect(breaker.cooldownLeftMs()).toBe(BREAKER_BASE_COOLDOWN_MS);
  });

  it('starts open when the endpoint’s record says it was failing', () => {
    const clock = testClock();
    expect(new CircuitBreaker(BREAKER_THRESHOLD + 3, clock.now).state()).toBe('open');
    expect(new CircuitBreaker(BREAKER_THRESHOLD - 1, clock.now).state()).toBe('closed');
  });
});

describe('disabling an endpoint that keeps failing', () => {
  it('disables after five days without a success, not before', () => {
    const since = new Date('2026-11-01T00:00:00Z');
    expect(DISABLE_AFTER_MS).toBe(5 * 24 * 3600 * 1000);
    expect(shouldDisable(since, new Date(since.getTime() + DISABLE_AFTER_MS - 1))).toBe(false);
    expect(shouldDisable(since, new Date(since.getTime() + DISABLE_AFTER_MS))).toBe(true);
    expect(shouldDisable(null, new Date(since.getTime() + 10 * DISABLE_AFTER_MS))).toBe(false);
  });
});
