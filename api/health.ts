import { HeadBucketCommand } from '@aws-sdk/client-s3';
import type Router from '@koa/router';
import { pingDatabase } from './healthQueries';
import type { AppDeps } from './kernel/deps';

const withTimeout = <T>(promise: Promise<T>, ms: number): Promise<T> =>
  Promise.race([
    promise,
    new Promise<T>((_, reject) =>
      setTimeout(() => reject(new Error(`timed out after ${ms} ms`)), ms).unref(),
    ),
  ]);

const CHECK_TIMEOUT_MS = 2000;

export type DependencyStatus = { status: 'up' } | { status: 'down'; detail: string };

/**
 * Probes PostgreSQL, Temporal and S3, each within its deadline: what `/readyz` answers and what the API's
 * `referee_dependency_up` metric shows when scraped.
 */
export async function checkDependencies(deps: AppDeps): Promise<Record<string, DependencyStatus>> {
  const timeoutMs = CHECK_TIMEOUT_MS;
  const checks = {
    postgres: () => pingDatabase(deps.dataSource),
    // With a deadline, the SDK's retries of an unreachable server stop with the probe (they would outlive it).
    temporal: () =>
      deps.temporal.connection.withDeadline(Date.now() + timeoutMs, () =>
        deps.temporal.connection.healthService.check({}),
      ),
    s3: () => deps.s3.send(new HeadBucketCommand({ Bucket: deps.config.s3.bucket })),
  };
  const results = await Promise.all(
    Object.entries(checks).map(async ([name, check]): Promise<[string, DependencyStatus]> => {
      try {
        await withTimeout(check(), timeoutMs);
        return [name, { status: 'up' }];
      } catch (error) {
        return [name, { status: 'down', detail: (error as Error).message }];
      }
    }),
  );
  return Object.fromEntries(results);
}

/** `/healthz`: the process is up. `/readyz`: PostgreSQL, Temporal and S3 answer; 503 names what does not. */
export function healthRoutes(deps: AppDeps) {
  return (router: Router) => {
    router.get('/healthz', (ctx) => {
      ctx.body = { status: 'ok' };
    });
    router.get('/readyz', async (ctx) => {
      const dependencies = await checkDependencies(deps);
      const ready = Object.values(dependencies).every((r) => r.status === 'up');
      ctx.status = ready ? 200 : 503;
      if (!ready) ctx.set('Retry-After', '5');
      ctx.body = { status: ready ? 'ready' : 'unavailable', dependencies };
    });
  };
}
