import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { insertApiKey } from '../access/keys';
import { type MemberSyncFile, syncMembers } from '../access/members';
import { type Role, SCOPES, type ServiceName } from '../entities/types';
import { projectRoot } from '../infra/paths';
import { CLI_NODE_FLAGS } from '../infra/processes';
import { rssOf, type SystemAccess } from './system';

interface NodeRun {
  stdout: string;
  seconds: number;
  peakMiB: number;
}

/**
 * Runs a project script as `tsx` would, and returns its stdout, its wall time and its peak resident memory (the
 * child's VmHWM, read every 250 ms while it runs); a failure carries its stderr.
 */
export const runScript = (
  script: string,
  args: string[],
  env: NodeJS.ProcessEnv = process.env,
  acceptedExitCodes: number[] = [0],
): Promise<NodeRun> => runNode(['--import', 'tsx', join(projectRoot, script)], args, env, acceptedExitCodes);

/** Runs the ops CLI as `npm run ops` does (`node <CLI_NODE_FLAGS> bin/referee.js`), measured as {@link runScript}. */
export const runCli = (
  args: string[],
  env: NodeJS.ProcessEnv = process.env,
  acceptedExitCodes: number[] = [0],
): Promise<NodeRun> =>
  runNode([...CLI_NODE_FLAGS, join(projectRoot, 'bin', 'referee.js')], args, env, acceptedExitCodes);

function runNode(
  nodeArgs: string[],
  args: string[],
  env: NodeJS.ProcessEnv,
  acceptedExitCodes: number[],
): Promise<NodeRun> {
  const started = performance.now();
  const command = [...nodeArgs, ...args];
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, command, {
      cwd: projectRoot,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let peakMiB = 0;
    const sampler = setInterval(() => {
      // Gone between the tick and the read: NaN, which never raises the peak.
      const peak = child.pid ? rssOf(child.pid).peakMiB : Number.NaN;
      if (peak > peakMiB) peakMiB = peak;
    }, 250);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('error', (error) => {
      clearInterval(sampler);
      reject(error);
    });
    child.once('exit', (code) => {
      clearInterval(sampler);
      const seconds = (performance.now() - started) / 1000;
      if (code !== null && acceptedExitCodes.includes(code)) resolve({ stdout, seconds, peakMiB });
      else reject(new Error(`node ${command.join(' ')} exited with ${code}:\n${stderr.slice(-2000)}`));
    });
  });
}

/** The last JSON line of a script's output. */
export const lastJson = <T>(stdout: string): T => {
  const line = stdout
    .trim()
    .split('\n')
    .reverse()
    .find((l) => l.startsWith('{'));
  if (!line) throw new Error(`no JSON in output:\n${stdout.slice(-500)}`);
  return JSON.parse(line) as T;
};

export interface GeneratedBundle {
  dir: string;
  id: string;
  counts: Record<string, number>;
}

/** `npm run generate:bundle -- …`: the import generator, as a user runs it. */
export async function generateBundle(options: {
  service: 'math' | 'genomics';
  tasks: number;
  out: string;
  seed: number;
  artifactBytes?: number;
  runId?: string;
  batch?: string;
}): Promise<GeneratedBundle & { seconds: number }> {
  const args = [
    '--service',
    options.service,
    '--tasks',
    String(options.tasks),
    '--out',
    options.out,
    '--seed',
    String(options.seed),
  ];
  if (options.artifactBytes) args.push('--artifact-bytes', String(options.artifactBytes));
  if (options.runId) args.push('--run-id', options.runId);
  if (options.batch) args.push('--batch', options.batch);
  const { stdout, seconds } = await runScript('scripts/generateBundle.ts', args);
  return { ...lastJson<GeneratedBundle>(stdout), seconds };
}

/** The CLI's one-time build (bin/referee.js builds dist/referee.js on first use), kept out of timed runs. */
let cliBuilt: Promise<unknown> | null = null;

/** One `ops import`: its wall time, its JSON result, and when it was spawned (ms since the epoch). */
export interface OpsImportRun {
  seconds: number;
  result: Record<string, unknown>;
  spawnedAtMs: number;
}

/**
 * `npm run ops -- import <dir> --json` as an operator runs it (the compiled CLI), timed from spawn to exit (what
 * an operator waits for); the spawn's wall-clock time places it beside the import's history.
 */
export async function opsImport(system: SystemAccess, dir: string): Promise<OpsImportRun> {
  cliBuilt ??= runCli(['--help'], system.env);
  await cliBuilt;
  const spawnedAtMs = Date.now();
  const { stdout, seconds } = await runCli(['import', dir, '--json'], system.env);
  return { seconds, result: lastJson<Record<string, unknown>>(stdout), spawnedAtMs };
}

/**
 * The bench's people, then a generated math run of `tasks` tasks imported through `ops import`: how the soak and
 * the operator timings begin.
 */
export async function seedPeopleAndMathRun(
  system: SystemAccess,
  run: { tasks: number; dataDir: string; seed: number; runId: string },
): Promise<{ people: People; counts: Record<string, number>; importSeconds: number }> {
  const people = await seedPeople(system);
  const bundle = await generateBundle({
    service: 'math',
    tasks: run.tasks,
    out: join(run.dataDir, 'bundles', run.runId),
    seed: run.seed,
    runId: run.runId,
  });
  const imported = await opsImport(system, bundle.dir);
  return { people, counts: bundle.counts, importSeconds: imported.seconds };
}

export interface Caller {
  memberId: string;
  token: string;
  role: Role;
}

export interface People {
  mathOwner: Caller;
  mathReviewer: Caller;
  genomicsOwner: Caller;
  genomicsReviewer: Caller;
}

/** Demo members, and one key per caller the bench plays (minted as `ops keys create` does). */
export async function seedPeople(system: SystemAccess): Promise<People> {
  const file = JSON.parse(
    await readFile(join(projectRoot, 'demo', 'members.json'), 'utf8'),
  ) as MemberSyncFile;
  await syncMembers(system.dataSource, file);
  const key = async (service: ServiceName, identityId: string, role: Role): Promise<Caller> => {
    const [member]: Array<{ id: string }> = await system.dataSource.query(
      'SELECT id::text FROM members WHERE service = $1 AND identity_id = $2',
      [service, identityId],
    );
    const created = await system.dataSource.transaction((tx) =>
      insertApiKey(tx, {
        service,
        memberId: member.id,
        name: `bench ${identityId}`,
        role,
        scopes: [...SCOPES],
        expiresAt: new Date(Date.now() + 86_400_000),
        createdByKeyId: null,
        issuer: 'bench',
      }),
    );
    return { memberId: member.id, token: created.token, role };
  };
  return {
    mathOwner: await key('math', 'idp|olga', 'OWNER'),
    mathReviewer: await key('math', 'idp|rui', 'REVIEWER'),
    genomicsOwner: await key('genomics', 'idp|olga', 'OWNER'),
    genomicsReviewer: await key('genomics', 'idp|rui', 'REVIEWER'),
  };
}

export interface ApiAnswer<T = unknown> {
  status: number;
  body: T;
  ms: number;
  retryAfterSeconds?: number;
}

/**
 * One JSON request to the API as `caller`; mutations get a fresh Idempotency-Key. With `retries`, a 503
 * (Temporal past its deadline on a busy machine) and a 409 `idempotency_request_in_progress` (the first try
 * still running) are retried with the same key after their Retry-After, as a client should.
 */
export async function callApi<T = unknown>(
  url: string,
  caller: Caller,
  method: string,
  path: string,
  body?: unknown,
  retries = 0,
): Promise<ApiAnswer<T>> {
  const headers: Record<string, string> = { authorization: `Bearer ${caller.token}` };
  if (body !== undefined) {
    headers['content-type'] = 'application/json';
    headers['idempotency-key'] = `bench-${randomUUID()}`;
  }
  for (let attempt = 0; ; attempt++) {
    const answer = await requestOnce<T>(url, headers, method, path, body);
    if (!answer.retryAfterSeconds || attempt >= retries) return answer;
    await new Promise((resolve) => setTimeout(resolve, answer.retryAfterSeconds! * 1000));
  }
}

async function requestOnce<T>(
  url: string,
  headers: Record<string, string>,
  method: string,
  path: string,
  body: unknown,
): Promise<ApiAnswer<T>> {
  const started = performance.now();
  const response = await fetch(`${url}${path}`, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  const ms = performance.now() - started;
  const type = response.headers.get('content-type') ?? '';
  const parsed = (type.includes('json') ? JSON.parse(text) : text) as T;
  return { status: response.status, body: parsed, ms, retryAfterSeconds: retryAfter(response, parsed) };
}

/** Seconds to wait before retrying with the same key, for the answers a client retries; else undefined. */
function retryAfter(response: Response, body: unknown): number | undefined {
  const inProgress =
    response.status === 409 && (body as { code?: string } | null)?.code === 'idempotency_request_in_progress';
  if (response.status !== 503 && !inProgress) return undefined;
  const seconds = Number(response.headers.get('retry-after'));
  return Number.isFinite(seconds) && seconds > 0 ? seconds : 1;
}

/** Runs `work` over `items` with at most `concurrency` in flight; stops at the first failure. */
export async function inParallel<T>(
  items: readonly T[],
  concurrency: number,
  work: (item: T, index: number) => Promise<void>,
): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(concurrency, items.length) }, async () => {
      while (next < items.length) {
        const index = next++;
        await work(items[index], index);
      }
    }),
  );
}

/**
 * Assigns `count` tasks of a run to the reviewer through the API (the Owner's `assign` action), so the
 * Reviewer's list has rows and the task list sees a mix of states. Spread evenly over the run.
 */
export async function assignTasks(
  system: SystemAccess,
  people: People,
  runId: string,
  count: number,
): Promise<string[]> {
  const rows: Array<{ task_id: string }> = await system.dataSource.query(
    `SELECT task_id FROM (SELECT task_id, row_number() OVER (ORDER BY task_id) AS n FROM math_tasks WHERE run_id = $1) t
      WHERE n % greatest(1, (SELECT count(*) FROM math_tasks WHERE run_id = $1) / $2) = 0
      ORDER BY task_id LIMIT $2`,
    [runId, count],
  );
  const taskIds = rows.map((r) => r.task_id);
  await inParallel(taskIds, 8, async (taskId) => {
    const answer = await callApi(
      system.apiUrl,
      people.mathOwner,
      'POST',
      `/api/math/tasks/${taskId}`,
      { version: 0, action: 'assign', assignee_id: people.mathReviewer.memberId },
      3,
    );
    if (answer.status !== 200)
      throw new Error(`assign ${taskId}: ${answer.status} ${JSON.stringify(answer.body)}`);
  });
  return taskIds;
}

/** A genomics batch of `count` topics created through the API (`POST /api/v1/topics`). */
export async function createTopics(
  system: SystemAccess,
  people: People,
  batch: string,
  count: number,
): Promise<string[]> {
  const numbers = Array.from({ length: count }, (_, i) => i + 1);
  const uids: string[] = [];
  await inParallel(numbers, 16, async (topic) => {
    const answer = await callApi<{ topicUid: string }>(
      system.apiUrl,
      people.genomicsOwner,
      'POST',
      '/api/v1/topics',
      {
        batch,
        topic,
        title: `Bench topic ${topic}: ${['variant', 'assembly', 'panel', 'cohort'][topic % 4]} review`,
        category: ['germline', 'somatic', 'rna', 'methylation'][topic % 4],
        markdown: `# Topic ${topic}\n\nSynthetic brief for the benchmark.\n`,
      },
    );
    if (answer.status !== 201)
      throw new Error(`create topic ${topic}: ${answer.status} ${JSON.stringify(answer.body)}`);
    uids.push(answer.body.topicUid);
  });
  return uids.sort();
}
