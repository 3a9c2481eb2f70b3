import { isDeepStrictEqual } from 'node:util';
import { type BenchContext, measurePair } from '../harness';
import { closedLoop } from '../load';
import type { Target } from '../stats';

export const READ_TARGETS: Target[] = [
  { metric: 'throughput', bound: 'min', value: 0.8 },
  { metric: 'p99', bound: 'max', value: 1.5 },
];
/** The Owner's searched list against the floor of a page (the page query alone, no total, no counts). */
export const PAGE_FLOOR_TARGETS: Target[] = [
  { metric: 'p50', bound: 'max', value: 2 },
  { metric: 'p99', bound: 'max', value: 3 },
];
export const AUTH_TARGETS: Target[] = [{ metric: 'throughput', bound: 'min', value: 0.9 }];

/** A GET side of a pair: every client walks its own sequence of paths (e.g. pages or cursors). */
export function getSide(
  url: string,
  headers: Record<string, string>,
  pathFor: (client: number, n: number) => string,
  connections: number,
) {
  return closedLoop({
    url,
    connections,
    client: (index) => {
      let n = 0;
      return { next: () => ({ method: 'GET', path: pathFor(index, n++), headers }) };
    },
  });
}

/** The first 5 pages of a filtered, searched, sorted list, 100 rows each; clients start on different pages. */
export const pages = (base: string) => (client: number, n: number) =>
  `${base}&page=${1 + ((client + n) % 5)}`;

export async function sameJson(
  ctx: BenchContext,
  what: string,
  a: RequestInit & { url: string },
  b: RequestInit & { url: string },
) {
  const [bodyA, bodyB] = await Promise.all(
    [a, b].map(async ({ url, ...init }) => {
      const response = await fetch(url, init);
      if (!response.ok)
        throw new Error(`${what}: ${url} answered ${response.status}: ${await response.text()}`);
      return response.json() as Promise<unknown>;
    }),
  );
  const same = isDeepStrictEqual(bodyA, bodyB);
  ctx.notes.push(`${what}: baseline and API return ${same ? 'the same JSON' : 'DIFFERENT JSON'}`);
  if (!same)
    ctx.log(
      `  ${what}: A ${JSON.stringify(bodyA).slice(0, 300)}\n  B ${JSON.stringify(bodyB).slice(0, 300)}`,
    );
}

export interface ReadQueries {
  owner: string;
  reviewer: string;
  cursor: { batch: string; topics: number };
}

/** The read pairs (Owner, Reviewer, genomics cursor) and the auth pair. */
export async function readPairs(ctx: BenchContext, queries: ReadQueries): Promise<void> {
  const { system, people, plan } = ctx;
  const c = plan.readConnections;
  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
  const as = (role: string, id: string) => ({ 'x-bench-principal': `${role}:${id}` });
  const owner = people.mathOwner;
  const reviewer = people.mathReviewer;

  const ownerPath = `/api/math/tasks?${queries.owner}`;
  const reviewerPath = `/api/math/tasks?${queries.reviewer}`;
  await sameJson(
    ctx,
    'read Owner',
    { url: `${system.baselineUrl}/bare/math/tasks?${queries.owner}`, headers: as('OWNER', owner.memberId) },
    { url: `${system.apiUrl}${ownerPath}`, headers: bearer(owner.token) },
  );
  await sameJson(
    ctx,
    'read Reviewer',
    {
      url: `${system.baselineUrl}/bare/math/tasks?${queries.reviewer}`,
      headers: as('REVIEWER', reviewer.memberId),
    },
    { url: `${system.apiUrl}${reviewerPath}`, headers: bearer(reviewer.token) },
  );

  await measurePair(ctx, {
    pair: 'read',
    variant: 'math list, Owner',
    concurrency: c,
    targets: READ_TARGETS,
    a: getSide(
      system.baselineUrl,
      as('OWNER', owner.memberId),
      pages(`/bare/math/tasks?${queries.owner}`),
      c,
    ),
    b: getSide(system.apiUrl, bearer(owner.token), pages(ownerPath), c),
  });
  await measurePair(ctx, {
    pair: 'read',
    variant: 'math list q, Owner vs page floor',
    concurrency: c,
    targets: PAGE_FLOOR_TARGETS,
    a: getSide(
      system.baselineUrl,
      as('OWNER', owner.memberId),
      pages(`/bare-page/math/tasks?${queries.owner}`),
      c,
    ),
    b: getSide(system.apiUrl, bearer(owner.token), pages(ownerPath), c),
  });
  await measurePair(ctx, {
    pair: 'read',
    variant: 'math list, Reviewer',
    concurrency: c,
    targets: READ_TARGETS,
    a: getSide(
      system.baselineUrl,
      as('REVIEWER', reviewer.memberId),
      pages(`/bare/math/tasks?${queries.reviewer}`),
      c,
    ),
    b: getSide(system.apiUrl, bearer(reviewer.token), pages(reviewerPath), c),
  });

  // Cursor positions spread over the batch; every client walks its own sequence of them.
  const { batch, topics } = queries.cursor;
  const cursorAt = (client: number, n: number) =>
    `limit=100&afterBatch=${batch}&afterTopic=${1 + (((client * 7919 + n * 104_729) >>> 0) % Math.max(1, topics - 100))}`;
  const genomicsOwner = people.genomicsOwner;
  await sameJson(
    ctx,
    'read genomics cursor',
    {
      url: `${system.baselineUrl}/bare/v1/tasks?${cursorAt(0, 0)}`,
      headers: as('OWNER', genomicsOwner.memberId),
    },
    { url: `${system.apiUrl}/api/v1/tasks?${cursorAt(0, 0)}`, headers: bearer(genomicsOwner.token) },
  );
  await measurePair(ctx, {
    pair: 'read',
    variant: 'v1 tasks, cursor',
    concurrency: c,
    targets: READ_TARGETS,
    a: getSide(
      system.baselineUrl,
      as('OWNER', genomicsOwner.memberId),
      (client, n) => `/bare/v1/tasks?${cursorAt(client, n)}`,
      c,
    ),
    b: getSide(
      system.apiUrl,
      bearer(genomicsOwner.token),
      (client, n) => `/api/v1/tasks?${cursorAt(client, n)}`,
      c,
    ),
  });

  await measurePair(ctx, {
    pair: 'auth',
    variant: 'math list, Owner',
    concurrency: c,
    targets: AUTH_TARGETS,
    a: getSide(
      system.baselineUrl,
      as('OWNER', owner.memberId),
      pages(`/bare/math/tasks?${queries.owner}`),
      c,
    ),
    b: getSide(system.baselineUrl, bearer(owner.token), pages(`/bare-auth/math/tasks?${queries.owner}`), c),
  });
}
