import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { projectRoot } from './paths';

/**
 * V8 flags of the API and the worker wherever they run (npm start, package scripts, the image, the bench).
 * The API: a larger young generation, since request and stream buffers of verified downloads die young; and an old
 * generation sized for the API's memory budget, not for the machine's memory: without a limit V8 takes one from
 * the machine and lets the old generation grow to several times the live heap between full collections
 * (docs/benchmark.md, "What bounds each miss", "API RSS"). The worker: semi-spaces of 16 MiB (it has two isolates,
 * main and workflow thread, to pay for a larger one; since Node 22 V8 derives 64 MiB from a 1.5 GiB old generation)
 * and an old-generation limit for the same reason as the API's, so the heap around an import's checks stays near
 * what they hold (docs/operator-tools.md, "Worker memory").
 */
export const SERVICE_NODE_FLAGS = {
  api: ['--max-semi-space-size=32', '--max-old-space-size=1024'],
  worker: ['--max-semi-space-size=16', '--max-old-space-size=1536'],
} as const;

/**
 * V8 flags of the ops CLI wherever it runs (`npx referee` through bin/referee.js's shebang, `npm run ops`, the
 * image's `ops` and `migrate`, the bench): the API's old-generation limit, for the API's reason. A long
 * `reconcile` holds little (a page of tasks at a time), but under the machine's limit its heap grows with the
 * length of the run; under this one it stays flat (docs/benchmark.md, "Growth").
 */
export const CLI_NODE_FLAGS = ['--max-old-space-size=1024'] as const;

/**
 * How a process runs from its build (bin/build.js: `dist/<target>.js`, one file per process with its source map):
 * with source maps on, so a stack trace names the .ts line. npm start, npm run start:cluster, the bench, the
 * drills and the image run every API and worker process this way.
 */
export const COMPILED_NODE_FLAGS = ['--enable-source-maps'] as const;

/** The built file of a process (bin/build.js target `name`); the package script that starts it built it. */
export function compiledEntry(name: 'server' | 'worker' | 'bench-baseline' | 'bench-echo-worker'): string {
  const file = path.join(projectRoot, 'dist', `${name}.js`);
  if (!fs.existsSync(file))
    throw new Error(`${file} is missing: build it with \`node bin/build.js ${name}\` (npm start does)`);
  return file;
}

/** The command line of an API or worker process run from its build, after the node binary. */
export const compiledService = (kind: keyof typeof SERVICE_NODE_FLAGS): string[] => [
  ...COMPILED_NODE_FLAGS,
  ...SERVICE_NODE_FLAGS[kind],
  compiledEntry(kind === 'api' ? 'server' : 'worker'),
];

/**
 * How the API and the worker run from TypeScript source (the tests):
 * tsx's CommonJS hook, which compiles in the process's own thread. `--import tsx` would add its ESM loader, which
 * runs on a thread of its own: an idle V8 isolate resident in every service process. The code
 * base is CommonJS and loads nothing through `import()`, so the ESM loader has nothing to do.
 */
export const TS_SOURCE_LOADER = ['--require', 'tsx/cjs'] as const;

/** A child process started by {@link spawnManaged}. */
export interface ManagedProcess {
  pid: number;
  /** Sends the stop signal, then SIGKILL after `timeoutMs` (default 10 s); resolves once the process is gone. */
  stop(timeoutMs?: number): Promise<void>;
  /** Exit code, or null when the process ended by a signal. */
  exited: Promise<number | null>;
}

export interface SpawnManagedOptions {
  /** Human-readable name used in log headers and error messages. */
  name: string;
  env?: NodeJS.ProcessEnv;
  cwd?: string;
  /** stdout and stderr are appended here; without it they are discarded. */
  logFile?: string;
  /** Run as this user/group (root only; PostgreSQL refuses to run as root). */
  uid?: number;
  gid?: number;
  /** Signal requesting a graceful shutdown (default SIGTERM; PostgreSQL's fast shutdown is SIGINT). */
  stopSignal?: NodeJS.Signals;
}

interface LiveChild {
  pid: number;
  stopSignal: NodeJS.Signals;
}

const liveChildren = new Set<LiveChild>();
let exitHookInstalled = false;
let setprivPath: string | null | undefined;

/**
 * Starts `command` as a child that does not outlive this process: on Linux it is wrapped in
 * `setpriv --pdeathsig` (the kernel signals it even if we are SIGKILLed) and, as a fallback, a
 * synchronous 'exit' hook signals every child still running.
 */
export function spawnManaged(command: string, args: string[], opts: SpawnManagedOptions): ManagedProcess {
  const stopSignal = opts.stopSignal ?? 'SIGTERM';
  if (command.includes('/')) assertExecutable(command, opts.name);

  let stdout: number | 'ignore' = 'ignore';
  if (opts.logFile) {
    fs.mkdirSync(path.dirname(opts.logFile), { recursive: true, mode: 0o700 });
    // Logs may name members and keys: owner-only, also when an older file was created wider.
    stdout = fs.openSync(opts.logFile, 'a', 0o600);
    fs.fchmodSync(stdout, 0o600);
    fs.writeSync(stdout, `\n---- ${new Date().toISOString()} ${opts.name}: ${command} ${args.join(' ')}\n`);
  }

  // With a parent-death signal the child can get its own process group, so a terminal Ctrl-C reaches
  // only us and we stop the children in order; without it, sharing our group is the only safety net.
  const setpriv = findSetpriv();
  const [file, argv] = setpriv
    ? [setpriv, ['--pdeathsig', stopSignal, '--', command, ...args]]
    : [command, args];
  let child: ChildProcess;
  try {
    child = spawn(file, argv, {
      cwd: opts.cwd,
      env: opts.env ?? process.env,
      stdio: ['ignore', stdout, stdout],
      detached: setpriv !== null,
      uid: opts.uid,
      gid: opts.gid,
    });
  } finally {
    if (typeof stdout === 'number') fs.closeSync(stdout); // the child has its own copy
  }

  const exited = new Promise<number | null>((resolve) => {
    child.once('exit', (code) => resolve(code));
    child.once('error', () => resolve(null));
  });
  const pid = child.pid;
  if (pid === undefined) throw new Error(`${opts.name}: failed to start ${command}`);

  const entry: LiveChild = { pid, stopSignal };
  liveChildren.add(entry);
  installExitHook();
  let running = true;
  void exited.then(() => {
    running = false;
    liveChildren.delete(entry);
  });

  const signal = (sig: NodeJS.Signals, wholeGroup: boolean): void => {
    try {
      process.kill(wholeGroup && setpriv ? -pid : pid, sig);
    } catch {
      // already gone
    }
  };

  return {
    pid,
    exited,
    async stop(timeoutMs = 10_000): Promise<void> {
      if (!running) return;
      signal(stopSignal, false);
      let timer: NodeJS.Timeout | undefined;
      const timedOut = new Promise<boolean>((resolve) => {
        timer = setTimeout(() => resolve(true), timeoutMs);
      });
      const forced = await Promise.race([exited.then(() => false), timedOut]);
      clearTimeout(timer);
      if (forced) {
        signal('SIGKILL', true);
        await exited;
      }
    },
  };
}

function assertExecutable(command: string, name: string): void {
  try {
    fs.accessSync(command, fs.constants.X_OK);
  } catch {
    throw new Error(`${name}: ${command} does not exist or is not executable`);
  }
}

function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on('exit', () => {
    for (const child of liveChildren) {
      try {
        process.kill(child.pid, child.stopSignal);
      } catch {
        // already gone
      }
    }
  });
}

/** `setpriv` with `--pdeathsig` support (util-linux ≥ 2.33), or null elsewhere (macOS, old distros). */
function findSetpriv(): string | null {
  if (setprivPath !== undefined) return setprivPath;
  setprivPath = null;
  if (process.platform === 'linux') {
    for (const candidate of ['/usr/bin/setpriv', '/bin/setpriv']) {
      const help = spawnSync(candidate, ['--help'], { encoding: 'utf8' });
      if (help.status === 0 && help.stdout.includes('--pdeathsig')) {
        setprivPath = candidate;
        break;
      }
    }
  }
  return setprivPath;
}
