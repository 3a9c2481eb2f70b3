import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Runtime } from '@temporalio/worker';
import { createLogger } from '../../logging/logger';
import { type Config, loadConfig } from '../../config';
import { connectAndMigrate } from '../../entities/dataSource';
import { ensureAllTools } from '../../infra/goTools';
import { createDatabase, type EmbeddedPostgres, startEmbeddedPostgres } from '../../infra/postgres';
import { type S3Server, startS3Server } from '../../infra/s3Server';
import { type TemporalDevServer, startTemporalDevServer } from '../../infra/temporalDevServer';
import { type RunningServer, startServer } from '../../server';
import { sdkLoggerFor } from '../../logging/temporalSdkLogger';
import { type RunningWorker, startWorker } from '../../worker';
import { pictures, postBugReport } from '../helpers/files';
import { createTopic, g, topicPath } from '../helpers/genomics';
import {
  http,
  type HttpResult,
  mintKey,
  pastRecheckWindow,
  seedMembers,
  type TestStack,
  VERIFIED_CACHE_RECHECK_SECONDS,
} from '../helpers/stack';
import { readTestEnv } from '../helpers/testEnv';

/**
 * Each dependency stopped and restarted under a running API and worker: PostgreSQL (an embedded cluster of
 * this test's own), the Temporal dev server (this test's own, with SQLite so it keeps its workflows) and the
 * S3 server (this test's own versitygw). Requests get 503 problem+json with Retry-After and never hang,
 * /readyz names the dependency that is down, and the service recovers by itself when it returns.
 */

const CALL_TIMEOUT_MS = 2000;
/** A request answered after this long counts as hanging. */
const HANG_MS = CALL_TIMEOUT_MS + 4000;

let workDir: string;
let tools: { temporal: string; versitygw: string };
let pg: EmbeddedPostgres;
let pgPort: number;
let temporal: TemporalDevServer;
let temporalPort: number;
let s3: S3Server;
let s3Port: number;
let config: Config;
let worker: RunningWorker;
let server: RunningServer;
let stack: TestStack;
let math: string;
let genomics: string;

const temporalLog = () => join(workDir, 'temporal.log');
const startTemporal = (port?: number) =>
  startTemporalDevServer({
    binary: tools.temporal,
    headless: true,
    port,
    dbFile: join(workDir, 'temporal.sqlite'),
    logFile: temporalLog(),
  });
const startS3 = (port?: number) =>
  startS3Server({
    binary: tools.versitygw,
    rootDir: join(workDir, 's3'),
    port,
    buckets: ['referee-deps'],
    logFile: join(workDir, 's3.log'),
  });
const startPg = (port?: number) =>
  startEmbeddedPostgres({ dataDir: join(workDir, 'pg'), port, logFile: join(workDir, 'pg.log') });

beforeAll(async () => {
  Runtime.install({ logger: sdkLoggerFor(createLogger('error')) });
  workDir = await mkdtemp(join(tmpdir(), 'referee-deps-'));
  tools = await ensureAllTools();
  [pg, temporal, s3] = await Promise.all([startPg(), startTemporal(), startS3()]);
  pgPort = Number(new URL(pg.url).port);
  temporalPort = Number(temporal.address.split(':').pop());
  s3Port = Number(new URL(s3.endpoint).port);
  const databaseUrl = await createDatabase(pg.url, 'referee_deps');
  await (await connectAndMigrate(databaseUrl, 1)).destroy();
  config = loadConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    DATABASE_URL: databaseUrl,
    DATABASE_POOL_SIZE: '4',
    TEMPORAL_ADDRESS: temporal.address,
    TEMPORAL_NAMESPACE: 'default',
    TEMPORAL_TASK_QUEUE: 'referee-deps',
    TEMPORAL_CALL_TIMEOUT_MS: String(CALL_TIMEOUT_MS),
    S3_ENDPOINT: s3.endpoint,
    S3_ACCESS_KEY_ID: s3.accessKeyId,
    S3_SECRET_ACCESS_KEY: s3.secretAccessKey,
    S3_BUCKET: 'referee-deps',
    LOG_LEVEL: 'silent',
    VERIFIED_CACHE_RECHECK_SECONDS: String(VERIFIED_CACHE_RECHECK_SECONDS),
  });
  worker = await startWorker(config, { workflowBundle: { codePath: readTestEnv().workflowBundlePath } });
  server = await startServer(config, { validateResponses: true });
  stack = { config, url: server.url, dataSource: server.deps.dataSource } as TestStack;
  await seedMembers(stack);
  math = (await mintKey(stack, 'math', 'idp|olga')).token;
  genomics = (await mintKey(stack, 'genomics', 'idp|olga')).token;
}, 180_000);

afterAll(async () => {
  // The Temporal client retries a failed call on a timer until its deadline; closing the connection under a
  // pending retry makes that timer throw ("Channel has been shut down"). Let every deadline pass first.
  await new Promise((resolve) => setTimeout(resolve, CALL_TIMEOUT_MS + 1000));
  await server?.close().catch(() => undefined);
  await worker?.shutdown().catch(() => undefined);
  await Promise.allSettled([pg?.stop(), temporal?.stop(), s3?.stop()]);
  if (workDir && !process.env.KEEP_TEST_LOGS) await rm(workDir, { recursive: true, force: true });
}, 60_000);

/** A request, timed: it must be answered (whatever the answer) well within the Temporal deadline. */
async function timed<T>(request: () => Promise<T>): Promise<T> {
  const started = Date.now();
  const result = await request();
  expect(Date.now() - started).toBeLessThan(HANG_MS);
  return result;
}

function expectUnavailable(res: HttpResult, dependency: string): void {
  expect({ status: res.status, code: res.body?.code, dependency: res.body?.dependency }).toEqual({
    status: 503,
    code: 'dependency_unavailable',
    dependency,
  });
  expect(res.headers.get('content-type')).toContain('application/problem+json');
  expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
}

async function readiness(): Promise<{ status: number; down: string[] }> {
  const res = await timed(() => fetch(`${server.url}/readyz`));
  const body = (await res.json()) as { dependencies: Record<string, { status: string }> };
  return {
    status: res.status,
    down: Object.entries(body.dependencies)
      .filter(([, d]) => d.status !== 'up')
      .map(([name]) => name),
  };
}

/** Polls until `probe` is true: the service recovers by itself, nobody restarts it. */
async function until(probe: () => Promise<boolean>, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await probe())) {
    if (Date.now() > deadline) throw new Error('did not recover in time');
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

describe('with every dependency up', () => {
  it('is ready', async () => {
    expect(await readiness()).toEqual({ status: 200, down: [] });
  });
});

describe('PostgreSQL stopped and restarted', () => {
  it('answers 503 postgres while it is down, says so in /readyz, and recovers by itself', async () => {
    await pg.stop();
    expectUnavailable(
      await timed(() => http(stack, 'GET', '/api/auth/session', { token: math })),
      'postgres',
    );
    expectUnavailable(
      await timed(() => http(stack, 'POST', '/api/math/clients', { token: math, body: { name: 'Down' } })),
      'postgres',
    );
    expectUnavailable(
      await timed(() => http(stack, 'GET', '/api/v1/topics', { token: genomics })),
      'postgres',
    );
    expect(await readiness()).toEqual({ status: 503, down: ['postgres'] });

    pg = await startPg(pgPort);
    await until(async () => (await http(stack, 'GET', '/api/auth/session', { token: math })).status === 200);
    expect(
      (await http(stack, 'POST', '/api/math/clients', { token: math, body: { name: 'Up' } })).status,
    ).toBe(201);
    await until(async () => (await readiness()).status === 200);
  }, 90_000);
});

describe('Temporal stopped and restarted', () => {
  it('answers 503 temporal to workflow mutations within the deadline, keeps serving reads, and recovers', async () => {
    const uid = await createTopic(stack, genomics, { batch: 'batch-700' });
    const assign = (key: string) =>
      g(stack, 'PUT', topicPath(uid, '/reviewer'), {
        token: genomics,
        key,
        body: { reviewerId: null, instructions: 'Nobody yet.', dueAt: null },
      });
    expect((await assign('deps-assign-before-0001')).status).toBe(200);

    await temporal.stop();
    expectUnavailable(await timed(() => assign('deps-assign-during-0001')), 'temporal');
    expect((await timed(() => g(stack, 'GET', topicPath(uid), { token: genomics }))).status).toBe(200);
    expect(await readiness()).toEqual({ status: 503, down: ['temporal'] });

    temporal = await startTemporal(temporalPort);
    // The client retries with the same Idempotency-Key; the refused attempt stored nothing.
    await until(async () => (await assign('deps-assign-during-0001')).status === 200, 60_000);
    await until(async () => (await readiness()).status === 200);
  }, 120_000);
});

describe('S3 unreachable and back', () => {
  it('answers 503 to uploads and downloads while it is away, and serves again when it returns', async () => {
    const picture = { bytes: pictures.png(), type: 'image/png', name: 'screen.png' };
    const created = await postBugReport(stack, math, { description: 'Before.', picture });
    expect(created.status).toBe(201);
    const screenshot = `/api/bug-reports/${created.body.report_id}/screenshot`;
    expect((await http(stack, 'GET', screenshot, { token: math })).status).toBe(200);

    await s3.stop();
    const refused = await timed(() => postBugReport(stack, math, { description: 'During.', picture }));
    expectUnavailable(refused as HttpResult, 'object storage');
    // The screenshot's verified copy is served without S3 until its recheck is due; then S3 must answer.
    await pastRecheckWindow();
    const download = await timed(() => http(stack, 'GET', screenshot, { token: math }));
    expect({ status: download.status, code: download.body?.code }).toEqual({
      status: 503,
      code: 'dependency_unavailable',
    });
    expect(await readiness()).toEqual({ status: 503, down: ['s3'] });

    s3 = await startS3(s3Port);
    await until(async () => (await http(stack, 'GET', screenshot, { token: math })).status === 200);
    expect((await postBugReport(stack, math, { description: 'After.', picture })).status).toBe(201);
    expect(await readiness()).toEqual({ status: 200, down: [] });
  }, 90_000);
});
