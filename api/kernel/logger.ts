import pino, { type Logger } from 'pino';

/**
 * Structured JSON logs. Request lines carry method, path, status and key id only; the redaction list is a
 * second guard so a token or secret that reaches a log call by mistake is still never written.
 */
export function createLogger(level: string, destination?: pino.DestinationStream): Logger {
  return pino(
    {
      level,
      base: { service: 'referee', pid: process.pid },
      redact: {
        paths: [
          'token',
          '*.token',
          'secret',
          '*.secret',
          'authorization',
          '*.authorization',
          'headers.authorization',
        ],
        censor: '[redacted]',
      },
    },
    destination,
  );
}
