import { DefaultLogger, type LogLevel } from '@temporalio/worker';
import type { Logger } from 'pino';

/** Routes the Temporal SDK's own log lines into the project's structured log. */
export function sdkLoggerFor(logger: Logger, level: LogLevel = 'WARN'): DefaultLogger {
  const to = { TRACE: 'trace', DEBUG: 'debug', INFO: 'info', WARN: 'warn', ERROR: 'error' } as const;
  return new DefaultLogger(level, (entry) =>
    logger[to[entry.level]]({ ...entry.meta, component: 'temporal-sdk' }, entry.message),
  );
}
