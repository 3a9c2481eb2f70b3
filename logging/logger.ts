import { context, trace } from '@opentelemetry/api';
import pino, { type Logger } from 'pino';

/**
 * Structured JSON logs. Request lines carry method, path, status and key id only; the redaction list is a
 * second guard so a token or secret that reaches a log call by mistake is still never written.
 */
/** Fields a library may put on an error that hold the request body (co-body sets `body` on a parse error). */
const REQUEST_BODY_FIELDS = ['body', 'rawBody', 'raw'];

/**
 * pino's error serializer, minus anything that holds the request body: an error is logged, its input never.
 * Applies to the error and each error in its `cause` chain.
 */
export function serializeError(error: unknown): unknown {
  const serialized = pino.stdSerializers.err(error as Error) as unknown;
  let e =
    typeof serialized === 'object' && serialized !== null
      ? (serialized as Record<string, unknown>)
      : undefined;
  for (let depth = 0; e && depth < 10; depth++) {
    for (const field of REQUEST_BODY_FIELDS) delete e[field];
    e = typeof e.cause === 'object' && e.cause !== null ? (e.cause as Record<string, unknown>) : undefined;
  }
  return serialized;
}

/**
 * The trace and span id of the span active where the line is logged (`trace_id`, `span_id`), so a log line can
 * be found from its trace and back; nothing when tracing is off (no span is ever active then).
 */
function traceIdsOfActiveSpan(): { trace_id?: string; span_id?: string } {
  const span = trace.getSpan(context.active());
  if (!span) return {};
  const { traceId, spanId } = span.spanContext();
  return { trace_id: traceId, span_id: spanId };
}

export function createLogger(level: string, destination?: pino.DestinationStream): Logger {
  return pino(
    {
      level,
      base: { service: 'referee', pid: process.pid },
      serializers: { err: serializeError },
      mixin: traceIdsOfActiveSpan,
      redact: {
        paths: [
          'token',
          '*.token',
          'secret',
          '*.secret',
          'authorization',
          '*.authorization',
          'headers.authorization',
          // The console's session cookie is a bearer credential like a key.
          'cookie',
          '*.cookie',
          'headers.cookie',
          '*["set-cookie"]',
        ],
        censor: '[redacted]',
      },
    },
    destination,
  );
}
