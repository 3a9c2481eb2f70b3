import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { insertApiKey } from '../access/keys';
import { type MemberSyncFile, syncMembers } from '../access/members';
import { readGenomicsBundle } from '../activities/bundles/genomicsBundle';
import { readMathBundle } from '../activities/bundles/mathBundle';
import { loadConfig } from '../config';
import { connectAndMigrate } from '../entities/dataSource';
import { SCOPES, SERVICES } from '../entities/types';
import { ensureAllTools } from '../infra/goTools';
import { ensureConsoleBuilt } from '../console/build';
import { dataDir, projectRoot } from '../infra/paths';
import { freePort } from '../infra/ports';
import { createDatabase, isPostgresReachable, startEmbeddedPostgres } from '../infra/postgres';
import {
  type ConnectionFile,
  connectionFilePath,
  removeConnectionFile,
  writeConnectionFile,
} from '../infra/connectionFile';
import { SERVICE_NODE_FLAGS } from '../infra/processes';
import { supervise, type SupervisedProcess } from '../infra/supervisor';
import { startS3Server } from '../infra/s3Server';
import { startTemporalDevServer } from '../infra/temporalDevServer';
import { importGenomicsBundleWorkflowId } from '../workflows/importGenomicsBundle/messages';
import { importMathRunWorkflowId } from '../workflows/importMathRun/messages';

const say = (line: string) => process.stdout.write(`${line}\n`);

/** Preferred local ports; a busy one is replaced by a free one. */
const PREFERRED = { postgres: 54329, temporal: 7233, temporalUi: 8233, s3: 7070 };

async function portOrFree(preferred: number): Promise<number> {
  const { createServer } = await import('node:net');
  const free = await new Promise<boolean>((resolve) => {
    const probe = createServer()
      .once('error', () => resolve(false))
      .once('listening', () => probe.close(() => resolve(true)))
      .listen(preferred, '127.0.0.1');
  });
  return free ? preferred : freePort();
}

/**
 * `npm start`: the whole system on embedded defaults. Infrastructure that is not configured through the
 * environment (DATABASE_URL, TEMPORAL_ADDRESS, S3_ENDPOINT) is started here with its data under .referee/;
 * then migrations, the worker and the API. The first run loads the demo dataset and prints admin keys.
 */
async function main(): Promise<void> {
  const started = Date.now();
  const root = dataDir();
  await mkdir(join(root, 'logs'), { recursive: true, mode: 0o700 });
  const stops: Array<() => Promise<void>> = [];
  let stopping = false;
  const shutdown = async (code: number) => {
    if (stopping) return;
    stopping = true;
    say('\nStopping: draining HTTP, stopping the worker and the infrastructure…');
    for (const stop of stops.reverse()) await stop().catch((error: unknown) => say(`  ${String(error)}`));
    removeConnectionFile();
    process.exit(code);
  };
  // `on`, not `once`: under npm a Ctrl-C arrives twice (from the terminal and forwarded by npm and tsx), and a
  // second signal without a handler would kill this process before it stopped the stack.
  process.on('SIGINT', () => void shutdown(0));
  process.on('SIGTERM', () => void shutdown(0));

  try {
    const env: NodeJS.ProcessEnv = { ...process.env };
    const needsTools = !env.TEMPORAL_ADDRESS || !env.S3_ENDPOINT;
    const tools = needsTools ? await ensureAllTools(say) : null;

    if (!env.DATABASE_URL) {
      const port = await portOrFree(PREFERRED.postgres);
      const pg = await startEmbeddedPostgres({ dataDir: join(root, 'postgres'), port, log: say });
      stops.push(pg.stop);
      const url = new URL(pg.url);
      url.pathname = '/referee';
      if (!(await isPostgresReachable(url.toString()))) await createDatabase(pg.url, 'referee');
      env.DATABASE_URL = url.toString();
      say(`PostgreSQL (embedded)  ${url.host}`);
    }
    if (!env.TEMPORAL_ADDRESS) {
      const temporal = await startTemporalDevServer({
        binary: tools!.temporal,
        dbFile: join(root, 'temporal.sqlite'),
        port: await portOrFree(PREFERRED.temporal),
        uiPort: await portOrFree(PREFERRED.temporalUi),
        logFile: join(root, 'logs', 'temporal.log'),
      });
      stops.push(temporal.stop);
      env.TEMPORAL_ADDRESS = temporal.address;
      env.REFEREE_TEMPORAL_UI = temporal.uiUrl ?? '';
    }
    if (!env.S3_ENDPOINT) {
      const bucket = env.S3_BUCKET ?? 'referee-artifacts';
      const s3 = await startS3Server({
        binary: tools!.versitygw,
        rootDir: join(root, 's3'),
        port: await portOrFree(PREFERRED.s3),
        buckets: [bucket],
        logFile: join(root, 'logs', 's3.log'),
      });
      stops.push(s3.stop);
      Object.assign(env, {
        S3_ENDPOINT: s3.endpoint,
        S3_ACCESS_KEY_ID: s3.accessKeyId,
        S3_SECRET_ACCESS_KEY: s3.secretAccessKey,
      });
    }
    const config = loadConfig(env);
    const dataSource = await connectAndMigrate(config.databaseUrl, 2);

    const baseUrl = `http://127.0.0.1:${config.port}`;
    const connection: ConnectionFile = {
      pid: process.pid,
      startedAt: new Date().toISOString(),
      apiBaseUrl: baseUrl,
      env: {
        DATABASE_URL: config.databaseUrl,
        TEMPORAL_ADDRESS: config.temporal.address,
        TEMPORAL_NAMESPACE: config.temporal.namespace,
        TEMPORAL_TASK_QUEUE: config.temporal.taskQueue,
        S3_ENDPOINT: config.s3.endpoint ?? '',
        S3_REGION: config.s3.region,
        S3_BUCKET: config.s3.bucket,
        S3_ACCESS_KEY_ID: config.s3.accessKeyId ?? '',
        S3_SECRET_ACCESS_KEY: config.s3.secretAccessKey ?? '',
      },
      processes: {},
    };
    // The API and the worker get every connection variable explicitly: none of them falls back to a default.
    Object.assign(env, connection.env);
    // A crash of npm start itself leaves the file behind; the CLI sees its pid is gone and ignores it.
    process.once('exit', () => removeConnectionFile());

    // Each process serves its metrics on a loopback port of its own (METRICS_PORT), kept across its restarts.
    const metricsPort = { api: await freePort(), worker: await freePort() };
    connection.metrics = {
      api: `http://127.0.0.1:${metricsPort.api}/metrics`,
      worker: `http://127.0.0.1:${metricsPort.worker}/metrics`,
    };
    const spawnApp = (name: 'worker' | 'api', file: string): SupervisedProcess =>
      supervise(process.execPath, [...SERVICE_NODE_FLAGS[name], '--import', 'tsx', join(projectRoot, file)], {
        name,
        env: { ...env, METRICS_HOST: '127.0.0.1', METRICS_PORT: String(metricsPort[name]) },
        cwd: projectRoot,
        logFile: join(root, 'logs', `${name}.log`),
        log: (line) => {
          if (!stopping) say(line);
        },
        onStart: (pid) => {
          connection.processes[name] = pid;
          if (connection.processes.worker && connection.processes.api) writeConnectionFile(connection);
        },
      });
    // The API serves the console's built files and never builds them: build (or confirm) them first.
    ensureConsoleBuilt();
    const worker = spawnApp('worker', 'worker.ts');
    stops.push(() => worker.stop(30_000));
    const api = spawnApp('api', 'server.ts');
    stops.push(() => api.stop(15_000));
    await waitForReady(`${baseUrl}/readyz`, 90_000);

    const keys = await firstRun(dataSource, config);
    await dataSource.destroy();

    say('');
    say(`Referee is running (started in ${((Date.now() - started) / 1000).toFixed(1)} s).`);
    say(`  API base URL     ${baseUrl}  (math: ${baseUrl}/api, genomics: ${baseUrl}/api/v1)`);
    say(`  Console          ${baseUrl}/console  (sign in with an API key)`);
    say(`  API reference    ${baseUrl}/docs`);
    if (env.REFEREE_TEMPORAL_UI) say(`  Temporal UI      ${env.REFEREE_TEMPORAL_UI}`);
    say(`  PostgreSQL       ${withoutPassword(config.databaseUrl)}`);
    say(`  Temporal         ${config.temporal.address} (namespace ${config.temporal.namespace})`);
    say(`  S3               ${config.s3.endpoint ?? '(AWS default endpoint)'} (bucket ${config.s3.bucket})`);
    say(`  Metrics          API ${connection.metrics.api}`);
    say(`                   worker ${connection.metrics.worker}  (Prometheus; docs/observability.md)`);
    say(`  Connection file  ${connectionFilePath()}  (passwords and keys; used by the ops CLI)`);
    say(`  Logs             ${join(root, 'logs')}`);
    if (keys.length > 0) {
      say('');
      say('Admin API keys (shown once; store them now):');
      for (const k of keys) say(`  ${k.service.padEnd(9)} ${k.token}`);
      say(`  Try: curl -H "Authorization: Bearer <math key>" ${baseUrl}/api/auth/session`);
    } else {
      say('  Admin keys were printed on the first run. Mint another with:');
      say(
        '    npx referee keys create --service math --member "idp|ada"   (in another terminal, this folder)',
      );
    }
    say('Press Ctrl-C to stop.');
  } catch (error) {
    say(`Start failed: ${error instanceof Error ? error.message : String(error)}`);
    await shutdown(1);
  }
}

const withoutPassword = (url: string) => {
  const parsed = new URL(url);
  if (parsed.password) parsed.password = '***';
  return parsed.toString();
};

async function waitForReady(url: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`the API did not become ready at ${url} within ${timeoutMs / 1000} s`);
}

/** On a new database: demo members, the demo run (through its import workflow) and one admin key per service. */
async function firstRun(
  dataSource: Awaited<ReturnType<typeof connectAndMigrate>>,
  config: ReturnType<typeof loadConfig>,
): Promise<Array<{ service: string; token: string }>> {
  const [{ members }] = await dataSource.query('SELECT count(*)::int AS members FROM members');
  if (members === 0) {
    const file = JSON.parse(
      await readFile(join(projectRoot, 'demo', 'members.json'), 'utf8'),
    ) as MemberSyncFile;
    await syncMembers(dataSource, file);
    say('Loaded the demo members.');
  }
  const [{ runs }] = await dataSource.query('SELECT count(*)::int AS runs FROM math_runs');
  if (runs === 0) {
    const bundleDir = join(projectRoot, 'demo', 'math-run');
    const { manifest } = await readMathBundle(bundleDir);
    const connection = await Connection.connect({ address: config.temporal.address });
    try {
      const client = new Client({ connection, namespace: config.temporal.namespace });
      await client.workflow.execute('importMathRunWorkflow', {
        workflowId: importMathRunWorkflowId(manifest.run.run_id),
        taskQueue: config.temporal.taskQueue,
        args: [{ bundleDir }],
        workflowIdConflictPolicy: 'USE_EXISTING',
      });
      say(`Imported the demo run ${manifest.run.run_id}.`);
    } finally {
      await connection.close();
    }
  }
  const [{ genomicsImports }] = await dataSource.query(
    'SELECT count(*)::int AS "genomicsImports" FROM genomics_imports',
  );
  if (genomicsImports === 0) {
    const bundleDir = join(projectRoot, 'demo', 'genomics');
    const { manifest } = await readGenomicsBundle(bundleDir);
    const connection = await Connection.connect({ address: config.temporal.address });
    try {
      const client = new Client({ connection, namespace: config.temporal.namespace });
      await client.workflow.execute('importGenomicsBundleWorkflow', {
        workflowId: importGenomicsBundleWorkflowId(manifest.bundle.batch, manifest.bundle.bundle_id),
        taskQueue: config.temporal.taskQueue,
        args: [{ bundleDir }],
        workflowIdConflictPolicy: 'USE_EXISTING',
      });
      say(`Imported the demo genomics bundle ${manifest.bundle.bundle_id}.`);
    } finally {
      await connection.close();
    }
  }
  const minted: Array<{ service: string; token: string }> = [];
  for (const service of SERVICES) {
    const [{ keys }] = await dataSource.query(
      `SELECT count(*)::int AS keys FROM api_keys k JOIN members m ON m.id = k.member_id
        WHERE k.service = $1 AND m.role = 'ADMIN'`,
      [service],
    );
    if (keys > 0) continue;
    const [admin]: Array<{ id: string; identity_id: string }> = await dataSource.query(
      `SELECT id::text, identity_id FROM members WHERE service = $1 AND role = 'ADMIN' AND enabled
        ORDER BY primary_admin DESC, id LIMIT 1`,
      [service],
    );
    if (!admin) continue;
    const key = await dataSource.transaction((tx) =>
      insertApiKey(tx, {
        service,
        memberId: admin.id,
        name: 'first-run admin key',
        role: 'ADMIN',
        scopes: [...SCOPES],
        expiresAt: new Date(Date.now() + 90 * 86_400_000),
        createdByKeyId: null,
        issuer: 'npm start (first run)',
      }),
    );
    minted.push({ service, token: key.token });
  }
  return minted;
}

void main();
