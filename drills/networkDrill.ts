import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Client, Connection } from '@temporalio/client';
import { loadConfig } from '../config';
import { connectAndMigrate } from '../entities/dataSource';
import { ensureGoTool, ensureTemporalServerTools, TOXIPROXY, VERSITYGW } from '../infra/goTools';
import { projectRoot } from '../infra/paths';
import { createDatabase, startEmbeddedPostgres } from '../infra/postgres';
import {
  COMPILED_NODE_FLAGS,
  compiledEntry,
  type ManagedProcess,
  SERVICE_NODE_FLAGS,
  spawnManaged,
} from '../infra/processes';
import { startS3Server } from '../infra/s3Server';
import { startTemporalServer, type TemporalProcess } from '../infra/temporalServer';
import { BUILT_WORKFLOW_BUNDLE, shareWorkflowBundle } from '../deployment/workflowBundle';
import { createS3Client } from '../storage/objectStore';
import { createTopics, seedPeopleAndMathRun } from '../bench/dataset';
import { runStamp } from '../bench/docSection';
import { runOperatorChecks } from '../bench/operatorChecks';
import type { SystemAccess } from '../bench/system';
import { checkLedger } from './chaosLedger';
import { type Attempt, Load } from './chaosLoad';
import { NETWORK_RESULTS } from './commandLines';
import {
  faultEffect,
  faultSchedule,
  LINK_PORTS,
  type LinkName,
  NETWORK_FAULTS,
  type NetworkFaultKind,
  proxyLinks,
  QUICK_FAULTS,
  scheduleLengthMs,
  FAULT_SPECS,
} from './networkFaults';
import { Toxiproxy } from './networkProxy';
import { uploadId, Uploads } from './networkUploads';
import { type FaultRun, networkChecks, networkTable, RECOVERY_BOUND_MS, tallyFaults } from './networkReport';
import {
  createNetwork,
  HOST_ADDRESSES,
  inNamespace,
  type NetworkHost,
  namespaceOf,
  setFaultRules,
  SUBNET,
  sweepNetwork,
} from './networkTopology';
import { reportResults, withScratchFolder } from './results';

/*
 * `npm run chaos -- --network` (docs/chaos.md, "Network faults"). The command runs in the machine's own network
 * namespace only to build the tools and the network; everything else runs inside the drill's namespaces: the
 * drill itself (its load and its checks) in rfn-drill, from where it starts each store and each Referee process in
 * a namespace of its own through a role of this same program (REFEREE_NETWORK_ROLE).
 */

export interface NetworkArgs {
  quick: boolean;
  clients: number;
  tasks: number;
  keep: boolean;
  markdown: boolean;
}

const ROLE = 'REFEREE_NETWORK_ROLE';
const READY_FILE = 'REFEREE_NETWORK_READY_FILE';
const DATA_DIR = 'REFEREE_NETWORK_DATA_DIR';
/** One network drill at a time on a machine: a second would sweep the first one's namespaces. */
const LOCK_FILE = '/run/referee-chaos-network.pid';
const SETPRIV = '/usr/bin/setpriv';
const PG_PORT = 5432;
const S3_PORT = 9000;
const TOXIPROXY_API = `http://${HOST_ADDRESSES.hub}:8474`;
const S3_BUCKET = 'referee-artifacts';

type Log = (line: string) => void;

const stampedLog =
  (started: number): Log =>
  (line) =>
    process.stdout.write(`[${((Date.now() - started) / 1000).toFixed(0).padStart(5)} s] ${line}\n`);

/** The role this process was started in, when it is one of the drill's own children. */
export const networkRole = (): string | undefined => process.env[ROLE];

/**
 * The command as typed: builds the tools (they may need the internet, which the namespaces do not have) and the
 * network, runs the drill inside it, and removes the network afterwards, on an exit, a signal or a crash (a
 * SIGKILL leaves it for the next run's sweep).
 */
export async function runNetworkDrill(): Promise<number> {
  const log = stampedLog(Date.now());
  if (process.getuid?.() !== 0) {
    console.error('chaos --network: needs root (it makes network namespaces and nftables rules)');
    return 2;
  }
  const [temporal, versitygw, toxiproxy] = await Promise.all([
    ensureTemporalServerTools(log),
    ensureGoTool(VERSITYGW, log),
    ensureGoTool(TOXIPROXY, log),
  ]);
  takeLock();
  let child: ChildProcess | undefined;
  let cleaned = false;
  const cleanUp = () => {
    if (cleaned) return;
    cleaned = true;
    if (child?.pid && child.exitCode === null) {
      try {
        process.kill(child.pid, 'SIGKILL');
      } catch {
        // gone meanwhile
      }
    }
    sweepNetwork(log);
    rmSync(LOCK_FILE, { force: true });
  };
  process.once('exit', cleanUp);
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.once(signal, () => {
      log(`${signal}: removing the network`);
      cleanUp();
      process.exit(130);
    });
  }
  try {
    await createNetwork(log);
    const [command, commandArgs] = inNamespace('drill', process.execPath, [
      ...process.execArgv,
      process.argv[1],
      ...process.argv.slice(2),
    ]);
    // The kernel kills the drill with this process, even a SIGKILLed one (its stores die with it the same way).
    const [file, argv] = existsSync(SETPRIV)
      ? [SETPRIV, ['--pdeathsig', 'SIGKILL', '--', command, ...commandArgs]]
      : [command, commandArgs];
    child = spawn(file, argv, {
      cwd: projectRoot,
      stdio: 'inherit',
      env: {
        ...process.env,
        [ROLE]: 'drill',
        REFEREE_TEMPORAL_SERVER_BIN: temporal.server,
        REFEREE_TEMPORAL_SQL_TOOL_BIN: temporal.sqlTool,
        REFEREE_VERSITYGW_BIN: versitygw,
        REFEREE_TOXIPROXY_BIN: toxiproxy,
      },
    });
    const code = await new Promise<number>((resolve) =>
      child!.once('exit', (exitCode, signal) => resolve(exitCode ?? (signal ? 1 : 0))),
    );
    return code;
  } finally {
    cleanUp();
  }
}

function takeLock(): void {
  if (existsSync(LOCK_FILE)) {
    const pid = Number(readFileSync(LOCK_FILE, 'utf8'));
    let alive = false;
    try {
      process.kill(pid, 0);
      alive = pid > 0 && pid !== process.pid;
    } catch {
      // the run that held it is gone: its namespaces are swept below
    }
    if (alive) throw new Error(`another network drill runs (pid ${pid}, ${LOCK_FILE})`);
  }
  writeFileSync(LOCK_FILE, String(process.pid));
}

/** Runs this process's role: the drill inside the network, or one of the stores it starts. */
export async function runNetworkRole(role: string, args: NetworkArgs): Promise<number> {
  if (role === 'drill') return insideDrill(args);
  const ready = (value: unknown) => writeFileSync(process.env[READY_FILE]!, JSON.stringify(value));
  const dataDir = process.env[DATA_DIR]!;
  let stop: () => Promise<void>;
  if (role === 'postgres') {
    const pg = await startEmbeddedPostgres({
      dataDir: join(dataDir, 'postgres'),
      port: PG_PORT,
      listen: { address: HOST_ADDRESSES.postgres, clients: SUBNET },
      logFile: join(dataDir, 'logs', 'postgres.log'),
    });
    stop = pg.stop;
    ready({ url: pg.url });
  } else if (role === 'temporal') {
    const server = await startTemporalServer({
      binaries: {
        server: process.env.REFEREE_TEMPORAL_SERVER_BIN!,
        sqlTool: process.env.REFEREE_TEMPORAL_SQL_TOOL_BIN!,
      },
      postgresUrl: process.env.REFEREE_NETWORK_POSTGRES_URL!,
      stateDir: join(dataDir, 'temporal-server'),
      ip: HOST_ADDRESSES.temporal,
      topology: 'services',
      namespaces: ['default'],
      logFile: join(dataDir, 'logs', 'temporal.log'),
    });
    stop = server.stop;
    ready({ address: server.address, processes: server.processes });
  } else if (role === 's3') {
    const s3 = await startS3Server({
      binary: process.env.REFEREE_VERSITYGW_BIN!,
      rootDir: join(dataDir, 's3'),
      ip: HOST_ADDRESSES.s3,
      port: S3_PORT,
      accessKeyId: process.env.S3_ACCESS_KEY_ID,
      secretAccessKey: process.env.S3_SECRET_ACCESS_KEY,
      buckets: [S3_BUCKET],
      logFile: join(dataDir, 'logs', 's3.log'),
    });
    stop = s3.stop;
    ready({ endpoint: s3.endpoint });
  } else {
    throw new Error(`unknown ${ROLE}=${role}`);
  }
  await new Promise<void>((resolve) => {
    process.once('SIGTERM', () => resolve());
    process.once('SIGINT', () => resolve());
  });
  await stop();
  return 0;
}

/** A store started in its namespace by a role of this program; resolves with what it wrote once ready. */
async function startRole<T>(
  host: NetworkHost,
  dataDir: string,
  env: NodeJS.ProcessEnv,
  stops: Array<() => Promise<void>>,
): Promise<T> {
  const readyFile = join(dataDir, `${host}.ready.json`);
  const [command, args] = inNamespace(host, process.execPath, [...process.execArgv, process.argv[1]]);
  const child = spawnManaged(command, args, {
    name: `${host} (${namespaceOf(host)})`,
    cwd: projectRoot,
    env: { ...process.env, ...env, [ROLE]: host, [READY_FILE]: readyFile, [DATA_DIR]: dataDir },
    logFile: join(dataDir, 'logs', `${host}-role.log`),
  });
  stops.push(() => child.stop(60_000));
  let exited = false;
  void child.exited.then(() => (exited = true));
  const deadline = Date.now() + 15 * 60_000;
  while (!existsSync(readyFile)) {
    if (exited || Date.now() > deadline) {
      const tail = readFileSync(join(dataDir, 'logs', `${host}-role.log`), 'utf8').slice(-3000);
      throw new Error(`${host} did not start in ${namespaceOf(host)}:\n${tail}`);
    }
    await sleep(250);
  }
  return JSON.parse(readFileSync(readyFile, 'utf8')) as T;
}

/** The drill inside the network: the system, the load, the faults one after another, then the checks. */
async function insideDrill(args: NetworkArgs): Promise<number> {
  const started = Date.now();
  const log = stampedLog(started);
  const stamp = args.markdown ? runStamp('npm run chaos --') : null;
  return withScratchFolder('referee-chaos-network-', args.keep, log, async (dataDir) => {
    const stops: Array<() => Promise<void>> = [];
    try {
      const system = await startSystem(dataDir, stops, log);
      const outcome = await drive(system, dataDir, args, log);
      const code = reportResults(NETWORK_RESULTS, { ...outcome, stamp });
      log(`network drill run in ${((Date.now() - started) / 60_000).toFixed(1)} min`);
      return code;
    } finally {
      for (const stop of stops.reverse())
        await stop().catch((error: unknown) => log(`stop: ${String(error)}`));
    }
  });
}

interface NetworkSystem {
  access: SystemAccess;
  toxiproxy: Toxiproxy;
  /** The history host cut off by the history fault: its gRPC and membership ports. */
  historyPorts: number[];
  /** The Referee processes by name, with whether each has exited. */
  services: Array<{ name: string; process: ManagedProcess; exited: boolean }>;
}

async function startSystem(
  dataDir: string,
  stops: Array<() => Promise<void>>,
  log: Log,
): Promise<NetworkSystem> {
  const s3Keys = { S3_ACCESS_KEY_ID: 'referee', S3_SECRET_ACCESS_KEY: randomBytes(18).toString('base64url') };
  const toxiproxyProcess = spawnManaged(
    ...inNamespace('hub', process.env.REFEREE_TOXIPROXY_BIN!, ['-host', HOST_ADDRESSES.hub, '-port', '8474']),
    { name: 'toxiproxy', logFile: join(dataDir, 'logs', 'toxiproxy.log') },
  );
  stops.push(() => toxiproxyProcess.stop());
  const toxiproxy = new Toxiproxy(TOXIPROXY_API);
  const pg = await startRole<{ url: string }>('postgres', dataDir, {}, stops);
  log(`PostgreSQL in ${namespaceOf('postgres')} at ${HOST_ADDRESSES.postgres}:${PG_PORT}`);
  const [temporal, s3] = await Promise.all([
    startRole<{ address: string; processes: TemporalProcess[] }>(
      'temporal',
      dataDir,
      { REFEREE_NETWORK_POSTGRES_URL: pg.url },
      stops,
    ),
    startRole<{ endpoint: string }>('s3', dataDir, s3Keys, stops),
  ]);
  log(
    `Temporal's services in ${namespaceOf('temporal')} (frontend ${temporal.address}), S3 in ${namespaceOf('s3')}`,
  );
  await toxiproxy.ready(30_000);
  const upstreams = {
    temporal: temporal.address,
    postgres: `${HOST_ADDRESSES.postgres}:${PG_PORT}`,
    s3: `${HOST_ADDRESSES.s3}:${S3_PORT}`,
  };
  for (const link of proxyLinks(upstreams)) await toxiproxy.createProxy(link);

  const databaseUrl = await createDatabase(pg.url, 'referee');
  const base: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (!/^(DATABASE_|TEMPORAL_|S3_|AWS_|PORT$|HOST$|REFEREE_NETWORK_)/.test(name)) base[name] = value;
  }
  Object.assign(base, {
    ...s3Keys,
    S3_BUCKET,
    WEBHOOK_SECRET_KEY: randomBytes(32).toString('base64'),
    RATE_LIMIT_PER_KEY_PER_SECOND: '1000000',
    RATE_LIMIT_BURST: '10000000',
    FILE_CONCURRENCY_PER_KEY: '64',
  });
  // The drill's own connections (seeding, imports through the CLI, the checks) reach each store directly.
  const direct: NodeJS.ProcessEnv = {
    ...base,
    DATABASE_URL: databaseUrl,
    TEMPORAL_ADDRESS: temporal.address,
    S3_ENDPOINT: s3.endpoint,
  };
  await shareWorkflowBundle(direct, dataDir, BUILT_WORKFLOW_BUNDLE);
  const viaProxy = (client: 'api' | 'worker'): NodeJS.ProcessEnv => {
    const listener = (store: string) =>
      `${HOST_ADDRESSES.hub}:${LINK_PORTS[`${client}-${store}` as LinkName]}`;
    const url = new URL(databaseUrl);
    url.host = listener('postgres');
    return {
      ...direct,
      DATABASE_URL: url.toString(),
      TEMPORAL_ADDRESS: listener('temporal'),
      S3_ENDPOINT: `http://${listener('s3')}`,
    };
  };
  const config = loadConfig(direct);
  const dataSource = await connectAndMigrate(databaseUrl, 4);
  stops.push(() => dataSource.destroy());

  const services: NetworkSystem['services'] = [];
  const startService = (host: 'api' | 'worker', env: NodeJS.ProcessEnv) => {
    const flags = [
      ...COMPILED_NODE_FLAGS,
      ...SERVICE_NODE_FLAGS[host],
      compiledEntry(host === 'api' ? 'server' : 'worker'),
    ];
    const child = spawnManaged(...inNamespace(host, process.execPath, flags), {
      name: host,
      env,
      cwd: projectRoot,
      logFile: join(dataDir, 'logs', `${host}.log`),
    });
    const entry = { name: host, process: child, exited: false };
    void child.exited.then(() => (entry.exited = true));
    services.push(entry);
    stops.push(() => child.stop(30_000));
  };
  startService('worker', viaProxy('worker'));
  startService('api', { ...viaProxy('api'), HOST: HOST_ADDRESSES.api, PORT: '3000' });
  const apiUrl = `http://${HOST_ADDRESSES.api}:3000`;
  await waitUntil(
    async () => (await fetch(`${apiUrl}/readyz`).catch(() => null))?.ok === true,
    services,
    240_000,
  );
  await waitUntil(
    async () => readFileSync(join(dataDir, 'logs', 'worker.log'), 'utf8').includes('worker polling'),
    services,
    240_000,
  );
  log(
    `API in ${namespaceOf('api')} at ${apiUrl}, worker in ${namespaceOf('worker')}: every store through Toxiproxy`,
  );

  const connection = await Connection.connect({ address: temporal.address });
  stops.push(() => connection.close());
  const s3Client = createS3Client(config.s3);
  stops.push(async () => s3Client.destroy());
  const history = temporal.processes.find((p) => p.name === 'history-2');
  const historyPorts = history ? [Number(history.address.split(':').pop()), history.membershipPort!] : [];
  return {
    access: {
      env: direct,
      config,
      apiUrl,
      dataSource,
      temporal: new Client({ connection, namespace: config.temporal.namespace }),
      s3: s3Client,
    },
    toxiproxy,
    historyPorts,
    services,
  };
}

async function waitUntil(
  ready: () => Promise<boolean>,
  services: NetworkSystem['services'],
  timeoutMs: number,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await ready().catch(() => false))) {
    const gone = services.find((s) => s.exited);
    if (gone) throw new Error(`the ${gone.name} exited while starting`);
    if (Date.now() > deadline) throw new Error(`not ready within ${timeoutMs / 1000} s`);
    await sleep(250);
  }
}

/** Applies a fault's effect; the returned function heals it. */
async function inject(system: NetworkSystem, kind: NetworkFaultKind): Promise<() => Promise<void>> {
  const effect = faultEffect(kind, system.historyPorts);
  const hosts = Object.keys(effect.drops) as NetworkHost[];
  for (const host of hosts) await setFaultRules(host, effect.drops[host]!);
  for (const { proxy, toxic } of effect.toxics) await system.toxiproxy.addLatency(proxy, toxic);
  return async () => {
    for (const host of hosts) await setFaultRules(host, []);
    for (const { proxy, toxic } of effect.toxics) await system.toxiproxy.removeToxic(proxy, toxic.name);
  };
}

async function drive(system: NetworkSystem, dataDir: string, args: NetworkArgs, log: Log) {
  const { access } = system;
  const { people } = await seedPeopleAndMathRun(access, {
    tasks: args.tasks,
    dataDir,
    seed: 13,
    runId: 'net-run',
  });
  const topics = await createTopics(access, people, 'batch-701', Math.max(8, Math.round(args.tasks / 3)));
  const tasks: Array<{ task_id: string }> = await access.dataSource.query(
    `SELECT task_id FROM math_tasks WHERE run_id = 'net-run' ORDER BY task_id`,
  );
  const artifacts: Array<{ artifact_id: string; sha256: string }> = await access.dataSource.query(
    `SELECT artifact_id, sha256 FROM math_artifacts WHERE run_id = 'net-run' AND class = 'STANDARD'
      ORDER BY size_bytes LIMIT 40`,
  );
  log(`dataset: ${tasks.length} tasks, ${topics.length} topics, ${artifacts.length} artifacts to download`);

  const attempts: Attempt[] = [];
  const load = new Load(access.apiUrl, people, log, (attempt) => attempts.push(attempt));
  const kinds = args.quick ? QUICK_FAULTS : NETWORK_FAULTS;
  const recoveryMs = args.quick ? 30_000 : 40_000;
  const schedule = faultSchedule(kinds, { warmupMs: args.quick ? 30_000 : 60_000, recoveryMs });
  const began = Date.now();
  const deadline = began + scheduleLengthMs(schedule, recoveryMs);
  const [probeTask, ...loadTasks] = tasks.map((t) => t.task_id);
  const loops = Array.from({ length: args.clients }, (_, index) =>
    load.loop(index, args.clients, deadline, {
      tasks: loadTasks,
      topics,
      artifacts: new Map(artifacts.map((a) => [a.artifact_id, a.sha256])),
    }),
  );
  const imports = load.runImports(access, dataDir, deadline);
  const uploads = new Uploads(
    access.apiUrl,
    people.mathOwner,
    () => {
      load.counters.requests += 1;
      load.counters.byKind.upload = (load.counters.byKind.upload ?? 0) + 1;
      return load.counters.requests;
    },
    (attempt) => attempts.push(attempt),
  );
  const uploading = uploads.loop(loadTasks, deadline);
  const faults: FaultRun[] = [];
  let probeStep = 0;
  for (const [i, planned] of schedule.entries()) {
    await sleep(Math.max(0, began + planned.startMs - Date.now()));
    const name = FAULT_SPECS[planned.kind].name;
    log(`fault ${i + 1}/${schedule.length}: ${name}, for ${FAULT_SPECS[planned.kind].durationMs / 1000} s`);
    const startedAt = Date.now();
    const heal = await inject(system, planned.kind);
    await sleep(Math.max(0, began + planned.healMs - Date.now()));
    await heal();
    const healedAt = Date.now();
    // Serving again: a change acknowledged through the API (and so through Temporal and the worker).
    let recoveredAt: number | null = null;
    while (recoveredAt === null && Date.now() < healedAt + recoveryMs) {
      if (await load.mathAction(probeTask, probeStep)) {
        probeStep += 1;
        recoveredAt = Date.now();
      } else await sleep(200);
    }
    log(
      `fault ${i + 1}: healed; ${recoveredAt === null ? 'NOT serving again' : `serving again ${((recoveredAt - healedAt) / 1000).toFixed(1)} s after the heal`}` +
        (recoveredAt !== null && recoveredAt - healedAt > RECOVERY_BOUND_MS ? ' (past the bound)' : ''),
    );
    faults.push({ kind: planned.kind, startedAt, healedAt, recoveredAt, windowEnd: 0 });
  }
  await Promise.all([...loops, imports, uploading]);
  const ended = Date.now();
  faults.forEach((fault, i) => (fault.windowEnd = faults[i + 1]?.startedAt ?? ended));
  log(`load over: ${load.counters.requests} requests; checking every acknowledged change`);
  const ledger = await checkLedger(access, load);
  const uploaded = await uploads.check(access.dataSource);
  for (const finding of [...ledger.findings, ...uploaded.findings]) log(`ledger ${finding}`);
  log(`${uploads.uploaded.length} uploads acknowledged and checked`);
  const { reconciled, verified } = await runOperatorChecks(access, log);
  const tallies = tallyFaults(
    faults,
    attempts,
    [
      ...load.acknowledged,
      ...uploads.uploaded.map((u) => ({
        service: 'math' as const,
        subject: u.taskId,
        updateId: uploadId(u),
        at: u.at,
      })),
    ],
    {
      lostUpdateIds: [...ledger.lostUpdateIds, ...uploaded.lost],
      duplicatedUpdateIds: [...ledger.duplicatedUpdateIds, ...uploaded.duplicated],
    },
  );
  const exited = system.services.filter((s) => s.exited).map((s) => s.name);
  return {
    table: networkTable(tallies),
    checks: networkChecks(tallies, {
      lost: ledger.lost + uploaded.lost.length,
      duplicated: ledger.duplicated + uploaded.duplicated.length,
      gaveUp: load.counters.gaveUp + uploads.gaveUp,
      rejected: load.counters.rejected + uploads.rejected,
      reconcileFindings: reconciled.findings.length,
      verifyFindings: verified.findings.length,
      exited,
    }),
  };
}
