import pg from 'pg';

export interface OwnSessionOptions<T> {
  applicationName: string;
  /** Delay before reconnecting after the session was lost or could not be opened. */
  reconnectMs: number;
  onError: (error: unknown) => void;
  /** Attaches listeners to a new connection before it connects. */
  configure?: (client: pg.Client) => void;
  /** Readies a new connection (a failure ends it and retries); its result goes to `up`. */
  open: (client: pg.Client) => Promise<T>;
  /** The session is up (not called when the session was closed meanwhile). */
  up: (value: T) => void;
  /** The session that was up is lost; a reconnect is scheduled. Not called by `close`. */
  lost: () => void;
}

/**
 * One PostgreSQL connection of the process's own, outside the pool, kept open for the life of the process: when it
 * is lost, it is opened again after `reconnectMs`, until `close`.
 */
export class OwnSession<T> {
  private client: pg.Client | null = null;
  private closed = false;
  private reconnectTimer: NodeJS.Timeout | null = null;

  constructor(
    private readonly databaseUrl: string,
    private readonly options: OwnSessionOptions<T>,
  ) {}

  /** Opens the session; if that fails, it keeps retrying in the background. */
  async start(): Promise<void> {
    await this.connect().catch((error: unknown) => {
      this.options.onError(error);
      this.scheduleReconnect();
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    const client = this.client;
    this.client = null;
    await client?.end().catch(() => undefined);
  }

  private async connect(): Promise<void> {
    // Keep-alive probes notice a connection that died without closing.
    const client = new pg.Client({
      connectionString: this.databaseUrl,
      application_name: this.options.applicationName,
      keepAlive: true,
    });
    this.options.configure?.(client);
    client.on('error', (error) => {
      this.options.onError(error);
      this.lost(client);
    });
    client.on('end', () => this.lost(client));
    this.client = client;
    let value: T;
    try {
      await client.connect();
      value = await this.options.open(client);
    } catch (error) {
      this.client = null;
      await client.end().catch(() => undefined);
      throw error;
    }
    if (this.closed) {
      await client.end().catch(() => undefined);
      return;
    }
    this.options.up(value);
  }

  private lost(client: pg.Client): void {
    if (this.client !== client) return;
    this.client = null;
    this.options.lost();
    if (!this.closed) this.scheduleReconnect();
  }

  private scheduleReconnect(): void {
    if (this.closed || this.reconnectTimer) return;
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = null;
      this.connect().catch((error: unknown) => {
        this.options.onError(error);
        this.scheduleReconnect();
      });
    }, this.options.reconnectMs);
    this.reconnectTimer.unref();
  }
}
