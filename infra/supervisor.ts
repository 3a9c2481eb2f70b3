import { type ManagedProcess, spawnManaged, type SpawnManagedOptions } from './processes';

export interface SupervisedProcess {
  /** Process id of the current incarnation. */
  readonly pid: number;
  /** How many times it was restarted after a crash. */
  readonly restarts: number;
  /** Stops it for good (no restart), like {@link ManagedProcess.stop}. */
  stop(timeoutMs?: number): Promise<void>;
}

export interface SupervisionOptions {
  /** Human-readable name used in the exit and restart lines. */
  name: string;
  /** Named in the exit line, where the process's own output goes. */
  logFile?: string;
  /** Called with each line worth telling the operator (exit, restart). */
  log(line: string): void;
  /** Called after each (re)start with the new process id. */
  onStart?(pid: number): void;
  /**
   * A first crash is restarted at once; the next crash in a row waits this long (default 1 s), each further one
   * twice as long as the one before, up to `maxDelayMs` (default 30 s).
   */
  initialDelayMs?: number;
  maxDelayMs?: number;
  /** A process that ran this long before crashing starts the backoff over (default 60 s). */
  healthyAfterMs?: number;
}

export type SuperviseOptions = SpawnManagedOptions & SupervisionOptions;

/**
 * Runs a command and restarts it whenever it exits on its own: at once after a first crash (a process killed once
 * serves again as soon as it can start), with exponential backoff while it keeps crashing, so one crashed worker
 * or API process is a log line and a short gap rather than the end of the local stack.
 */
export function supervise(command: string, args: string[], opts: SuperviseOptions): SupervisedProcess {
  return superviseWith(() => spawnManaged(command, args, opts), opts);
}

/** {@link supervise} of whatever `spawn` starts (the API group forks cluster workers rather than commands). */
export function superviseWith(spawn: () => ManagedProcess, opts: SupervisionOptions): SupervisedProcess {
  const initialDelayMs = opts.initialDelayMs ?? 1000;
  const maxDelayMs = opts.maxDelayMs ?? 30_000;
  const healthyAfterMs = opts.healthyAfterMs ?? 60_000;
  let current: ManagedProcess;
  let stopped = false;
  let restarts = 0;
  let crashesInARow = 0;
  let pendingRestart: NodeJS.Timeout | undefined;

  const start = () => {
    const startedAt = Date.now();
    current = spawn();
    opts.onStart?.(current.pid);
    const self = current;
    void self.exited.then((code) => {
      if (stopped || self !== current) return;
      crashesInARow = Date.now() - startedAt >= healthyAfterMs ? 1 : crashesInARow + 1;
      const delay = crashesInARow === 1 ? 0 : Math.min(maxDelayMs, initialDelayMs * 2 ** (crashesInARow - 2));
      restarts += 1;
      opts.log(
        `The ${opts.name} (pid ${self.pid}) exited (${code ?? 'killed by a signal'}); restart ${restarts} ` +
          `${delay === 0 ? 'now' : `in ${(delay / 1000).toFixed(0)} s`}.${opts.logFile ? ` Log: ${opts.logFile}` : ''}`,
      );
      pendingRestart = setTimeout(() => {
        if (!stopped) start();
      }, delay);
    });
  };
  start();

  return {
    get pid() {
      return current.pid;
    },
    get restarts() {
      return restarts;
    },
    async stop(timeoutMs?: number) {
      stopped = true;
      clearTimeout(pendingRestart);
      await current.stop(timeoutMs);
    },
  };
}
