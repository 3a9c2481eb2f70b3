import { type BenchContext, measurePair } from '../harness';
import type { Target } from '../stats';
import { getSide, sameJson } from './read';

/** The dashboards' requests within 2× of their bare SQL (issue target), as a page polling them needs. */
export const DASHBOARD_TARGETS: Target[] = [
  { metric: 'throughput', bound: 'min', value: 0.5 },
  { metric: 'p99', bound: 'max', value: 2 },
];

/**
 * The dashboard pairs: each request the console's dashboards send (docs/console.md, "Dashboards") against a bare
 * route running the API's own queries and answer (bench/baseline/server.ts), as an Owner (every task) and a
 * Reviewer (their own), over the bench's dataset.
 */
export async function dashboardPairs(ctx: BenchContext): Promise<void> {
  const { system, people, plan } = ctx;
  const c = plan.readConnections;
  const requests = [
    {
      variant: 'math analytics, Owner',
      path: '/math/analytics?days=30',
      caller: people.mathOwner,
      role: 'OWNER',
    },
    {
      variant: 'math reviewers, Owner',
      path: '/math/analytics/reviewers?days=30',
      caller: people.mathOwner,
      role: 'OWNER',
    },
    {
      variant: 'math reviewers, Reviewer',
      path: '/math/analytics/reviewers?days=30',
      caller: people.mathReviewer,
      role: 'REVIEWER',
    },
    { variant: 'math monitor, Owner', path: '/math/monitor', caller: people.mathOwner, role: 'OWNER' },
    {
      variant: 'v1 analytics, Owner',
      path: '/v1/analytics?days=30',
      caller: people.genomicsOwner,
      role: 'OWNER',
    },
    {
      variant: 'v1 analytics, Reviewer',
      path: '/v1/analytics?days=30',
      caller: people.genomicsReviewer,
      role: 'REVIEWER',
    },
  ];
  for (const { variant, path, caller, role } of requests) {
    const bare = { 'x-bench-principal': `${role}:${caller.memberId}` };
    const bearer = { authorization: `Bearer ${caller.token}` };
    await sameJson(
      ctx,
      `dashboard ${variant}`,
      { url: `${system.baselineUrl}/bare${path}`, headers: bare },
      { url: `${system.apiUrl}/api${path}`, headers: bearer },
    );
    await measurePair(ctx, {
      pair: 'dashboard',
      variant,
      concurrency: c,
      targets: DASHBOARD_TARGETS,
      a: getSide(system.baselineUrl, bare, () => `/bare${path}`, c),
      b: getSide(system.apiUrl, bearer, () => `/api${path}`, c),
    });
  }
}
