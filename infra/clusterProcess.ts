import cluster from 'node:cluster';
import fs from 'node:fs';
import path from 'node:path';
import type { ManagedProcess } from './processes';

export interface ClusterProcessOptions {
  /** Human-readable name used in the log header. */
  name: string;
  env: NodeJS.ProcessEnv;
  /** stdout and stderr are appended here. */
  logFile: string;
}

/**
 * Forks `file` as a node:cluster worker of this process. Every worker that listens on the same port shares one
 * socket held by this (primary) process, which hands each new connection to the next live worker in turn: a
 * worker that dies stops getting connections at once, and no second address is needed. A worker exits when
 * this process goes away (its IPC channel closes).
 */
export function forkClusterProcess(
  file: string,
  execArgv: string[],
  opts: ClusterProcessOptions,
): ManagedProcess {
  fs.mkdirSync(path.dirname(opts.logFile), { recursive: true, mode: 0o700 });
  const out = fs.openSync(opts.logFile, 'a', 0o600);
  fs.fchmodSync(out, 0o600);
  fs.writeSync(out, `\n---- ${new Date().toISOString()} ${opts.name}: ${file} (cluster worker)\n`);
  let worker: ReturnType<typeof cluster.fork>;
  try {
    cluster.setupPrimary({ exec: file, execArgv, args: [], stdio: ['ignore', out, out, 'ipc'] });
    worker = cluster.fork(opts.env);
  } finally {
    fs.closeSync(out); // the child has its own copy
  }
  const pid = worker.process.pid;
  if (pid === undefined) throw new Error(`${opts.name}: failed to fork ${file}`);
  const exited = new Promise<number | null>((resolve) => {
    worker.process.once('exit', (code) => resolve(code));
  });
  let running = true;
  void exited.then(() => {
    running = false;
  });
  return {
    pid,
    exited,
    async stop(timeoutMs = 10_000): Promise<void> {
      if (!running) return;
      worker.process.kill('SIGTERM');
      let timer: NodeJS.Timeout | undefined;
      const timedOut = new Promise<boolean>((resolve) => {
        timer = setTimeout(() => resolve(true), timeoutMs);
      });
      const forced = await Promise.race([exited.then(() => false), timedOut]);
      clearTimeout(timer);
      if (forced) {
        worker.process.kill('SIGKILL');
        await exited;
      }
    },
  };
}
