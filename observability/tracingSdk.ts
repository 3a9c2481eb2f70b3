import type { SpanContext } from '@opentelemetry/api';
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
import type { TracedProcess, TracingSdk } from './tracing';

/**
 * The OpenTelemetry SDK of a traced process: the tracer provider and its OTLP/HTTP exporter, the HTTP, pg and AWS
 * SDK instrumentations, and the Temporal interceptors. Only `startTracing` (observability/tracing.ts) loads this
 * module, and only when the environment asks for traces, so an untraced process never loads the SDK.
 */
export function startTracingSdk(processName: TracedProcess, env: NodeJS.ProcessEnv): TracingSdk {
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
  return {
    shutdown: () => provider.shutdown(),
    clientInterceptors: (): WorkflowClientInterceptor[] => [new OpenTelemetryWorkflowClientInterceptor()],
    workerOptions: () => ({
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
      } as unknown as ReturnType<TracingSdk['workerOptions']>['sinks'],
    }),
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
