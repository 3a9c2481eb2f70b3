import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { S3Client } from '@aws-sdk/client-s3';
import { Client, Connection } from '@temporalio/client';
import type { DataSource } from 'typeorm';
import { type Config, loadConfig } from '../config';
import { connectAndMigrate } from '../entities/dataSource';
import { ensureAllTools, ensureTemporalServerTools } from '../infra/goTools';
import { projectRoot } from '../infra/paths';
import { freePort } from '../infra/ports';
import { createDatabase, startEmbeddedPostgres } from '../infra/postgres';
import { BUILT_WORKFLOW_BUNDLE, shareWorkflowBundle } from '../deployment/workflowBundle';
import {
  COMPILED_NODE_FLAGS,
  compiledEntry,
  type ManagedProcess,
  SERVICE_NODE_FLAGS,
  spawnManaged,
} from '../infra/processes';
import { startS3Server } from '../infra/s3Server';
import { startTemporalDevServer } from '../infra/temporalDevServer';
import { startTemporalServer, temporalTopology } from '../infra/temporalServer';
import { createS3Client } from '../storage/objectStore';

/** Task queue of the bench-only echo worker (the baseline of the mutation pair). */
export const ECHO_TASK_QUEUE = 'bench-echo';

export interface BenchProcess extends ManagedProcess {
  name: string;
}

/** The whole system under test plus the baselines, on infrastructure of its own under `dataDir`. */
export interface BenchSystem {
  dataDir: string;
  /** Environment of the API, the worker and the ops CLI. */
  env: NodeJS.ProcessEnv;
  config: Config;
  apiUrl: string;
  /** A second API whose cache of verified downloads is off: every download is a first (cold) read. */
  coldApiUrl: string;
  baselineUrl: string;
  api: BenchProcess;
  coldApi: BenchProcess;
  /** The first worker process (its RSS is the one reported); `workers` lists every one. */
  worker: BenchProcess;
  workers: BenchProcess[];
  engine: BenchEngine;
  baseline: BenchProcess;
  echoWorker: BenchProcess;
  /** The bench's own connections, for seeding and for the import baseline. */
  dataSource: DataSource;
  temporal: Client;
  s3: S3Client;
  stop(): Promise<void>;
}

/** What seeding a dataset and the operator checks need of a running system (the bench's, or `npm run chaos`'s cluster). */
export type SystemAccess = Pick<BenchSystem, 'env' | 'config' | 'apiUrl' | 'dataSource' | 'temporal' | 's3'>;

export interface StartOptions {
  dataDir: string;
  log: (line: string) => void;
  /** Extra node flags of the API child (e.g. --cpu-prof). */
  apiNodeFlags?: string[];
  /** Extra node flags of the worker children (e.g. --cpu-prof). */
  workerNodeFlags?: string[];
  /** Extra environment of the API and the worker (e.g. DATABASE_POOL_SIZE). */
  extraEnv?: NodeJS.ProcessEnv;
  /**
   * Which Temporal: the CLI's dev server (default), or Temporal's own server on PostgreSQL with 16 history shards
   * as `npm run start:cluster` runs it. The echo baseline runs on the same one.
   */
  engine?: BenchEngine;
  /** Worker processes polling the task queue (default 1; `npm run start:cluster` runs 2). */
  workers?: number;
}

export type BenchEngine = 'dev server' | 'server';

/**
 * Starts PostgreSQL, the Temporal dev server and versitygw from `infra/` (as `npm start` does, but on free
 * ports and under `dataDir`), migrates, then the worker and the API as child processes (so their peak RSS
 * can be read from /proc), and the baselines: a bare Koa process and a bench-only echo worker.
 */
export async function startBenchSystem(options: StartOptions): Promise<BenchSystem> {
  const { dataDir, log } = options;
  const logs = join(dataDir, 'logs');
  await mkdir(logs, { recursive: true });
  const stops: Array<() => Promise<void>> = [];
  const stopAll = async () => {
    for (const stop of stops.reverse())
      await stop().catch((error: unknown) => log(`  stop: ${String(error)}`));
  };
  try {
    const engine = options.engine ?? 'dev server';
    const [tools, serverTools] = await Promise.all([
      ensureAllTools(log),
      engine === 'server' ? ensureTemporalServerTools(log) : null,
    ]);
    const pg = await startEmbeddedPostgres({
      dataDir: join(dataDir, 'postgres'),
      logFile: join(logs, 'postgres.log'),
    });
    stops.push(pg.stop);
    const databaseUrl = await createDatabase(pg.url, 'referee');
    const temporal = serverTools
      ? await startTemporalServer({
          binaries: { server: serverTools.server, sqlTool: serverTools.sqlTool },
          postgresUrl: pg.url,
          stateDir: join(dataDir, 'temporal-server'),
          topology: temporalTopology(),
          namespaces: ['default'],
          logFile: join(logs, 'temporal.log'),
        })
      : await startTemporalDevServer({
          binary: tools.temporal,
          dbFile: join(dataDir, 'temporal.sqlite'),
          headless: true,
          logFile: join(logs, 'temporal.log'),
        });
    stops.push(temporal.stop);
    const bucket = 'referee-artifacts';
    const s3Server = await startS3Server({
      binary: tools.versitygw,
      rootDir: join(dataDir, 's3'),
      buckets: [bucket],
      logFile: join(logs, 's3.log'),
    });
    stops.push(s3Server.stop);
    log(`infrastructure up: PostgreSQL, Temporal ${engine} ${temporal.address}, S3 ${s3Server.endpoint}`);

    const apiPort = await freePort();
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      PORT: String(apiPort),
      HOST: '127.0.0.1',
      DATABASE_URL: databaseUrl,
      TEMPORAL_ADDRESS: temporal.address,
      S3_ENDPOINT: s3Server.endpoint,
      S3_ACCESS_KEY_ID: s3Server.accessKeyId,
      S3_SECRET_ACCESS_KEY: s3Server.secretAccessKey,
      S3_BUCKET: bucket,
      // The rate limiter stays on (its bookkeeping is part of what is measured) but far above the bench's rate.
      RATE_LIMIT_PER_KEY_PER_SECOND: '1000000',
      RATE_LIMIT_BURST: '10000000',
      // Downloads run at 4 clients on one key; a released slot is freed just after the response ends.
      FILE_CONCURRENCY_PER_KEY: '64',
      ...options.extraEnv,
    };
    // As npm start does.
    await shareWorkflowBundle(env, dataDir, BUILT_WORKFLOW_BUNDLE);
    const config = loadConfig(env);
    const dataSource = await connectAndMigrate(config.databaseUrl, 4);
    stops.push(() => dataSource.destroy());

    // Each baseline runs with the flags of the service it is compared with, so a pair compares code, not V8 settings.
    const spawnNode = (
      name: string,
      target: Parameters<typeof compiledEntry>[0],
      flagsOf: keyof typeof SERVICE_NODE_FLAGS,
      nodeFlags: string[] = [],
      childEnv = env,
    ) => {
      const entry = compiledEntry(target);
      const child = spawnManaged(
        process.execPath,
        [...COMPILED_NODE_FLAGS, ...SERVICE_NODE_FLAGS[flagsOf], ...nodeFlags, entry],
        {
          name,
          env: childEnv,
          cwd: projectRoot,
          logFile: join(logs, `${name}.log`),
        },
      );
      stops.push(() => child.stop(30_000));
      return { ...child, name };
    };
    const workers = Array.from({ length: options.workers ?? 1 }, (_, i) =>
      spawnNode(i === 0 ? 'worker' : `worker-${i + 1}`, 'worker', 'worker', options.workerNodeFlags),
    );
    const [worker] = workers;
    const api = spawnNode('api', 'server', 'api', options.apiNodeFlags);
    const coldApiPort = await freePort();
    const coldApi = spawnNode('api-cold', 'server', 'api', options.apiNodeFlags, {
      ...env,
      PORT: String(coldApiPort),
      VERIFIED_CACHE_MAX_BYTES: '0',
    });
    const baselinePort = await freePort();
    const baselineEnv = { ...env, BENCH_BASELINE_PORT: String(baselinePort) };
    const baseline = spawnNode('baseline', 'bench-baseline', 'api', [], baselineEnv);
    const echoWorker = spawnNode('echo-worker', 'bench-echo-worker', 'worker', [], {
      ...env,
      BENCH_ECHO_TASK_QUEUE: ECHO_TASK_QUEUE,
    });
    const apiUrl = `http://127.0.0.1:${apiPort}`;
    const coldApiUrl = `http://127.0.0.1:${coldApiPort}`;
    const baselineUrl = `http://127.0.0.1:${baselinePort}`;
    for (const [child, url] of [
      [api, `${apiUrl}/readyz`],
      [coldApi, `${coldApiUrl}/readyz`],
      [baseline, `${baselineUrl}/readyz`],
    ] as const) {
      await waitForReady(child, url, join(logs, `${child.name}.log`), 120_000);
    }
    for (const each of workers)
      await waitForLogLine(each, join(logs, `${each.name}.log`), 'worker polling', 120_000);
    await waitForLogLine(echoWorker, join(logs, 'echo-worker.log'), 'echo worker polling', 120_000);
    log('API, worker and baselines ready');

    const connection = await Connection.connect({ address: config.temporal.address });
    stops.push(() => connection.close());
    const s3 = createS3Client(config.s3);
    stops.push(async () => s3.destroy());
    return {
      dataDir,
      env,
      config,
      apiUrl,
      coldApiUrl,
      baselineUrl,
      api,
      coldApi,
      worker,
      workers,
      engine,
      baseline,
      echoWorker,
      dataSource,
      temporal: new Client({ connection, namespace: config.temporal.namespace }),
      s3,
      stop: stopAll,
    };
  } catch (error) {
    await stopAll();
    throw error;
  }
}

async function waitForReady(child: BenchProcess, url: string, logFile: string, timeoutMs: number) {
  let exited = false;
  void child.exited.then(() => (exited = true));
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline && !exited) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`the ${child.name} did not become ready at ${url}${tail(logFile)}`);
}

async function waitForLogLine(child: BenchProcess, logFile: string, text: string, timeoutMs: number) {
  let exited = false;
  void child.exited.then(() => (exited = true));
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline && !exited) {
    if (readText(logFile).includes(text)) return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`the ${child.name} did not log "${text}"${tail(logFile)}`);
}

const readText = (file: string) => {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return '';
  }
};
const tail = (file: string) => `\n--- ${file} ---\n${readText(file).slice(-3000)}`;

/** Peak (VmHWM) and current (VmRSS) resident set size of a process, in MiB; NaN once it is gone. */
export function rssOf(pid: number): { peakMiB: number; currentMiB: number } {
  const status = readText(`/proc/${pid}/status`);
  const kib = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
  return { peakMiB: kib('VmHWM') / 1024, currentMiB: kib('VmRSS') / 1024 };
}

/** Resets a process's peak RSS to its current RSS (Linux ≥ 4.0), so each pair reports its own peak. */
export function resetPeakRss(pid: number): void {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, '5');
  } catch {
    // not Linux, or not allowed: the peak then covers the whole run so far
  }
}

const TICKS_PER_SECOND = 100;

/** The fields of a process's stat after its command name. */
function statFields(pid: number): string[] | null {
  return parseStat(readText(`/proc/${pid}/stat`))?.fields ?? null;
}

function parseStat(stat: string): { command: string; fields: string[] } | null {
  if (!stat) return null;
  // The command name (field 2) may contain spaces; everything after its closing parenthesis is space-separated.
  const close = stat.lastIndexOf(')');
  return { command: stat.slice(stat.indexOf('(') + 1, close), fields: stat.slice(close + 2).split(' ') };
}

/** CPU seconds used by a process (all its threads), plus those of its children it has reaped when asked. */
function cpuOf(pid: number, withReapedChildren = false): number {
  const f = statFields(pid);
  if (!f) return 0;
  // After the command name: state(0) ppid(1) … utime(11) stime(12) cutime(13) cstime(14).
  const ticks = Number(f[11]) + Number(f[12]) + (withReapedChildren ? Number(f[13]) + Number(f[14]) : 0);
  return ticks / TICKS_PER_SECOND;
}

/**
 * CPU seconds of a process's V8 helper threads (`V8Worker`: concurrent marking and sweeping, background
 * compilation), already counted in {@link cpuOf}: a main-thread CPU profile does not sample them.
 */
function v8HelperCpuOf(pid: number): number {
  let tasks: string[];
  try {
    tasks = readdirSync(`/proc/${pid}/task`);
  } catch {
    return 0; // gone
  }
  let ticks = 0;
  for (const tid of tasks) {
    const thread = parseStat(readText(`/proc/${pid}/task/${tid}/stat`));
    if (thread?.command.startsWith('V8Worker'))
      ticks += Number(thread.fields[11]) + Number(thread.fields[12]);
  }
  return ticks / TICKS_PER_SECOND;
}

function processes(): Array<{ pid: number; ppid: number; cmdline: string }> {
  const list: Array<{ pid: number; ppid: number; cmdline: string }> = [];
  for (const entry of readdirSync('/proc')) {
    const pid = Number(entry);
    if (!Number.isInteger(pid)) continue;
    const f = statFields(pid);
    if (!f) continue;
    list.push({ pid, ppid: Number(f[1]), cmdline: readText(`/proc/${pid}/cmdline`).replaceAll('\0', ' ') });
  }
  return list;
}

/** CPU seconds used so far by each part of the system under test, the baselines and the bench itself. */
export function cpuByComponent(
  system: Pick<BenchSystem, 'dataDir' | 'api' | 'coldApi' | 'workers' | 'baseline' | 'echoWorker'>,
) {
  const all = processes();
  const byArg = (text: string) => all.filter((p) => p.cmdline.includes(text));
  const postmaster = byArg(join(system.dataDir, 'postgres')).find((p) => p.cmdline.includes(' -D '));
  const postgres = postmaster
    ? cpuOf(postmaster.pid, true) +
      all.filter((p) => p.ppid === postmaster.pid).reduce((sum, p) => sum + cpuOf(p.pid), 0)
    : 0;
  const sum = (list: Array<{ pid: number }>) => list.reduce((total, p) => total + cpuOf(p.pid), 0);
  return {
    api: cpuOf(system.api.pid),
    apiCold: cpuOf(system.coldApi.pid),
    worker: sum(system.workers),
    baseline: cpuOf(system.baseline.pid),
    // Parts of the three above, where a pair's garbage collection differs between its sides.
    apiV8Helpers: v8HelperCpuOf(system.api.pid),
    apiColdV8Helpers: v8HelperCpuOf(system.coldApi.pid),
    baselineV8Helpers: v8HelperCpuOf(system.baseline.pid),
    echoWorker: cpuOf(system.echoWorker.pid),
    postgres,
    // The dev server names its SQLite file; Temporal's server its config folder.
    temporal: sum([
      ...byArg(join(system.dataDir, 'temporal.sqlite')),
      ...byArg(join(system.dataDir, 'temporal-server')),
    ]),
    s3: sum(byArg(join(system.dataDir, 's3')).filter((p) => !p.cmdline.includes(' -D '))),
    bench: cpuOf(process.pid),
  };
}

export type CpuByComponent = ReturnType<typeof cpuByComponent>;
