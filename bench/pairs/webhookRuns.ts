import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { createEndpoint, removeEndpoint } from '../../webhooks/management';
import {
  WAKE_WEBHOOK_ENDPOINT_SIGNAL,
  WEBHOOK_ENDPOINT_WORKFLOW_TYPE,
  webhookEndpointWorkflowStart,
} from '../../webhooks/endpointWorkflow';
import type { BenchContext } from '../harness';
import { ENDPOINT_COST_CONCURRENCY, ENDPOINT_COST_VARIANT } from './webhooks';

/**
 * `--webhooks`, after the mutation pairs: the delivery runs of docs/benchmark-webhooks.md ("Webhook delivery
 * runs"). Events are committed by concurrent transactions calling `webhook_emit`, the function every transition
 * calls, each with its own subject (as key revocations have), so what is measured is delivery, not the
 * transitions.
 *
 * - burst: 200 events from 16 clients at about 44 events/s to one endpoint whose receiver answers in 50 ms: lag
 *   (commit to receipt) p50/p99, and the last event's lag after the last commit;
 * - sustained: 2000 events committed at once to one endpoint with an instant receiver: deliveries per second from
 *   the commit to the last receipt;
 * - fairness: 300 events to each of ten endpoints at once: each endpoint's deliveries per second, and the slowest
 *   over the fastest;
 * - steady: from the pair that runs the math action at 32 clients with the endpoint unsubscribed (A) and subscribed
 *   (B) side by side: the mutation p50's growth (B/A), the CPU (worker + Temporal + PostgreSQL) per delivered event
 *   (B minus A) against per transition (A); the lag p99 from the math action pair with the endpoint.
 */

const EVENT_TYPE = 'math.key.revoked';

/** The nearest-rank percentile of sorted values. */
const percentile = (sorted: readonly number[], p: number) =>
  sorted.length === 0 ? Number.NaN : sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)];

export interface WebhookRunsResult {
  burst: { events: number; p50Ms: number; p99Ms: number; lastEventLagMs: number; commitRate: number };
  sustained: { events: number; deliveriesPerSecond: number };
  fairness: { endpoints: number; eventsEach: number; perSecond: number[]; slowestOverFastest: number };
  steady: {
    mutationP50GrowthPercent: number | null;
    lagP99Ms: number | null;
    deliveryCpuMsPerEvent: number | null;
    transitionCpuMsPerEvent: number | null;
  } | null;
}

class Receiver {
  arrivals: Array<{ committedAt: number; receivedAt: number }> = [];
  private seen = new Set<string>();
  url = '';
  private server: http.Server;

  constructor(delayMs: number) {
    this.server = http.createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const receivedAt = Date.now();
        const id = String(request.headers['webhook-id']);
        if (!this.seen.has(id)) {
          this.seen.add(id);
          const { timestamp } = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { timestamp: string };
          this.arrivals.push({ committedAt: Date.parse(timestamp), receivedAt });
        }
        setTimeout(() => response.writeHead(204).end(), delayMs);
      });
    });
  }

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

async function withEndpoints<T>(ctx: BenchContext, receivers: Receiver[], run: () => Promise<T>): Promise<T> {
  const { system } = ctx;
  const ids: string[] = [];
  try {
    for (const receiver of receivers) {
      const { endpoint } = await system.dataSource.transaction((tx) =>
        createEndpoint(system.config.webhooks, tx, 'math', null, {
          url: receiver.url,
          description: 'bench delivery run',
          eventTypes: [EVENT_TYPE],
        }),
      );
      ids.push(endpoint.id);
      await system.temporal.workflow.signalWithStart(WEBHOOK_ENDPOINT_WORKFLOW_TYPE, {
        ...webhookEndpointWorkflowStart(endpoint.id, system.config.temporal.taskQueue),
        signal: WAKE_WEBHOOK_ENDPOINT_SIGNAL,
      });
    }
    return await run();
  } finally {
    for (const id of ids) await system.dataSource.transaction((tx) => removeEndpoint(tx, 'math', id));
  }
}

const emitSql = `SELECT webhook_emit('math', '${EVENT_TYPE}', $1, jsonb_build_object('key_id', $1::text))`;

/** Commits `perClient` events from each of `clients` connections, one every `spacingMs` per client. */
async function emitFrom(databaseUrl: string, clients: number, perClient: number, spacingMs: number) {
  const connections = await Promise.all(
    Array.from({ length: clients }, async () => {
      const client = new pg.Client({ connectionString: databaseUrl });
      await client.connect();
      return client;
    }),
  );
  const commits: number[] = [];
  try {
    await Promise.all(
      connections.map(async (client, index) => {
        await sleep((spacingMs * index) / clients);
        for (let i = 0; i < perClient; i++) {
          const started = Date.now();
          await client.query(emitSql, [randomUUID()]);
          commits.push(Date.now());
          await sleep(Math.max(0, spacingMs - (Date.now() - started)));
        }
      }),
    );
  } finally {
    await Promise.all(connections.map((c) => c.end()));
  }
  return commits;
}

async function until(check: () => boolean, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) return false;
    await sleep(20);
  }
  return true;
}

/** CPU milliseconds per request of the worker, Temporal and PostgreSQL on one side of a pair. */
const cpuOf = (cpu: Record<string, number>) => (cpu.worker ?? 0) + (cpu.temporal ?? 0) + (cpu.postgres ?? 0);

export async function webhookDeliveryRuns(ctx: BenchContext): Promise<WebhookRunsResult> {
  const { system, log } = ctx;
  const databaseUrl = system.config.databaseUrl;

  // Burst: 16 clients, 200 events, about 44 events/s, receiver answering in 50 ms.
  const slow = await new Receiver(50).start();
  const burst = await withEndpoints(ctx, [slow], async () => {
    const started = Date.now();
    const commits = await emitFrom(databaseUrl, 16, 13, 16_000 / 44);
    const events = commits.length;
    await until(() => slow.arrivals.length >= events, 300_000);
    const lags = slow.arrivals.map((a) => a.receivedAt - a.committedAt).sort((x, y) => x - y);
    const lastCommit = Math.max(...commits);
    const lastArrival = Math.max(...slow.arrivals.map((a) => a.receivedAt));
    return {
      events,
      p50Ms: percentile(lags, 0.5),
      p99Ms: percentile(lags, 0.99),
      lastEventLagMs: lastArrival - lastCommit,
      commitRate: events / ((lastCommit - started) / 1000),
    };
  });
  await slow.stop();
  log(
    `webhooks burst: ${burst.events} events from 16 clients at ${burst.commitRate.toFixed(0)}/s, receiver 50 ms: ` +
      `lag p50 ${burst.p50Ms.toFixed(0)} ms, p99 ${burst.p99Ms.toFixed(0)} ms, last event ${burst.lastEventLagMs.toFixed(0)} ms after the last commit`,
  );

  // Sustained: a backlog of 2000 committed at once, instant receiver.
  const instant = await new Receiver(0).start();
  const sustained = await withEndpoints(ctx, [instant], async () => {
    const events = 2000;
    const committed = Date.now();
    await system.dataSource.query(
      `SELECT webhook_emit('math', '${EVENT_TYPE}', s, jsonb_build_object('key_id', s))
         FROM (SELECT gen_random_uuid()::text AS s FROM generate_series(1, $1)) k`,
      [events],
    );
    await until(() => instant.arrivals.length >= events, 600_000);
    const last = Math.max(...instant.arrivals.map((a) => a.receivedAt));
    return { events, deliveriesPerSecond: instant.arrivals.length / ((last - committed) / 1000) };
  });
  await instant.stop();
  log(
    `webhooks sustained: one endpoint, instant receiver: ${sustained.deliveriesPerSecond.toFixed(0)} deliveries/s over ${sustained.events}`,
  );

  // Fairness: ten endpoints, 300 events each committed at once.
  const ten = await Promise.all(Array.from({ length: 10 }, () => new Receiver(0).start()));
  const fairness = await withEndpoints(ctx, ten, async () => {
    const eventsEach = 300;
    const committed = Date.now();
    await system.dataSource.query(
      `SELECT webhook_emit('math', '${EVENT_TYPE}', s, jsonb_build_object('key_id', s))
         FROM (SELECT gen_random_uuid()::text AS s FROM generate_series(1, $1)) k`,
      [eventsEach],
    );
    await until(() => ten.every((r) => r.arrivals.length >= eventsEach), 600_000);
    const perSecond = ten.map(
      (r) => r.arrivals.length / ((Math.max(...r.arrivals.map((a) => a.receivedAt)) - committed) / 1000),
    );
    return {
      endpoints: ten.length,
      eventsEach,
      perSecond,
      slowestOverFastest: Math.min(...perSecond) / Math.max(...perSecond),
    };
  });
  await Promise.all(ten.map((r) => r.stop()));
  log(
    `webhooks fairness: ten endpoints × ${fairness.eventsEach}: ${fairness.perSecond.map((x) => x.toFixed(0)).join(', ')} deliveries/s; ` +
      `slowest/fastest ${fairness.slowestOverFastest.toFixed(2)}`,
  );

  // Steady load at 32 clients: the endpoint's cost from the pair that runs the math action without it (A) and
  // with it (B) side by side; the lag from the math action pair with the endpoint.
  const cost = ctx.results.find((r) => r.pair === 'mutation' && r.variant === ENDPOINT_COST_VARIANT);
  const lag = ctx.webhookDelivery?.find((d) => d.label === `math action @${ENDPOINT_COST_CONCURRENCY}`);
  const steady = cost
    ? {
        mutationP50GrowthPercent: (cost.summary.ratio.p50 - 1) * 100,
        lagP99Ms: lag?.p99Ms ?? null,
        deliveryCpuMsPerEvent: cpuOf(cost.summary.cpu.b) - cpuOf(cost.summary.cpu.a),
        transitionCpuMsPerEvent: cpuOf(cost.summary.cpu.a),
      }
    : null;
  if (steady)
    log(
      `webhooks steady at 32 clients (math action): mutation p50 ${steady.mutationP50GrowthPercent.toFixed(1)} % higher with the endpoint; ` +
        `lag p99 ${steady.lagP99Ms?.toFixed(0) ?? '–'} ms; CPU (worker + Temporal + PostgreSQL) per event: delivery ` +
        `${steady.deliveryCpuMsPerEvent?.toFixed(2)} ms, transition ${steady.transitionCpuMsPerEvent?.toFixed(2)} ms`,
    );
  const result = { burst, sustained, fairness, steady };
  ctx.notes.push(...webhookRunLines(result));
  return result;
}

/** Ten endpoints share the machine fairly when the slowest delivers at least this share of the fastest's rate. */
export const FAIR_SHARE = 0.8;

/** The runs as the lines printed under the table (and kept with it in docs/benchmark-results.md). */
export function webhookRunLines(r: WebhookRunsResult): string[] {
  const met = (ok: boolean) => (ok ? 'met' : 'NOT met');
  const signed = (percent: number | null) =>
    percent === null ? '–' : `${percent >= 0 ? '+' : ''}${percent.toFixed(1)}`;
  const lines = [
    `webhook burst (${r.burst.events} events, 16 clients, ${r.burst.commitRate.toFixed(0)}/s, receiver 50 ms): lag p50 ` +
      `${r.burst.p50Ms.toFixed(0)} ms, p99 ${r.burst.p99Ms.toFixed(0)} ms, last event ${r.burst.lastEventLagMs.toFixed(0)} ms ` +
      `after the last commit (targets ≤ 1000 ms: ${met(r.burst.p99Ms <= 1000 && r.burst.lastEventLagMs <= 1000)})`,
    `webhook sustained (one endpoint, instant receiver, ${r.sustained.events} events): ` +
      `${r.sustained.deliveriesPerSecond.toFixed(0)} deliveries/s (target ≥ 200: ${met(r.sustained.deliveriesPerSecond >= 200)})`,
    `webhook fairness (${r.fairness.endpoints} endpoints × ${r.fairness.eventsEach} events): ` +
      `${Math.min(...r.fairness.perSecond).toFixed(0)}–${Math.max(...r.fairness.perSecond).toFixed(0)} deliveries/s each, ` +
      `slowest/fastest ${r.fairness.slowestOverFastest.toFixed(2)} (target ≥ ${FAIR_SHARE}: ${met(r.fairness.slowestOverFastest >= FAIR_SHARE)})`,
  ];
  if (r.steady) {
    const s = r.steady;
    lines.push(
      `webhook steady load (math action @32, one endpoint off vs on, side by side): mutation p50 ${signed(s.mutationP50GrowthPercent)} % ` +
        `(target ≤ 10 %: ${met((s.mutationP50GrowthPercent ?? Infinity) <= 10)}), lag p99 ${s.lagP99Ms?.toFixed(0) ?? '–'} ms ` +
        `(target ≤ 1000: ${met((s.lagP99Ms ?? Infinity) <= 1000)}), CPU per event (worker + Temporal + PostgreSQL): delivery ` +
        `${s.deliveryCpuMsPerEvent?.toFixed(2)} ms vs transition ${s.transitionCpuMsPerEvent?.toFixed(2)} ms ` +
        `(target less: ${met((s.deliveryCpuMsPerEvent ?? Infinity) < (s.transitionCpuMsPerEvent ?? 0))})`,
    );
  }
  return lines;
}
