import { randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { processAlive } from '../../infra/connectionFile';
import { ensureTemporalServerTools } from '../../infra/goTools';
import { dropDatabase } from '../../infra/postgres';
import { startTemporalServer, type TemporalServer } from '../../infra/temporalServer';
import { http, importBundle, mintKey, seedMembers, startStack, type TestStack } from '../helpers/stack';
import { readTestEnv } from '../helpers/testEnv';

/**
 * Temporal's own server as a cluster of service processes (the `services` topology): a frontend, two history
 * hosts sharing the shards, two matching hosts and a worker service, each its own supervised process, joined
 * through the membership table. A history host SIGKILLed under a loop of actions: its shards move, and every
 * acknowledged action is applied exactly once.
 */
const suffix = randomBytes(4).toString('hex');
const databases = { persistence: `temporal_svc_${suffix}`, visibility: `temporal_svc_${suffix}_vis` };
let workDir: string;
let adminUrl: string;
let server: TemporalServer | undefined;
let stack: TestStack | undefined;
let owner: string;

beforeAll(async () => {
  const tools = await ensureTemporalServerTools(); // builds once (minutes) unless cached
  adminUrl = readTestEnv().pgAdminUrl;
  workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'referee-temporal-services-'));
  server = await startTemporalServer({
    binaries: tools,
    postgresUrl: adminUrl,
    databases,
    stateDir: path.join(workDir, 'state'),
    topology: 'services',
    namespaces: [],
    logFile: path.join(workDir, 'temporal.log'),
  });
  // API calls to Temporal give up after 5 s, so a call stuck on a dead host's shard ends in a 503 and a retry.
  stack = await startStack({ temporalAddress: server.address, env: { TEMPORAL_CALL_TIMEOUT_MS: '5000' } });
  await seedMembers(stack);
  await importBundle(stack);
  owner = (await mintKey(stack, 'math', 'idp|olga')).token;
}, 30 * 60_000);

afterAll(async () => {
  await stack?.stop();
  await server?.stop();
  for (const name of Object.values(databases)) await dropDatabase(adminUrl, name).catch(() => undefined);
  if (workDir && !process.env.KEEP_TEST_LOGS) fs.rmSync(workDir, { recursive: true, force: true });
}, 120_000);

const acquiredShards = (logFile: string) =>
  (fs.existsSync(logFile) ? fs.readFileSync(logFile, 'utf8') : '')
    .split('\n')
    .filter((line) => line.includes('"Acquired shard"')).length;

const hostsOf = (role: string) => server!.processes.filter((p) => p.roles.includes(role as 'history'));

test('each service host runs as its own process: two history hosts own the shards, two matching hosts', async () => {
  const processes = server!.processes;
  expect(processes.map((p) => [p.name, p.roles])).toEqual([
    ['frontend', ['frontend']],
    ['history-1', ['history']],
    ['history-2', ['history']],
    ['matching-1', ['matching']],
    ['matching-2', ['matching']],
    ['worker', ['worker']],
  ]);
  expect(new Set(processes.map((p) => p.pid)).size).toBe(processes.length);
  expect(new Set(processes.map((p) => p.address)).size).toBe(processes.length);
  for (const p of processes) expect(processAlive(p.pid)).toBe(true);
  // Both history hosts took shards (each logs every shard it acquires).
  for (const host of hostsOf('history')) {
    const deadline = Date.now() + 60_000;
    while (acquiredShards(host.logFile!) === 0 && Date.now() < deadline) await sleep(250);
    expect(acquiredShards(host.logFile!)).toBeGreaterThan(0);
  }
}, 120_000);

test('a history host killed with SIGKILL under a loop of actions: every acknowledged action is applied exactly once', async () => {
  const tasks: Array<{ task_id: string; version: number }> = await stack!.dataSource.query(
    'SELECT task_id, version FROM math_tasks ORDER BY task_id',
  );
  expect(tasks.length).toBeGreaterThanOrEqual(4);
  const tally = { unavailable: 0, withoutRetryAfter: 0, inProgress: 0 };
  const acknowledged = new Map<string, string[]>(tasks.map((t) => [t.task_id, []]));
  let phase: 'before' | 'after' | 'done' = 'before';
  const afterRestart = new Map<string, number>(tasks.map((t) => [t.task_id, 0]));

  /** Sends one feedback action until it is answered, with one Idempotency-Key, as a careful client does. */
  const perform = async (taskId: string, version: number, comment: string) => {
    const key = `svc-${randomUUID()}`;
    const giveUpAt = Date.now() + 180_000;
    for (let attempt = 1; ; attempt += 1) {
      if (Date.now() > giveUpAt) throw new Error(`${comment}: no answer within 180 s`);
      const res = await http(stack!, 'POST', `/api/math/tasks/${taskId}`, {
        token: owner,
        headers: { 'idempotency-key': key },
        body: { version, action: 'feedback', comment },
      });
      if (res.status === 200) return;
      if (res.status === 503) {
        tally.unavailable += 1;
        if (!(Number(res.headers.get('retry-after')) > 0)) tally.withoutRetryAfter += 1;
      } else if (res.status === 409 && res.body.code === 'idempotency_request_in_progress') {
        tally.inProgress += 1;
      } else {
        throw new Error(`${comment}: ${res.status} ${JSON.stringify(res.body)}`);
      }
      await sleep(Math.min(1000, 100 * attempt));
    }
  };
  const loop = async (task: { task_id: string; version: number }) => {
    for (let i = 0; phase !== 'done'; i += 1) {
      const comment = `history host kill ${suffix} ${task.task_id} #${i}`;
      await perform(task.task_id, task.version + i, comment);
      acknowledged.get(task.task_id)!.push(comment);
      if (phase === 'after') afterRestart.set(task.task_id, afterRestart.get(task.task_id)! + 1);
    }
  };
  let failure: unknown;
  const loops = Promise.all(tasks.map(loop)).catch((error: unknown) => {
    failure = error;
    phase = 'done';
  });
  /** Waits for `condition`; a loop that failed ends the wait (and the test, below). */
  const until = async (condition: () => boolean, deadline: number) => {
    while (!condition() && failure === undefined && Date.now() < deadline) await sleep(200);
  };

  const [victim] = hostsOf('history');
  const everyTaskActed = (counts: Map<string, number | string[]>, n: number) =>
    [...counts.values()].every((c) => (typeof c === 'number' ? c : c.length) >= n);
  await until(() => everyTaskActed(acknowledged, 2), Date.now() + 120_000);
  const acquiredBefore = hostsOf('history').reduce((n, h) => n + acquiredShards(h.logFile!), 0);
  if (failure === undefined) process.kill(victim.pid, 'SIGKILL');

  // The host is restarted by its supervision; the loop goes on until every task had actions after that.
  const deadline = Date.now() + 240_000;
  await until(() => hostsOf('history')[0].pid !== victim.pid, deadline);
  if (failure === undefined) phase = 'after';
  await until(() => everyTaskActed(afterRestart, 3), deadline);
  phase = 'done';
  await loops;
  if (failure !== undefined) throw failure;
  expect(hostsOf('history')[0].pid).not.toBe(victim.pid);
  expect(everyTaskActed(afterRestart, 3)).toBe(true);
  // The killed host's shards were acquired again: by the other host, or by its replacement as it rejoined
  // (whose log line may come after the actions it already serves).
  const acquiredNow = () => hostsOf('history').reduce((n, h) => n + acquiredShards(h.logFile!), 0);
  await until(() => acquiredNow() > acquiredBefore, Date.now() + 60_000);
  expect(acquiredNow()).toBeGreaterThan(acquiredBefore);

  // Exactly once: each task's version advanced by its acknowledged actions, each comment recorded once.
  for (const task of tasks) {
    const comments = acknowledged.get(task.task_id)!;
    const [row]: Array<{ version: number }> = await stack!.dataSource.query(
      'SELECT version FROM math_tasks WHERE task_id = $1',
      [task.task_id],
    );
    expect(row.version).toBe(task.version + comments.length);
    const events: Array<{ comment: string | null }> = await stack!.dataSource.query(
      'SELECT comment FROM math_task_events WHERE task_id = $1 AND version > $2 ORDER BY version',
      [task.task_id, task.version],
    );
    expect(events.map((e) => e.comment)).toEqual(comments);
    const state = await http(stack!, 'GET', `/api/math/tasks/${task.task_id}`, { token: owner });
    expect(state.body.version).toBe(row.version);
  }
  expect(tally.withoutRetryAfter).toBe(0);
}, 420_000);
