// Apart from tracing.ts so that a process can ask without loading OpenTelemetry (the launcher does).
/**
 * Whether the environment asks for traces: OTEL_EXPORTER_OTLP_ENDPOINT (or its traces-only form) set, and
 * neither OTEL_SDK_DISABLED=true nor OTEL_TRACES_EXPORTER=none. Otherwise nothing is loaded or patched.
 */
export function tracingRequested(env: NodeJS.ProcessEnv = process.env): boolean {
  if (env.OTEL_SDK_DISABLED?.trim().toLowerCase() === 'true') return false;
  if (env.OTEL_TRACES_EXPORTER?.trim().toLowerCase() === 'none') return false;
  return Boolean(env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim() || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim());
}
