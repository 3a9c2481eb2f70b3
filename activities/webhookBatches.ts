import { setTimeout as sleep } from 'node:timers/promises';
import { Context } from '@temporalio/activity';
import type { DataSource } from 'typeorm';
import { preparedStatements } from '../entities/preparedStatements';
import { webhookBody } from '../webhooks/events';
import { CircuitBreaker, FAILING_REASON, shouldDisable } from '../webhooks/health';
import { openSecret } from '../webhooks/secrets';
import { checkTargetUrl } from '../webhooks/targets';
import { nextStep, parseRetryAfter } from '../workflows/webhookEndpoint/schedule';
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
  type AttemptResultRecord,
  recordAttemptResults,
  selectEndpointForDelivery,
} from './webhookQueries';

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

/** One run lasts this long at most; the workflow starts the next (continue-as-new now and then). */
export const DELIVERY_RUN_MS = 5 * 60_000;
/** Waits longer than this end the run: the workflow waits them out on a durable timer. */
export const LONG_WAIT_MS = 60_000;
/** The longest wait inside a run without a look at the database (LISTEN ends it sooner). */
const IDLE_LOOK_MS = 10_000;
/** The endpoint's row is read again at least this often (a rotation's grace period ends, say). */
const ENDPOINT_REFRESH_MS = 5_000;
/**
 * The shortest time between two looks at the database, unless the last one left every slot busy (then the next
 * look comes as soon as one frees, and the receiver sets the pace): events that commit meanwhile are claimed
 * together and attempts that end meanwhile are recorded together, instead of a claim and a record per event. It also
 * bounds one subject's pace, since its next event is claimed only after the look that records the one before.
 */
export const LOOK_INTERVAL_MS = 20;

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
  const db = preparedStatements(dataSource);
  const polling = new DeliveryPolling(db, endpointId, LOOK_INTERVAL_MS);
  // Connections to the receiver are kept alive for the run: a new one per delivery costs both sides a handshake.
  const agents = deliveryAgents();
  const now = deps.clock ?? Date.now;
  const runEnds = Date.now() + DELIVERY_RUN_MS;
  const inFlight = new Map<string, Promise<void>>();
  /** Attempts that ended and are not yet recorded: their subjects stay in flight until they are. */
  const ended: Array<{ delivery: ClaimedDelivery; probe: boolean; record: AttemptResultRecord }> = [];
  let endpoint: EndpointForDelivery | null = null;
  let loadedEndpointGeneration = -1;
  let loadedAt = 0;
  let breaker: CircuitBreaker | null = null;
  let failingSince: Date | null = null;
  let delivered = 0;
  let failure: unknown = null;
  let kicked: boolean | undefined;
  let waker: AbortController | null = null;
  const kick = () => {
    kicked = true;
    waker?.abort();
  };
  const heartbeat = setInterval(() => context.heartbeat({ delivered, inFlight: inFlight.size }), 1_000);
  // A cancelled run (the workflow's end, the worker's shutdown) stops waiting at once.
  context.cancellationSignal.addEventListener('abort', kick);

  const send = async (delivery: ClaimedDelivery, target: EndpointForDelivery, gate: CircuitBreaker) => {
    const probe = gate.state() !== 'closed';
    gate.started();
    const attemptedAt = new Date();
    const started = performance.now();
    const result = await exchange(deps, endpointId, target, delivery, agents);
    const latencyMs = Math.round(performance.now() - started);
    const status = result.statusCode;
    const ok = status !== null && status >= 200 && status < 300;
    const gone = status === 410;
    if (ok) {
      gate.succeeded();
      failingSince = null;
    } else {
      gate.failed();
      failingSince ??= attemptedAt;
    }
    const disable = gone
      ? 'gone'
      : !ok && shouldDisable(failingSince, new Date(now()))
        ? FAILING_REASON
        : null;
    let retryAfterMs: number | null = null;
    if (!ok && !gone) {
      const step = nextStep(
        { kind: 'failed', retryAfterMs: parseRetryAfter(result.retryAfter, Date.now()) },
        delivery.attemptCount + 1,
        Math.random(),
      );
      retryAfterMs = step.kind === 'retry' ? step.afterMs : null;
    }
    ended.push({
      delivery,
      probe,
      record: {
        deliveryId: delivery.deliveryId,
        attemptedAt,
        statusCode: status,
        error: result.error,
        latencyMs,
        responseExcerpt: result.excerpt,
        delivered: ok,
        retryAfterMs,
        disableEndpoint: disable,
      },
    });
  };

  /**
   * Records the attempts that ended since the last look, in one statement, and only then frees their subjects: a
   * subject's next delivery is claimed once the one before it is no longer pending.
   */
  const record = async (): Promise<number> => {
    if (ended.length === 0) return 0;
    const batch = ended.splice(0);
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
      failure ??= error;
      return 0;
    }
    for (const { delivery, record: attempt } of batch) {
      inFlight.delete(delivery.subject);
      deps.metrics?.attempted(endpointId, attempt.delivered ? 'succeeded' : 'failed');
      if (attempt.delivered) {
        delivered++;
        deps.metrics?.ended(endpointId, 'delivered');
        deps.metrics?.lag(endpointId, (Date.now() - delivery.committedAt.getTime()) / 1000);
      } else if (attempt.disableEndpoint === 'gone') deps.metrics?.ended(endpointId, 'gone');
      else if (attempt.retryAfterMs === null) deps.metrics?.ended(endpointId, 'given_up');
      if (attempt.disableEndpoint) endpoint = null; // read it again: it is disabled now
    }
    return batch.length;
  };

  /** The run ends once what is in flight has ended and been recorded. */
  const settled = async (end: DeliveryRunEnd): Promise<DeliveryRunEnd> => {
    await Promise.allSettled(inFlight.values());
    await record();
    if (failure !== null) throw failure;
    return end;
  };

  const start = (delivery: ClaimedDelivery, target: EndpointForDelivery, gate: CircuitBreaker) => {
    const sending = send(delivery, target, gate)
      .catch((error: unknown) => {
        failure ??= error;
        inFlight.delete(delivery.subject);
      })
      .finally(kick);
    inFlight.set(delivery.subject, sending);
  };

  let lastLookAt = 0;
  let everySlotBusy = false;
  try {
    while (!context.cancellationSignal.aborted && Date.now() < runEnds && failure === null) {
      const sinceLook = Date.now() - lastLookAt;
      if (!everySlotBusy && sinceLook < LOOK_INTERVAL_MS)
        await pause(LOOK_INTERVAL_MS - sinceLook, context.cancellationSignal);
      kicked = false;
      lastLookAt = Date.now();
      everySlotBusy = false;
      const recorded = await record();
      if (failure !== null) break;
      const generation = deps.wakeups.current();
      const endpointGeneration = deps.wakeups.endpointsChanged();
      if (
        !endpoint ||
        endpointGeneration !== loadedEndpointGeneration ||
        Date.now() - loadedAt > ENDPOINT_REFRESH_MS
      ) {
        endpoint = await selectEndpointForDelivery(db, endpointId);
        loadedEndpointGeneration = endpointGeneration;
        loadedAt = Date.now();
        if (!endpoint || endpoint.deleted) return await settled({ kind: 'deleted' });
        breaker ??= new CircuitBreaker(endpoint.consecutiveFailures, now);
        if (inFlight.size === 0) failingSince = endpoint.failingSince;
        // Resumed by an Admin (its failure count reset): the breaker starts closed.
        if (endpoint.consecutiveFailures === 0 && breaker.state() !== 'closed' && inFlight.size === 0)
          breaker = new CircuitBreaker(0, now);
      }
      let waitMs = IDLE_LOOK_MS;
      let foundWork = recorded > 0 || inFlight.size > 0;
      if (endpoint.status === 'ACTIVE') {
        const slots = breaker!.slots(inFlight.size, endpoint.maxInFlight);
        const claim = slots > 0 ? await claimDeliveries(db, endpointId, [...inFlight.keys()], slots) : null;
        const claimed = claim?.deliveries ?? [];
        for (const delivery of claimed) start(delivery, endpoint, breaker!);
        foundWork ||= claimed.length > 0;
        everySlotBusy = claimed.length === slots;
        // A full batch: there may be more due; look again as soon as a slot is free.
        if (slots > 0 && claimed.length === slots) {
          await polling.afterLook(true, 0);
          continue;
        }
        if (breaker!.state() === 'open') {
          const cooldown = breaker!.cooldownLeftMs();
          if (inFlight.size === 0 && cooldown > LONG_WAIT_MS)
            return await settled({ kind: 'waiting', dueInMs: cooldown });
          waitMs = Math.min(waitMs, Math.max(1, cooldown));
        } else if (claim && claim.nextDueInMs !== null) {
          const due = claim.nextDueInMs;
          if (inFlight.size === 0 && due > LONG_WAIT_MS)
            return await settled({ kind: 'waiting', dueInMs: due });
          // Due now but not claimed (a withdrawal holds it): look again shortly.
          waitMs = Math.min(waitMs, Math.max(50, due));
        }
      }
      waitMs = await polling.afterLook(foundWork, waitMs);
      if (kicked) continue;
      waker = new AbortController();
      await deps.wakeups.next(generation, Math.min(waitMs, Math.max(0, runEnds - Date.now())), waker.signal);
      waker = null;
    }
    await Promise.allSettled(inFlight.values());
    await record();
    if (failure !== null) throw failure;
    return { kind: 'continue' };
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
