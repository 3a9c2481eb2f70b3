import {
  DeliveryRun,
  deliveryEnd,
  ENDPOINT_REFRESH_MS,
  IDLE_LOOK_MS,
  judgeAttempt,
  LONG_WAIT_MS,
  LOOK_INTERVAL_MS,
} from '../../activities/webhookRun';
import type { HttpResult } from '../../activities/webhookDelivery';
import type { ClaimedDelivery, EndpointForDelivery } from '../../activities/webhookQueries';
import {
  BREAKER_BASE_COOLDOWN_MS,
  BREAKER_THRESHOLD,
  DISABLE_AFTER_MS,
  FAILING_REASON,
} from '../../webhooks/health';
import { RETRY_AFTER_MIN_MS, RETRY_WAITS_MS } from '../../workflows/webhookEndpoint/schedule';

const DAY = 86_400_000;

function testClock(start = 1_000_000) {
  let now = start;
  return { now: () => now, advance: (ms: number) => (now += ms) };
}

const endpoint = (overrides: Partial<EndpointForDelivery> = {}): EndpointForDelivery => ({
  deleted: false,
  status: 'ACTIVE',
  url: 'https://receiver.example/hook',
  secretSealed: 'sealed',
  previousSecretSealed: null,
  maxInFlight: 4,
  consecutiveFailures: 0,
  failingSince: null,
  ...overrides,
});

const delivery = (subject: string, attemptCount = 0): ClaimedDelivery => ({
  deliveryId: `delivery-${subject}`,
  subject,
  attemptCount,
  sequence: 1,
  messageId: `msg-${subject}`,
  payload: { type: 'math.task.updated', timestamp: '2026-01-01T00:00:00Z', data: {} },
  committedAt: new Date(0),
});

const answer = (statusCode: number | null, retryAfter?: string): HttpResult => ({
  statusCode,
  error: statusCode === null ? 'timeout' : null,
  retryAfter,
  excerpt: '',
});

const judge = (result: HttpResult, overrides: Partial<Parameters<typeof judgeAttempt>[0]> = {}) =>
  judgeAttempt({
    result,
    attemptCount: 0,
    failingSince: null,
    attemptedAt: new Date(10 * DAY),
    healthNow: new Date(10 * DAY),
    nowMs: 10 * DAY,
    random: 0.5,
    ...overrides,
  });

/** Sends one attempt through the run and returns what it would record. */
function attempt(run: DeliveryRun, sent: ClaimedDelivery, result: HttpResult) {
  const probe = run.attemptStarts();
  run.attemptEnded({ delivery: sent, probe, attemptedAt: new Date(), latencyMs: 3 }, result, {
    nowMs: Date.now(),
    random: 0.5,
  });
  const [ended] = run.takeEnded();
  run.recorded([ended]);
  return ended;
}

describe('what an attempt’s answer decides', () => {
  it('a 2xx delivers and ends the endpoint’s failing', () => {
    expect(judge(answer(204), { failingSince: new Date(DAY) })).toEqual({
      delivered: true,
      retryAfterMs: null,
      disableEndpoint: null,
      failingSince: null,
    });
  });

  it('a failure backs off by the schedule, or by Retry-After within its bounds', () => {
    expect(judge(answer(500)).retryAfterMs).toBe(RETRY_WAITS_MS[0]);
    expect(judge(answer(503, '0')).retryAfterMs).toBe(RETRY_AFTER_MIN_MS);
    expect(judge(answer(429, '120')).retryAfterMs).toBe(120_000);
    expect(judge(answer(null), { attemptCount: 1 }).retryAfterMs).toBe(RETRY_WAITS_MS[1]);
  });

  it('the last attempt of the schedule gives the delivery up', () => {
    const last = judge(answer(500), { attemptCount: RETRY_WAITS_MS.length });
    expect(last).toMatchObject({ delivered: false, retryAfterMs: null, disableEndpoint: null });
    expect(deliveryEnd({ ...recordOf(last) })).toBe('given_up');
  });

  it('a failure starts the endpoint failing at its attempt; five days of it disable the endpoint', () => {
    const attemptedAt = new Date(10 * DAY);
    expect(judge(answer(500), { attemptedAt }).failingSince).toEqual(attemptedAt);
    const since = new Date(10 * DAY - DISABLE_AFTER_MS + 1);
    expect(judge(answer(500), { failingSince: since }).disableEndpoint).toBeNull();
    const longer = new Date(10 * DAY - DISABLE_AFTER_MS);
    expect(judge(answer(500), { failingSince: longer })).toMatchObject({
      disableEndpoint: FAILING_REASON,
      failingSince: longer,
    });
  });

  it('a 410 disables the endpoint as gone and ends the delivery without a retry', () => {
    const gone = judge(answer(410));
    expect(gone).toMatchObject({ delivered: false, retryAfterMs: null, disableEndpoint: 'gone' });
    expect(deliveryEnd(recordOf(gone))).toBe('gone');
  });

  it('a delivery that backs off has not ended', () => {
    expect(deliveryEnd(recordOf(judge(answer(500))))).toBeNull();
    expect(deliveryEnd(recordOf(judge(answer(200))))).toBe('delivered');
  });
});

describe('one delivery run', () => {
  it('reads the endpoint first, again when it changed or after a while, and ends when it is gone', () => {
    const run = new DeliveryRun(testClock().now);
    expect(run.needsEndpoint(0, 0)).toBe(true);
    expect(run.endpointRead(endpoint(), 0, 0, 0)).toBe(true);
    expect(run.needsEndpoint(0, ENDPOINT_REFRESH_MS)).toBe(false);
    expect(run.needsEndpoint(1, 1)).toBe(true);
    expect(run.needsEndpoint(0, ENDPOINT_REFRESH_MS + 1)).toBe(true);
    expect(run.endpointRead(endpoint({ deleted: true }), 0, 0, 0)).toBe(false);
    expect(run.endpointRead(null, 0, 0, 0)).toBe(false);
  });

  it('claims up to the endpoint’s bound less what is in flight, nothing while it is not active', () => {
    const run = new DeliveryRun(testClock().now);
    run.endpointRead(endpoint({ maxInFlight: 4 }), 0, 0, 0);
    expect(run.claimSize(1)).toBe(3);
    run.endpointRead(endpoint({ status: 'PAUSED' }), 1, 0, 0);
    expect(run.claimSize(0)).toBeNull();
  });

  it('looks again at once after a full batch, else waits for a wakeup up to the idle look', () => {
    const run = new DeliveryRun(testClock().now);
    run.endpointRead(endpoint(), 0, 0, 0);
    expect(run.afterClaim({ slots: 4, claimed: 4, nextDueInMs: null, inFlight: 4 })).toEqual({
      kind: 'look_now',
    });
    expect(run.afterClaim({ slots: 4, claimed: 1, nextDueInMs: null, inFlight: 1 })).toEqual({
      kind: 'wait',
      waitMs: IDLE_LOOK_MS,
    });
    // Due now but held (a withdrawal): a short wait, not a busy loop.
    expect(run.afterClaim({ slots: 4, claimed: 0, nextDueInMs: 0, inFlight: 0 })).toEqual({
      kind: 'wait',
      waitMs: 50,
    });
    expect(run.afterClaim({ slots: 4, claimed: 0, nextDueInMs: 2_000, inFlight: 0 })).toEqual({
      kind: 'wait',
      waitMs: 2_000,
    });
  });

  it('ends on a long backoff once nothing is in flight; the workflow waits it out', () => {
    const run = new DeliveryRun(testClock().now);
    run.endpointRead(endpoint(), 0, 0, 0);
    const far = LONG_WAIT_MS + 1;
    expect(run.afterClaim({ slots: 4, claimed: 0, nextDueInMs: far, inFlight: 0 })).toEqual({
      kind: 'end_waiting',
      dueInMs: far,
    });
    expect(run.afterClaim({ slots: 4, claimed: 1, nextDueInMs: far, inFlight: 1 })).toEqual({
      kind: 'wait',
      waitMs: IDLE_LOOK_MS,
    });
  });

  it('paces the looks, unless the last one left every slot busy', () => {
    const run = new DeliveryRun(testClock().now);
    run.endpointRead(endpoint(), 0, 0, 0);
    run.lookStarts(1_000);
    expect(run.pauseBeforeLook(1_005)).toBe(LOOK_INTERVAL_MS - 5);
    expect(run.pauseBeforeLook(1_000 + LOOK_INTERVAL_MS)).toBe(0);
    run.afterClaim({ slots: 2, claimed: 2, nextDueInMs: null, inFlight: 2 });
    expect(run.pauseBeforeLook(1_001)).toBe(0);
    run.lookStarts(1_001);
    expect(run.pauseBeforeLook(1_002)).toBe(LOOK_INTERVAL_MS - 1);
  });

  it('opens the breaker after its threshold of failures, waits out the cooldown and sends one probe', () => {
    const clock = testClock();
    const run = new DeliveryRun(clock.now);
    run.endpointRead(endpoint(), 0, 0, 0);
    for (let i = 0; i < BREAKER_THRESHOLD; i++)
      expect(attempt(run, delivery(`s${i}`), answer(500)).probe).toBe(false);
    expect(run.claimSize(0)).toBe(0);
    // Open: the next look comes when the cooldown ends.
    expect(run.afterClaim({ slots: 0, claimed: 0, nextDueInMs: null, inFlight: 0 })).toEqual({
      kind: 'wait',
      waitMs: BREAKER_BASE_COOLDOWN_MS,
    });
    clock.advance(BREAKER_BASE_COOLDOWN_MS);
    expect(run.claimSize(0)).toBe(1);
    const probe = attempt(run, delivery('probe'), answer(200));
    expect(probe.probe).toBe(true);
    expect(probe.record).toMatchObject({ delivered: true, statusCode: 200, latencyMs: 3 });
    expect(run.claimSize(0)).toBe(4);
  });

  it('waits out a short cooldown in the run and ends the run on a long one, when nothing is in flight', () => {
    const clock = testClock();
    const run = new DeliveryRun(clock.now);
    // A failure count at the threshold: the run starts with the breaker open.
    run.endpointRead(endpoint({ consecutiveFailures: BREAKER_THRESHOLD }), 0, 0, 0);
    const look = { slots: 0, claimed: 0, nextDueInMs: null, inFlight: 0 };
    expect(run.afterClaim(look)).toEqual({ kind: 'wait', waitMs: BREAKER_BASE_COOLDOWN_MS });
    // Each failed probe doubles the cooldown: past the long wait after four.
    let cooldown = BREAKER_BASE_COOLDOWN_MS;
    for (let probe = 0; probe < 4; probe++) {
      clock.advance(cooldown);
      expect(attempt(run, delivery('probe'), answer(503)).probe).toBe(true);
      cooldown *= 2;
    }
    expect(cooldown).toBeGreaterThan(LONG_WAIT_MS);
    expect(run.afterClaim(look)).toEqual({ kind: 'end_waiting', dueInMs: cooldown });
    expect(run.afterClaim({ ...look, inFlight: 1 })).toEqual({ kind: 'wait', waitMs: IDLE_LOOK_MS });
  });

  it('an endpoint resumed by an Admin (its failures reset) starts with the breaker closed', () => {
    const run = new DeliveryRun(testClock().now);
    run.endpointRead(endpoint({ consecutiveFailures: BREAKER_THRESHOLD }), 0, 0, 0);
    expect(run.claimSize(0)).toBe(0);
    run.endpointRead(endpoint({ consecutiveFailures: 0 }), 1, 0, 0);
    expect(run.claimSize(0)).toBe(4);
  });

  it('carries the endpoint’s failing-since from its row into the disable decision', () => {
    const clock = testClock(10 * DAY);
    const run = new DeliveryRun(clock.now);
    run.endpointRead(endpoint({ failingSince: new Date(10 * DAY - DISABLE_AFTER_MS) }), 0, 0, 0);
    const failed = attempt(run, delivery('s'), answer(500));
    expect(failed.record.disableEndpoint).toBe(FAILING_REASON);
    // Disabled: the endpoint is read again before the next claim.
    expect(run.needsEndpoint(0, 0)).toBe(true);
  });
});

function recordOf(judged: ReturnType<typeof judgeAttempt>) {
  return {
    deliveryId: 'd',
    attemptedAt: new Date(0),
    statusCode: null,
    error: null,
    latencyMs: 0,
    responseExcerpt: '',
    delivered: judged.delivered,
    retryAfterMs: judged.retryAfterMs,
    disableEndpoint: judged.disableEndpoint,
  };
}
