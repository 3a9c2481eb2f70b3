import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Connection } from '@temporalio/client';
import pg from 'pg';
import { projectRoot } from './paths';
import { isPortFree, waitForPort } from './ports';
import { type ManagedProcess, spawnManaged } from './processes';
import { logTail, untilReady } from './startup';
import { superviseWith } from './supervisor';
import { ensureNamespace } from './temporalDevServer';

/**
 * History shards of the cluster profile's server. Temporal fixes the count when it first writes its database and
 * refuses to start on a database created with another: changing it means a new `temporal` database.
 */
export const HISTORY_SHARDS = 16;

/** The dynamic config both the cluster profile and docker-compose.yml run with (one file, so they cannot drift). */
export const DYNAMIC_CONFIG_FILE = path.join(projectRoot, 'docker', 'temporal', 'dynamicconfig.yaml');

/** Temporal's schemas for PostgreSQL 12+, embedded in temporal-sql-tool (`--schema-name`). */
const SCHEMAS = { persistence: 'postgresql/v12/temporal', visibility: 'postgresql/v12/visibility' } as const;

export interface TemporalServerOptions {
  /** The `temporal-server`, `temporal-sql-tool` and (for the UI) `temporal-ui-server` binaries. */
  binaries: { server: string; sqlTool: string; uiServer?: string };
  /** A PostgreSQL URL whose role may create databases; Temporal's two databases live on that server. */
  postgresUrl: string;
  /** Default `temporal` and `temporal_visibility`, as in docker-compose.yml. */
  databases?: { persistence: string; visibility: string };
  /** Where the generated server and UI configs and the chosen ports are kept (reused by the next start). */
  stateDir: string;
  ip?: string;
  /** Preferred frontend (gRPC) and UI ports; a busy one is replaced by a free one. No UI without `uiPort`. */
  port?: number;
  uiPort?: number;
  /** Registered with the project's search attributes (idempotent). */
  namespaces: string[];
  /** Retention of closed workflows in namespaces created here (default 30 days). */
  retentionDays?: number;
  /** `services` (default): a process per service role (see {@link SERVICE_HOSTS}); `single`: one process runs them all. */
  topology?: TemporalTopology;
  /** The single server's log; in the `services` topology each process logs beside it, named after it. */
  logFile?: string;
  uiLogFile?: string;
  log?: (line: string) => void;
  /** Called with every process of the server (and its UI) at start and after each restart of one of them. */
  onProcesses?: (processes: TemporalProcess[]) => void;
}

/** `single`: one `temporal-server` process runs every service; `services`: one process per service host. */
export type TemporalTopology = 'single' | 'services';
export const TEMPORAL_TOPOLOGIES: readonly TemporalTopology[] = ['single', 'services'];

/** The services of Temporal's server; `ui` names the UI server beside it. */
export type TemporalRole = 'frontend' | 'history' | 'matching' | 'worker';
const ROLES: readonly TemporalRole[] = ['frontend', 'history', 'matching', 'worker'];

/** One process of the server as the connection file and `referee status` list it. */
export interface TemporalProcess {
  /** `server` (single), `frontend`, `history-1`, …, or `ui`. */
  name: string;
  roles: Array<TemporalRole | 'ui'>;
  pid: number;
  /** host:port it listens on: its service's gRPC (the worker service's membership; the UI's HTTP). */
  address: string;
  /** Its ringpop membership port (none for the UI). */
  membershipPort?: number;
  logFile?: string;
}

/**
 * The hosts of the `services` topology, in start order: two history hosts share the shards (each owns about half, and takes over
 * the other's when it leaves), two matching hosts share the task-queue partitions, one frontend, one worker service.
 */
export const SERVICE_HOSTS: ReadonlyArray<{ name: string; role: TemporalRole }> = [
  { name: 'frontend', role: 'frontend' },
  { name: 'history-1', role: 'history' },
  { name: 'history-2', role: 'history' },
  { name: 'matching-1', role: 'matching' },
  { name: 'matching-2', role: 'matching' },
  { name: 'worker', role: 'worker' },
];

/**
 * Each service host's PostgreSQL pools. The one process's pools (20 and 5) on each of six processes could hold 150
 * connections, more than PostgreSQL's default limit of 100 that Referee's own processes share; history writes
 * most, matching persists task-queue state, the frontend and the worker service little.
 */
const SERVICE_HOST_CONNECTIONS: Record<TemporalRole, { persistence: number; visibility: number }> = {
  history: { persistence: 10, visibility: 2 },
  matching: { persistence: 5, visibility: 2 },
  frontend: { persistence: 5, visibility: 3 },
  worker: { persistence: 3, visibility: 2 },
};

/** The topology REFEREE_TEMPORAL_TOPOLOGY names (`single` or `services`), else {@link DEFAULT_TOPOLOGY}. */
export function temporalTopology(env: NodeJS.ProcessEnv = process.env): TemporalTopology {
  const raw = env.REFEREE_TEMPORAL_TOPOLOGY;
  if (raw === undefined || raw === '') return DEFAULT_TOPOLOGY;
  if (!(TEMPORAL_TOPOLOGIES as readonly string[]).includes(raw)) {
    throw new Error(`REFEREE_TEMPORAL_TOPOLOGY=${raw}: expected ${TEMPORAL_TOPOLOGIES.join(' or ')}`);
  }
  return raw as TemporalTopology;
}

/** See docs/operations.md ("The topology of Temporal's server") for why. */
export const DEFAULT_TOPOLOGY: TemporalTopology = 'services';

export interface TemporalServer {
  /** host:port of the frontend gRPC service. */
  address: string;
  uiUrl: string | null;
  historyShards: number;
  topology: TemporalTopology;
  /** Process id of the server's current incarnation (the frontend's in the `services` topology). */
  readonly pid: number;
  /** Every process with its current id (each is restarted after a crash, like the workers). */
  readonly processes: TemporalProcess[];
  stop(): Promise<void>;
}

/** The ports of one service host: gRPC, ringpop membership, and (the frontend) HTTP. */
export interface ServicePorts {
  grpcPort: number;
  membershipPort: number;
  httpPort?: number;
}

/** One `temporal-server` process as it is configured and started. */
interface ServerHost {
  /** `server` in the single topology; a {@link SERVICE_HOSTS} name otherwise. */
  name: string;
  /** The services it runs (`--service` flags); every one in the single topology. */
  roles: TemporalRole[];
  /** Every service's ports as this process's config names them: its own, and the others' first hosts. */
  services: Record<TemporalRole, ServicePorts>;
  metricsPort: number;
  configDir: string;
  logFile?: string;
}

const READY_TIMEOUT_MS = 120_000;
/** Where the server's own ports are chosen (see choosePorts). */
const LOW_PORTS = { from: 20_000, to: 32_000 };

/**
 * Runs Temporal's own server (not the dev server) on PostgreSQL: creates its two databases when missing, creates
 * or upgrades their schemas with temporal-sql-tool (idempotent, so on every start), starts the server with
 * {@link HISTORY_SHARDS} history shards and the shared dynamic config (one process, or a process per service
 * host: see {@link TemporalTopology}), registers the namespaces with the project's search attributes, and starts
 * the Temporal UI beside it. Resolves once workflows can be started.
 */
export async function startTemporalServer(opts: TemporalServerOptions): Promise<TemporalServer> {
  const log = opts.log ?? (() => {});
  const ip = opts.ip ?? '127.0.0.1';
  const topology = opts.topology ?? DEFAULT_TOPOLOGY;
  const databases = opts.databases ?? { persistence: 'temporal', visibility: 'temporal_visibility' };
  const stateDir = path.resolve(opts.stateDir);
  fs.mkdirSync(stateDir, { recursive: true, mode: 0o700 });
  const started = Date.now();

  await ensureDatabases(opts.postgresUrl, [databases.persistence, databases.visibility]);
  for (const [kind, name] of [
    ['persistence', databases.persistence],
    ['visibility', databases.visibility],
  ] as const) {
    await setupSchema(opts.binaries.sqlTool, opts.postgresUrl, name, SCHEMAS[kind], opts.logFile);
  }
  log(`temporal schemas up to date in ${Date.now() - started} ms`);

  const { hosts, ui: uiPort } = await chooseHosts(
    topology,
    stateDir,
    ip,
    opts.port,
    opts.binaries.uiServer ? opts.uiPort : undefined,
    opts.logFile,
  );
  for (const host of hosts) writeServerConfig(host, opts.postgresUrl, databases, ip);
  const frontendPort = hosts[0].services.frontend.grpcPort;
  const address = `${ip}:${frontendPort}`;

  // Every host at once: each joins the others through the membership table as it comes up.
  const ready = await startHosts(opts, hosts, ip, frontendPort);
  try {
    for (const namespace of opts.namespaces) {
      await ensureNamespace(address, namespace, { retentionDays: opts.retentionDays ?? 30 });
    }
  } catch (error) {
    await Promise.all(ready.map((p) => p.stop()));
    throw error;
  }
  // The supervision adopts each started process as its first incarnation.
  const firsts: Array<ManagedProcess | null> = [...ready];
  const pids = new Map<string, number>();
  let ui: ManagedProcess | null = null;
  let uiLogFile: string | undefined;
  const report = () => {
    if (pids.size === hosts.length) opts.onProcesses?.(listProcesses());
  };
  const listProcesses = (): TemporalProcess[] => [
    ...hosts.map((host) => ({
      name: host.name,
      roles: [...host.roles],
      pid: pids.get(host.name)!,
      address: `${ip}:${reachedAt(host)}`,
      membershipPort: host.services[host.roles[0]].membershipPort,
      logFile: host.logFile,
    })),
    ...(ui && uiPort !== null
      ? [{ name: 'ui', roles: ['ui' as const], pid: ui.pid, address: `${ip}:${uiPort}`, logFile: uiLogFile }]
      : []),
  ];
  // Each restarted when it exits on its own, like the workers (a crash loses nothing: its state is in PostgreSQL).
  const supervised = hosts.map((host, i) =>
    superviseWith(
      () => {
        const ready = firsts[i] ?? spawnHost(opts.binaries.server, host);
        firsts[i] = null;
        return ready;
      },
      {
        name: host.name === 'server' ? 'Temporal server' : `Temporal ${host.name}`,
        logFile: host.logFile,
        log,
        onStart: (pid) => {
          pids.set(host.name, pid);
          report();
        },
      },
    ),
  );
  if (opts.binaries.uiServer && uiPort !== null) {
    uiLogFile = opts.uiLogFile ?? opts.logFile;
    ui = await startUi(
      opts.binaries.uiServer,
      path.join(stateDir, 'ui'),
      ip,
      uiPort,
      address,
      opts,
      uiLogFile,
    );
    report();
  }
  log(`temporal server (${hosts.length} process(es)) ready at ${address} in ${Date.now() - started} ms`);
  return {
    address,
    uiUrl: uiPort === null ? null : `http://${ip}:${uiPort}`,
    historyShards: HISTORY_SHARDS,
    topology,
    get pid() {
      return supervised[hosts.findIndex((h) => h.roles.includes('frontend'))].pid;
    },
    get processes() {
      return listProcesses();
    },
    async stop() {
      await ui?.stop();
      await Promise.all(supervised.map((s) => s.stop(30_000)));
    },
  };
}

/**
 * Spawns every host and resolves once each listens and the frontend serves: the system namespace's describe needs
 * the history shard that holds it, so it also waits for history to own its shards. The first host starts alone
 * until it listens: on a new database each process writes the cluster's metadata at start, and processes starting
 * together race to insert it (all but one fail).
 */
async function startHosts(
  opts: TemporalServerOptions,
  hosts: ServerHost[],
  ip: string,
  frontendPort: number,
): Promise<ManagedProcess[]> {
  const started = Date.now();
  const address = `${ip}:${frontendPort}`;
  const procs: ManagedProcess[] = [];
  const ready = (host: ServerHost, proc: ManagedProcess, serving: boolean) =>
    untilReady(proc, `temporal ${host.name}`, host.logFile, async (signal) => {
      await waitForPort(ip, reachedAt(host), READY_TIMEOUT_MS, signal);
      if (serving) await untilFrontendServes(address, started + READY_TIMEOUT_MS, signal);
    });
  try {
    procs.push(spawnHost(opts.binaries.server, hosts[0]));
    await ready(hosts[0], procs[0], hosts.length === 1);
    for (const host of hosts.slice(1)) procs.push(spawnHost(opts.binaries.server, host));
    await Promise.all(hosts.slice(1).map((host, i) => ready(host, procs[i + 1], false)));
    if (hosts.length > 1) {
      await untilReady(procs[0], `temporal ${hosts[0].name}`, hosts[0].logFile, (signal) =>
        untilFrontendServes(address, started + READY_TIMEOUT_MS, signal),
      );
    }
  } catch (error) {
    await Promise.all(procs.map((p) => p.stop()));
    throw error;
  }
  return procs;
}

async function untilFrontendServes(address: string, deadline: number, signal: AbortSignal): Promise<void> {
  for (;;) {
    if (signal.aborted) return;
    try {
      const connection = await Connection.connect({ address, connectTimeout: 5_000 });
      try {
        await connection.workflowService.getSystemInfo({});
        await connection.workflowService.describeNamespace({ namespace: 'temporal-system' });
        return;
      } finally {
        await connection.close();
      }
    } catch (error) {
      if (Date.now() > deadline) {
        throw new Error(`the frontend did not answer: ${String(error)}`, { cause: error });
      }
    }
    await sleep(200);
  }
}

/** The port a host listens on once up: its service's gRPC port; the worker service serves no gRPC, only membership. */
function reachedAt(host: ServerHost): number {
  const own = host.services[host.roles[0]];
  return host.roles.length === 1 && host.roles[0] === 'worker' ? own.membershipPort : own.grpcPort;
}

function spawnHost(binary: string, host: ServerHost): ManagedProcess {
  const args = ['--root', path.dirname(host.configDir), '--config', path.basename(host.configDir)];
  // One host of the services topology runs its own service only; without --service it would run them all.
  const services = host.name === 'server' ? [] : host.roles.map((role) => `--service=${role}`);
  return spawnManaged(binary, [...args, '--env', 'referee', '--allow-no-auth', 'start', ...services], {
    name: host.name === 'server' ? 'temporal server' : `temporal ${host.name}`,
    logFile: host.logFile,
  });
}
/** Starts the UI server (the module the CLI builds its UI from) and resolves once it serves its page. */
async function startUi(
  binary: string,
  dir: string,
  ip: string,
  port: number,
  temporalAddress: string,
  opts: TemporalServerOptions,
  logFile: string | undefined,
): Promise<ManagedProcess> {
  const configDir = path.join(dir, 'config');
  fs.mkdirSync(configDir, { recursive: true, mode: 0o700 });
  const config = {
    temporalGrpcAddress: temporalAddress,
    host: ip,
    port,
    enableUi: true,
    defaultNamespace: opts.namespaces[0] ?? 'default',
    refreshInterval: '1m',
    notifyOnNewVersion: false,
    cors: { cookieInsecure: true, unsafeAllowAllOrigins: false, allowOrigins: [] },
  };
  // JSON is YAML: the UI reads `<root>/config/<env>.yaml`.
  fs.writeFileSync(path.join(configDir, 'referee.yaml'), `${JSON.stringify(config, null, 2)}\n`);
  const proc = spawnManaged(binary, ['--root', dir, '--config', 'config', '--env', 'referee', 'start'], {
    name: 'temporal ui',
    logFile,
  });
  try {
    await untilReady(proc, 'temporal ui', logFile, async (signal) => {
      const deadline = Date.now() + 30_000;
      while (!signal.aborted) {
        try {
          if ((await fetch(`http://${ip}:${port}/`, { signal })).ok) return;
        } catch {
          // not listening yet
        }
        if (Date.now() > deadline) throw new Error(`no page at http://${ip}:${port}/ within 30 s`);
        await sleep(200);
      }
    });
  } catch (error) {
    await proc.stop();
    throw error;
  }
  return proc;
}

/** Creates the databases that do not exist yet (owned by the URL's role). */
async function ensureDatabases(postgresUrl: string, names: string[]): Promise<void> {
  const client = new pg.Client({ connectionString: postgresUrl });
  client.on('error', () => {});
  await client.connect();
  try {
    for (const name of names) {
      const { rowCount } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
      if (rowCount === 0) await client.query(`CREATE DATABASE ${client.escapeIdentifier(name)}`);
    }
  } finally {
    await client.end().catch(() => {});
  }
}

/**
 * `setup-schema -v 0.0` adds the version tables when missing and leaves a newer version alone; `update-schema`
 * applies the versions not applied yet. Both are no-ops on an up-to-date database, so this runs on every start.
 */
async function setupSchema(
  sqlTool: string,
  postgresUrl: string,
  database: string,
  schemaName: string,
  logFile: string | undefined,
): Promise<void> {
  const url = new URL(postgresUrl);
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    SQL_PLUGIN: 'postgres12',
    SQL_HOST: url.hostname,
    SQL_PORT: url.port || '5432',
    SQL_USER: decodeURIComponent(url.username) || 'postgres',
    // In the environment, not the command line, where any local user could read it.
    SQL_PASSWORD: decodeURIComponent(url.password),
    SQL_DATABASE: database,
  };
  for (const args of [
    ['setup-schema', '-v', '0.0'],
    ['update-schema', '--schema-name', schemaName],
  ]) {
    const run = spawnManaged(sqlTool, ['--quiet', ...args], {
      name: `temporal-sql-tool ${args[0]}`,
      env,
      logFile,
    });
    const code = await run.exited;
    if (code !== 0) {
      throw new Error(
        `temporal-sql-tool ${args.join(' ')} on ${database} failed (exit ${code})${logTail(logFile)}`,
      );
    }
  }
}

/**
 * The hosts of `topology` with their ports: those of the last start when they are still free (the server's
 * membership table remembers its hosts by address), else new ones; kept in `<stateDir>/ports.json`. Each host of
 * the services topology has its own config folder (the ports of its service are its own) and its own log file
 * beside `logFile`.
 */
async function chooseHosts(
  topology: TemporalTopology,
  stateDir: string,
  ip: string,
  frontend: number | undefined,
  ui: number | undefined,
  logFile: string | undefined,
): Promise<{ hosts: ServerHost[]; ui: number | null }> {
  const file = path.join(stateDir, 'ports.json');
  let previous: Record<string, number | null> = {};
  try {
    previous = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, number | null>;
  } catch {
    // first start
  }
  const chosen: Record<string, number | null> = {};
  const taken = new Set<number>();
  const pick = async (key: string, ...preferred: Array<number | null | undefined>): Promise<number> => {
    for (const candidate of [...preferred, previous[key]]) {
      if (candidate && !taken.has(candidate) && (await isPortFree(candidate, ip))) {
        taken.add(candidate);
        chosen[key] = candidate;
        return candidate;
      }
    }
    // Temporal keeps membership ports in a smallint column: below 32768, where the OS hands out no ports.
    for (;;) {
      const port = LOW_PORTS.from + Math.floor(Math.random() * (LOW_PORTS.to - LOW_PORTS.from));
      if (!taken.has(port) && (await isPortFree(port, ip))) {
        taken.add(port);
        chosen[key] = port;
        return port;
      }
    }
  };
  // The single topology keeps the keys it always had, so an existing data folder keeps its ports.
  const servicePorts = async (prefix: string, role: TemporalRole): Promise<ServicePorts> => ({
    grpcPort: await pick(prefix, role === 'frontend' ? frontend : undefined),
    membershipPort: await pick(`${prefix}Membership`),
    ...(role === 'frontend' && { httpPort: await pick(`${prefix}Http`) }),
  });
  const configRoot = path.join(stateDir, 'config');
  const hosts: ServerHost[] = [];
  if (topology === 'single') {
    const services = {} as Record<TemporalRole, ServicePorts>;
    for (const role of ROLES) services[role] = await servicePorts(role, role);
    hosts.push({
      name: 'server',
      roles: [...ROLES],
      services,
      metricsPort: await pick('metrics'),
      configDir: configRoot,
      logFile,
    });
  } else {
    const own: Array<{ name: string; role: TemporalRole; ports: ServicePorts; metricsPort: number }> = [];
    // The frontend first: it gets the preferred port, and it is the host that starts first (startHosts).
    for (const { name, role } of SERVICE_HOSTS) {
      own.push({
        name,
        role,
        ports: await servicePorts(name, role),
        metricsPort: await pick(`${name}Metrics`),
      });
    }
    const firstOf = (role: TemporalRole) => own.find((h) => h.role === role)!.ports;
    for (const { name, role, ports, metricsPort } of own) {
      const services = Object.fromEntries(ROLES.map((r) => [r, r === role ? ports : firstOf(r)])) as Record<
        TemporalRole,
        ServicePorts
      >;
      hosts.push({
        name,
        roles: [role],
        services,
        metricsPort,
        configDir: path.join(configRoot, name),
        logFile: logFile && path.join(path.dirname(logFile), `${path.basename(logFile, '.log')}-${name}.log`),
      });
    }
  }
  const uiPort = ui === undefined ? null : await pick('ui', ui);
  chosen.ui = uiPort;
  fs.writeFileSync(file, `${JSON.stringify({ ...previous, ...chosen }, null, 2)}\n`, { mode: 0o600 });
  return { hosts, ui: uiPort };
}

/** Writes {@link temporalServerConfig} (JSON, which YAML reads) as `<configDir>/referee.yaml`, owner-only. */
function writeServerConfig(
  host: ServerHost,
  postgresUrl: string,
  databases: { persistence: string; visibility: string },
  ip: string,
): void {
  const config = temporalServerConfig(postgresUrl, databases, ip, host.services, {
    metricsPort: host.metricsPort,
    // A history host logs its shards' moves ("Acquired shard"), which the chaos drill reads.
    logLevel: host.name !== 'server' && host.roles.includes('history') ? 'info' : 'warn',
    connections: host.name === 'server' ? undefined : SERVICE_HOST_CONNECTIONS[host.roles[0]],
  });
  fs.mkdirSync(host.configDir, { recursive: true, mode: 0o700 });
  // It holds the database password.
  const file = path.join(host.configDir, 'referee.yaml');
  fs.writeFileSync(file, `${JSON.stringify(config, null, 2)}\n`, { mode: 0o600 });
  fs.chmodSync(file, 0o600);
}

/** The server's static config: PostgreSQL persistence and visibility, the shard count, ports, dynamic config. */
export function temporalServerConfig(
  postgresUrl: string,
  databases: { persistence: string; visibility: string },
  ip: string,
  services: Record<TemporalRole, ServicePorts>,
  host: {
    metricsPort: number;
    logLevel?: 'warn' | 'info';
    /** Its PostgreSQL pools (default: the one process's, which serves every service). */
    connections?: { persistence: number; visibility: number };
  },
) {
  const url = new URL(postgresUrl);
  const sql = (databaseName: string, maxConns: number) => ({
    sql: {
      pluginName: 'postgres12',
      databaseName,
      connectAddr: `${url.hostname}:${url.port || '5432'}`,
      connectProtocol: 'tcp',
      user: decodeURIComponent(url.username) || 'postgres',
      password: decodeURIComponent(url.password),
      maxConns,
      maxIdleConns: maxConns,
      maxConnLifetime: '1h',
    },
  });
  const rpc = ({ grpcPort, membershipPort, httpPort }: ServicePorts) => ({
    rpc: { grpcPort, membershipPort, bindOnIP: ip, ...(httpPort !== undefined && { httpPort }) },
  });
  return {
    log: { stdout: true, level: host.logLevel ?? 'warn' },
    persistence: {
      defaultStore: 'postgres-default',
      visibilityStore: 'postgres-visibility',
      numHistoryShards: HISTORY_SHARDS,
      datastores: {
        'postgres-default': sql(databases.persistence, host.connections?.persistence ?? 20),
        'postgres-visibility': sql(databases.visibility, host.connections?.visibility ?? 5),
      },
    },
    global: {
      membership: { maxJoinDuration: '30s', broadcastAddress: ip },
      metrics: {
        prometheus: {
          framework: 'tally',
          timerType: 'histogram',
          listenAddress: `${ip}:${host.metricsPort}`,
        },
      },
    },
    services: Object.fromEntries(ROLES.map((role) => [role, rpc(services[role])])),
    clusterMetadata: {
      enableGlobalNamespace: false,
      failoverVersionIncrement: 10,
      masterClusterName: 'active',
      currentClusterName: 'active',
      clusterInformation: {
        active: {
          enabled: true,
          initialFailoverVersion: 1,
          rpcName: 'frontend',
          rpcAddress: `${ip}:${services.frontend?.grpcPort}`,
        },
      },
    },
    dcRedirectionPolicy: { policy: 'noop' },
    dynamicConfigClient: { filepath: DYNAMIC_CONFIG_FILE, pollInterval: '10s' },
  };
}
