import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** An OTLP/HTTP trace receiver on loopback that counts what it is sent (a collector's cheapest stand-in). */
export interface OtlpReceiver {
  /** For OTEL_EXPORTER_OTLP_ENDPOINT (the exporters post to `<url>/v1/traces`). */
  url: string;
  spans(): number;
  stop(): Promise<void>;
}

/**
 * Accepts OTLP/HTTP JSON exports, counts their spans and answers 200, as a collector does; it keeps nothing else,
 * so what the bench measures is the traced processes' own cost (building, batching and sending spans).
 */
export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  let spans = 0;
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      if (request.method === 'POST' && request.url === '/v1/traces') {
        try {
          const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
            resourceSpans?: Array<{ scopeSpans?: Array<{ spans?: unknown[] }> }>;
          };
          for (const resource of body.resourceSpans ?? [])
            for (const scope of resource.scopeSpans ?? []) spans += scope.spans?.length ?? 0;
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
    stop: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
