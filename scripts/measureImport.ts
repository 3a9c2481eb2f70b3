import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { CreateBucketCommand } from '@aws-sdk/client-s3';
import { Client, Connection } from '@temporalio/client';
import { connectAndMigrate } from '../entities/dataSource';
import { ensureAllTools } from '../infra/goTools';
import { projectRoot } from '../infra/paths';
import { SERVICE_NODE_FLAGS, TS_SOURCE_LOADER } from '../infra/processes';
import { freePort } from '../infra/ports';
import { buildWorkflowBundle } from '../deployment/workflowBundle';
import { createDatabase, dropDatabase, isPostgresReachable, startEmbeddedPostgres } from '../infra/postgres';
import { startS3Server } from '../infra/s3Server';
import { startTemporalDevServer } from '../infra/temporalDevServer';
import { createS3Client } from '../storage/objectStore';
import { importProgressQuery } from '../workflows/importCommon';
import { generateBundle } from './generateBundle';

/**
 * Measures `ops import` of synthetic math bundles: wall time and peak RSS (VmHWM) of the worker and of the ops
 * process, on throw-away infrastructure (Temporal dev server, versitygw and a database of its own), with the
 * worker as a child process like in production.
 *
 *   npx tsx scripts/measureImport.ts --tasks 10000,100000 [--layout jsonl|inline] [--seed 1] [--artifact-bytes N]
 *
 * Each size gets a fresh database, namespace-free dev server state and bucket; the unchanged re-import of the
 * same bundle is measured too. Prints one JSON line per size (and the load average around it) on stdout.
 */
const say = (line: string) => process.stderr.write(`[measure] ${line}\n`);

/** Peak and current resident set of a process, in MiB (from /proc). */
function memoryOf(pid: number): { hwmMiB: number; rssMiB: number } | null {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kib = (key: string) => Number(new RegExp(`${key}:\\s+(\\d+) kB`).exec(status)?.[1] ?? 0);
    return { hwmMiB: Math.round(kib('VmHWM') / 1024), rssMiB: Math.round(kib('VmRSS') / 1024) };
  } catch {
    return null;
  }
}

/** Runs a process to its end, sampling its VmHWM (the kernel's own peak) until it exits. */
function run(command: string, args: string[], env: NodeJS.ProcessEnv) {
  return new Promise<{
    code: number | null;
    stdout: string;
    stderr: string;
    seconds: number;
    hwmMiB: number;
  }>((resolve, reject) => {
    const started = Date.now();
    const child = spawn(command, args, { cwd: projectRoot, env });
    let stdout = '';
    let stderr = '';
    let hwmMiB = 0;
    const timer = setInterval(() => (hwmMiB = Math.max(hwmMiB, memoryOf(child.pid!)?.hwmMiB ?? 0)), 200);
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.once('error', reject);
    child.once('close', (code) => {
      clearInterval(timer);
      resolve({ code, stdout, stderr, seconds: (Date.now() - started) / 1000, hwmMiB });
    });
  });
}

/**
 * Every second: the import workflow's phase (its progress query) and the worker's resident set; returns, per
 * phase, how long it was seen and the largest RSS seen during it.
 */
function samplePhases(address: string, workflowId: string, workerPid: number, workerMetricsUrl: string) {
  const phases: Record<
    string,
    { first: number; last: number; max_rss_mib: number; max_heap_used_mib: number }
  > = {};
  let client: Client | undefined;
  let connection: Connection | undefined;
  const tick = async () => {
    connection ??= await Connection.connect({ address });
    client ??= new Client({ connection });
    const progress = await client.workflow.getHandle(workflowId).query(importProgressQuery);
    const rss = memoryOf(workerPid)?.rssMiB ?? 0;
    const heapUsed = await heapUsedMiB(workerMetricsUrl);
    const now = Date.now();
    const phase = (phases[progress.phase] ??= {
      first: now,
      last: now,
      max_rss_mib: 0,
      max_heap_used_mib: 0,
    });
    phase.last = now;
    phase.max_rss_mib = Math.max(phase.max_rss_mib, rss);
    phase.max_heap_used_mib = Math.max(phase.max_heap_used_mib, heapUsed);
  };
  const timer = setInterval(() => void tick().catch(() => undefined), 1000);
  return {
    async stop() {
      clearInterval(timer);
      await connection?.close();
      return Object.fromEntries(
        Object.entries(phases).map(([name, p]) => [
          name,
          {
            seen_seconds: (p.last - p.first) / 1000,
            max_rss_mib: p.max_rss_mib,
            max_heap_used_mib: p.max_heap_used_mib,
          },
        ]),
      );
    },
  };
}

/**
 * The worker's V8 heap in use (live objects and garbage not yet collected), in MiB, from its Prometheus metrics:
 * beside the resident set it tells what the worker holds from how far the heap was let grow.
 */
async function heapUsedMiB(metricsUrl: string): Promise<number> {
  const text = await (await fetch(metricsUrl)).text();
  const bytes = Number(/^nodejs_heap_size_used_bytes (\S+)$/m.exec(text)?.[1] ?? 0);
  return Math.round(bytes / 1024 / 1024);
}

async function waitForWorker(worker: ChildProcess): Promise<void> {
  // The worker logs "worker polling" once its workflow bundle is built and it polls the queue.
  await new Promise<void>((resolve, reject) => {
    let seen = '';
    worker.stdout!.on('data', (d: Buffer) => {
      seen += d.toString();
      if (seen.includes('worker polling')) resolve();
    });
    worker.once('exit', (code) => reject(new Error(`worker exited (${code})`)));
  });
}

async function main(argv: string[]): Promise<void> {
  const { values } = parseArgs({
    args: argv,
    options: {
      tasks: { type: 'string', default: '10000' },
      layout: { type: 'string', default: 'jsonl' },
      seed: { type: 'string', default: '1' },
      'artifact-bytes': { type: 'string', default: '1024' },
    },
  });
  const sizes = values.tasks!.split(',').map(Number);
  const layout = values.layout === 'inline' ? 'inline' : 'jsonl';
  const work = await mkdtemp(join(tmpdir(), 'referee-measure-'));
  const tools = await ensureAllTools(say);
  const stops: Array<() => Promise<void>> = [];
  try {
    const temporal = await startTemporalDevServer({
      binary: tools.temporal,
      headless: true,
      logFile: join(work, 'temporal.log'),
    });
    stops.push(temporal.stop);
    const s3 = await startS3Server({
      binary: tools.versitygw,
      rootDir: join(work, 's3'),
      buckets: [],
      logFile: join(work, 's3.log'),
    });
    stops.push(s3.stop);
    let adminUrl = process.env.TEST_DATABASE_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
    if (!(await isPostgresReachable(adminUrl))) {
      const pg = await startEmbeddedPostgres({ dataDir: join(work, 'pg'), log: say });
      stops.push(pg.stop);
      adminUrl = pg.url;
    }

    for (const tasks of sizes) {
      const suffix = randomBytes(4).toString('hex');
      const database = `referee_measure_${suffix}`;
      const databaseUrl = await createDatabase(adminUrl, database);
      const dataSource = await connectAndMigrate(databaseUrl, 2);
      const bucket = `referee-measure-${suffix}`;
      const env: NodeJS.ProcessEnv = {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        DATABASE_URL: databaseUrl,
        DATABASE_POOL_SIZE: '10',
        TEMPORAL_ADDRESS: temporal.address,
        TEMPORAL_TASK_QUEUE: `measure-${suffix}`,
        S3_ENDPOINT: s3.endpoint,
        S3_ACCESS_KEY_ID: s3.accessKeyId,
        S3_SECRET_ACCESS_KEY: s3.secretAccessKey,
        S3_BUCKET: bucket,
        LOG_LEVEL: 'info',
      };
      const client = createS3Client(s3);
      await client.send(new CreateBucketCommand({ Bucket: bucket }));
      client.destroy();

      say(`generating ${tasks} tasks (${layout})…`);
      const generatedAt = Date.now();
      const bundle = await generateBundle({
        service: 'math',
        tasks,
        out: join(work, `bundle-${tasks}`),
        seed: Number(values.seed),
        artifactBytes: Number(values['artifact-bytes']),
        layout,
      });
      const generateSeconds = (Date.now() - generatedAt) / 1000;

      say('starting the worker…');
      // The worker loads a prebuilt workflow bundle, as npm start's do.
      const workflowBundle = join(work, 'workflow-bundle.js');
      const workerMetricsPort = await freePort();
      if (!existsSync(workflowBundle)) await buildWorkflowBundle(workflowBundle);
      const worker = spawn(
        process.execPath,
        [...SERVICE_NODE_FLAGS.worker, ...TS_SOURCE_LOADER, 'worker.ts'],
        {
          cwd: projectRoot,
          env: { ...env, REFEREE_WORKFLOW_BUNDLE: workflowBundle, METRICS_PORT: String(workerMetricsPort) },
          stdio: ['ignore', 'pipe', 'inherit'],
        },
      );
      await waitForWorker(worker);
      worker.stdout!.resume();
      const workerBefore = memoryOf(worker.pid!);
      const load = { before: loadavg().map((l) => Number(l.toFixed(2))) };
      say(`importing ${bundle.dir}…`);
      const ops = ['--import', 'tsx', 'cli/main.ts', 'import', bundle.dir, '--json'];
      const sampler = samplePhases(
        temporal.address,
        `import/math/${bundle.id}`,
        worker.pid!,
        `http://127.0.0.1:${workerMetricsPort}/metrics`,
      );
      const first = await run(process.execPath, ops, env);
      const phases = await sampler.stop();
      const workerAfterFirst = memoryOf(worker.pid!);
      const again = await run(process.execPath, ops, env);
      const workerAfter = memoryOf(worker.pid!);
      const loadAfter = loadavg().map((l) => Number(l.toFixed(2)));
      worker.kill('SIGTERM');
      await new Promise((resolve) => worker.once('exit', resolve));

      const [importRun] = await dataSource.query(
        `SELECT status, extract(epoch FROM finished_at - started_at)::float8 AS workflow_seconds, files_total,
                files_uploaded, bytes_uploaded::float8 AS bytes_uploaded
           FROM import_runs ORDER BY id LIMIT 1`,
      );
      const [rows] = await dataSource.query(
        `SELECT (SELECT count(*) FROM math_tasks)::int AS tasks, (SELECT count(*) FROM math_artifacts)::int AS artifacts,
                (SELECT count(*) FROM math_task_evidence)::int AS evidence`,
      );
      await dataSource.destroy();
      await dropDatabase(adminUrl, database).catch(() => undefined);
      await rm(bundle.dir, { recursive: true, force: true });
      if (first.code !== 0) throw new Error(`import failed: ${first.stderr}${first.stdout}`);
      console.log(
        JSON.stringify({
          tasks,
          layout,
          counts: bundle.counts,
          generate_seconds: generateSeconds,
          import: {
            wall_seconds: first.seconds,
            workflow_seconds: importRun.workflow_seconds,
            status: importRun.status,
            files_uploaded: importRun.files_uploaded,
            mib_uploaded: Math.round(importRun.bytes_uploaded / 1024 / 1024),
            ops_peak_rss_mib: first.hwmMiB,
          },
          unchanged_reimport: {
            wall_seconds: again.seconds,
            result: JSON.parse(again.stdout.trim().split('\n').pop() ?? '{}').unchanged,
          },
          phases,
          worker: { idle: workerBefore, after_import: workerAfterFirst, after_reimport: workerAfter },
          rows,
          load_average: { before: load.before, after: loadAfter, cpus: cpus().length },
        }),
      );
    }
  } finally {
    for (const stop of stops.reverse()) await stop().catch(() => undefined);
    await rm(work, { recursive: true, force: true });
  }
}

main(process.argv.slice(2)).catch((error: unknown) => {
  console.error(`measure: ${error instanceof Error ? error.stack : String(error)}`);
  process.exit(1);
});
