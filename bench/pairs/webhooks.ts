import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { createEndpoint } from '../../webhooks/management';
import type { ServiceName } from '../../entities/types';
import {
  WAKE_WEBHOOK_ENDPOINT_SIGNAL,
  WEBHOOK_ENDPOINT_WORKFLOW_TYPE,
  webhookEndpointWorkflowStart,
} from '../../webhooks/endpointWorkflow';
import type { BenchContext } from '../harness';
import { sampleOf } from '../load';
import type { BenchSystem } from '../system';

/**
 * `--webhooks`: the mutation pairs run a second time with one endpoint per service subscribed to the mutation's
 * event (docs/benchmark-webhooks.md). This module holds the loopback receiver, the endpoints, and the delivery
 * latency: from the event's `timestamp` (PostgreSQL's `now()` in the transaction that commits the transition, i.e.
 * its start) to the moment the receiver has read the request.
 */

/** What the API and the worker need to deliver to a receiver on loopback. */
export const webhookBenchEnv = (): NodeJS.ProcessEnv => ({
  WEBHOOK_SECRET_KEY: randomBytes(32).toString('base64'),
  WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
});

/** The event each mutation of the pairs emits. */
const SUBSCRIBED: Record<ServiceName, string> = {
  math: 'math.task.feedback_added',
  genomics: 'genomics.topic.decision_overridden',
};

/** The pair that measures what one subscribed endpoint costs the math action (bench/pairs/mutation.ts). */
export const ENDPOINT_COST_VARIANT = 'math action, endpoint off vs on';
export const ENDPOINT_COST_CONCURRENCY = 32;

/** An event type the mutations never emit: an endpoint subscribed only to it costs them nothing. */
const UNEMITTED: Record<ServiceName, string> = {
  math: 'math.key.revoked',
  genomics: 'genomics.key.revoked',
};

/** Answers every delivery 204 at once and notes when it arrived; signatures are not checked (not measured). */
class LatencyReceiver {
  private server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const receivedAt = Date.now();
      response.writeHead(204).end();
      const id = String(request.headers['webhook-id']);
      if (this.seen.has(id)) {
        this.duplicates++;
        return;
      }
      this.seen.add(id);
      const { timestamp } = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { timestamp: string };
      this.arrivals.push({ committedAt: Date.parse(timestamp), receivedAt });
    });
  });
  private seen = new Set<string>();
  arrivals: Array<{ committedAt: number; receivedAt: number }> = [];
  duplicates = 0;
  url = '';

  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hooks`;
    return this;
  }

  stop(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

export interface WebhookBench {
  /** Measures delivery of what `load` commits: latency p50/p99 and the backlog's drain after it. */
  measure(label: string, load: () => Promise<unknown>): Promise<void>;
  /** Waits for the deliveries a side committed, so they are not sent while the next side is measured. */
  drain(): Promise<void>;
  /**
   * Subscribes the service's endpoint to the mutation's event, or to one no mutation emits: unsubscribed, a
   * transition writes no event, no delivery and no notification, as with no endpoint at all.
   */
  subscribe(service: ServiceName, subscribed: boolean): Promise<void>;
  stop(): Promise<void>;
}

/** Registers one endpoint per service (as the CLI does) pointing at a loopback receiver, and starts their workflows. */
export async function subscribeWebhooks(ctx: BenchContext): Promise<WebhookBench> {
  const { system, log } = ctx;
  const receiver = await new LatencyReceiver().start();
  const endpointIds = new Map<ServiceName, string>();
  for (const service of ['math', 'genomics'] as const) {
    const { endpoint } = await system.dataSource.transaction((tx) =>
      createEndpoint(system.config.webhooks, tx, service, null, {
        url: receiver.url,
        description: 'bench receiver',
        eventTypes: [SUBSCRIBED[service]],
      }),
    );
    endpointIds.set(service, endpoint.id);
    await system.temporal.workflow.signalWithStart(WEBHOOK_ENDPOINT_WORKFLOW_TYPE, {
      ...webhookEndpointWorkflowStart(endpoint.id, system.config.temporal.taskQueue),
      signal: WAKE_WEBHOOK_ENDPOINT_SIGNAL,
    });
  }
  log(`webhooks: one endpoint per service subscribed, receiver at ${receiver.url}`);

  return {
    async measure(label, load) {
      const from = receiver.arrivals.length;
      await load();
      const loadEnded = performance.now();
      const drained = await drainDeliveries(system, 300_000);
      const drainSeconds = (performance.now() - loadEnded) / 1000;
      const arrivals = receiver.arrivals.slice(from);
      const latency = sampleOf(
        arrivals.map((a) => a.receivedAt - a.committedAt),
        Math.max(1e-3, drainSeconds),
      );
      const line =
        `webhooks: delivery latency (commit to receipt) under ${label}: p50 ${latency.p50.toFixed(1)} ms, ` +
        `p99 ${latency.p99.toFixed(1)} ms over ${latency.count} events; ` +
        (drained
          ? `pending deliveries drained ${drainSeconds.toFixed(1)} s after the load ended`
          : `deliveries still PENDING ${drainSeconds.toFixed(0)} s after the load ended`) +
        `; ${receiver.duplicates} duplicate webhook-ids so far`;
      log(`  ${line}`);
      ctx.notes.push(line);
      (ctx.webhookDelivery ??= []).push({
        label,
        events: latency.count,
        p50Ms: latency.p50,
        p99Ms: latency.p99,
        drainSeconds,
        drained,
        duplicates: receiver.duplicates,
      });
    },
    async drain() {
      await drainDeliveries(system, 300_000);
    },
    async subscribe(service, subscribed) {
      await system.dataSource.query(`UPDATE webhook_endpoints SET event_types = ARRAY[$2] WHERE id = $1`, [
        endpointIds.get(service),
        subscribed ? SUBSCRIBED[service] : UNEMITTED[service],
      ]);
    },
    stop: () => receiver.stop(),
  };
}

/** Waits until no delivery is pending (true), or gives up after `timeoutMs` (false). */
async function drainDeliveries(system: BenchSystem, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const [{ pending }]: Array<{ pending: number }> = await system.dataSource.query(
      `SELECT count(*)::int AS pending FROM webhook_deliveries WHERE status = 'PENDING'`,
    );
    if (pending === 0) return true;
    if (Date.now() > deadline) return false;
    await sleep(100);
  }
}
