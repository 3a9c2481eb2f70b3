import { Gauge, type Registry } from 'prom-client';

/** A connection pool's state as its driver reports it (node-postgres: `totalCount`, `idleCount`, `waitingCount`). */
export interface PoolState {
  total: number;
  idle: number;
  waiting: number;
  max: number;
}

/**
 * Both processes' PostgreSQL pool: connections open and idle, requests waiting for one, and the pool's size.
 * Waiting above zero for long means the pool (DATABASE_POOL_SIZE) or the database is the bottleneck.
 */
export function registerPoolMetrics(registry: Registry, pool: () => PoolState | null): void {
  new Gauge({
    name: 'referee_db_pool_connections',
    help: 'PostgreSQL pool connections by state: open (total), idle, and waiting (queries queued for a connection).',
    labelNames: ['state'],
    registers: [registry],
    collect() {
      const now = pool();
      if (!now) return;
      this.set({ state: 'total' }, now.total);
      this.set({ state: 'idle' }, now.idle);
      this.set({ state: 'waiting' }, now.waiting);
    },
  });
  new Gauge({
    name: 'referee_db_pool_max_connections',
    help: 'The most connections the PostgreSQL pool opens (DATABASE_POOL_SIZE).',
    registers: [registry],
    collect() {
      const now = pool();
      if (now) this.set(now.max);
    },
  });
}

/**
 * The API's dependencies, probed when scraped (the checks of `/readyz`, each with its deadline): 1 up, 0 down.
 * A store that stays 0 is what the `RefereeStoreUnreachable` alert reports (observability/alerts.yml).
 */
export function registerDependencyMetrics(
  registry: Registry,
  probe: () => Promise<Record<string, boolean>>,
  onError?: (error: unknown) => void,
): void {
  new Gauge({
    name: 'referee_dependency_up',
    help: 'Whether the API reaches each dependency (postgres, temporal, s3) at scrape time, as /readyz checks it: 1 up, 0 down.',
    labelNames: ['dependency'],
    registers: [registry],
    async collect() {
      const results = await probe().catch((error: unknown) => {
        onError?.(error);
        return null;
      });
      if (!results) return;
      for (const [dependency, up] of Object.entries(results)) this.set({ dependency }, up ? 1 : 0);
    },
  });
}
