import pg from 'pg';
import { listenForAuthChanges } from '../../access/authQueries';

/** The channel the triggers of migration AuthChangeNotifications notify: `key:<id>`, `member:<id>` or `all`. */

/** What authentication needs of a key and its member (one row of the key lookup). */
export interface CachedKey {
  id: string;
  service: string;
  member_id: string;
  expires_at: Date;
  revoked_at: Date | null;
  enabled: boolean;
}

export interface KeyCacheOptions {
  /** How long a looked-up key is reused at most; notifications end it sooner. */
  ttlMs?: number;
  maxEntries?: number;
  /** Delay before reconnecting the listener after its connection was lost. */
  reconnectMs?: number;
  onError?: (error: unknown) => void;
}

/**
 * Looked-up API keys of this process, reused for a short time so authentication costs no query per
 * request, while revocation, member changes and deletion still end them in every API process at once:
 * triggers on `api_keys` and `members` notify `AUTH_CHANGES_CHANNEL` (access/authQueries.ts), and this cache listens on a
 * connection of its own. Expiry needs no notification (`expires_at` is checked on every use). Nothing is
 * served from the cache while the listener is not connected, so a missed notification cannot keep a
 * revoked key alive; a lookup that overlapped a notification is not stored.
 */
export class KeyCache<Row extends CachedKey = CachedKey> {
  private readonly entries = new Map<string, { row: Row; storedAt: number }>();
  private listener: pg.Client | null = null;
  private listening = false;
  private closed = false;
  private reconnectTimer: NodeJS.Timeout | null = null;
  /** Raised by every notification and listener change; a lookup stores its row only if it did not move. */
  private generationValue = 0;
  private readonly ttlMs: number;
  private readonly maxEntries: number;
  private readonly reconnectMs: number;
  private readonly onError: (error: unknown) => void;

  constructor(
    private readonly databaseUrl: string,
    options: KeyCacheOptions = {},
  ) {
    this.ttlMs = options.ttlMs ?? 30_000;
    this.maxEntries = options.maxEntries ?? 10_000;
    this.reconnectMs = options.reconnectMs ?? 1_000;
    this.onError = options.onError ?? (() => undefined);
  }

  /** Connects the listener; if that fails the cache stays off (every request queries) and keeps retrying. */
  async start(): Promise<void> {
    await this.connect().catch((error: unknown) => {
      this.onError(error);
      this.scheduleReconnect();
    });
  }

  get generation(): number {
    return this.generationValue;
  }

  get(service: string, keyId: string): Row | undefined {
    if (!this.listening) return undefined;
    const entry = this.entries.get(`${service}/${keyId}`);
    if (!entry) return undefined;
    if (Date.now() - entry.storedAt >= this.ttlMs) {
      this.entries.delete(`${service}/${keyId}`);
      return undefined;
    }
    return entry.row;
  }

  /** Keeps a row read from PostgreSQL, unless a change was notified since `generation` was taken. */
  store(service: string, row: Row, generation: number): void {
    if (!this.listening || generation !== this.generationValue) return;
    const key = `${service}/${row.id}`;
    this.entries.delete(key);
    this.entries.set(key, { row, storedAt: Date.now() });
    if (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value as string);
  }

  /** Applies one notification payload; anything unexpected empties the cache. */
  invalidate(payload: string | undefined): void {
    this.generationValue += 1;
    const [kind, id] = (payload ?? '').split(':', 2);
    if (kind === 'key' && id) {
      for (const key of [...this.entries.keys()]) if (key.endsWith(`/${id}`)) this.entries.delete(key);
    } else if (kind === 'member' && id) {
      for (const [key, entry] of [...this.entries]) if (entry.row.member_id === id) this.entries.delete(key);
    } else {
      this.entries.clear();
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    this.stopListening();
    const listener = this.listener;
    this.listener = null;
    await listener?.end().catch(() => undefined);
  }

  private async connect(): Promise<void> {
    const client = new pg.Client({
      connectionString: this.databaseUrl,
      application_name: 'referee-key-cache',
    });
    client.on('notification', (message) => this.invalidate(message.payload));
    client.on('error', (error) => {
      this.onError(error);
      this.lost(client);
    });
    client.on('end', () => this.lost(client));
    this.listener = client;
    try {
      await client.connect();
      await listenForAuthChanges(client);
    } catch (error) {
      this.listener = null;
      await client.end().catch(() => undefined);
      throw error;
    }
    if (this.closed) {
      await client.end().catch(() => undefined);
      return;
    }
    // Lookups that began before the listener was up may hold rows older than a missed notification.
    this.generationValue += 1;
    this.listening = true;
  }

  private lost(client: pg.Client): void {
    if (this.listener !== client) return;
    this.listener = null;
    this.stopListening();
    if (!this.closed) this.scheduleReconnect();
  }

  private stopListening(): void {
    this.listening = false;
    this.generationValue += 1;
    this.entries.clear();
  }

  private scheduleReconnect(): void {
    if (this.closed || this.reconnectTimer) return;
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = null;
      this.connect().catch((error: unknown) => {
        this.onError(error);
        this.scheduleReconnect();
      });
    }, this.reconnectMs);
    this.reconnectTimer.unref();
  }
}
