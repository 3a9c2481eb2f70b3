import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { GetObjectCommand } from '@aws-sdk/client-s3';
import Router from '@koa/router';
import { Client, Connection } from '@temporalio/client';
import Koa from 'koa';
import pg from 'pg';
import type { DataSource } from 'typeorm';
import { genomicsAnalyticsAnswer } from '../../api/genomics/analytics/operations';
import { presentTopicItem } from '../../api/genomics/topics/presenters';
import { listTopics } from '../../api/genomics/topics/queries';
import {
  authenticateApiKey,
  type KeyWithMemberRow,
  LastUsedRecorder,
  type Principal,
} from '../../api/kernel/authenticate';
import { KeyCache } from '../../api/kernel/keyCache';
import { analyticsAnswer, reviewerAnalyticsAnswer } from '../../api/math/analytics/operations';
import { monitorAnswer } from '../../api/math/monitor/operations';
import { pageOf } from '../../api/math/shared/pagination';
import { presentTask } from '../../api/math/tasks/presenters';
import { TaskCountCache } from '../../api/math/tasks/listCounts';
import {
  type TaskFilters,
  type TaskRow,
  type TaskSort,
  type TaskSurface,
  taskPageSql,
} from '../../api/math/tasks/queries';
import { loadConfig } from '../../config';
import { createS3Client } from '../../storage/objectStore';
import { removeSpool, SPOOL_CHUNK_BYTES, spoolPath } from '../../storage/spool';
import { VERIFY_IN_MEMORY_BYTES } from '../../storage/verifiedDownload';

/**
 * The baselines of the benchmark, in one small process: bare Koa routes with no validation, no logging,
 * no idempotency and (except where auth is what is measured) no authentication. Each does what the matching
 * API operation must physically do — the same SQL through a bare `pg` pool (a list's `total` and counts reused
 * until `math_tasks` changes), one Temporal Update, one S3 GET (read through SHA-256 before it is sent where
 * the API verifies) — and returns the same JSON or bytes, so B/A is the price of everything else.
 */
const config = loadConfig();
const pool = new pg.Pool({
  connectionString: config.databaseUrl,
  max: config.databasePoolSize,
  application_name: 'bench-baseline',
});
/** The pool behind the query signature the kernel's helpers take (they only call `query`). */
const db = { query: async (sql: string, params?: unknown[]) => (await pool.query(sql, params)).rows };
const asDataSource = db as unknown as DataSource;
const s3 = createS3Client(config.s3);
const connection = Connection.lazy({ address: config.temporal.address });
const temporal = new Client({ connection, namespace: config.temporal.namespace });
const lastUsed = new LastUsedRecorder(asDataSource, 1000);
/** The API's reuse of counts (one entry per list shape, exact under writes): what a correct list needs. */
const taskCounts = new TaskCountCache(asDataSource);
const keyCache = new KeyCache<KeyWithMemberRow>(config.databaseUrl);
void keyCache.start();

/** Who the bare read runs as, without a credential: `x-bench-principal: <ROLE>:<member id>`. */
function principalFrom(ctx: Koa.Context): Principal {
  const [role, id] = (ctx.get('x-bench-principal') || 'OWNER:0').split(':');
  return { role, member: { id } } as unknown as Principal;
}

const str = (value: unknown) => (typeof value === 'string' && value !== '' ? value : undefined);

/** The math task list's query with the defaults the API's schema applies; no validation. */
function mathListOf(query: Record<string, unknown>) {
  const filters: TaskFilters = {
    question_id: str(query.question_id),
    run_id: str(query.run_id),
    reviewer_id: str(query.reviewer_id),
    client_id: str(query.client_id),
    review_state: str(query.review_state) as TaskFilters['review_state'],
    decision: str(query.decision) as TaskFilters['decision'],
    q: str(query.q),
    surface: (str(query.surface) ?? 'all') as TaskSurface,
  };
  const page = { page: Number(query.page ?? 1), page_size: Number(query.page_size ?? 25) };
  return { filters, sort: (str(query.sort) ?? 'updated') as TaskSort, page };
}

async function mathTaskList(principal: Principal, query: Record<string, unknown>) {
  const { filters, sort, page } = mathListOf(query);
  const pageSql = taskPageSql(principal, filters, sort, page);
  const [rows, counts] = await Promise.all([
    db.query(pageSql.sql, pageSql.params) as Promise<TaskRow[]>,
    taskCounts.counts(principal, filters),
  ]);
  return { ...pageOf(rows.map(presentTask), page, counts.total), counts };
}

/** Only the page query (no `total`, no counts): the floor of a page of the list. */
async function mathTaskPage(principal: Principal, query: Record<string, unknown>) {
  const { filters, sort, page } = mathListOf(query);
  const pageSql = taskPageSql(principal, filters, sort, page);
  const rows = (await db.query(pageSql.sql, pageSql.params)) as TaskRow[];
  return { items: rows.map(presentTask), page: page.page, page_size: page.page_size };
}

const router = new Router();

router.get('/readyz', async (ctx) => {
  await pool.query('SELECT 1');
  ctx.body = { status: 'ready' };
});

router.get('/bare/math/tasks', async (ctx) => {
  ctx.body = await mathTaskList(principalFrom(ctx), ctx.query);
});

router.get('/bare-page/math/tasks', async (ctx) => {
  ctx.body = await mathTaskPage(principalFrom(ctx), ctx.query);
});

/** The same handler behind the kernel's API-key authentication (its key cache included) and `last_used_at` tracking. */
router.get('/bare-auth/math/tasks', async (ctx) => {
  const principal = await authenticateApiKey(
    { dataSource: asDataSource, keyCache },
    'math',
    ctx.get('authorization') || undefined,
  );
  if (principal.key) lastUsed.record(principal.key.id);
  ctx.body = await mathTaskList(principal, ctx.query);
});

router.get('/bare/v1/tasks', async (ctx) => {
  const q = ctx.query;
  const page = await listTopics(asDataSource, {
    limit: Number(q.limit ?? 50),
    search: str(q.search),
    after:
      q.afterBatch !== undefined ? { batch: String(q.afterBatch), topic: Number(q.afterTopic) } : undefined,
    visibleTo: principalFrom(ctx),
  });
  ctx.body = { items: page.rows.map(presentTopicItem), next: page.next };
});

/** The dashboards' reads (docs/console.md, "Dashboards"): the API's own queries and answers, nothing else. */
const daysOf = (query: Record<string, unknown>) => Number(query.days ?? 30);
router.get('/bare/math/analytics', async (ctx) => {
  ctx.body = await analyticsAnswer(asDataSource, principalFrom(ctx), daysOf(ctx.query));
});
router.get('/bare/math/analytics/reviewers', async (ctx) => {
  ctx.body = await reviewerAnalyticsAnswer(asDataSource, principalFrom(ctx), daysOf(ctx.query));
});
router.get('/bare/math/monitor', async (ctx) => {
  ctx.body = await monitorAnswer(asDataSource, principalFrom(ctx));
});
router.get('/bare/v1/analytics', async (ctx) => {
  ctx.body = await genomicsAnalyticsAnswer(asDataSource, principalFrom(ctx), daysOf(ctx.query));
});

/** One Workflow Update on a running echo workflow; the body is the update's argument and its result. */
router.post('/bare/echo/:workflowId', async (ctx) => {
  const chunks: Buffer[] = [];
  for await (const chunk of ctx.req) chunks.push(chunk as Buffer);
  const payload = JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown;
  ctx.body = await temporal.workflow
    .getHandle(ctx.params.workflowId)
    .executeUpdate('echo', { args: [payload] });
});

const S3_PREFIX = '/bare/s3/';
const VERIFIED_S3_PREFIX = '/bare/s3-verified/';

/**
 * The least a first read of a stored file does (the math spec: size and SHA-256 are verified before bytes
 * are returned): every chunk read from S3 hashed, counted and held, in memory up to the API's bound (sent in
 * one corked write, no copy), else in a temporary file written and read a spool chunk at a time; sent only
 * once size and digest equal the recorded ones (`?size=&sha256=`), else 502.
 */
async function verifiedFirstRead(ctx: Koa.Context, key: string) {
  const recorded = { size: Number(ctx.query.size), sha256: String(ctx.query.sha256) };
  const object = await s3.send(new GetObjectCommand({ Bucket: config.s3.bucket, Key: key }));
  const path = recorded.size > VERIFY_IN_MEMORY_BYTES ? spoolPath() : null;
  const held: Buffer[] = [];
  const hash = createHash('sha256');
  let size = 0;
  async function* hashed(chunks: AsyncIterable<Buffer>) {
    for await (const chunk of chunks) {
      hash.update(chunk);
      size += chunk.length;
      yield chunk;
    }
  }
  const body = object.Body as Readable;
  try {
    if (!path) for await (const chunk of hashed(body)) held.push(chunk);
    else {
      const spool = createWriteStream(path, { flags: 'wx', mode: 0o600, highWaterMark: SPOOL_CHUNK_BYTES });
      await pipeline(body, hashed, spool);
    }
    if (size !== recorded.size || hash.digest('hex') !== recorded.sha256) throw new Error('not as recorded');
  } catch (error) {
    if (path) await removeSpool(path);
    ctx.status = 502;
    ctx.body = { error: (error as Error).message };
    return;
  }
  ctx.respond = false;
  ctx.res.writeHead(200, {
    'Content-Type': object.ContentType ?? 'application/octet-stream',
    'Content-Length': size,
  });
  if (!path) {
    ctx.res.cork();
    for (const chunk of held) ctx.res.write(chunk);
    ctx.res.end();
    return;
  }
  // Removed once the read stream has closed, as the API does: removed when the pipeline ends, a client gone before
  // the file opened left it to fail opening a removed file, an error nobody listened for.
  const file = createReadStream(path, { highWaterMark: SPOOL_CHUNK_BYTES });
  file.once('close', () => void removeSpool(path).catch(() => undefined));
  // A client gone mid-body ends the pipeline; the answer was sent as far as anybody reads it.
  await pipeline(file, ctx.res).catch(() => undefined);
}

const app = new Koa();
/** An S3 object streamed through as it arrives (no hashing, no spooling), or verified first. */
app.use(async (ctx, next) => {
  if (ctx.method !== 'GET') return next();
  if (ctx.path.startsWith(VERIFIED_S3_PREFIX))
    return verifiedFirstRead(ctx, ctx.path.slice(VERIFIED_S3_PREFIX.length));
  if (!ctx.path.startsWith(S3_PREFIX)) return next();
  const key = ctx.path.slice(S3_PREFIX.length);
  const object = await s3.send(new GetObjectCommand({ Bucket: config.s3.bucket, Key: key }));
  ctx.set('Content-Type', object.ContentType ?? 'application/octet-stream');
  if (object.ContentLength !== undefined) ctx.length = object.ContentLength;
  ctx.body = object.Body;
});
app.use(router.routes());
const server = app.listen(Number(process.env.BENCH_BASELINE_PORT), '127.0.0.1');

const stop = () => {
  server.close();
  server.closeAllConnections();
  void Promise.all([lastUsed.flush(), keyCache.close(), pool.end(), connection.close()]).finally(() =>
    process.exit(0),
  );
};
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
