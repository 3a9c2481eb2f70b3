import { type ChildProcess, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Config } from '../../config';
import { projectRoot } from '../../infra/paths';
import { TS_SOURCE_LOADER } from '../../infra/processes';
import { type GeneratedBundle, type GenerateOptions, generateBundle } from '../../scripts/generateBundle';
import type { TestStack } from './stack';

const generatedDirs: string[] = [];

/** A synthetic bundle (scripts/generateBundle.ts) in a new temporary folder (see `removeGenerated`). */
export async function generated(
  service: 'math' | 'genomics',
  tasks: number,
  options: Omit<GenerateOptions, 'service' | 'tasks' | 'out'> = {},
): Promise<GeneratedBundle> {
  const out = await mkdtemp(join(tmpdir(), `referee-generated-${service}-`));
  generatedDirs.push(out);
  return generateBundle({ service, tasks, out, ...options });
}

/** Deletes the folders `generated` made. */
export async function removeGenerated(): Promise<void> {
  await Promise.all(generatedDirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
}

/** The environment the worker and the ops CLI read (config.ts) for this stack, on another task queue if given. */
export function stackEnv(config: Config, taskQueue = config.temporal.taskQueue): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    DATABASE_URL: config.databaseUrl,
    DATABASE_POOL_SIZE: '4',
    TEMPORAL_ADDRESS: config.temporal.address,
    TEMPORAL_NAMESPACE: config.temporal.namespace,
    TEMPORAL_TASK_QUEUE: taskQueue,
    S3_ENDPOINT: config.s3.endpoint,
    S3_REGION: config.s3.region,
    S3_BUCKET: config.s3.bucket,
    S3_ACCESS_KEY_ID: config.s3.accessKeyId,
    S3_SECRET_ACCESS_KEY: config.s3.secretAccessKey,
    ...(config.webhooks.secretKey ? { WEBHOOK_SECRET_KEY: config.webhooks.secretKey } : {}),
    WEBHOOK_ALLOW_PRIVATE_TARGETS: String(config.webhooks.allowPrivateTargets),
    LOG_LEVEL: 'warn',
  };
}

const tsx = join(projectRoot, 'node_modules', '.bin', 'tsx');

/** Runs `npm run ops -- <args>` against the stack (tsx cli/main.ts); resolves with its exit code and output. */
export function runOps(
  stack: TestStack,
  args: string[],
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(tsx, ['cli/main.ts', ...args], { cwd: projectRoot, env: stackEnv(stack.config) });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/**
 * A worker process polling `taskQueue` of the stack's namespace: `node --require tsx/cjs worker.ts`, one process
 * (the `tsx` launcher would run the worker in a child of its own, which a SIGKILL of the launcher leaves alive).
 */
export function spawnWorker(stack: TestStack, taskQueue: string): ChildProcess {
  return spawn(process.execPath, [...TS_SOURCE_LOADER, 'worker.ts'], {
    cwd: projectRoot,
    env: stackEnv(stack.config, taskQueue),
    stdio: ['ignore', 'ignore', 'ignore'],
  });
}

/** Kills a process with SIGKILL and waits for it to be gone. */
export async function kill(child: ChildProcess, signal: NodeJS.Signals = 'SIGKILL'): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill(signal);
  await exited;
}

const IMPORTED_TABLES = [
  'math_runs',
  'math_topics',
  'math_artifacts',
  'math_reports',
  'math_clients',
  'math_client_events',
  'math_tasks',
  'math_task_events',
  'math_task_evidence',
  'genomics_campaigns',
  'genomics_clients',
  'genomics_topics',
  'genomics_topic_campaigns',
  'genomics_topic_clients',
  'genomics_measurements',
  'genomics_reports',
  'genomics_revisions',
  'genomics_publications',
  'genomics_events',
  'genomics_imports',
];

/**
 * Row count and newest writing transaction (`xmin`) of every table an import writes: equal snapshots mean
 * no row was inserted, updated or deleted in between.
 */
export async function tableSnapshot(stack: TestStack): Promise<Record<string, string>> {
  const snapshot: Record<string, string> = {};
  for (const table of IMPORTED_TABLES) {
    const [row]: Array<{ count: number; xmin: string | null }> = await stack.dataSource.query(
      `SELECT count(*)::int AS count, max(xmin::text::bigint)::text AS xmin FROM ${table}`,
    );
    snapshot[table] = `${row.count} rows, last written by ${row.xmin}`;
  }
  return snapshot;
}

/** The records of a JSONL file. */
export async function readJsonl<T = any>(path: string): Promise<T[]> {
  return (await readFile(path, 'utf8'))
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as T);
}

const sha256 = (bytes: Buffer | string) => createHash('sha256').update(bytes).digest('hex');

/** A bundle's manifest with `lists` inline: those kept in JSONL files (`<list>_file`) are read into it. */
async function readManifestWithLists(dir: string, lists: string[]): Promise<any> {
  const manifest = JSON.parse(await readFile(join(dir, 'manifest.json'), 'utf8'));
  for (const key of lists)
    if (manifest[`${key}_file`]) manifest[key] = await readJsonl(join(dir, manifest[`${key}_file`].path));
  return manifest;
}

/** A math bundle's manifest with every list inline, whichever layout it has. */
export const readMathManifest = (dir: string): Promise<any> =>
  readManifestWithLists(dir, ['artifacts', 'reports', 'tasks', 'evidence']);

/** A genomics bundle's manifest with every list inline, whichever layout it has. */
export const readGenomicsManifest = (dir: string): Promise<any> =>
  readManifestWithLists(dir, ['topics', 'measurements', 'reports', 'revisions', 'publications']);

/**
 * Edits a generated math bundle (JSONL layout) in place: its lists' JSONL files and its manifest; each edited
 * file's checksum in the manifest follows.
 */
export async function editMathBundle(
  dir: string,
  edit: {
    artifacts?: (artifact: any, index: number) => any;
    reports?: (report: any, index: number) => any;
    tasks?: (task: any, index: number) => any;
    evidence?: (entry: any, index: number) => any;
    manifest?: (manifest: any) => void | Promise<void>;
  },
): Promise<void> {
  const manifest = JSON.parse(await readFile(join(dir, 'manifest.json'), 'utf8'));
  for (const key of ['artifacts', 'reports', 'tasks', 'evidence'] as const) {
    const change = edit[key];
    if (!change) continue;
    const file = manifest[`${key}_file`];
    const records = (await readJsonl(join(dir, file.path))).map(change).filter((r) => r !== null);
    const text = records.map((r) => `${JSON.stringify(r)}\n`).join('');
    await writeFile(join(dir, file.path), text);
    file.sha256 = sha256(text);
  }
  await edit.manifest?.(manifest);
  await writeFile(join(dir, 'manifest.json'), JSON.stringify(manifest, null, 1));
}

/** Waits until `check` holds, polling; fails after `timeoutMs`. */
export async function waitFor<T>(
  what: string,
  check: () => Promise<T | null | undefined | false>,
  timeoutMs = 60_000,
  intervalMs = 100,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check().catch(() => null);
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
