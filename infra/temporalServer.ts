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
  logFile?: string;
  uiLogFile?: string;
  log?: (line: string) => void;
  /** Called with the server's process id at start and after each restart. */
  onStart?: (pid: number) => void;
}

export interface TemporalServer {
  /** host:port of the frontend gRPC service. */
  address: string;
  uiUrl: string | null;
  historyShards: number;
  /** Process id of the server's current incarnation (restarted after a crash, like the workers). */
  readonly pid: number;
  stop(): Promise<void>;
}

/** Every port of the server: each service has a gRPC and a membership port. */
export interface ServerPorts {
  frontend: number;
  frontendMembership: number;
  frontendHttp: number;
  history: number;
  historyMembership: number;
  matching: number;
  matchingMembership: number;
  worker: number;
  workerMembership: number;
  metrics: number;
  ui: number | null;
}

const READY_TIMEOUT_MS = 120_000;
/** Where the server's own ports are chosen (see choosePorts). */
const LOW_PORTS = { from: 20_000, to: 32_000 };

/**
 * Runs Temporal's own server (not the dev server) on PostgreSQL: creates its two databases when missing, creates
 * or upgrades their schemas with temporal-sql-tool (idempotent, so on every start), starts the server with
 * {@link HISTORY_SHARDS} history shards and the shared dynamic config, registers the namespaces with the
 * project's search attributes, and starts the Temporal UI beside it. Resolves once workflows can be started.
 */
export async function startTemporalServer(opts: TemporalServerOptions): Promise<TemporalServer> {
  const log = opts.log ?? (() => {});
  const ip = opts.ip ?? '127.0.0.1';
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

  const ports = await choosePorts(stateDir, ip, opts.port, opts.binaries.uiServer ? opts.uiPort : undefined);
  const configDir = path.join(stateDir, 'config');
  writeServerConfig(configDir, opts.postgresUrl, databases, ip, ports);
  const address = `${ip}:${ports.frontend}`;

  let first: ManagedProcess | null = await startServerProcess(opts, configDir, ip, ports);
  try {
    for (const namespace of opts.namespaces) {
      await ensureNamespace(address, namespace, { retentionDays: opts.retentionDays ?? 30 });
    }
  } catch (error) {
    await first.stop();
    throw error;
  }
  // Restarted when it exits on its own, like the workers (a crash loses nothing: its state is in PostgreSQL).
  const server = superviseWith(
    () => {
      const ready = first ?? spawnServer(opts, configDir);
      first = null;
      return ready;
    },
    { name: 'Temporal server', logFile: opts.logFile, log, onStart: opts.onStart },
  );
  let ui: ManagedProcess | null = null;
  if (opts.binaries.uiServer && ports.ui !== null) {
    ui = await startUi(opts.binaries.uiServer, path.join(stateDir, 'ui'), ip, ports.ui, address, opts);
  }
  log(`temporal server ready at ${address} in ${Date.now() - started} ms`);
  return {
    address,
    uiUrl: ports.ui === null ? null : `http://${ip}:${ports.ui}`,
    historyShards: HISTORY_SHARDS,
    get pid() {
      return server.pid;
    },
    async stop() {
      await ui?.stop();
      await server.stop(30_000);
    },
  };
}

async function startServerProcess(
  opts: TemporalServerOptions,
  configDir: string,
  ip: string,
  ports: ServerPorts,
): Promise<ManagedProcess> {
  const started = Date.now();
  const proc = spawnServer(opts, configDir);
  const address = `${ip}:${ports.frontend}`;
  try {
    await untilReady(proc, 'temporal server', opts.logFile, async (signal) => {
      await waitForPort(ip, ports.frontend, READY_TIMEOUT_MS, signal);
      const deadline = started + READY_TIMEOUT_MS;
      for (;;) {
        if (signal.aborted) return;
        try {
          const connection = await Connection.connect({ address, connectTimeout: 5_000 });
          try {
            // The frontend answers before history owns its shards; the system namespace's describe needs them.
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
    });
  } catch (error) {
    await proc.stop();
    throw error;
  }
  return proc;
}

function spawnServer(opts: TemporalServerOptions, configDir: string): ManagedProcess {
  const args = ['--root', path.dirname(configDir), '--config', path.basename(configDir), '--env', 'referee'];
  return spawnManaged(opts.binaries.server, [...args, '--allow-no-auth', 'start'], {
    name: 'temporal server',
    logFile: opts.logFile,
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
  const logFile = opts.uiLogFile ?? opts.logFile;
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
 * The ports of the last start when they are still free (the server's membership table remembers its hosts), else
 * new ones; kept in `<stateDir>/ports.json`.
 */
async function choosePorts(
  stateDir: string,
  ip: string,
  frontend: number | undefined,
  ui: number | undefined,
): Promise<ServerPorts> {
  const file = path.join(stateDir, 'ports.json');
  let previous: Partial<ServerPorts> = {};
  try {
    previous = JSON.parse(fs.readFileSync(file, 'utf8')) as Partial<ServerPorts>;
  } catch {
    // first start
  }
  const taken = new Set<number>();
  const pick = async (...candidates: Array<number | null | undefined>): Promise<number> => {
    for (const candidate of candidates) {
      if (candidate && !taken.has(candidate) && (await isPortFree(candidate, ip))) {
        taken.add(candidate);
        return candidate;
      }
    }
    // Temporal keeps membership ports in a smallint column: below 32768, where the OS hands out no ports.
    for (;;) {
      const port = LOW_PORTS.from + Math.floor(Math.random() * (LOW_PORTS.to - LOW_PORTS.from));
      if (!taken.has(port) && (await isPortFree(port, ip))) {
        taken.add(port);
        return port;
      }
    }
  };
  const ports: ServerPorts = {
    frontend: await pick(frontend, previous.frontend),
    frontendMembership: await pick(previous.frontendMembership),
    frontendHttp: await pick(previous.frontendHttp),
    history: await pick(previous.history),
    historyMembership: await pick(previous.historyMembership),
    matching: await pick(previous.matching),
    matchingMembership: await pick(previous.matchingMembership),
    worker: await pick(previous.worker),
    workerMembership: await pick(previous.workerMembership),
    metrics: await pick(previous.metrics),
    ui: ui === undefined ? null : await pick(ui, previous.ui),
  };
  fs.writeFileSync(file, `${JSON.stringify(ports, null, 2)}\n`, { mode: 0o600 });
  return ports;
}

/** Writes {@link temporalServerConfig} (JSON, which YAML reads) as `<configDir>/referee.yaml`, owner-only. */
function writeServerConfig(
  configDir: string,
  postgresUrl: string,
  databases: { persistence: string; visibility: string },
  ip: string,
  ports: ServerPorts,
): void {
  const config = temporalServerConfig(postgresUrl, databases, ip, ports);
  fs.mkdirSync(configDir, { recursive: true, mode: 0o700 });
  // It holds the database password.
  const file = path.join(configDir, 'referee.yaml');
  fs.writeFileSync(file, `${JSON.stringify(config, null, 2)}\n`, { mode: 0o600 });
  fs.chmodSync(file, 0o600);
}

/** The server's static config: PostgreSQL persistence and visibility, the shard count, ports, dynamic config. */
export function temporalServerConfig(
  postgresUrl: string,
  databases: { persistence: string; visibility: string },
  ip: string,
  ports: ServerPorts,
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
  const service = (grpcPort: number, membershipPort: number, extra: Record<string, unknown> = {}) => ({
    rpc: { grpcPort, membershipPort, bindOnIP: ip, ...extra },
  });
  return {
    log: { stdout: true, level: 'warn' },
    persistence: {
      defaultStore: 'postgres-default',
      visibilityStore: 'postgres-visibility',
      numHistoryShards: HISTORY_SHARDS,
      datastores: {
        'postgres-default': sql(databases.persistence, 20),
        'postgres-visibility': sql(databases.visibility, 5),
      },
    },
    global: {
      membership: { maxJoinDuration: '30s', broadcastAddress: ip },
      metrics: {
        prometheus: { framework: 'tally', timerType: 'histogram', listenAddress: `${ip}:${ports.metrics}` },
      },
    },
    services: {
      frontend: service(ports.frontend, ports.frontendMembership, { httpPort: ports.frontendHttp }),
      history: service(ports.history, ports.historyMembership),
      matching: service(ports.matching, ports.matchingMembership),
      worker: service(ports.worker, ports.workerMembership),
    },
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
          rpcAddress: `${ip}:${ports.frontend}`,
        },
      },
    },
    dcRedirectionPolicy: { policy: 'noop' },
    dynamicConfigClient: { filepath: DYNAMIC_CONFIG_FILE, pollInterval: '10s' },
  };
}
