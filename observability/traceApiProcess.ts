/**
 * The API process's first import: starts tracing (when OTEL_EXPORTER_OTLP_ENDPOINT asks for it) before pg, the
 * AWS SDK and node:http are loaded, so their instrumentations can hook them. See observability/tracing.ts.
 */
import { startTracing } from './tracing';

startTracing('referee-api');
