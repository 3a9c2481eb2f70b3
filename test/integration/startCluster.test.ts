import { randomUUID } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { Client, Connection } from '@temporalio/client';
import { processAlive } from '../../infra/connectionFile';
import { mathTaskWorkflowId } from '../../workflows/mathTask/ids';
import {
  cleanEnv,
  type CliResult,
  nodeProcessesUnder,
  type NpmStart,
  referee,
  startNpmStart,
} from '../helpers/npmStart';

/**
 * `npm run start:cluster` as an operator meets it: Temporal's own server on PostgreSQL with 16 history shards (a
 * process per service host: two history and two matching hosts), two workers and two API processes sharing one
 * port, each supervised; the CLI in a second process finds all of it through the connection file. Faults: an API process and the worker holding a task workflow, each SIGKILLed.
 */
let system: NpmStart;
let env: NodeJS.ProcessEnv;
let mathKey: string;

beforeAll(async () => {
  // Builds Temporal's server, SQL tool and UI once per machine (minutes) unless cached.
  system = await startNpmStart({}, { script: 'start:cluster', readyTimeoutMs: 25 * 60_000 });
  env = cleanEnv({ REFEREE_DATA_DIR: system.dataDir });
  mathKey = /^\s+math\s+(\S+)$/m.exec(system.output())![1];
}, 30 * 60_000);

afterAll(async () => {
  await system?.stop();
  if (system) await rm(system.dataDir, { recursive: true, force: true });
}, 120_000);

const json = (result: CliResult) => JSON.parse(result.stdout) as Record<string, any>;

const api = (path: string, init: RequestInit = {}) =>
  fetch(`${system.baseUrl}${path}`, {
    ...init,
    headers: { authorization: `Bearer ${mathKey}`, 'content-type': 'application/json', ...init.headers },
  });

/** A feedback action on a demo task (any state accepts it), with the version read just before. */
async function feedback(taskId: string, comment: string): Promise<Response> {
  const task = (await (await api(`/api/math/tasks/${taskId}`)).json()) as { version: number };
  return api(`/api/math/tasks/${taskId}`, {
    method: 'POST',
    headers: { 'idempotency-key': randomUUID() },
    body: JSON.stringify({ version: task.version, action: 'feedback', comment }),
  });
}

async function until<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`${what} within ${timeoutMs} ms`);
    await sleep(200);
  }
}

test('the banner and the connection file name the engine and every process', async () => {
  expect(system.output()).toMatch(/Temporal server on PostgreSQL, 16 history shards/);
  expect(system.output()).toMatch(/Processes +2 API \(sharing port \d+\), 2 workers/);
  expect(system.output()).toMatch(/Temporal UI +http:\/\/127\.0\.0\.1:\d+/);
  const connection = await system.connection();
  expect(connection.temporal).toMatchObject({ engine: 'server', historyShards: 16, topology: 'services' });
  // Temporal's server as a process per service host, each with its role, and the UI beside them.
  expect(connection.processes.temporalProcesses!.map((p) => [p.name, p.roles])).toEqual([
    ['frontend', ['frontend']],
    ['history-1', ['history']],
    ['history-2', ['history']],
    ['matching-1', ['matching']],
    ['matching-2', ['matching']],
    ['worker', ['worker']],
    ['ui', ['ui']],
  ]);
  for (const { pid } of connection.processes.temporalProcesses!) expect(processAlive(pid)).toBe(true);
  expect(connection.processes.apis).toHaveLength(2);
  expect(connection.processes.workers).toHaveLength(2);
  for (const pid of [...connection.processes.apis!, ...connection.processes.workers!]) {
    expect(processAlive(pid)).toBe(true);
  }
  expect(processAlive(connection.processes.temporal!)).toBe(true);
  const ui = await fetch(connection.temporal!.uiUrl!);
  expect(ui.status).toBe(200);
});

test('every Node.js process runs its build with plain node: no tsx, the API and the workers from dist/', async () => {
  const processes = await nodeProcessesUnder(system.pid);
  const { pid, processes: services } = await system.connection();
  const built = (file: string) => [
    '--enable-source-maps',
    expect.stringMatching(new RegExp(`(^|/)dist/${file}$`)),
  ];
  const argsOf = (wanted: number) => processes.find((each) => each.pid === wanted)?.args ?? [];
  expect(processes.filter(({ args }) => args.some((arg) => arg.includes('tsx')))).toEqual([]);
  expect(argsOf(pid)).toEqual([expect.any(String), ...built('start-cluster.js')]);
  for (const api of services.apis!) expect(argsOf(api)).toEqual(expect.arrayContaining(built('server.js')));
  for (const worker of services.workers!)
    expect(argsOf(worker)).toEqual(expect.arrayContaining(built('worker.js')));
});

test('referee status --json says which engine answers and how many processes run', async () => {
  const result = await referee(['status', '--json'], env);
  expect(result.code).toBe(0);
  const { status } = json(result);
  expect(status.engine).toMatchObject({
    engine: 'server',
    serverVersion: '1.29.1',
    persistence: 'postgres12',
    visibility: 'postgres12',
    historyShards: 16,
    workerProcesses: 2,
  });
  expect(status.engine.pollers.workflow).toHaveLength(2);
  expect(status.engine.pollers.activity).toHaveLength(2);
  expect(status.processes).toMatchObject({
    apis: { listed: 2, running: 2 },
    workers: { listed: 2, running: 2 },
    temporal: { running: true },
  });
  const running = (role: string) =>
    (status.processes.temporalProcesses as Array<{ roles: string[]; running: boolean }>).filter(
      (p) => p.roles.includes(role) && p.running,
    ).length;
  expect([running('frontend'), running('history'), running('matching'), running('worker')]).toEqual([
    1, 2, 2, 1,
  ]);
  // The last minute's requests of both API processes (each from its own metrics), their rates summed.
  const apis = status.requests.processes as Array<{
    process: string;
    up: boolean;
    requestsPerSecond: number;
  }>;
  expect(apis.map((p) => [p.process, p.up])).toEqual([
    ['api', true],
    ['api-2', true],
  ]);
  expect(status.requests.requestsPerSecond).toBeCloseTo(
    apis[0].requestsPerSecond + apis[1].requestsPerSecond,
  );
}, 180_000);

test('an API process killed with SIGKILL: the other serves every request and the killed one is restarted', async () => {
  const [killed] = (await system.connection()).processes.apis!;
  process.kill(killed, 'SIGKILL');
  // A connection the killed process had accepted dies with it (a client retries it); every new one is served.
  const statuses: number[] = [];
  for (let i = 0; i < 20; i += 1) {
    const answer = await api('/api/auth/session', {
      headers: { connection: 'close' },
      signal: AbortSignal.timeout(15_000),
    }).catch(() => api('/api/auth/session', { headers: { connection: 'close' } }));
    statuses.push(answer.status);
  }
  expect(statuses).toEqual(new Array(20).fill(200));
  await system.waitFor(
    new RegExp(`The api 1 \\(pid ${killed}\\) exited \\(killed by a signal\\); restart 1`),
  );
  const apis = await until('the restarted API in the connection file', async () => {
    const { processes } = await system.connection();
    return processes.apis!.includes(killed) ? undefined : processes.apis!;
  });
  expect(apis).toHaveLength(2);
  expect((await feedback('demo-q2-a', 'Served after an API process was killed.')).status).toBe(200);
}, 240_000);

test('the worker holding a task workflow killed with SIGKILL: the next action and reconcile ride out its sticky queue', async () => {
  const taskId = 'demo-q1-a';
  expect((await feedback(taskId, 'Before the worker is killed.')).status).toBe(200);
  // The worker that completed the workflow's last task keeps it cached and its sticky queue names it.
  const { env: connectionEnv } = await system.connection();
  const connection = await Connection.connect({ address: connectionEnv.TEMPORAL_ADDRESS });
  let holder: number;
  try {
    const client = new Client({ connection, namespace: connectionEnv.TEMPORAL_NAMESPACE });
    const history = await client.workflow.getHandle(mathTaskWorkflowId(taskId)).fetchHistory();
    const completed = history.events!.filter((e) => e.workflowTaskCompletedEventAttributes).pop()!;
    holder = Number(completed.workflowTaskCompletedEventAttributes!.identity!.split('@')[0]);
  } finally {
    await connection.close();
  }
  expect((await system.connection()).processes.workers).toContain(holder);
  process.kill(holder, 'SIGKILL');

  // Right away, while the server still routes the workflow to the dead worker's sticky queue.
  const reconcile = await referee(['reconcile', '--service', 'math', '--restart', '--json'], env);
  expect(reconcile.stderr).not.toMatch(/Failed to query/);
  expect(reconcile.code).toBe(0);
  expect(json(reconcile)).toMatchObject({ ok: true });
  expect((await feedback(taskId, 'After the worker was killed.')).status).toBe(200);
  await system.waitFor(new RegExp(`The worker \\d \\(pid ${holder}\\) exited \\(killed by a signal\\)`));
}, 180_000);
