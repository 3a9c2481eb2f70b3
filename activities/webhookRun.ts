import { CircuitBreaker, FAILING_REASON, shouldDisable } from '../webhooks/health';
import { nextStep, parseRetryAfter } from '../workflows/webhookEndpoint/schedule';
import type { HttpResult } from './webhookDelivery';
import type { AttemptResultRecord, ClaimedDelivery, EndpointForDelivery } from './webhookQueries';

/*
 * The decisions of one run of an endpoint's delivery (activities/webhookBatches.ts runs the I/O around them): when
 * to look at the database again, how many deliveries to claim, what an attempt's answer means for its delivery
 * (done, backed off, given up) and for the endpoint (its breaker, disabled), and when the run ends. No I/O here:
 * every clock reading and random number comes in as an argument.
 */

/** One run lasts this long at most; the workflow starts the next (continue-as-new now and then). */
export const DELIVERY_RUN_MS = 5 * 60_000;
/** Waits longer than this end the run: the workflow waits them out on a durable timer. */
export const LONG_WAIT_MS = 60_000;
/** The longest wait inside a run without a look at the database (LISTEN ends it sooner). */
export const IDLE_LOOK_MS = 10_000;
/** The endpoint's row is read again at least this often (a rotation's grace period ends, say). */
export const ENDPOINT_REFRESH_MS = 5_000;
/**
 * The shortest time between two looks at the database, unless the last one left every slot busy (then the next
 * look comes as soon as one frees, and the receiver sets the pace): events that commit meanwhile are claimed
 * together and attempts that end meanwhile are recorded together, instead of a claim and a record per event. It also
 * bounds one subject's pace, since its next event is claimed only after the look that records the one before.
 */
export const LOOK_INTERVAL_MS = 20;

/** An attempt that ended and is not yet recorded: its subject stays in flight until it is. */
export interface EndedAttempt {
  delivery: ClaimedDelivery;
  /** Sent while the breaker was not closed: its success makes what backed off during the outage due now. */
  probe: boolean;
  record: AttemptResultRecord;
}

/** What follows a look that claimed what it could. */
export type LookPlan =
  /** A full batch: there may be more due; look again as soon as a slot is free. */
  | { kind: 'look_now' }
  /** Nothing in flight and nothing to send for longer than {@link LONG_WAIT_MS}: the run ends on this wait. */
  | { kind: 'end_waiting'; dueInMs: number }
  /** Wait for a wakeup (a notification, an attempt's end) for this long at most. */
  | { kind: 'wait'; waitMs: number };

/** How a delivery ended with a recorded attempt, for the metrics; null when it is due again later. */
export function deliveryEnd(record: AttemptResultRecord): 'delivered' | 'gone' | 'given_up' | null {
  if (record.delivered) return 'delivered';
  if (record.disableEndpoint === 'gone') return 'gone';
  return record.retryAfterMs === null ? 'given_up' : null;
}

/** What one attempt's answer decides, given when the endpoint started failing (null: it is not failing). */
export function judgeAttempt(attempt: {
  result: HttpResult;
  attemptCount: number;
  failingSince: Date | null;
  attemptedAt: Date;
  /** The clock the endpoint's health is judged by (tests set their own). */
  healthNow: Date;
  nowMs: number;
  random: number;
}): Pick<AttemptResultRecord, 'delivered' | 'retryAfterMs' | 'disableEndpoint'> & {
  failingSince: Date | null;
} {
  const status = attempt.result.statusCode;
  const delivered = status !== null && status >= 200 && status < 300;
  if (delivered) return { delivered, retryAfterMs: null, disableEndpoint: null, failingSince: null };
  const failingSince = attempt.failingSince ?? attempt.attemptedAt;
  if (status === 410) return { delivered, retryAfterMs: null, disableEndpoint: 'gone', failingSince };
  const step = nextStep(
    { kind: 'failed', retryAfterMs: parseRetryAfter(attempt.result.retryAfter, attempt.nowMs) },
    attempt.attemptCount + 1,
    attempt.random,
  );
  return {
    delivered,
    retryAfterMs: step.kind === 'retry' ? step.afterMs : null,
    disableEndpoint: shouldDisable(failingSince, attempt.healthNow) ? FAILING_REASON : null,
    failingSince,
  };
}

/**
 * The state of one delivery run: the endpoint as last read, its breaker, since when it fails, the attempts that
 * ended and are not yet recorded, and the pace of the looks. `healthClock` is the clock the breaker and the
 * endpoint's health are judged by.
 */
export class DeliveryRun {
  private endpoint: EndpointForDelivery | null = null;
  private readGeneration = -1;
  private readAt = 0;
  private breaker: CircuitBreaker | null = null;
  private failingSince: Date | null = null;
  private lastLookAt = 0;
  private everySlotBusy = false;
  private readonly ended: EndedAttempt[] = [];

  constructor(private readonly healthClock: () => number) {}

  /** How long to wait before the next look: none right after a look that left every slot busy. */
  pauseBeforeLook(nowMs: number): number {
    const sinceLook = nowMs - this.lastLookAt;
    return !this.everySlotBusy && sinceLook < LOOK_INTERVAL_MS ? LOOK_INTERVAL_MS - sinceLook : 0;
  }

  lookStarts(nowMs: number): void {
    this.lastLookAt = nowMs;
    this.everySlotBusy = false;
  }

  /** Whether the endpoint's row is to be read again: not read yet, changed (a wakeup says so) or read too long ago. */
  needsEndpoint(endpointGeneration: number, nowMs: number): boolean {
    return (
      !this.endpoint ||
      endpointGeneration !== this.readGeneration ||
      nowMs - this.readAt > ENDPOINT_REFRESH_MS
    );
  }

  /** Takes the endpoint's row as read; false when it is gone (the run ends). */
  endpointRead(
    endpoint: EndpointForDelivery | null,
    endpointGeneration: number,
    nowMs: number,
    inFlight: number,
  ): endpoint is EndpointForDelivery {
    this.endpoint = endpoint;
    this.readGeneration = endpointGeneration;
    this.readAt = nowMs;
    if (!endpoint || endpoint.deleted) return false;
    this.breaker ??= new CircuitBreaker(endpoint.consecutiveFailures, this.healthClock);
    if (inFlight === 0) this.failingSince = endpoint.failingSince;
    // Resumed by an Admin (its failure count reset): the breaker starts closed.
    if (endpoint.consecutiveFailures === 0 && this.breaker.state() !== 'closed' && inFlight === 0)
      this.breaker = new CircuitBreaker(0, this.healthClock);
    return true;
  }

  /** The endpoint as last read, to send to. */
  target(): EndpointForDelivery {
    if (!this.endpoint) throw new Error('the endpoint is not read yet');
    return this.endpoint;
  }

  /** How many deliveries to claim now; null when the endpoint takes none (it is paused or disabled). */
  claimSize(inFlight: number): number | null {
    const endpoint = this.target();
    return endpoint.status === 'ACTIVE' ? this.gate().slots(inFlight, endpoint.maxInFlight) : null;
  }

  /**
   * What follows a look of an active endpoint that asked for `slots` deliveries and got `claimed`; `nextDueInMs`
   * is the claim's (null without a claim). `inFlight` counts the attempts started by this look.
   */
  afterClaim(look: {
    slots: number;
    claimed: number;
    nextDueInMs: number | null;
    inFlight: number;
  }): LookPlan {
    this.everySlotBusy = look.claimed === look.slots;
    if (look.slots > 0 && look.claimed === look.slots) return { kind: 'look_now' };
    const gate = this.gate();
    if (gate.state() === 'open') {
      const cooldown = gate.cooldownLeftMs();
      if (look.inFlight === 0 && cooldown > LONG_WAIT_MS) return { kind: 'end_waiting', dueInMs: cooldown };
      return { kind: 'wait', waitMs: Math.min(IDLE_LOOK_MS, Math.max(1, cooldown)) };
    }
    if (look.nextDueInMs !== null) {
      const due = look.nextDueInMs;
      if (look.inFlight === 0 && due > LONG_WAIT_MS) return { kind: 'end_waiting', dueInMs: due };
      // Due now but not claimed (a withdrawal holds it): look again shortly.
      return { kind: 'wait', waitMs: Math.min(IDLE_LOOK_MS, Math.max(50, due)) };
    }
    return { kind: 'wait', waitMs: IDLE_LOOK_MS };
  }

  /** An attempt starts; true when it is the breaker's probe (or sent while the breaker is not closed). */
  attemptStarts(): boolean {
    const gate = this.gate();
    const probe = gate.state() !== 'closed';
    gate.started();
    return probe;
  }

  /** An attempt ended: the breaker and the endpoint's health take its answer, and it waits to be recorded. */
  attemptEnded(
    started: { delivery: ClaimedDelivery; probe: boolean; attemptedAt: Date; latencyMs: number },
    result: HttpResult,
    now: { nowMs: number; random: number },
  ): void {
    const judged = judgeAttempt({
      result,
      attemptCount: started.delivery.attemptCount,
      failingSince: this.failingSince,
      attemptedAt: started.attemptedAt,
      healthNow: new Date(this.healthClock()),
      ...now,
    });
    if (judged.delivered) this.gate().succeeded();
    else this.gate().failed();
    this.failingSince = judged.failingSince;
    this.ended.push({
      delivery: started.delivery,
      probe: started.probe,
      record: {
        deliveryId: started.delivery.deliveryId,
        attemptedAt: started.attemptedAt,
        statusCode: result.statusCode,
        error: result.error,
        latencyMs: started.latencyMs,
        responseExcerpt: result.excerpt,
        delivered: judged.delivered,
        retryAfterMs: judged.retryAfterMs,
        disableEndpoint: judged.disableEndpoint,
      },
    });
  }

  /** The attempts that ended since the last call, to record together. */
  takeEnded(): EndedAttempt[] {
    return this.ended.splice(0);
  }

  /** The attempts are recorded; one that disabled the endpoint has it read again. */
  recorded(batch: readonly EndedAttempt[]): void {
    if (batch.some((attempt) => attempt.record.disableEndpoint)) this.endpoint = null;
  }

  private gate(): CircuitBreaker {
    if (!this.breaker) throw new Error('the endpoint is not read yet');
    return this.breaker;
  }
}
