import { type ChildProcess, spawn } from 'node:child_process';
import { createHash, randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { Client, Connection } from '@temporalio/client';
import { loadConfig } from '../config';
import { connectAndMigrate } from '../entities/dataSource';
import type { ConnectionFile } from '../infra/connectionFile';
import { projectRoot } from '../infra/paths';
import { freePort } from '../infra/ports';
import { createDatabase, type EmbeddedPostgres, startEmbeddedPostgres } from '../infra/postgres';
import { createS3Client } from '../storage/objectStore';
import { taskUpdateId } from '../workflows/ids';
import { genomicsTaskWorkflowId } from '../workflows/genomicsTask/ids';
import { mathTaskWorkflowId } from '../workflows/mathTask/ids';
import {
  type Caller,
  createTopics,
  generateBundle,
  opsImport,
  type People,
  seedPeopleAndMathRun,
} from './dataset';
import { runOperatorChecks } from './operatorChecks';
import type { SystemAccess } from './system';
import { exitWhenDone } from './exitWhenDone';

const USAGE = `Usage: npm run chaos -- [--minutes <n>] [--rounds <n>] [--clients <n>] [--tasks <n>] [--keep]

Runs \`npm run start:cluster\` (Temporal's server on PostgreSQL, 2 worker and 2 API processes) on loopback, with its
data in a temporary folder and a PostgreSQL of its own, and drives steady load from both services: math actions
and verdicts, genomics reviewer changes, imports through the ops CLI, verified downloads and reads, from --clients
loops (default 4) for --minutes (default 8). Meanwhile it injects, round-robin, --rounds times each (default 3):
kill -9 of a worker, of an API process, of the Temporal server, and a restart of PostgreSQL. A request answered
503 is retried with its Idempotency-Key after its Retry-After, as a client should.

Then it checks every acknowledged change against the projection, the events and the workflow histories (each
applied exactly once), runs reconcile and verify-storage, and prints the table (docs/chaos.md). Exit 1 on a lost
or duplicated change, a 503 without Retry-After, any other 5xx, or a reconcile or storage finding.`;

type FaultKind = 'worker' | 'api' | 'temporal' | 'postgres';
const FAULT_KINDS: FaultKind[] = ['worker', 'api', 'temporal', 'postgres'];
const FAULT_NAMES: Record<FaultKind, string> = {
  worker: 'kill -9 a worker',
  api: 'kill -9 an API process',
  temporal: 'kill -9 the Temporal server',
  postgres: 'restart PostgreSQL',
};

/** How long one logical request keeps retrying 503s and dropped connections before it counts as failed. */
const REQUEST_GIVE_UP_MS = 180_000;
/** Deadline of one HTTP attempt: longer than the API's own Temporal call deadline, which answers 503. */
const ATTEMPT_TIMEOUT_MS = 60_000;
/** The math actions a task cycles through: actions and decisions, each one transition. */
const MATH_CYCLE = ['assign', 'feedback', 'verdict', 'reopen'] as const;

interface Counters {
  /** Logical requests (a retry of the same Idempotency-Key is not a new one). */
  requests: number;
  acknowledged: number;
  /** HTTP attempts answered 503, and of those without a Retry-After header. */
  unavailable: number;
  unavailableWithoutRetryAfter: number;
  /** Attempts whose connection died (an API process killed while it held it); retried like a 503. */
  connectionsDropped: number;
  /** 409 idempotency_request_in_progress answers: a retry found the key still claimed. */
  inProgressRetried: number;
  /** 4xx answers (a state the loop did not expect), and 5xx other than 503: both are reported. */
  rejected: number;
  serverErrors: number;
  /** Logical requests still unanswered after {@link REQUEST_GIVE_UP_MS}. */
  gaveUp: number;
  byKind: Record<string, number>;
}

interface Acknowledged {
  service: 'math' | 'genomics';
  subject: string;
  updateId: string;
}

interface FaultRecord {
  kind: FaultKind;
  at: number;
  pid?: number;
  recoveredMs: number | null;
  unavailableDuring: number;
}

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      minutes: { type: 'string', default: '8' },
      rounds: { type: 'string', default: '3' },
      clients: { type: 'string', default: '4' },
      tasks: { type: 'string', default: '120' },
      keep: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  const minutes = Number(values.minutes);
  const rounds = Number(values.rounds);
  const clients = Number(values.clients);
  if (
    !(minutes >= 1 && minutes <= 120) ||
    !(rounds >= 1 && rounds <= 20) ||
    !(clients >= 1 && clients <= 32)
  ) {
    console.error(`chaos: --minutes 1 to 120, --rounds 1 to 20, --clients 1 to 32\n\n${USAGE}`);
    return 2;
  }
  const started = Date.now();
  const log = (line: string) =>
    process.stdout.write(`[${((Date.now() - started) / 1000).toFixed(0).padStart(5)} s] ${line}\n`);
  const dataDir = await mkdtemp(join(tmpdir(), 'referee-chaos-'));
  const cluster = await startCluster(dataDir, log);
  try {
    const access = await cluster.access();
    const { people } = await seedPeopleAndMathRun(access, {
      tasks: Number(values.tasks),
      dataDir,
      seed: 11,
      runId: 'chaos-run',
    });
    const topics = await createTopics(
      access,
      people,
      'batch-700',
      Math.max(8, Math.round(Number(values.tasks) / 3)),
    );
    const tasks: Array<{ task_id: string }> = await access.dataSource.query(
      `SELECT task_id FROM math_tasks WHERE run_id = 'chaos-run' ORDER BY task_id`,
    );
    const artifacts: Array<{ artifact_id: string; sha256: string }> = await access.dataSource.query(
      `SELECT artifact_id, sha256 FROM math_artifacts WHERE run_id = 'chaos-run' AND class = 'STANDARD'
        ORDER BY size_bytes LIMIT 40`,
    );
    log(`dataset: ${tasks.length} tasks, ${topics.length} topics, ${artifacts.length} artifacts to download`);

    const load = new Load(access.apiUrl, people, log);
    const deadline = Date.now() + minutes * 60_000;
    const [probeTask, ...loadTasks] = tasks.map((t) => t.task_id);
    const loops = Array.from({ length: clients }, (_, index) =>
      load.loop(index, clients, deadline, {
        tasks: loadTasks,
        topics,
        artifacts: new Map(artifacts.map((a) => [a.artifact_id, a.sha256])),
      }),
    );
    const imports = load.runImports(access, dataDir, deadline);
    const faults = await injectFaults(cluster, load, {
      kinds: Array.from({ length: rounds }, () => FAULT_KINDS).flat(),
      deadline,
      probeTask,
      log,
    });
    await Promise.all([...loops, imports]);
    log(`load over: ${load.counters.requests} requests; checking every acknowledged change`);

    const ledger = await checkLedger(access, load);
    const { reconciled, verified } = await runOperatorChecks(access, log);
    const table = {
      requests: load.counters.requests,
      acknowledged: load.counters.acknowledged,
      faults: faults.length,
      unavailable: load.counters.unavailable,
      ...ledger,
    };
    console.log(`\n${formatTable(table, load.counters, faults)}\n`);
    for (const f of reconciled.findings)
      console.log(
        `- reconcile: ${f.service} ${f.subjectId} ${f.outcome} (projection v${f.projectionVersion}, workflow v${f.workflowVersion})`,
      );
    const checks = [
      { ok: ledger.lost === 0, text: `${ledger.lost} acknowledged changes lost` },
      { ok: ledger.duplicated === 0, text: `${ledger.duplicated} acknowledged changes applied twice` },
      {
        ok: load.counters.unavailableWithoutRetryAfter === 0,
        text: `${load.counters.unavailableWithoutRetryAfter} 503 answers without Retry-After`,
      },
      {
        ok: load.counters.serverErrors === 0,
        text: `${load.counters.serverErrors} 5xx answers other than 503`,
      },
      { ok: load.counters.gaveUp === 0, text: `${load.counters.gaveUp} requests unanswered after retries` },
      { ok: load.counters.rejected === 0, text: `${load.counters.rejected} unexpected 4xx answers` },
      { ok: reconciled.findings.length === 0, text: `${reconciled.findings.length} reconcile findings` },
      { ok: verified.findings.length === 0, text: `${verified.findings.length} verify-storage findings` },
      {
        ok: faults.every((f) => f.recoveredMs !== null),
        text: `${faults.filter((f) => f.recoveredMs !== null).length} of ${faults.length} faults recovered from`,
      },
    ];
    for (const check of checks) console.log(`- ${check.ok ? 'PASS' : 'FAIL'} ${check.text}`);
    console.log(`- chaos run in ${((Date.now() - started) / 60_000).toFixed(1)} min`);
    await access.close();
    return checks.every((c) => c.ok) ? 0 : 1;
  } finally {
    await cluster.stop();
    if (values.keep) log(`data and logs kept in ${dataDir}`);
    else await rm(dataDir, { recursive: true, force: true });
  }
}

interface Cluster {
  dataDir: string;
  connection(): Promise<ConnectionFile>;
  access(): Promise<SystemAccess & { close(): Promise<void> }>;
  restartPostgres(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * `npm run start:cluster` as an operator runs it, on a PostgreSQL this script owns (DATABASE_URL and
 * TEMPORAL_DATABASE_URL name it), so that PostgreSQL can be restarted under it.
 */
async function startCluster(dataDir: string, log: (line: string) => void): Promise<Cluster> {
  const pgDir = join(dataDir, 'postgres');
  const pgPort = await freePort();
  let pg: EmbeddedPostgres = await startEmbeddedPostgres({ dataDir: pgDir, port: pgPort });
  const databaseUrl = await createDatabase(pg.url, 'referee');
  const port = await freePort();
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (!/^(DATABASE_|TEMPORAL_|S3_|AWS_|REFEREE_|PORT$)/.test(name)) env[name] = value;
  }
  Object.assign(env, {
    REFEREE_DATA_DIR: dataDir,
    PORT: String(port),
    DATABASE_URL: databaseUrl,
    TEMPORAL_DATABASE_URL: pg.url,
    // The rate limiter stays on but far above the load's rate (as in npm run bench).
    RATE_LIMIT_PER_KEY_PER_SECOND: '1000000',
    RATE_LIMIT_BURST: '10000000',
    FILE_CONCURRENCY_PER_KEY: '64',
  });
  const output = createWriteStream(join(dataDir, 'start-cluster.log'));
  let text = '';
  const child: ChildProcess = spawn('npm', ['run', 'start:cluster'], {
    cwd: projectRoot,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const append = (chunk: Buffer) => {
    text += chunk.toString('utf8');
    output.write(chunk);
  };
  child.stdout!.on('data', append);
  child.stderr!.on('data', append);
  log(`npm run start:cluster (output in ${join(dataDir, 'start-cluster.log')})`);
  const stopCluster = async () => {
    try {
      process.kill(-child.pid!, 'SIGINT');
    } catch {
      // already gone
    }
    await Promise.race([exited, sleep(120_000)]);
  };
  try {
    const readyBy = Date.now() + 30 * 60_000;
    while (!/Press Ctrl-C to stop\./.test(text)) {
      if (/Start failed/.test(text) || child.exitCode !== null)
        throw new Error(`start:cluster failed:\n${text}`);
      if (Date.now() > readyBy) throw new Error(`start:cluster not ready within 30 min:\n${text}`);
      await sleep(500);
    }
  } catch (error) {
    await stopCluster();
    await pg.stop();
    throw error;
  }
  log('cluster ready');
  const connection = async () =>
    JSON.parse(await readFile(join(dataDir, 'connection.json'), 'utf8')) as ConnectionFile;
  return {
    dataDir,
    connection,
    async access() {
      const file = await connection();
      const accessEnv = { ...env, ...file.env };
      const config = loadConfig(accessEnv);
      const dataSource = await connectAndMigrate(config.databaseUrl, 4);
      const temporalConnection = await Connection.connect({ address: config.temporal.address });
      const s3 = createS3Client(config.s3);
      return {
        env: accessEnv,
        config,
        apiUrl: file.apiBaseUrl,
        dataSource,
        temporal: new Client({ connection: temporalConnection, namespace: config.temporal.namespace }),
        s3,
        async close() {
          s3.destroy();
          await temporalConnection.close();
          await dataSource.destroy();
        },
      };
    },
    async restartPostgres() {
      await pg.stop();
      pg = await startEmbeddedPostgres({ dataDir: pgDir, port: pgPort });
    },
    async stop() {
      await stopCluster();
      await pg.stop();
      output.end();
    },
  };
}

/** The load: closed loops over their own share of tasks and topics, a ledger of every acknowledged change. */
class Load {
  readonly counters: Counters = {
    requests: 0,
    acknowledged: 0,
    unavailable: 0,
    unavailableWithoutRetryAfter: 0,
    connectionsDropped: 0,
    inProgressRetried: 0,
    rejected: 0,
    serverErrors: 0,
    gaveUp: 0,
    byKind: {},
  };
  readonly acknowledged: Acknowledged[] = [];
  readonly imported: Array<{ runId: string; tasks: number }> = [];
  downloadsCorrupt = 0;
  private logged = 0;

  constructor(
    private readonly apiUrl: string,
    private readonly people: People,
    private readonly log: (line: string) => void,
  ) {}

  private note(line: string) {
    if (this.logged < 40) {
      this.logged += 1;
      this.log(line);
    }
  }

  /**
   * One logical request: a 503 (checked for Retry-After) or a dropped connection is retried with the same
   * Idempotency-Key after the advertised delay, until an answer or {@link REQUEST_GIVE_UP_MS}.
   */
  async send(
    kind: string,
    caller: Caller,
    method: string,
    path: string,
    body?: unknown,
  ): Promise<{ status: number; bytes: Buffer; idempotencyKey?: string } | null> {
    const idempotencyKey = body === undefined ? undefined : `chaos-${randomUUID()}`;
    const headers: Record<string, string> = { authorization: `Bearer ${caller.token}` };
    if (idempotencyKey) {
      headers['content-type'] = 'application/json';
      headers['idempotency-key'] = idempotencyKey;
    }
    this.counters.requests += 1;
    this.counters.byKind[kind] = (this.counters.byKind[kind] ?? 0) + 1;
    const giveUpAt = Date.now() + REQUEST_GIVE_UP_MS;
    for (;;) {
      let response: Response;
      let bytes: Buffer;
      try {
        response = await fetch(`${this.apiUrl}${path}`, {
          method,
          headers,
          body: body === undefined ? undefined : JSON.stringify(body),
          signal: AbortSignal.timeout(ATTEMPT_TIMEOUT_MS),
        });
        bytes = Buffer.from(await response.arrayBuffer());
      } catch (error) {
        this.counters.connectionsDropped += 1;
        this.note(`${method} ${path}: connection dropped (${(error as Error).name}); retried`);
        if (Date.now() > giveUpAt) return this.giveUp(method, path);
        await sleep(500);
        continue;
      }
      if (response.status === 503 || response.status === 429) {
        const retryAfter = Number(response.headers.get('retry-after'));
        if (response.status === 503) {
          this.counters.unavailable += 1;
          if (!(retryAfter >= 0) || response.headers.get('retry-after') === null) {
            this.counters.unavailableWithoutRetryAfter += 1;
            this.note(`${method} ${path}: 503 without Retry-After: ${bytes.toString('utf8').slice(0, 200)}`);
          }
        }
        if (Date.now() > giveUpAt) return this.giveUp(method, path);
        await sleep(Math.min(Math.max(retryAfter || 1, 0.2), 5) * 1000);
        continue;
      }
      if (response.status >= 500) {
        this.counters.serverErrors += 1;
        this.note(`${method} ${path}: ${response.status} ${bytes.toString('utf8').slice(0, 300)}`);
        if (Date.now() > giveUpAt) return this.giveUp(method, path);
        await sleep(1000);
        continue;
      }
      if (response.status === 409 && bytes.toString('utf8').includes('idempotency_request_in_progress')) {
        // The request under this key is held by a process that died with it; its claim lapses (docs/limits.md).
        this.counters.inProgressRetried += 1;
        if (Date.now() > giveUpAt) return this.giveUp(method, path);
        await sleep(1000);
        continue;
      }
      if (response.status >= 400) {
        this.counters.rejected += 1;
        this.note(`${method} ${path}: ${response.status} ${bytes.toString('utf8').slice(0, 300)}`);
        return { status: response.status, bytes, idempotencyKey };
      }
      return { status: response.status, bytes, idempotencyKey };
    }
  }

  private giveUp(method: string, path: string): null {
    this.counters.gaveUp += 1;
    this.note(`${method} ${path}: no answer within ${REQUEST_GIVE_UP_MS / 1000} s`);
    return null;
  }

  private acknowledge(service: 'math' | 'genomics', subject: string, caller: Caller, idempotencyKey: string) {
    this.counters.acknowledged += 1;
    this.acknowledged.push({
      service,
      subject,
      updateId: taskUpdateId(service, caller.memberId, idempotencyKey),
    });
  }

  /** One math transition on `taskId` (the next of {@link MATH_CYCLE}); the version is read first. */
  async mathAction(taskId: string, step: number): Promise<boolean> {
    const { mathOwner, mathReviewer } = this.people;
    const read = await this.send('read', mathOwner, 'GET', `/api/math/tasks/${taskId}`);
    if (read?.status !== 200) return false;
    const { version } = JSON.parse(read.bytes.toString('utf8')) as { version: number };
    const action = MATH_CYCLE[step % MATH_CYCLE.length];
    const body =
      action === 'assign'
        ? { version, action, assignee_id: mathReviewer.memberId }
        : action === 'verdict'
          ? {
              version,
              action,
              decision: step % 8 === 2 ? 'ACCEPTED' : 'NEEDS_REVISION',
              comment: 'Chaos verdict.',
            }
          : { version, action, comment: `Chaos ${action} ${step}.` };
    const done = await this.send(
      action === 'verdict' ? 'decision' : 'action',
      mathOwner,
      'POST',
      `/api/math/tasks/${taskId}`,
      body,
    );
    if (done?.status !== 200) return false;
    this.acknowledge('math', taskId, mathOwner, done.idempotencyKey!);
    return true;
  }

  /**
   * `clients` loops share the tasks and topics (each its own, so two loops never race on one version): math
   * actions and verdicts, genomics reviewer set and removal, verified downloads and list reads.
   */
  async loop(
    index: number,
    clients: number,
    deadline: number,
    plan: { tasks: string[]; topics: string[]; artifacts: Map<string, string> },
  ): Promise<void> {
    const share = <T>(items: T[]) => items.filter((_, i) => i % clients === index);
    const tasks = share(plan.tasks);
    const topics = share(plan.topics);
    const artifactIds = [...plan.artifacts.keys()];
    const mathSteps = new Map<string, number>();
    const reviewed = new Set<string>();
    const { mathOwner, genomicsOwner, genomicsReviewer } = this.people;
    for (let n = 0; Date.now() < deadline; n += 1) {
      const pick = n % 5;
      if (pick === 0 || pick === 1) {
        const task = tasks[Math.floor(n / 5) % tasks.length];
        const step = mathSteps.get(task) ?? 0;
        if (await this.mathAction(task, step)) mathSteps.set(task, step + 1);
      } else if (pick === 2 && topics.length > 0) {
        const topic = topics[Math.floor(n / 5) % topics.length];
        const assign = !reviewed.has(topic);
        const done = await this.send('review', genomicsOwner, 'PUT', `/api/v1/topics/${topic}/reviewer`, {
          reviewerId: assign ? genomicsReviewer.memberId : null,
          instructions: 'Chaos review.',
          dueAt: null,
        });
        if (done?.status === 200) {
          this.acknowledge('genomics', topic, genomicsOwner, done.idempotencyKey!);
          if (assign) reviewed.add(topic);
          else reviewed.delete(topic);
        }
      } else if (pick === 3) {
        const artifact = artifactIds[n % artifactIds.length];
        const got = await this.send('download', mathOwner, 'GET', `/api/math/artifacts/${artifact}/download`);
        if (got?.status === 200) {
          this.counters.acknowledged += 1;
          if (createHash('sha256').update(got.bytes).digest('hex') !== plan.artifacts.get(artifact)) {
            this.downloadsCorrupt += 1;
            this.note(`download ${artifact}: bytes differ from the recorded sha256`);
          }
        }
      } else {
        const got = await this.send('read', mathOwner, 'GET', '/api/math/tasks?page_size=50&sort=updated');
        if (got?.status === 200) this.counters.acknowledged += 1;
      }
    }
  }

  /**
   * Imports through the ops CLI, one after another until the deadline: a small generated math run each. An import
   * that fails (its dependency down) is run again, as an operator would, until it succeeds; then it counts.
   */
  async runImports(access: SystemAccess, dataDir: string, deadline: number): Promise<void> {
    for (let n = 1; Date.now() < deadline; n += 1) {
      const runId = `chaos-import-${n}`;
      const bundle = await generateBundle({
        service: 'math',
        tasks: 12,
        out: join(dataDir, 'bundles', runId),
        seed: 100 + n,
        runId,
      });
      this.counters.requests += 1;
      this.counters.byKind.import = (this.counters.byKind.import ?? 0) + 1;
      const giveUpAt = Date.now() + REQUEST_GIVE_UP_MS;
      for (;;) {
        try {
          await opsImport(access, bundle.dir);
          this.counters.acknowledged += 1;
          this.imported.push({ runId, tasks: bundle.counts.tasks });
          break;
        } catch (error) {
          this.note(
            `import ${runId} failed, run again: ${(error as Error).message.split('\n').slice(-2).join(' ')}`,
          );
          if (Date.now() > giveUpAt) {
            this.counters.gaveUp += 1;
            break;
          }
          await sleep(2000);
        }
      }
      await sleep(5000);
    }
  }
}

/**
 * Injects `kinds` evenly over the run (the first after a minute of steady load). After each, a probe (a math
 * action on a task of its own, retried like any request) measures the time until a change is acknowledged again
 * and the faulted process is back.
 */
async function injectFaults(
  cluster: Cluster,
  load: Load,
  plan: { kinds: FaultKind[]; deadline: number; probeTask: string; log: (line: string) => void },
): Promise<FaultRecord[]> {
  const records: FaultRecord[] = [];
  const firstAt = Date.now() + 60_000;
  const spacing = Math.max(10_000, (plan.deadline - 30_000 - firstAt) / plan.kinds.length);
  let probeStep = 0;
  for (const [i, kind] of plan.kinds.entries()) {
    const at = firstAt + i * spacing;
    if (at > plan.deadline) break;
    await sleep(Math.max(0, at - Date.now()));
    const before = await cluster.connection();
    const unavailableBefore = load.counters.unavailable;
    const record: FaultRecord = { kind, at: Date.now(), recoveredMs: null, unavailableDuring: 0 };
    const pool =
      kind === 'worker'
        ? before.processes.workers!
        : kind === 'api'
          ? before.processes.apis!
          : [before.processes.temporal!];
    // A killed worker or API process is back when its log has one more ready line (its own log, kept across restarts).
    const slot = i % pool.length;
    const readyLog =
      kind === 'worker' || kind === 'api' ? join(cluster.dataDir, 'logs', `${kind}-${slot + 1}.log`) : null;
    const readyLine = kind === 'worker' ? 'worker polling' : 'API listening';
    const readyBefore = readyLog ? await countLines(readyLog, readyLine) : 0;
    if (kind === 'postgres') {
      plan.log(`fault ${i + 1}: ${FAULT_NAMES[kind]}`);
      await cluster.restartPostgres();
    } else {
      record.pid = pool[slot];
      plan.log(`fault ${i + 1}: ${FAULT_NAMES[kind]} (pid ${record.pid})`);
      process.kill(record.pid, 'SIGKILL');
    }
    // Recovered: a change is acknowledged again, and a killed process is replaced and serving (so the next fault
    // meets a whole system, never a second process of the same kind still starting).
    const recoverBy = Date.now() + REQUEST_GIVE_UP_MS;
    let acknowledged = false;
    while (Date.now() < recoverBy) {
      if (!acknowledged && (await load.mathAction(plan.probeTask, probeStep))) {
        probeStep += 1;
        acknowledged = true;
      }
      const replaced =
        kind === 'temporal'
          ? (await cluster.connection()).processes.temporal !== record.pid
          : !readyLog || (await countLines(readyLog, readyLine)) > readyBefore;
      if (acknowledged && replaced) {
        record.recoveredMs = Date.now() - record.at;
        break;
      }
      await sleep(200);
    }
    record.unavailableDuring = load.counters.unavailable - unavailableBefore;
    plan.log(
      `fault ${i + 1}: ${record.recoveredMs === null ? 'NOT recovered' : `recovered in ${(record.recoveredMs / 1000).toFixed(1)} s`}, ` +
        `${record.unavailableDuring} 503 answers meanwhile`,
    );
    records.push(record);
  }
  return records;
}

interface LedgerResult {
  /** Acknowledged changes missing from their event, their workflow's history or their projection's version. */
  lost: number;
  /** Acknowledged changes recorded more than once (events or workflow history). */
  duplicated: number;
  /** Changes applied that no client was told of (every request here is retried until answered, so none expected). */
  unacknowledgedApplied: number;
  importsChecked: number;
  corruptDownloads: number;
}

/**
 * Every acknowledged change, looked up three ways: its event (by update id) exactly once, its update accepted
 * exactly once in its workflow's history (every run), and its task's projection version counting it. Every
 * acknowledged import is there with its tasks exactly once. (reconcile, run after, compares each projection with
 * its workflow's state.)
 */
async function checkLedger(access: SystemAccess, load: Load): Promise<LedgerResult> {
  const result: LedgerResult = {
    lost: 0,
    duplicated: 0,
    unacknowledgedApplied: 0,
    importsChecked: load.imported.length,
    corruptDownloads: load.downloadsCorrupt,
  };
  const bySubject = new Map<string, Acknowledged[]>();
  for (const ack of load.acknowledged) {
    const key = `${ack.service}:${ack.subject}`;
    bySubject.set(key, [...(bySubject.get(key) ?? []), ack]);
  }
  for (const acks of bySubject.values()) {
    const { service, subject } = acks[0];
    const [projection]: Array<{ version: number; events: Array<{ update_id: string | null }> }> =
      service === 'math'
        ? await access.dataSource.query(
            `SELECT version, (SELECT coalesce(json_agg(json_build_object('update_id', e.update_id)), '[]')
                                FROM math_task_events e WHERE e.task_id = t.task_id) AS events
               FROM math_tasks t WHERE task_id = $1`,
            [subject],
          )
        : await access.dataSource.query(
            `SELECT workflow_version AS version,
                    (SELECT coalesce(json_agg(json_build_object('update_id', e.update_id)), '[]')
                       FROM genomics_events e WHERE e.topic_id = t.id AND e.update_id IS NOT NULL) AS events
               FROM genomics_topics t WHERE t.batch || ':' || t.topic = $1`,
            [subject],
          );
    const events = tally(projection.events.map((e) => e.update_id));
    const workflowId = service === 'math' ? mathTaskWorkflowId(subject) : genomicsTaskWorkflowId(subject);
    const accepted = await updatesInHistory(access, workflowId);
    const expected = new Set(acks.map((a) => a.updateId));
    for (const id of expected) {
      const inEvents = events.get(id) ?? 0;
      const inHistory = accepted.get(id) ?? 0;
      if (inEvents === 0 || inHistory === 0) result.lost += 1;
      else if (inEvents > 1 || inHistory > 1) result.duplicated += 1;
    }
    const unexpected = [...events.keys()].filter((id) => id !== null && !expected.has(id)).length;
    result.unacknowledgedApplied += unexpected;
    // Each transition raises the version by one: fewer than the changes told of means one was lost.
    if (projection.version < expected.size + unexpected)
      result.lost += expected.size + unexpected - projection.version;
  }
  for (const { runId, tasks } of load.imported) {
    const [{ n }]: Array<{ n: number }> = await access.dataSource.query(
      'SELECT count(*)::int AS n FROM math_tasks WHERE run_id = $1',
      [runId],
    );
    if (n < tasks) result.lost += 1;
    if (n > tasks) result.duplicated += 1;
  }
  return result;
}

async function countLines(file: string, text: string): Promise<number> {
  const content = await readFile(file, 'utf8').catch(() => '');
  return content.split('\n').filter((line) => line.includes(text)).length;
}

const tally = <T>(items: T[]): Map<T, number> => {
  const counts = new Map<T, number>();
  for (const item of items) counts.set(item, (counts.get(item) ?? 0) + 1);
  return counts;
};

/** How many times each update id was accepted, over every run of a workflow (continue-as-new starts new runs). */
async function updatesInHistory(access: SystemAccess, workflowId: string): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  for await (const run of access.temporal.workflow.list({ query: `WorkflowId = '${workflowId}'` })) {
    const history = await access.temporal.workflow.getHandle(workflowId, run.runId).fetchHistory();
    for (const event of history.events ?? []) {
      const id = event.workflowExecutionUpdateAcceptedEventAttributes?.protocolInstanceId;
      if (id) counts.set(id, (counts.get(id) ?? 0) + 1);
    }
  }
  return counts;
}

function formatTable(
  table: { requests: number; acknowledged: number; faults: number; unavailable: number } & LedgerResult,
  counters: Counters,
  faults: FaultRecord[],
): string {
  const recovery = (kind: FaultKind) => {
    const times = faults.filter((f) => f.kind === kind).map((f) => f.recoveredMs);
    return times.map((t) => (t === null ? 'never' : `${(t / 1000).toFixed(1)}`)).join(', ') || '–';
  };
  const kinds = Object.entries(counters.byKind)
    .map(([kind, n]) => `${n} ${kind}`)
    .join(', ');
  return [
    '| requests | acknowledged | faults injected | 503 answers (all with Retry-After) | dropped connections | lost | duplicated |',
    '|---|---|---|---|---|---|---|',
    `| ${table.requests} (${kinds}) | ${table.acknowledged} | ${table.faults} | ${table.unavailable} ` +
      `(${counters.unavailableWithoutRetryAfter === 0 ? 'yes' : `${counters.unavailableWithoutRetryAfter} without`}) | ` +
      `${counters.connectionsDropped} | ${table.lost} | ${table.duplicated} |`,
    '',
    '| fault | injected | time to recover, each (s) | 503 answers meanwhile |',
    '|---|---|---|---|',
    ...FAULT_KINDS.map(
      (kind) =>
        `| ${FAULT_NAMES[kind]} | ${faults.filter((f) => f.kind === kind).length} | ${recovery(kind)} | ` +
        `${faults.filter((f) => f.kind === kind).reduce((sum, f) => sum + f.unavailableDuring, 0)} |`,
    ),
    '',
    `Also: ${counters.inProgressRetried} answers 409 "request in progress" (retried), ${counters.rejected} unexpected 4xx, ${counters.serverErrors} other 5xx, ${counters.gaveUp} requests unanswered ` +
      `after ${REQUEST_GIVE_UP_MS / 1000} s, ${table.unacknowledgedApplied} changes applied that no client was told of, ` +
      `${table.importsChecked} imports checked, ${table.corruptDownloads} downloads whose bytes differed.`,
  ].join('\n');
}

exitWhenDone(main, 'chaos');
