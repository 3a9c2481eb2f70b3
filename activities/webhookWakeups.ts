import pg from 'pg';
import { ENDPOINT_CHANGED } from '../webhooks/events';
import { listenForWebhookDeliveries } from './webhookQueries';

/**
 * One LISTEN connection per worker on `referee_webhook_deliveries`, which `webhook_emit` and the API's endpoint
 * changes notify at commit. Waiters take the generation before they look at the database and wait for it to
 * move, so a notification between their look and their wait is never missed. Without the connection (not yet up,
 * or lost) waits end after their timeout, as a poll would.
 */
export class WebhookWakeups {
  private generation = 0;
  /** Moves only on an endpoint change (the API's notifications say `endpoint`), not on every new event. */
  private endpointGeneration = 0;
  private waiters = new Set<() => void>();
  private client: pg.Client | null = null;
  private connecting: Promise<void> | null = null;
  private closed = false;

  constructor(private readonly databaseUrl: string) {}

  current(): number {
    this.ensureListening();
    return this.generation;
  }

  /** Taken with {@link current}: when it moves, an endpoint may have changed (or notifications were missed). */
  endpointsChanged(): number {
    return this.endpointGeneration;
  }

  /** Resolves once a notification arrived after `generation` was taken, after `timeoutMs`, or on `stop`. */
  async next(generation: number, timeoutMs: number, stop?: AbortSignal): Promise<void> {
    if (this.generation !== generation || stop?.aborted) return;
    await new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.waiters.delete(done);
        stop?.removeEventListener('abort', done);
        resolve();
      };
      const timer = setTimeout(done, timeoutMs);
      this.waiters.add(done);
      stop?.addEventListener('abort', done);
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const wake of [...this.waiters]) wake();
    await this.client?.end().catch(() => undefined);
  }

  private notified(payload?: string): void {
    if (payload === undefined || payload === ENDPOINT_CHANGED) this.endpointGeneration++;
    this.generation++;
    for (const wake of [...this.waiters]) wake();
  }

  private ensureListening(): void {
    if (this.client || this.connecting || this.closed) return;
    const client = new pg.Client({
      connectionString: this.databaseUrl,
      application_name: 'referee-webhooks',
    });
    this.connecting = client
      .connect()
      .then(() => listenForWebhookDeliveries(client))
      .then(() => {
        this.client = client;
        client.on('notification', (message) => this.notified(message.payload));
        client.on('error', () => this.lost(client));
        client.on('end', () => this.lost(client));
        // Anything committed while it was not listening: look again.
        this.notified();
      })
      .catch(() => {
        void client.end().catch(() => undefined);
      })
      .finally(() => {
        this.connecting = null;
      });
  }

  private lost(client: pg.Client): void {
    if (this.client === client) this.client = null;
  }
}
