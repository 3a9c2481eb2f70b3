import { randomUUID } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Client, Connection } from '@temporalio/client';
import { runStamp } from '../bench/docSection';
import { exitWhenDone } from '../bench/exitWhenDone';
import { mathTaskWorkflowId } from '../workflows/mathTask/ids';
import { type NpmStart, startNpmStart } from '../test/helpers/npmStart';
import { drillArguments, RESTART_TIMES, RESTART_TIMES_RESULTS } from './commandLines';
import {
  type RecoverySplit,
  recoverySplit,
  replacementSteps,
  seconds,
  SPLIT_HEADERS,
  splitCells,
  taskTimeoutsAfter,
} from './recoverySplit';
import { markdownTable, reportResults } from './results';

/*
 * `npm run restart-times`: how fast a process killed with kill -9 serves again, on the system a new user starts
 * (`npm start`: one worker, one API) on a quiet machine, split into its steps; and, with --sticky, what each
 * sticky-queue timeout costs in replays on a healthy `npm run start:cluster` (docs/chaos.md, "Restart times").
 */

const DEMO_TASKS = ['demo-q1-a', 'demo-q2-a', 'demo-q2-b', 'demo-q3-a'];
// The timed change and the load use different tasks: two load clients on the timed task can win its version
// race for a minute, which times the race, not the restart.
const TIMED_TASKS = ['demo-q2-a', 'demo-q2-b'];
const LOAD_TASKS = DEMO_TASKS.filter((task) => !TIMED_TASKS.includes(task));
/** A supervised process that ran this long before it died is restarted at once (infra/supervisor.ts). */
const HEALTHY_AFTER_MS = 61_000;

interface Restart extends RecoverySplit {
  kind: 'api' | 'worker';
  compileCache: boolean;
  /** Clients changing the demo tasks through the kill (0: the system was idle). */
  loadClients: number;
  /** A change through the replacement (API) or on the workflow the dead worker held (worker) acknowledged. */
  acknowledgedMs: number;
}

async function main(): Promise<number> {
  const args = drillArguments(RESTART_TIMES);
  if (typeof args === 'number') return args;
  const stamp = args.markdown ? runStamp('npm run restart-times --') : null;
  const started = Date.now();
  const log = (line: string) =>
    process.stdout.write(`[${((Date.now() - started) / 1000).toFixed(0).padStart(5)} s] ${line}\n`);

  const restarts: Restart[] = [];
  const settings = { on: [true], off: [false], both: [false, true] }[args['compile-cache']];
  const loads = args.load > 0 ? [0, args.load] : [0];
  for (const loadClients of loads)
    for (const compileCache of settings) {
      // npm start turns the cache on for its services; Node's own variable turns it off.
      const env = compileCache ? {} : { NODE_DISABLE_COMPILE_CACHE: '1' };
      const system = await startNpmStart(env, { readyTimeoutMs: 30 * 60_000 });
      log(
        `npm start ready, compile cache ${compileCache ? 'on' : 'off'}, ${loadClients} clients of load ` +
          `(data in ${system.dataDir})`,
      );
      const mathKey = /^\s+math\s+(\S+)$/m.exec(system.output())![1];
      const load = startLoad(system, mathKey, loadClients);
      try {
        const lastStart = { api: Date.now(), worker: Date.now() };
        for (let round = 1; round <= args.rounds; round += 1) {
          for (const kind of ['api', 'worker'] as const) {
            await sleep(Math.max(0, lastStart[kind] + HEALTHY_AFTER_MS - Date.now()));
            const timed = await killAndTime(system, mathKey, kind, round);
            const restart = { ...timed, compileCache, loadClients };
            lastStart[kind] = Date.now();
            restarts.push(restart);
            log(`round ${round}: ${kind} ${describe(restart)}`);
          }
        }
      } finally {
        const changes = await load.stop();
        if (loadClients > 0) log(`load: ${changes} changes acknowledged through the kills`);
        await system.stop();
        if (!args.keep) await rm(system.root, { recursive: true, force: true });
      }
    }

  const sticky: StickyCost[] = [];
  for (const seconds of args.sticky ? args.sticky.split(',').map(Number) : []) {
    sticky.push(await stickyCost(seconds, args.actions, log));
    log(`sticky ${seconds} s: ${JSON.stringify(sticky[sticky.length - 1])}`);
  }

  return reportResults(RESTART_TIMES_RESULTS, {
    table: [
      restartTable(restarts, { byCompileCache: settings.length > 1, byLoad: loads.length > 1 }),
      ...(sticky.length > 0 ? ['', stickyTable(sticky)] : []),
    ].join('\n'),
    checks: [
      {
        ok: restarts.every((r) => Number.isFinite(r.acknowledgedMs)),
        text: `${restarts.length} kills, each followed by an acknowledged change`,
      },
    ],
    stamp,
  });
}

/** Kills the API or the worker of `system` with SIGKILL and times its replacement's steps from its log. */
async function killAndTime(
  system: NpmStart,
  key: string,
  kind: 'api' | 'worker',
  round: number,
): Promise<Omit<Restart, 'compileCache' | 'loadClients'>> {
  const task = TIMED_TASKS[round % TIMED_TASKS.length];
  // The task's workflow is cached on the worker, its next task bound to the worker's sticky queue.
  if (!(await acknowledged(system, key, task, 60_000))) throw new Error(`no change acknowledged on ${task}`);
  const { processes } = await system.connection();
  const pid = kind === 'api' ? processes.api! : processes.worker!;
  const logFile = join(system.dataDir, 'logs', `${kind}.log`);
  const killedAt = Date.now();
  process.kill(pid, 'SIGKILL');
  let healthzAt: number | undefined;
  if (kind === 'api') {
    while (healthzAt === undefined) {
      const answer = await fetch(`${system.baseUrl}/healthz`, { signal: AbortSignal.timeout(1000) }).catch(
        () => null,
      );
      if (answer?.status === 200) healthzAt = Date.now();
      else await sleep(20);
    }
  }
  if (!(await acknowledged(system, key, task, 120_000)))
    throw new Error(`no change on ${task} after the kill`);
  const acknowledgedAt = Date.now();
  const steps = await loggedSteps(logFile, kind, killedAt);
  const timeouts = kind === 'worker' ? await workerTimeouts(system, task, killedAt) : {};
  return {
    kind,
    ...recoverySplit(killedAt, steps, timeouts),
    healthzMs: healthzAt && healthzAt - killedAt,
    acknowledgedMs: acknowledgedAt - killedAt,
  };
}

/** The replacement's steps from its log, waited for until it has logged all three. */
async function loggedSteps(logFile: string, kind: 'api' | 'worker', after: number) {
  for (let attempt = 0; ; attempt += 1) {
    const steps = await replacementSteps(logFile, kind, after);
    if (steps.spawned && steps.loaded && steps.connected) return steps;
    if (attempt > 50) throw new Error(`${logFile}: no replacement after the kill`);
    await sleep(200);
  }
}

/** The workflow task timeouts on `task`'s workflow after the worker's kill (see {@link taskTimeoutsAfter}). */
async function workerTimeouts(system: NpmStart, task: string, after: number) {
  const { env } = await system.connection();
  const connection = await Connection.connect({ address: env.TEMPORAL_ADDRESS });
  try {
    const client = new Client({ connection, namespace: env.TEMPORAL_NAMESPACE });
    return await taskTimeoutsAfter(client, mathTaskWorkflowId(task), after);
  } finally {
    await connection.close();
  }
}

/**
 * `clients` closed loops of feedback actions over the demo tasks, each retried through the kills like any client
 * (a 503 or a dropped connection is tried again); stop() ends them and gives the changes acknowledged.
 */
function startLoad(system: NpmStart, key: string, clients: number): { stop(): Promise<number> } {
  let running = true;
  let changes = 0;
  const loops = Array.from({ length: clients }, async (_, client) => {
    for (let i = client; running; i += clients)
      if (await acknowledged(system, key, LOAD_TASKS[i % LOAD_TASKS.length], 120_000)) changes += 1;
  });
  return {
    async stop() {
      running = false;
      await Promise.all(loops);
      return changes;
    },
  };
}

/** A feedback action on `task` (accepted in any state), retried until acknowledged or `withinMs` passed. */
async function acknowledged(system: NpmStart, key: string, task: string, withinMs: number): Promise<boolean> {
  const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
  const idempotencyKey = randomUUID();
  const giveUpAt = Date.now() + withinMs;
  while (Date.now() < giveUpAt) {
    try {
      const read = await fetch(`${system.baseUrl}/api/math/tasks/${task}`, {
        headers,
        signal: AbortSignal.timeout(30_000),
      });
      if (read.status === 200) {
        const { version } = (await read.json()) as { version: number };
        const posted = await fetch(`${system.baseUrl}/api/math/tasks/${task}`, {
          method: 'POST',
          headers: { ...headers, 'idempotency-key': idempotencyKey },
          body: JSON.stringify({ version, action: 'feedback', comment: 'restart-times' }),
          signal: AbortSignal.timeout(30_000),
        });
        if (posted.status === 200) return true;
        await posted.arrayBuffer();
      }
    } catch {
      // the API is not back yet
    }
    await sleep(20);
  }
  return false;
}

interface StickyCost {
  seconds: number;
  actions: number;
  /** Workflow tasks that waited out the sticky queue and were replayed from history by any worker. */
  stickyTimeouts: number;
}

/**
 * Runs `actions` changes over the demo tasks on a healthy `npm run start:cluster` whose workers use a sticky-queue
 * timeout of `seconds`, and counts the workflow tasks that timed out on a sticky queue: each is a replay of the
 * whole history on some worker, the cost of a short timeout on a busy but healthy machine.
 */
async function stickyCost(
  seconds: number,
  actions: number,
  log: (line: string) => void,
): Promise<StickyCost> {
  const system = await startNpmStart(
    { WORKER_STICKY_QUEUE_TIMEOUT_SECONDS: String(seconds) },
    { script: 'start:cluster', readyTimeoutMs: 30 * 60_000 },
  );
  try {
    log(`start:cluster ready with a ${seconds} s sticky-queue timeout`);
    const key = /^\s+math\s+(\S+)$/m.exec(system.output())![1];
    const startedAt = Date.now();
    // Two clients at once, each on tasks of its own, as steady as the chaos load's loops.
    await Promise.all(
      [0, 1].map(async (client) => {
        for (let i = client; i < actions; i += 2)
          if (!(await acknowledged(system, key, DEMO_TASKS[i % DEMO_TASKS.length], 120_000)))
            throw new Error('a change was not acknowledged');
      }),
    );
    const { env } = await system.connection();
    const connection = await Connection.connect({ address: env.TEMPORAL_ADDRESS });
    let stickyTimeouts = 0;
    try {
      const client = new Client({ connection, namespace: env.TEMPORAL_NAMESPACE });
      for (const task of DEMO_TASKS) {
        const history = await client.workflow.getHandle(mathTaskWorkflowId(task)).fetchHistory();
        stickyTimeouts += history.events!.filter(
          (event) =>
            event.workflowTaskTimedOutEventAttributes &&
            Number(event.eventTime!.seconds) * 1000 >= startedAt - 1000,
        ).length;
      }
    } finally {
      await connection.close();
    }
    return { seconds, actions, stickyTimeouts };
  } finally {
    await system.stop();
    await rm(system.root, { recursive: true, force: true });
  }
}

function describe(r: Restart): string {
  return (
    `spawned ${seconds(r.spawnedMs)}, loaded ${seconds(r.loadedMs)}, connected ${seconds(r.connectedMs)}, ` +
    `healthz ${seconds(r.healthzMs)}, sticky timeout ${seconds(r.stickyTimedOutMs)}, started task timeout ` +
    `${seconds(r.startedTaskTimedOutMs)}, acknowledged ${seconds(r.acknowledgedMs)}`
  );
}

/** One row per kill: seconds from the kill to each step of the replacement (and the settings compared). */
function restartTable(restarts: Restart[], compared: { byCompileCache: boolean; byLoad: boolean }): string {
  const { byCompileCache, byLoad } = compared;
  return markdownTable(
    [
      'killed (kill -9)',
      ...(byLoad ? ['load (clients)'] : []),
      ...(byCompileCache ? ['compile cache'] : []),
      ...SPLIT_HEADERS,
      'change acknowledged',
    ],
    restarts.map((r) => [
      r.kind === 'api' ? 'API' : 'worker',
      ...(byLoad ? [r.loadClients === 0 ? 'idle' : String(r.loadClients)] : []),
      ...(byCompileCache ? [r.compileCache ? 'on' : 'off'] : []),
      ...splitCells(r),
      seconds(r.acknowledgedMs),
    ]),
  );
}

function stickyTable(costs: StickyCost[]): string {
  return markdownTable(
    ['sticky-queue timeout', 'changes', 'workflow tasks timed out on a sticky queue (replays)'],
    costs.map((c) => [`${c.seconds} s`, String(c.actions), String(c.stickyTimeouts)]),
  );
}

exitWhenDone(main, 'restart-times');
