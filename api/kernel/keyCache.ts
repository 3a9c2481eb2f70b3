import { listenForAuthChanges } from '../../access/authQueries';
import { OwnSession } from './ownSession';

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
  private readonly listener: OwnSession<void>;
  private listening = false;
  /** Raised by every notification and listener change; a lookup stores its row only if it did not move. */
  private generationValue = 0;
  private readonly ttlMs: number;
  private readonly maxEntries: number;

  constructor(databaseUrl: string, options: KeyCacheOptions = {}) {
    this.ttlMs = options.ttlMs ?? 30_000;
    this.maxEntries = options.maxEntries ?? 10_000;
    this.listener = new OwnSession(databaseUrl, {
      applicationName: 'referee-key-cache',
      reconnectMs: options.reconnectMs ?? 1_000,
      onError: options.onError ?? (() => undefined),
      configure: (client) => client.on('notification', (message) => this.invalidate(message.payload)),
      open: (client) => listenForAuthChanges(client),
      up: () => {
        // Lookups that began before the listener was up may hold rows older than a missed notification.
        this.generationValue += 1;
        this.listening = true;
      },
      lost: () => this.stopListening(),
    });
  }

  /** Connects the listener; if that fails the cache stays off (every request queries) and keeps retrying. */
  async start(): Promise<void> {
    await this.listener.start();
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
    this.stopListening();
    await this.listener.close();
  }

  private stopListening(): void {
    this.listening = false;
    this.generationValue += 1;
    this.entries.clear();
  }
}
