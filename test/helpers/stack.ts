import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { CreateBucketCommand, type S3Client } from '@aws-sdk/client-s3';
import { Client, Connection } from '@temporalio/client';
import type { DataSource } from 'typeorm';
import { insertApiKey } from '../../access/keys';
import { type MemberSyncFile, syncMembers } from '../../access/members';
import { type Config, loadConfig } from '../../config';
import { type Role, SCOPES, type Scope, type ServiceName } from '../../entities/types';
import { createDatabase, dropDatabase } from '../../infra/postgres';
import { ensureNamespace } from '../../infra/temporalDevServer';
import { projectRoot } from '../../infra/paths';
import { type RunningServer, startServer } from '../../server';
import { createS3Client } from '../../storage/objectStore';
import type { ImportMathRunResult } from '../../workflows/importMathRun/messages';
import { importMathRunWorkflowId } from '../../workflows/importMathRun/messages';
import { sdkLoggerFor } from '../../logging/temporalSdkLogger';
import { type RunningWorker, startWorker } from '../../worker';
import { Runtime } from '@temporalio/worker';
import { createLogger } from '../../logging/logger';
import { assertMatchesContract } from './contract';
import { readTestEnv } from './testEnv';

/** One test file's own copy of the system: database, Temporal namespace, task queue and bucket. */
export interface TestStack {
  config: Config;
  url: string;
  dataSource: DataSource;
  temporal: Client;
  s3: S3Client;
  server: RunningServer;
  worker: RunningWorker;
  stop(): Promise<void>;
}

export const DEMO_DIR = join(projectRoot, 'demo');

let sdkRuntimeInstalled = false;

/** The recheck window of the stack's cache of verified downloads. */
export const VERIFIED_CACHE_RECHECK_SECONDS = 1;

/** Waits until the API's verified copies are due for their recheck, so a change in S3 behind it is noticed. */
export const pastRecheckWindow = () => sleep(VERIFIED_CACHE_RECHECK_SECONDS * 1000 + 100);

/**
 * Starts a worker and an API server against fresh, isolated resources on the shared test services; a test that
 * restarts Temporal passes the address of a dev server of its own; `env` adds to or replaces the configuration's
 * variables (e.g. `WEBHOOK_ALLOW_PRIVATE_TARGETS`).
 */
export async function startStack(
  options: { temporalAddress?: string; env?: Record<string, string> } = {},
): Promise<TestStack> {
  const env = {
    ...readTestEnv(),
    ...(options.temporalAddress && { temporalAddress: options.temporalAddress }),
  };
  if (!sdkRuntimeInstalled) {
    Runtime.install({ logger: sdkLoggerFor(createLogger('warn')) });
    sdkRuntimeInstalled = true;
  }
  const suffix = randomBytes(4).toString('hex');
  const database = `${env.templateDatabase}_f${suffix}`;
  const namespace = `test-${suffix}`;
  const bucket = `referee-test-${suffix}`;
  const [databaseUrl] = await Promise.all([
    createDatabase(env.pgAdminUrl, database, env.templateDatabase),
    ensureNamespace(env.temporalAddress, namespace),
  ]);
  const config = loadConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    DATABASE_URL: databaseUrl,
    DATABASE_POOL_SIZE: '5',
    TEMPORAL_ADDRESS: env.temporalAddress,
    TEMPORAL_NAMESPACE: namespace,
    TEMPORAL_TASK_QUEUE: `referee-${suffix}`,
    TEMPORAL_CALL_TIMEOUT_MS: '15000',
    S3_ENDPOINT: env.s3Endpoint,
    S3_ACCESS_KEY_ID: env.s3AccessKeyId,
    S3_SECRET_ACCESS_KEY: env.s3SecretAccessKey,
    S3_BUCKET: bucket,
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    // Short, so the cache-of-verified-downloads tests can step past it.
    VERIFIED_CACHE_RECHECK_SECONDS: String(VERIFIED_CACHE_RECHECK_SECONDS),
    // Webhook secrets are sealed with a key of this stack's own.
    WEBHOOK_SECRET_KEY: randomBytes(32).toString('base64'),
    ...options.env,
  });
  const s3 = createS3Client(config.s3);
  await s3.send(new CreateBucketCommand({ Bucket: bucket }));
  const worker = await startWorker(config, { workflowBundle: { codePath: env.workflowBundlePath } });
  const server = await startServer(config, { validateResponses: true });
  const connection = await Connection.connect({ address: env.temporalAddress });
  const temporal = new Client({ connection, namespace });
  return {
    config,
    url: server.url,
    dataSource: server.deps.dataSource,
    temporal,
    s3,
    server,
    worker,
    async stop() {
      await server.close();
      await worker.shutdown();
      await connection.close();
      s3.destroy();
      await dropDatabase(env.pgAdminUrl, database);
    },
  };
}

/** Loads the demo members (and any extra ones) into both services. */
export async function seedMembers(stack: TestStack, extra: MemberSyncFile = {}): Promise<void> {
  const demo = JSON.parse(await readFile(join(DEMO_DIR, 'members.json'), 'utf8')) as MemberSyncFile;
  await syncMembers(stack.dataSource, {
    math: [...(demo.math ?? []), ...(extra.math ?? [])],
    genomics: [...(demo.genomics ?? []), ...(extra.genomics ?? [])],
  });
}

/**
 * Makes a change behind the service (plain SQL, a member sync) that authentication must see, and resolves once
 * this process's API has received the notification it causes. The key cache drops an entry when PostgreSQL
 * delivers that notification, so a request sent in the same instant as the commit could still be served
 * (docs/keys.md); waiting for delivery keeps the assertions after it deterministic.
 */
export async function changeBehindService(stack: TestStack, change: () => Promise<unknown>): Promise<void> {
  const cache = stack.server.deps.keyCache;
  const before = cache?.generation;
  await change();
  if (!cache) return;
  const deadline = Date.now() + 5_000;
  while (cache.generation === before) {
    if (Date.now() > deadline) throw new Error('the change caused no auth notification within 5 s');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

export async function memberId(stack: TestStack, service: ServiceName, identityId: string): Promise<string> {
  const [row]: Array<{ id: string }> = await stack.dataSource.query(
    'SELECT id::text FROM members WHERE service = $1 AND identity_id = $2',
    [service, identityId],
  );
  if (!row) throw new Error(`no ${service} member ${identityId}`);
  return row.id;
}

/** Mints a key straight in the database (the way `ops keys create` does) and returns its token. */
export async function mintKey(
  stack: TestStack,
  service: ServiceName,
  identityId: string,
  opts: { role?: Role; scopes?: Scope[]; expiresInMs?: number } = {},
): Promise<{ id: string; token: string }> {
  const id = await memberId(stack, service, identityId);
  const [member]: Array<{ role: Role }> = await stack.dataSource.query(
    'SELECT role FROM members WHERE id = $1',
    [id],
  );
  return stack.dataSource.transaction((tx) =>
    insertApiKey(tx, {
      service,
      memberId: id,
      name: `test key for ${identityId}`,
      role: opts.role ?? member.role,
      scopes: opts.scopes ?? [...SCOPES],
      expiresAt: new Date(Date.now() + (opts.expiresInMs ?? 3_600_000)),
      createdByKeyId: null,
      issuer: 'test',
    }),
  );
}

/** Runs the import workflow on a bundle folder and waits for it. */
export async function importBundle(
  stack: TestStack,
  bundleDir = join(DEMO_DIR, 'math-run'),
): Promise<ImportMathRunResult> {
  const manifest = JSON.parse(await readFile(join(bundleDir, 'manifest.json'), 'utf8')) as {
    run: { run_id: string };
  };
  return stack.temporal.workflow.execute('importMathRunWorkflow', {
    workflowId: importMathRunWorkflowId(manifest.run.run_id),
    taskQueue: stack.config.temporal.taskQueue,
    args: [{ bundleDir }],
    workflowIdConflictPolicy: 'USE_EXISTING',
  });
}

export interface HttpResult<T = any> {
  status: number;
  headers: Headers;
  body: T;
}

/**
 * A plain HTTP call to the stack; JSON bodies are encoded unless a string or buffer is given. Every response
 * is checked against the published OpenAPI contract (status, content type, body): a mismatch throws.
 */
export async function http<T = any>(
  stack: TestStack,
  method: string,
  path: string,
  opts: { token?: string; body?: unknown; headers?: Record<string, string> } = {},
): Promise<HttpResult<T>> {
  const headers: Record<string, string> = { ...(opts.headers ?? {}) };
  if (opts.token) headers.authorization = `Bearer ${opts.token}`;
  let body: string | Buffer | undefined;
  if (typeof opts.body === 'string' || Buffer.isBuffer(opts.body)) body = opts.body;
  else if (opts.body !== undefined) {
    body = JSON.stringify(opts.body);
    headers['content-type'] ??= 'application/json';
  }
  const response = await fetch(`${stack.url}${path}`, { method, headers, body });
  const text = await response.text();
  const type = response.headers.get('content-type') ?? '';
  const parsed = (type.includes('json') && text ? JSON.parse(text) : text) as T;
  assertMatchesContract(method, path, { status: response.status, contentType: type || null, body: parsed });
  return { status: response.status, headers: response.headers, body: parsed };
}
