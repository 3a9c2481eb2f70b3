import { setTimeout as sleep } from 'node:timers/promises';
import { Context } from '@temporalio/activity';
import type { DataSource } from 'typeorm';
import { preparedStatements } from '../entities/preparedStatements';
import { webhookBody } from '../webhooks/events';
import { openSecret } from '../webhooks/secrets';
import { checkTargetUrl } from '../webhooks/targets';
import {
  type DeliveryAgents,
  deliveryAgents,
  type HttpResult,
  signedPost,
  type WebhookDeliveryDeps,
} from './webhookDelivery';
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
 * `webhook-id` and `sequence`. What to do at each step is {@link DeliveryRun}'s to decide; this is its I/O.
 */
export async function runEndpointDelivery(
  dataSource: DataSource,
  deps: WebhookDeliveryDeps,
  endpointId: string,
): Promise<DeliveryRunEnd> {
  const context = Context.current();
  const db = preparedStatements(dataSource);
  const polling = new DeliveryPolling(db, endpointId, LOOK_INTERVAL_MS);
  // Connections to the receiver are kept alive for the run: a new one per delivery costs both sides a handshake.
  const agents = deliveryAgents();
  const run = new DeliveryRun(deps.clock ?? Date.now);
  const runEnds = Date.now() + DELIVERY_RUN_MS;
  /** The subjects in flight: their attempt is under way, or ended and not yet recorded. */
  const inFlight = new Map<string, Promise<void>>();
  const progress = {
    delivered: 0,
    failure: null as unknown,
    kicked: false,
    waker: null as AbortController | null,
  };
  const kick = () => {
    progress.kicked = true;
    progress.waker?.abort();
  };
  const heartbeat = setInterval(
    () => context.heartbeat({ delivered: progress.delivered, inFlight: inFlight.size }),
    1_000,
  );
  // A cancelled run (the workflow's end, the worker's shutdown) stops waiting at once.
  context.cancellationSignal.addEventListener('abort', kick);

  const start = (delivery: ClaimedDelivery) => {
    const target = run.target();
    const probe = run.attemptStarts();
    const attemptedAt = new Date();
    const started = performance.now();
    const sending = exchange(deps, endpointId, target, delivery, agents)
      .then((result) => {
        const latencyMs = Math.round(performance.now() - started);
        run.attemptEnded({ delivery, probe, attemptedAt, latencyMs }, result, {
          nowMs: Date.now(),
          random: Math.random(),
        });
      })
      .catch((error: unknown) => {
        progress.failure ??= error;
        inFlight.delete(delivery.subject);
      })
      .finally(kick);
    inFlight.set(delivery.subject, sending);
  };

  /**
   * Records the attempts that ended since the last look, in one statement, and only then frees their subjects: a
   * subject's next delivery is claimed once the one before it is no longer pending.
   */
  const record = async (): Promise<number> => {
    const batch = run.takeEnded();
    if (batch.length === 0) return 0;
    try {
      await recordAttemptResults(
        db,
        endpointId,
        batch.map((attempt) => attempt.record),
      );
      // The endpoint is back: what backed off during its outage is due now.
      if (batch.some((attempt) => attempt.probe && attempt.record.delivered))
        await makePendingDue(db, endpointId);
    } catch (error) {
      progress.failure ??= error;
      return 0;
    }
    run.recorded(batch);
    for (const { delivery, record: attempt } of batch) {
      inFlight.delete(delivery.subject);
      deps.metrics?.attempted(endpointId, attempt.delivered ? 'succeeded' : 'failed');
      const end = deliveryEnd(attempt);
      if (end) deps.metrics?.ended(endpointId, end);
      if (end === 'delivered') {
        progress.delivered++;
        deps.metrics?.lag(endpointId, (Date.now() - delivery.committedAt.getTime()) / 1000);
      }
    }
    return batch.length;
  };

  /** The run ends once what is in flight has ended and been recorded. */
  const settled = async (end: DeliveryRunEnd): Promise<DeliveryRunEnd> => {
    await Promise.allSettled(inFlight.values());
    await record();
    if (progress.failure !== null) throw progress.failure;
    return end;
  };

  /** One look: record what ended, read the endpoint when due, claim what it can take; then what follows. */
  const look = async (): Promise<LookEnd> => {
    const recorded = await record();
    if (progress.failure !== null) return { kind: 'continue' };
    // Notifications from here on end the wait that follows the look.
    const generation = deps.wakeups.current();
    const endpointGeneration = deps.wakeups.endpointsChanged();
    if (run.needsEndpoint(endpointGeneration, Date.now())) {
      const endpoint = await selectEndpointForDelivery(db, endpointId);
      if (!run.endpointRead(endpoint, endpointGeneration, Date.now(), inFlight.size))
        return { kind: 'deleted' };
    }
    const foundWork = recorded > 0 || inFlight.size > 0;
    const slots = run.claimSize(inFlight.size);
    if (slots === null)
      return { kind: 'wait', waitMs: await polling.afterLook(foundWork, IDLE_LOOK_MS), generation };
    const claim = slots > 0 ? await claimDeliveries(db, endpointId, [...inFlight.keys()], slots) : null;
    const claimed = claim?.deliveries ?? [];
    for (const delivery of claimed) start(delivery);
    const plan = run.afterClaim({
      slots,
      claimed: claimed.length,
      nextDueInMs: claim?.nextDueInMs ?? null,
      inFlight: inFlight.size,
    });
    if (plan.kind === 'look_now') await polling.afterLook(true, 0);
    if (plan.kind !== 'wait') return plan;
    const waitMs = await polling.afterLook(foundWork || claimed.length > 0, plan.waitMs);
    return { kind: 'wait', waitMs, generation };
  };

  try {
    while (!context.cancellationSignal.aborted && Date.now() < runEnds && progress.failure === null) {
      const pauseMs = run.pauseBeforeLook(Date.now());
      if (pauseMs > 0) await pause(pauseMs, context.cancellationSignal);
      progress.kicked = false;
      run.lookStarts(Date.now());
      const next = await look();
      if (next.kind === 'deleted') return await settled(next);
      if (next.kind === 'end_waiting') return await settled({ kind: 'waiting', dueInMs: next.dueInMs });
      if (next.kind !== 'wait' || progress.kicked) continue;
      progress.waker = new AbortController();
      const waitMs = Math.min(next.waitMs, Math.max(0, runEnds - Date.now()));
      await deps.wakeups.next(next.generation, waitMs, progress.waker.signal);
      progress.waker = null;
    }
    return await settled({ kind: 'continue' });
  } finally {
    agents.http.destroy();
    agents.https.destroy();
    clearInterval(heartbeat);
    context.cancellationSignal.removeEventListener('abort', kick);
  }
}

/** Waits `ms`, or less when the signal aborts. */
async function pause(ms: number, signal: AbortSignal): Promise<void> {
  await sleep(ms, undefined, { signal }).catch(() => undefined);
}

/** One signed POST of a claimed delivery to the endpoint's URL, with every current secret. */
async function exchange(
  deps: WebhookDeliveryDeps,
  endpointId: string,
  endpoint: EndpointForDelivery,
  delivery: ClaimedDelivery,
  agents: DeliveryAgents,
): Promise<HttpResult> {
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
  return signedPost(url, delivery.messageId, secrets, body, deps.policy, agents);
}
