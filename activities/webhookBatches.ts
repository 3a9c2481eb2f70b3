import { setTimeout as sleep } from 'node:timers/promises';
import { Context } from '@temporalio/activity';
import type { DataSource } from 'typeorm';
import { preparedStatements } from '../entities/preparedStatements';
import { webhookBody } from '../webhooks/events';
import { openSecret } from '../webhooks/secrets';
import { checkTargetUrl } from '../webhooks/targets';
import { deliveryAgents, type HttpResult, signedPost, type WebhookDeliveryDeps } from './webhookDelivery';
import { DeliveryPolling } from './webhookPolling';
import {
  type ClaimedDelivery,
  claimDeliveries,
  type EndpointForDelivery,
  makePendingDue,
  recordAttemptResults,
  selectEndpointForDelivery,
} from './webhookQueries';
import {
  DELIVERY_RUN_MS,
  DeliveryRun,
  deliveryEnd,
  IDLE_LOOK_MS,
  LOOK_INTERVAL_MS,
  type LookPlan,
} from './webhookRun';

/** How one run of the delivery activity ended: the endpoint is gone, its time is up, or a long wait is next. */
export type DeliveryRunEnd =
  | { kind: 'deleted' }
  | { kind: 'continue' }
  /** Nothing can be sent for this long (a backoff, or the open breaker): a timer in the workflow's history. */
  | { kind: 'waiting'; dueInMs: number };

/** What an endpoint's delivery reports as it goes (Prometheus, observability/webhookMetrics.ts). */
export interface WebhookDeliveryMetrics {
  attempted(endpointId: string, outcome: 'succeeded' | 'failed'): void;
  /** A delivery ended: delivered, given up (its schedule spent) or gone (410). */
  ended(endpointId: string, outcome: 'delivered' | 'given_up' | 'gone'): void;
  /** From its event's commit to the receiver's 2xx. */
  lag(endpointId: string, seconds: number): void;
}

/** What follows a look: the run ends, looks again at once, or waits for a wakeup after `generation`. */
type LookEnd =
  DeliveryRunEnd | Exclude<LookPlan, { kind: 'wait' }> | { kind: 'wait'; waitMs: number; generation: number };

/**
 * Delivers one endpoint's events for up to {@link DELIVERY_RUN_MS}, heartbeating: it claims the due deliveries
 * (the oldest pending one of each subject) in batches and sends up to the endpoint's `max_in_flight` at once, one
 * per subject, so a subject's events arrive in commit order while independent subjects go in parallel. Each
 * attempt is recorded (and what follows it: done, due again later, or given up) as it ends; a run that dies
 * mid-batch leaves its deliveries pending, and the next attempt of the activity sends them again with their
 * `webhook-id` and `sequence`.
 */
export async function runEndpointDelivery(
  dataSource: DataSource,
  deps: WebhookDeliveryDeps,
  endpointId: string,
): Promise<DeliveryRunEnd> {
  const context = Context.current();
  const delivery = new EndpointDelivery(dataSource, deps, endpointId);
  const heartbeat = setInterval(() => context.heartbeat(delivery.progress()), 1_000);
  // A cancelled run (the workflow's end, the worker's shutdown) stops waiting at once.
  context.cancellationSignal.addEventListener('abort', delivery.kick);
  try {
    return await delivery.run(context.cancellationSignal);
  } finally {
    delivery.close();
    clearInterval(heartbeat);
    context.cancellationSignal.removeEventListener('abort', delivery.kick);
  }
}

/** The I/O of one delivery run: what to do at each step is {@link DeliveryRun}'s to decide. */
class EndpointDelivery {
  private readonly db: ReturnType<typeof preparedStatements>;
  private readonly polling: DeliveryPolling;
  // Connections to the receiver are kept alive for the run: a new one per delivery costs both sides a handshake.
  private readonly agents = deliveryAgents();
  private readonly decide: DeliveryRun;
  private readonly runEnds = Date.now() + DELIVERY_RUN_MS;
  /** The subjects in flight: their attempt is under way, or ended and not yet recorded. */
  private readonly inFlight = new Map<string, Promise<void>>();
  private delivered = 0;
  private failure: unknown = null;
  /** Something happened since the look began (an attempt ended, the run was cancelled): no wait before the next. */
  private kicked = false;
  private waker: AbortController | null = null;

  constructor(
    dataSource: DataSource,
    private readonly deps: WebhookDeliveryDeps,
    private readonly endpointId: string,
  ) {
    this.db = preparedStatements(dataSource);
    this.polling = new DeliveryPolling(this.db, endpointId, LOOK_INTERVAL_MS);
    this.decide = new DeliveryRun(deps.clock ?? Date.now);
  }

  readonly kick = (): void => {
    this.kicked = true;
    this.waker?.abort();
  };

  progress() {
    return { delivered: this.delivered, inFlight: this.inFlight.size };
  }

  async run(cancelled: AbortSignal): Promise<DeliveryRunEnd> {
    while (!cancelled.aborted && Date.now() < this.runEnds && this.failure === null) {
      const pauseMs = this.decide.pauseBeforeLook(Date.now());
      if (pauseMs > 0) await pause(pauseMs, cancelled);
      this.kicked = false;
      this.decide.lookStarts(Date.now());
      const next = await this.look();
      if (next.kind === 'deleted') return await this.settled(next);
      if (next.kind === 'end_waiting') return await this.settled({ kind: 'waiting', dueInMs: next.dueInMs });
      if (next.kind !== 'wait' || this.kicked) continue;
      this.waker = new AbortController();
      const waitMs = Math.min(next.waitMs, Math.max(0, this.runEnds - Date.now()));
      await this.deps.wakeups.next(next.generation, waitMs, this.waker.signal);
      this.waker = null;
    }
    return await this.settled({ kind: 'continue' });
  }

  close(): void {
    this.agents.http.destroy();
    this.agents.https.destroy();
  }

  /** One look: record what ended, read the endpoint when due, claim what it can take; then what follows. */
  private async look(): Promise<LookEnd> {
    const recorded = await this.record();
    if (this.failure !== null) return { kind: 'continue' };
    // Notifications from here on end the wait that follows the look.
    const generation = this.deps.wakeups.current();
    const endpointGeneration = this.deps.wakeups.endpointsChanged();
    if (this.decide.needsEndpoint(endpointGeneration, Date.now())) {
      const endpoint = await selectEndpointForDelivery(this.db, this.endpointId);
      if (!this.decide.endpointRead(endpoint, endpointGeneration, Date.now(), this.inFlight.size))
        return { kind: 'deleted' };
    }
    const foundWork = recorded > 0 || this.inFlight.size > 0;
    const slots = this.decide.claimSize(this.inFlight.size);
    if (slots === null)
      return { kind: 'wait', waitMs: await this.polling.afterLook(foundWork, IDLE_LOOK_MS), generation };
    const claim =
      slots > 0 ? await claimDeliveries(this.db, this.endpointId, [...this.inFlight.keys()], slots) : null;
    const claimed = claim?.deliveries ?? [];
    for (const delivery of claimed) this.start(delivery);
    const plan = this.decide.afterClaim({
      slots,
      claimed: claimed.length,
      nextDueInMs: claim?.nextDueInMs ?? null,
      inFlight: this.inFlight.size,
    });
    if (plan.kind === 'look_now') await this.polling.afterLook(true, 0);
    if (plan.kind !== 'wait') return plan;
    const waitMs = await this.polling.afterLook(foundWork || claimed.length > 0, plan.waitMs);
    return { kind: 'wait', waitMs, generation };
  }

  private start(delivery: ClaimedDelivery): void {
    const target = this.decide.target();
    const probe = this.decide.attemptStarts();
    const attemptedAt = new Date();
    const started = performance.now();
    const sending = this.exchange(target, delivery)
      .then((result) => {
        const latencyMs = Math.round(performance.now() - started);
        this.decide.attemptEnded({ delivery, probe, attemptedAt, latencyMs }, result, {
          nowMs: Date.now(),
          random: Math.random(),
        });
      })
      .catch((error: unknown) => {
        this.failure ??= error;
        this.inFlight.delete(delivery.subject);
      })
      .finally(this.kick);
    this.inFlight.set(delivery.subject, sending);
  }

  /**
   * Records the attempts that ended since the last look, in one statement, and only then frees their subjects: a
   * subject's next delivery is claimed once the one before it is no longer pending.
   */
  private async record(): Promise<number> {
    const batch = this.decide.takeEnded();
    if (batch.length === 0) return 0;
    try {
      await recordAttemptResults(
        this.db,
        this.endpointId,
        batch.map((attempt) => attempt.record),
      );
      // The endpoint is back: what backed off during its outage is due now.
      if (batch.some((attempt) => attempt.probe && attempt.record.delivered))
        await makePendingDue(this.db, this.endpointId);
    } catch (error) {
      this.failure ??= error;
      return 0;
    }
    this.decide.recorded(batch);
    const metrics = this.deps.metrics;
    for (const { delivery, record: attempt } of batch) {
      this.inFlight.delete(delivery.subject);
      metrics?.attempted(this.endpointId, attempt.delivered ? 'succeeded' : 'failed');
      const end = deliveryEnd(attempt);
      if (end) metrics?.ended(this.endpointId, end);
      if (end === 'delivered') {
        this.delivered++;
        metrics?.lag(this.endpointId, (Date.now() - delivery.committedAt.getTime()) / 1000);
      }
    }
    return batch.length;
  }

  /** The run ends once what is in flight has ended and been recorded. */
  private async settled(end: DeliveryRunEnd): Promise<DeliveryRunEnd> {
    await Promise.allSettled(this.inFlight.values());
    await this.record();
    if (this.failure !== null) throw this.failure;
    return end;
  }

  /** One signed POST of a claimed delivery to the endpoint's URL, with every current secret. */
  private async exchange(endpoint: EndpointForDelivery, delivery: ClaimedDelivery): Promise<HttpResult> {
    const { deps, endpointId } = this;
    const refused = { statusCode: null, retryAfter: undefined, excerpt: '' };
    if (!deps.sealingKey) return { ...refused, error: 'no_secret_key' };
    let url: URL;
    try {
      url = checkTargetUrl(endpoint.url, deps.policy);
    } catch {
      return { ...refused, error: 'refused_target' };
    }
    const key = deps.sealingKey;
    const secrets = [endpoint.secretSealed, endpoint.previousSecretSealed]
      .filter((sealed): sealed is string => sealed !== null)
      .map((sealed) => openSecret(sealed, key, endpointId));
    const body = webhookBody(delivery.payload, delivery.sequence);
    return signedPost(url, delivery.messageId, secrets, body, deps.policy, this.agents);
  }
}

/** Waits `ms`, or less when the signal aborts. */
async function pause(ms: number, signal: AbortSignal): Promise<void> {
  await sleep(ms, undefined, { signal }).catch(() => undefined);
}
