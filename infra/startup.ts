import fs from 'node:fs';
import type { ManagedProcess } from './processes';

/** The last `maxChars` of a log file, formatted for an error message ('' without a file). */
export function logTail(logFile: string | undefined, maxChars = 3000): string {
  if (!logFile) return '';
  try {
    return `\n--- end of ${logFile} ---\n${fs.readFileSync(logFile, 'utf8').slice(-maxChars)}`;
  } catch {
    return '';
  }
}

/** The server process ended during its readiness check (a bad flag, a taken port, a crash at start). */
export class ExitedBeforeReady extends Error {
  constructor(
    message: string,
    readonly code: number | null,
    options?: ErrorOptions,
  ) {
    super(message, options);
    this.name = 'ExitedBeforeReady';
  }
}

/**
 * Runs the readiness check `ready` for a freshly spawned server. Fails fast if the process dies first, and
 * adds the log tail to any failure. The check receives a signal that aborts once the outcome is decided.
 */
export async function untilReady<T>(
  proc: ManagedProcess,
  name: string,
  logFile: string | undefined,
  ready: (signal: AbortSignal) => Promise<T>,
): Promise<T> {
  const abort = new AbortController();
  let exitCode: number | null | undefined;
  const died = proc.exited.then((code): never => {
    exitCode = code;
    throw new Error(`exited (code ${code}) before it was ready`);
  });
  try {
    return await Promise.race([ready(abort.signal), died]);
  } catch (err) {
    const reason = err instanceof Error ? err.message : String(err);
    const message = `${name}: ${reason}${logTail(logFile)}`;
    if (exitCode !== undefined) throw new ExitedBeforeReady(message, exitCode, { cause: err });
    throw new Error(message, { cause: err });
  } finally {
    abort.abort();
  }
}
