import type { DataSource } from 'typeorm';
import { purgeIdentityAudit } from '../../access/authQueries';
import { purgeExpiredSignIns } from '../../access/consoleSessionsQueries';

/** Rows one purge statement deletes at most, so no purge holds its locks for long. */
const PURGE_BATCH = 5000;

export interface HousekeepingOptions {
  /** How often the purges run (default 5 minutes); also once at start. */
  intervalMs?: number;
  /** Identity audit records older than this many days go; 0 keeps them all. */
  auditRetentionDays: number;
  onError?: (error: unknown) => void;
}

/**
 * The API process's periodic purges, off every request path: sign-ins past their ten minutes
 * (`console_sign_ins`) and identity audit records past their retention. Every API process runs them; two
 * running at once delete disjoint or already-deleted rows, which is harmless.
 */
export class Housekeeping {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> = Promise.resolve();

  constructor(
    private readonly dataSource: DataSource,
    private readonly options: HousekeepingOptions,
  ) {}

  start(): void {
    void this.runOnce();
    this.timer = setInterval(() => void this.runOnce(), this.options.intervalMs ?? 5 * 60_000);
    this.timer.unref();
  }

  /** Runs every purge once (after any run under way); resolves when done. Errors go to `onError`. */
  runOnce(): Promise<void> {
    this.running = this.running.then(async () => {
      try {
        while ((await purgeExpiredSignIns(this.dataSource, PURGE_BATCH)) === PURGE_BATCH);
        if (this.options.auditRetentionDays > 0)
          while (
            (await purgeIdentityAudit(this.dataSource, this.options.auditRetentionDays, PURGE_BATCH)) ===
            PURGE_BATCH
          );
      } catch (error) {
        this.options.onError?.(error);
      }
    });
    return this.running;
  }

  async close(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running;
  }
}
