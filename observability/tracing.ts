import { context, type SpanContext, trace } from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { registerInstrumentations } from '@opentelemetry/instrumentation';
import { AwsInstrumentation } from '@opentelemetry/instrumentation-aws-sdk';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { PgInstrumentation } from '@opentelemetry/instrumentation-pg';
import { detectResources, envDetector, resourceFromAttributes } from '@opentelemetry/resources';
import {
  BatchSpanProcessor,
  NodeTracerProvider,
  type ReadableSpan,
  type SpanProcessor,
} from '@opentelemetry/sdk-trace-node';
import type { WorkflowClientInterceptor } from '@temporalio/client';
import {
  makeWorkflowExporter,
  OpenTelemetryActivityInboundInterceptor,
  OpenTelemetryActivityOutboundInterceptor,
  OpenTelemetryWorkflowClientInterceptor,
} from '@temporalio/interceptors-opentelemetry';
import type { ActivityInterceptorsFactory, InjectedSinks, WorkerOptions } from '@temporalio/worker';
import { tracingRequested } from './tracingRequested';

export { tracingRequested };

/** The two kinds of process, as their traces name them (`service.name`; OTEL_SERVICE_NAME overrides it). */
export type TracedProcess = 'referee-api' | 'referee-worker';

interface ActiveTracing {
  provider: NodeTracerProvider;
  processor: SpanProcessor;
  resource: ReturnType<typeof resourceFromAttributes>;
}

let active: ActiveTracing | undefined;

/**
 * Starts OpenTelemetry tracing for this process when the environment asks for it (see `tracingRequested`):
 * spans go over OTLP/HTTP to the standard OTEL_EXPORTER_OTLP_* endpoint, sampled per OTEL_TRACES_SAMPLER; the
 * W3C `traceparent` of incoming requests is honoured; incoming and outgoing HTTP, PostgreSQL (pg) and S3 (AWS
 * SDK) calls are traced. Must run before pg and the AWS SDK are loaded (the processes' first import does it).
 * Idempotent: the first call in a process wins.
 */
export function startTracing(processName: TracedProcess, env: NodeJS.ProcessEnv = process.env): boolean {
  if (active) return true;
  if (!tracingRequested(env)) return false;
  const resource = resourceFromAttributes({ 'service.name': env.OTEL_SERVICE_NAME?.trim() || processName })
    // OTEL_RESOURCE_ATTRIBUTES (deployment.environment, service.instance.id, ...) are added to ours.
    .merge(detectResources({ detectors: [envDetector] }));
  const processor = new BatchSpanProcessor(new OTLPTraceExporter());
  const provider = new NodeTracerProvider({ resource, spanProcessors: [processor] });
  provider.register();
  registerInstrumentations({
    tracerProvider: provider,
    instrumentations: [
      new HttpInstrumentation({
        // The metrics listener is scraped every few seconds; those requests are not worth a trace.
        ignoreIncomingRequestHook: (request) => request.url === '/metrics',
        // Outgoing HTTP only inside a trace (S3 requests under a download), never a stray root span.
        requireParentforOutgoingSpans: true,
      }),
      new PgInstrumentation({ requireParentSpan: true }),
      new AwsInstrumentation(),
    ],
  });
  active = { provider, processor, resource };
  return true;
}

/** Whether this process exports traces. */
export const tracingActive = (): boolean => active !== undefined;

/** Sends the spans still buffered and stops tracing (at process shutdown). */
export async function stopTracing(): Promise<void> {
  const stopping = active;
  active = undefined;
  await stopping?.provider.shutdown();
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
  return active ? [new OpenTelemetryWorkflowClientInterceptor()] : [];
}

/**
 * What a worker adds when tracing is on: the workflow interceptors (bundled with the workflow code; they
 * continue the trace of the update into the workflow and into each activity it schedules), the activity
 * interceptors, and the sink that exports the workflow's spans from the worker process.
 */
export function workerTracingOptions(): {
  workflowModules: string[];
  activity: ActivityInterceptorsFactory[];
  sinks: InjectedSinks<Record<string, never>>;
} | null {
  if (!active) return null;
  const { processor, resource } = active;
  return {
    workflowModules: [require.resolve('@temporalio/interceptors-opentelemetry/lib/workflow-interceptors')],
    activity: [
      (ctx) => ({
        inbound: new OpenTelemetryActivityInboundInterceptor(ctx),
        outbound: new OpenTelemetryActivityOutboundInterceptor(ctx),
      }),
    ],
    sinks: {
      exporter: makeWorkflowExporter(
        workflowSpanProcessor(processor) as unknown as Parameters<typeof makeWorkflowExporter>[0],
        resource as unknown as Parameters<typeof makeWorkflowExporter>[1],
      ),
    } as unknown as InjectedSinks<Record<string, never>>,
  };
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

/**
 * The workflow's spans reach the worker through a sink in the shape of the 1.x SDK the interceptor package
 * bundles into the workflow (`parentSpanId`, `instrumentationLibrary`); the 2.x exporter reads
 * `parentSpanContext` and `instrumentationScope`. This adapts them before they join the batch.
 */
function workflowSpanProcessor(processor: SpanProcessor): Pick<SpanProcessor, 'onEnd' | 'forceFlush'> {
  return {
    onEnd(span: ReadableSpan) {
      const legacy = span as ReadableSpan & {
        parentSpanId?: string;
        instrumentationLibrary?: ReadableSpan['instrumentationScope'];
      };
      const own = span.spanContext();
      const parentSpanContext: SpanContext | undefined =
        span.parentSpanContext ??
        (legacy.parentSpanId
          ? { traceId: own.traceId, spanId: legacy.parentSpanId, traceFlags: own.traceFlags }
          : undefined);
      processor.onEnd({
        ...span,
        spanContext: () => own,
        parentSpanContext,
        instrumentationScope: span.instrumentationScope ??
          legacy.instrumentationLibrary ?? { name: '@temporalio/interceptor-workflow' },
      });
    },
    forceFlush: () => processor.forceFlush(),
  };
}
