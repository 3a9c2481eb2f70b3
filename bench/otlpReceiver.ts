import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A span as an OTLP/HTTP JSON export carries it, with only the fields the bench reads. */
export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  startTimeUnixNano: string;
  endTimeUnixNano: string;
  attributes?: Array<{ key: string; value: { stringValue?: string; intValue?: string | number } }>;
  /** `service.name` of the process that exported it. */
  service: string;
}

/** An OTLP/HTTP trace receiver on loopback that counts what it is sent (a collector's cheapest stand-in). */
export interface OtlpReceiver {
  /** For OTEL_EXPORTER_OTLP_ENDPOINT (the exporters post to `<url>/v1/traces`). */
  url: string;
  spans(): number;
  /** The spans received, when the receiver was started with `keep` (else none). */
  received(): ReceivedSpan[];
  stop(): Promise<void>;
}

interface OtlpExport {
  resourceSpans?: Array<{
    resource?: { attributes?: Array<{ key: string; value: { stringValue?: string } }> };
    scopeSpans?: Array<{ spans?: Array<Omit<ReceivedSpan, 'service'>> }>;
  }>;
}

/**
 * Accepts OTLP/HTTP JSON exports, counts their spans and answers 200, as a collector does; it keeps nothing else
 * unless `keep` (the step timings of bench/mutationSteps.ts), so what the bench measures is the traced processes'
 * own cost (building, batching and sending spans).
 */
export async function startOtlpReceiver(options: { keep?: boolean } = {}): Promise<OtlpReceiver> {
  let spans = 0;
  const kept: ReceivedSpan[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      if (request.method === 'POST' && request.url === '/v1/traces') {
        try {
          const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as OtlpExport;
          for (const resource of body.resourceSpans ?? []) {
            const service =
              resource.resource?.attributes?.find((a) => a.key === 'service.name')?.value.stringValue ?? '';
            for (const scope of resource.scopeSpans ?? []) {
              spans += scope.spans?.length ?? 0;
              if (options.keep) for (const span of scope.spans ?? []) kept.push({ ...span, service });
            }
          }
        } catch {
          // not JSON (a protobuf exporter): accepted, not counted
        }
      }
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    spans: () => spans,
    received: () => kept,
    stop: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
