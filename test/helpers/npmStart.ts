import { type ChildProcess, spawn } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type ConnectionFile, processAlive } from '../../infra/connectionFile';
import { projectRoot } from '../../infra/paths';
import { freePort } from '../../infra/ports';

/** The environment of a new terminal: none of the variables that would point the CLI or npm start elsewhere. */
export function cleanEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (/^(DATABASE_|TEMPORAL_|S3_|AWS_|REFEREE_|PORT$)/.test(name)) continue;
    env[name] = value;
  }
  return { ...env, ...extra };
}

export interface NpmStart {
  /** Process id of the npm command (the root of the process tree). */
  pid: number;
  dataDir: string;
  /** The folder made for this run (the data folder or, with `under`, the folder holding it): remove it afterwards. */
  root: string;
  baseUrl: string;
  /** Everything npm start printed so far. */
  output(): string;
  connection(): Promise<ConnectionFile>;
  /** Resolves once the output matches. */
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<RegExpMatchArray>;
  stop(): Promise<number | null>;
}

/**
 * `npm start` (or `npm run start:cluster` with `script`) exactly as a user runs it, from the project folder, with
 * its data in a temporary folder (REFEREE_DATA_DIR) and its API on a free port; nothing else configured, so it
 * starts its own PostgreSQL, Temporal and S3 server. With `under`, the data folder is `.referee` in a new 0700
 * folder there, created by npm start itself as in a fresh clone.
 */
export async function startNpmStart(
  /** More environment, e.g. DATABASE_URL and the others to run on the shared test services instead. */
  extraEnv: NodeJS.ProcessEnv = {},
  opts: { script?: 'start' | 'start:cluster'; readyTimeoutMs?: number; under?: string } = {},
): Promise<NpmStart> {
  if (opts.under) await mkdir(opts.under, { recursive: true, mode: 0o700 });
  const root = await mkdtemp(join(opts.under ?? tmpdir(), 'referee-npm-start-'));
  const dataDir = opts.under ? join(root, '.referee') : root;
  const port = await freePort();
  let output = '';
  const script = opts.script ?? 'start';
  const child: ChildProcess = spawn('npm', script === 'start' ? ['start'] : ['run', script], {
    cwd: projectRoot,
    env: cleanEnv({ ...extraEnv, REFEREE_DATA_DIR: dataDir, PORT: String(port) }),
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const append = (chunk: Buffer) => {
    output += chunk.toString('utf8');
  };
  child.stdout!.on('data', append);
  child.stderr!.on('data', append);
  const waitFor = async (pattern: RegExp, timeoutMs = 240_000) => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const match = pattern.exec(output);
      if (match) return match;
      if (/Start failed/.test(output)) throw new Error(`npm start failed:\n${output}`);
      if (Date.now() > deadline)
        throw new Error(`npm start: no ${pattern} within ${timeoutMs} ms:\n${output}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  };
  const started: NpmStart = {
    pid: child.pid!,
    dataDir,
    root,
    baseUrl: `http://127.0.0.1:${port}`,
    output: () => output,
    connection: async () =>
      JSON.parse(await readFile(join(dataDir, 'connection.json'), 'utf8')) as ConnectionFile,
    waitFor,
    async stop() {
      const startPid = (await started.connection().catch(() => null))?.pid;
      try {
        process.kill(-child.pid!, 'SIGINT');
      } catch {
        // the group is gone already
      }
      const code = await exited;
      // npm may exit before the node process under it has stopped the stack: wait for that one too.
      for (let i = 0; i < 600 && startPid && processAlive(startPid); i += 1) {
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      return code;
    },
  };
  try {
    await waitFor(/Press Ctrl-C to stop\./, opts.readyTimeoutMs);
  } catch (error) {
    if (child.exitCode === null) process.kill(-child.pid!, 'SIGKILL');
    throw error;
  }
  return started;
}

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the CLI the way the README shows (`npx referee …`) from the project folder, in a second process. */
export function referee(
  args: string[],
  env: NodeJS.ProcessEnv,
  command = ['npx', 'referee'],
): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(command[0], [...command.slice(1), ...args], {
      cwd: projectRoot,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** A process's command line (Linux: /proc/<pid>/cmdline), or null once it is gone. */
async function commandLine(pid: number): Promise<string[] | null> {
  try {
    return (await readFile(`/proc/${pid}/cmdline`, 'utf8')).split('\0').filter(Boolean);
  } catch {
    return null;
  }
}

/** Every Node.js process below `rootPid` (npm itself left out), with its command line: what `ps` would show. */
export async function nodeProcessesUnder(rootPid: number): Promise<Array<{ pid: number; args: string[] }>> {
  const parents = new Map<number, number>();
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = await readFile(`/proc/${entry}/stat`, 'utf8').catch(() => '');
    // The parent id is the second field after the command name, which is in parentheses and may hold spaces.
    const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    if (ppid) parents.set(Number(entry), ppid);
  }
  const below = (pid: number): boolean => {
    for (let parent = parents.get(pid); parent; parent = parents.get(parent))
      if (parent === rootPid) return true;
    return false;
  };
  const found: Array<{ pid: number; args: string[] }> = [];
  for (const pid of parents.keys()) {
    if (!below(pid)) continue;
    const args = await commandLine(pid);
    if (args && /(^|\/)node$/.test(args[0])) found.push({ pid, args });
  }
  return found;
}
