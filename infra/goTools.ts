import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { toolsCacheDir } from './paths';
import { spawnManaged } from './processes';
import { logTail } from './startup';

/** A Go command-line tool installed with `go install <pkg>@<version>`. */
export interface GoTool {
  name: string;
  pkg: string;
  version: string;
  /** Environment variable that points at a prebuilt binary and skips the build. */
  envOverride: string;
  /** The file `go install` writes when it is not `name` (the last element of `pkg`); installed as `name`. */
  builds?: string;
}

// v1.5.x is the newest CLI that `go install` accepts: later go.mod files carry replace directives.
export const TEMPORAL_CLI: GoTool = {
  name: 'temporal',
  pkg: 'github.com/temporalio/cli/cmd/temporal',
  version: 'v1.5.1',
  envOverride: 'REFEREE_TEMPORAL_BIN',
};

export const VERSITYGW: GoTool = {
  name: 'versitygw',
  pkg: 'github.com/versity/versitygw/cmd/versitygw',
  version: 'v1.8.0',
  envOverride: 'REFEREE_VERSITYGW_BIN',
};

/**
 * Temporal's own server at the version the CLI above embeds (its go.mod pins go.temporal.io/server v1.29.1), so
 * the dev server and the cluster profile run the same engine; docker-compose.yml names the same release
 * (test/unit/temporalVersion.test.ts keeps them together).
 */
export const TEMPORAL_SERVER: GoTool = {
  name: 'temporal-server',
  pkg: 'go.temporal.io/server/cmd/server',
  version: 'v1.29.1',
  builds: 'server',
  envOverride: 'REFEREE_TEMPORAL_SERVER_BIN',
};

/** temporal-sql-tool of the same release; it carries that release's SQL schemas embedded (`--schema-name`). */
export const TEMPORAL_SQL_TOOL: GoTool = {
  name: 'temporal-sql-tool',
  pkg: 'go.temporal.io/server/cmd/tools/sql',
  version: TEMPORAL_SERVER.version,
  builds: 'sql',
  envOverride: 'REFEREE_TEMPORAL_SQL_TOOL_BIN',
};

/** The Temporal UI's server, at the version the CLI above serves its UI from (its go.mod pins ui-server v2.42.1). */
export const TEMPORAL_UI_SERVER: GoTool = {
  name: 'temporal-ui-server',
  pkg: 'github.com/temporalio/ui-server/v2/cmd/server',
  version: 'v2.42.1',
  builds: 'server',
  envOverride: 'REFEREE_TEMPORAL_UI_SERVER_BIN',
};

/**
 * Toxiproxy's server, the userspace TCP proxy through which `npm run chaos -- --network` adds latency and slows
 * links between Referee's processes and their stores (docs/chaos.md, "Network faults"); driven over its HTTP API.
 */
export const TOXIPROXY: GoTool = {
  name: 'toxiproxy-server',
  pkg: 'github.com/Shopify/toxiproxy/v2/cmd/server',
  version: 'v2.12.0',
  builds: 'server',
  envOverride: 'REFEREE_TOXIPROXY_BIN',
};

type Log = (line: string) => void;

const LOCK_POLL_MS = 500;
/** A lock directory without an owner file older than this is a crash between mkdir and write. */
const OWNERLESS_LOCK_STALE_MS = 30_000;
const LOCK_WAIT_LIMIT_MS = 30 * 60_000;

/**
 * Absolute path of the tool's binary: `process.env[tool.envOverride]` if set, else the cached build
 * `<toolsCacheDir>/<name>@<version>/<name>`, building it with `go install` on first use. Safe to call
 * from several processes at once: one builds, the others wait for it and reuse the result.
 */
export async function ensureGoTool(tool: GoTool, log: Log = () => {}): Promise<string> {
  const override = process.env[tool.envOverride];
  if (override) return checkOverride(tool, override);

  const cacheDir = toolsCacheDir();
  const installDir = path.join(cacheDir, `${tool.name}@${tool.version}`);
  const binary = path.join(installDir, tool.name);
  if (isExecutable(binary)) return binary;

  fs.mkdirSync(cacheDir, { recursive: true });
  const lockDir = `${installDir}.lock`;
  await acquireLock(lockDir, tool, log);
  try {
    // Another process may have finished the build while we waited for the lock.
    if (isExecutable(binary)) return binary;
    await goInstall(tool, installDir, log);
    return binary;
  } finally {
    fs.rmSync(lockDir, { recursive: true, force: true });
  }
}

/** Temporal's server, its SQL tool and its UI server (the cluster profile's engine), built in parallel when needed. */
export async function ensureTemporalServerTools(
  log?: Log,
): Promise<{ server: string; sqlTool: string; uiServer: string }> {
  const [server, sqlTool, uiServer] = await Promise.all([
    ensureGoTool(TEMPORAL_SERVER, log),
    ensureGoTool(TEMPORAL_SQL_TOOL, log),
    ensureGoTool(TEMPORAL_UI_SERVER, log),
  ]);
  return { server, sqlTool, uiServer };
}

/** Ensures the Temporal CLI and versitygw, building both in parallel when needed. */
export async function ensureAllTools(log?: Log): Promise<{ temporal: string; versitygw: string }> {
  const [temporal, versitygw] = await Promise.all([
    ensureGoTool(TEMPORAL_CLI, log),
    ensureGoTool(VERSITYGW, log),
  ]);
  return { temporal, versitygw };
}

function checkOverride(tool: GoTool, value: string): string {
  const binary = path.resolve(value);
  if (!isExecutable(binary)) {
    throw new Error(
      `${tool.envOverride}=${value}: no executable file there (unset it to build ${tool.name} with go)`,
    );
  }
  return binary;
}

function isExecutable(file: string): boolean {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

async function goInstall(tool: GoTool, installDir: string, log: Log): Promise<void> {
  const go = findGo(tool);
  // Build into a scratch GOBIN and rename it into place, so a killed build never leaves a half binary.
  const scratch = `${installDir}.partial`;
  const buildLog = `${installDir}.build.log`;
  fs.rmSync(scratch, { recursive: true, force: true });
  fs.rmSync(buildLog, { force: true });
  fs.mkdirSync(scratch, { recursive: true });
  log(
    `building ${tool.name} ${tool.version} from source with go install: first run only, about 3-4 minutes on ` +
      `a 2-core machine (downloads its Go modules, then compiles); cached in ${path.dirname(installDir)} for ` +
      `every clone. Progress: ${buildLog}. To skip it, set ${tool.envOverride} to a prebuilt ${tool.name}.`,
  );
  const started = Date.now();
  const build = spawnManaged(go, ['install', `${tool.pkg}@${tool.version}`], {
    name: `go install ${tool.name}`,
    env: { ...process.env, GOBIN: scratch, GOFLAGS: '-mod=mod' },
    cwd: os.tmpdir(), // outside any Go module or workspace, so only the requested version is resolved
    logFile: buildLog,
  });
  const code = await build.exited;
  const built = path.join(scratch, tool.builds ?? tool.name);
  if (code !== 0 || !isExecutable(built)) {
    fs.rmSync(scratch, { recursive: true, force: true });
    throw new Error(
      `go install ${tool.pkg}@${tool.version} failed (exit ${code}); set ${tool.envOverride} to a prebuilt ` +
        `${tool.name} binary to skip the build.${logTail(buildLog)}`,
    );
  }
  if (tool.builds) fs.renameSync(built, path.join(scratch, tool.name));
  fs.rmSync(installDir, { recursive: true, force: true });
  fs.renameSync(scratch, installDir);
  fs.rmSync(buildLog, { force: true });
  log(`installed ${tool.name} ${tool.version} in ${Math.round((Date.now() - started) / 1000)} s`);
}

function findGo(tool: GoTool): string {
  const candidates = (process.env.PATH ?? '')
    .split(path.delimiter)
    .filter(Boolean)
    .map((dir) => path.join(dir, 'go'));
  candidates.push('/usr/local/go/bin/go');
  const go = candidates.find(isExecutable);
  if (!go) {
    throw new Error(
      `${tool.name} ${tool.version} must be built with Go, but "go" is neither on PATH nor at /usr/local/go/bin/go. ` +
        `Install Go (https://go.dev/dl/) or set ${tool.envOverride} to a prebuilt ${tool.name} binary.`,
    );
  }
  return go;
}

/** mkdir is atomic, so the directory is the lock; its `owner` file names the holder for stale detection. */
async function acquireLock(lockDir: string, tool: GoTool, log: Log): Promise<void> {
  const deadline = Date.now() + LOCK_WAIT_LIMIT_MS;
  let announced = false;
  for (;;) {
    try {
      fs.mkdirSync(lockDir);
      fs.writeFileSync(
        path.join(lockDir, 'owner'),
        JSON.stringify({ pid: process.pid, host: os.hostname() }),
      );
      return;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    if (isStale(lockDir)) {
      fs.rmSync(lockDir, { recursive: true, force: true });
      continue;
    }
    if (Date.now() > deadline) {
      throw new Error(`timed out waiting for ${lockDir}; if no build of ${tool.name} is running, remove it`);
    }
    if (!announced) {
      log(`waiting for another process to finish installing ${tool.name} ${tool.version}`);
      announced = true;
    }
    await sleep(LOCK_POLL_MS);
  }
}

function isStale(lockDir: string): boolean {
  let owner: { pid?: unknown; host?: unknown };
  try {
    owner = JSON.parse(fs.readFileSync(path.join(lockDir, 'owner'), 'utf8')) as typeof owner;
  } catch {
    try {
      return Date.now() - fs.statSync(lockDir).mtimeMs > OWNERLESS_LOCK_STALE_MS;
    } catch {
      return false; // released meanwhile; the next mkdir decides
    }
  }
  // A holder on another machine (shared home directory) cannot be probed; wait for it.
  if (owner.host !== os.hostname() || typeof owner.pid !== 'number') return false;
  return !isAlive(owner.pid);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
