import { Counter, Gauge, Histogram, type Registry } from 'prom-client';

/** Lag from an event's commit to its receiver's 2xx: tens of milliseconds to the hours of a retry schedule. */
const LAG_BUCKETS_SECONDS = [
  0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 1800, 3600, 36000,
];

/**
 * Webhook delivery per endpoint (label `endpoint`, its id; at most 20 live per service): deliveries by how they
 * ended, attempts by outcome, the lag of delivered events, and — read from PostgreSQL at scrape time — the backlog
 * of pending deliveries. The delivery activity reports through it (activities/webhookBatches.ts).
 */
export class WebhookMetrics {
  private readonly deliveries: Counter<'endpoint' | 'outcome'>;
  private readonly attempts: Counter<'endpoint' | 'outcome'>;
  private readonly lagSeconds: Histogram<'endpoint'>;

  constructor(
    registry: Registry,
    options: {
      /** Every live endpoint with its status and pending deliveries, read when scraped. */
      backlogs?: () => Promise<
        Array<{ endpointId: string; service: string; status: string; pending: number }>
      >;
      onError?: (error: unknown) => void;
    } = {},
  ) {
    const registers = [registry];
    this.deliveries = new Counter({
      name: 'referee_webhook_deliveries_total',
      help: 'Webhook deliveries that ended, by endpoint and outcome (delivered, given_up after its schedule, gone on a 410).',
      labelNames: ['endpoint', 'outcome'],
      registers,
    });
    this.attempts = new Counter({
      name: 'referee_webhook_attempts_total',
      help: 'Webhook delivery attempts, by endpoint and outcome (succeeded: a 2xx; failed: anything else).',
      labelNames: ['endpoint', 'outcome'],
      registers,
    });
    this.lagSeconds = new Histogram({
      name: 'referee_webhook_delivery_lag_seconds',
      help: "From a webhook event's commit to its receiver's 2xx, per endpoint.",
      labelNames: ['endpoint'],
      buckets: LAG_BUCKETS_SECONDS,
      registers,
    });
    if (!options.backlogs) return;
    // One read serves both gauges of a scrape: the second collect within a second reuses the first's rows.
    let last: {
      at: number;
      rows: Promise<Awaited<ReturnType<NonNullable<typeof options.backlogs>>> | null>;
    } | null = null;
    const read = options.backlogs;
    const backlogs = () => {
      if (!last || Date.now() - last.at > 1000)
        last = {
          at: Date.now(),
          rows: read().catch((error: unknown) => {
            options.onError?.(error);
            return null;
          }),
        };
      return last.rows;
    };
    new Gauge({
      name: 'referee_webhook_backlog',
      help: 'Pending webhook deliveries per live endpoint (due now, backing off, or waiting for their subject).',
      labelNames: ['endpoint', 'service'],
      registers,
      async collect() {
        const rows = await backlogs();
        if (!rows) return;
        this.reset();
        for (const row of rows) this.set({ endpoint: row.endpointId, service: row.service }, row.pending);
      },
    });
    new Gauge({
      name: 'referee_webhook_endpoint_disabled',
      help: 'Per live endpoint: 1 when it is DISABLED (by an operator, or after its deliveries kept failing), else 0.',
      labelNames: ['endpoint', 'service'],
      registers,
      async collect() {
        const rows = await backlogs();
        if (!rows) return;
        this.reset();
        for (const row of rows)
          this.set({ endpoint: row.endpointId, service: row.service }, row.status === 'DISABLED' ? 1 : 0);
      },
    });
  }

  attempted(endpointId: string, outcome: 'succeeded' | 'failed'): void {
    this.attempts.inc({ endpoint: endpointId, outcome });
  }

  ended(endpointId: string, outcome: 'delivered' | 'given_up' | 'gone'): void {
    this.deliveries.inc({ endpoint: endpointId, outcome });
  }

  lag(endpointId: string, seconds: number): void {
    this.lagSeconds.observe({ endpoint: endpointId }, Math.max(0, seconds));
  }
}
