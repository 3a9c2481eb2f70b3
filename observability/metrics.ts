import { createServer, type Server } from 'node:http';
import { collectDefaultMetrics, Registry } from 'prom-client';

/**
 * Each process's metrics: one prom-client registry with Node's standard process metrics (`process_*`,
 * `nodejs_*`) and the process's own `referee_*` metrics, served in the Prometheus text format on a loopback port
 * of its own (docs/observability.md).
 */
export function createRegistry(options: { processMetrics: boolean }): Registry {
  const registry = new Registry();
  if (options.processMetrics) collectDefaultMetrics({ register: registry });
  return registry;
}

/** Latency buckets in seconds for HTTP requests and Temporal calls (reads take ms, updates tens of ms). */
export const LATENCY_BUCKETS_SECONDS = [
  0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30,
] as const;

export interface MetricsServer {
  /** Where Prometheus scrapes, e.g. http://127.0.0.1:9464/metrics. */
  url: string;
  close(): Promise<void>;
}

/**
 * Serves `GET /metrics` on `host:port` (port 0: any free port). `more` appends another exposition to the
 * registry's (the Temporal SDK's own metrics in the worker); when it fails the registry's metrics are still served.
 */
export async function startMetricsServer(options: {
  host: string;
  port: number;
  registry: Registry;
  more?: () => Promise<string>;
  onError?: (error: unknown) => void;
}): Promise<MetricsServer> {
  const { registry } = options;
  const server: Server = createServer((request, response) => {
    const path = (request.url ?? '/').split('?')[0];
    if (path !== '/metrics') {
      response
        .writeHead(404, { 'content-type': 'text/plain; charset=utf-8' })
        .end('Not found: try /metrics\n');
      return;
    }
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      response.writeHead(405, { allow: 'GET, HEAD', 'content-type': 'text/plain; charset=utf-8' }).end();
      return;
    }
    void (async () => {
      try {
        const ours = await registry.metrics();
        let theirs = '';
        if (options.more) {
          theirs = await options.more().catch((error: unknown) => {
            options.onError?.(error);
            return '';
          });
        }
        response.writeHead(200, { 'content-type': registry.contentType });
        response.end(theirs ? `${ours.endsWith('\n') ? ours : `${ours}\n`}${theirs}` : ours);
      } catch (error) {
        options.onError?.(error);
        response.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' }).end('metrics failed\n');
      }
    })();
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : options.port;
  const host = options.host === '0.0.0.0' ? '127.0.0.1' : options.host;
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}/metrics`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** Reads another exporter's text exposition (the Temporal core runtime's) for `startMetricsServer`'s `more`. */
export function scrapeText(url: string, timeoutMs = 2_000): () => Promise<string> {
  return async () => {
    const response = await fetch(url, { signal: AbortSignal.timeout(timeoutMs) });
    if (!response.ok) throw new Error(`${url} answered ${response.status}`);
    return response.text();
  };
}
