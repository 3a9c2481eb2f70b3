import { context, trace } from '@opentelemetry/api';
import type { WorkflowClientInterceptor } from '@temporalio/client';
import type { ActivityInterceptorsFactory, InjectedSinks, WorkerOptions } from '@temporalio/worker';
import type * as TracingSdkModule from './tracingSdk';
import { tracingRequested } from './tracingRequested';

/** The two kinds of process, as their traces name them (`service.name`; OTEL_SERVICE_NAME overrides it). */
export type TracedProcess = 'referee-api' | 'referee-worker';

/** What a worker adds when tracing is on (see {@link workerTracingOptions}). */
export interface WorkerTracingOptions {
  workflowModules: string[];
  activity: ActivityInterceptorsFactory[];
  sinks: InjectedSinks<Record<string, never>>;
}

/** The started SDK (observability/tracingSdk.ts), as the rest of the process uses it. */
export interface TracingSdk {
  /** Sends the spans still buffered and stops the provider. */
  shutdown(): Promise<void>;
  clientInterceptors(): WorkflowClientInterceptor[];
  workerOptions(): WorkerTracingOptions;
}

let active: TracingSdk | undefined;

/**
 * Starts OpenTelemetry tracing for this process when the environment asks for it (see `tracingRequested`):
 * spans go over OTLP/HTTP to the standard OTEL_EXPORTER_OTLP_* endpoint, sampled per OTEL_TRACES_SAMPLER; the
 * W3C `traceparent` of incoming requests is honoured; incoming and outgoing HTTP, PostgreSQL (pg) and S3 (AWS
 * SDK) calls are traced. Must run before pg and the AWS SDK are loaded (the processes' first import does it).
 * Idempotent: the first call in a process wins. The SDK is loaded here, only when asked for, so an untraced
 * process does not pay its heap and resident memory (docs/observability.md).
 */
export function startTracing(processName: TracedProcess, env: NodeJS.ProcessEnv = process.env): boolean {
  if (active) return true;
  if (!tracingRequested(env)) return false;
  // A synchronous require, not import(): the instrumentations must hook pg and the AWS SDK before the process's
  // next import loads them.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { startTracingSdk } = require('./tracingSdk') as typeof TracingSdkModule;
  active = startTracingSdk(processName, env);
  return true;
}

/** Whether this process exports traces. */
export const tracingActive = (): boolean => active !== undefined;

/** Sends the spans still buffered and stops tracing (at process shutdown). */
export async function stopTracing(): Promise<void> {
  const stopping = active;
  active = undefined;
  await stopping?.shutdown();
}

/**
 * Renames the HTTP server span of the current request after its operation (`POST math.applyTaskAction`) and
 * records the route, so traces group by operation as the metrics do; nothing when tracing is off.
 */
export function nameRequestSpan(method: string, operation: string, route?: string): void {
  if (!active) return;
  const span = trace.getSpan(context.active());
  if (!span) return;
  span.updateName(`${method} ${operation}`);
  if (route) span.setAttribute('http.route', route);
}

/** The Temporal client interceptors that put the trace context into Workflow Updates and starts. */
export function tracingClientInterceptors(): WorkflowClientInterceptor[] {
  return active ? active.clientInterceptors() : [];
}

/**
 * What a worker adds when tracing is on: the workflow interceptors (bundled with the workflow code; they
 * continue the trace of the update into the workflow and into each activity it schedules), the activity
 * interceptors, and the sink that exports the workflow's spans from the worker process.
 */
export function workerTracingOptions(): WorkerTracingOptions | null {
  return active ? active.workerOptions() : null;
}

/** The worker options tracing needs, merged into the worker's own (interceptors and sinks). */
export function withWorkerTracing(options: WorkerOptions): WorkerOptions {
  const tracing = workerTracingOptions();
  if (!tracing) return options;
  return {
    ...options,
    interceptors: {
      ...options.interceptors,
      workflowModules: [...(options.interceptors?.workflowModules ?? []), ...tracing.workflowModules],
      activity: [...tracing.activity, ...(options.interceptors?.activity ?? [])],
    },
    sinks: { ...options.sinks, ...tracing.sinks },
  };
}
