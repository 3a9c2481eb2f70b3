import { loadavg } from 'node:os';
import autocannon from 'autocannon';
import { build, type Histogram } from 'hdr-histogram-js';
import type { Sample } from './stats';

/** One HTTP request of a load client. */
export interface RequestSpec {
  method: 'GET' | 'POST' | 'PUT';
  path: string;
  headers?: Record<string, string>;
  body?: string;
}

/**
 * A closed-loop client: it sends its next request when the previous answer arrived, so it may carry state
 * from one answer to the next (a task version, a decision).
 */
export interface LoadClient {
  next(): RequestSpec;
  onResponse?(status: number, body: string): void;
}

export interface LoadSpec {
  /** Origin of the target, e.g. http://127.0.0.1:3000. */
  url: string;
  /** Concurrent clients, one connection each. */
  connections: number;
  /** Run for this long (requests in flight at the end are abandoned) … */
  durationSeconds?: number;
  /** … or until every client has had this many answers (nothing is abandoned). */
  requestsPerClient?: number;
  /** Builds client number `index` (0 … connections − 1). */
  client(index: number): LoadClient;
}

/** Latencies in microseconds; autocannon's own histogram has 1 ms resolution, too coarse for fast paths. */
export function newHistogram(): Histogram {
  return build({
    lowestDiscernibleValue: 1,
    highestTrackableValue: 600_000_000,
    numberOfSignificantValueDigits: 3,
  });
}

const ms = (histogram: Histogram, percentile: number) => histogram.getValueAtPercentile(percentile) / 1000;

/**
 * Runs autocannon with per-client request setup for a fixed time and returns throughput and latency of the
 * successful (2xx) answers. Anything else is counted as an error; the first few are kept for the log.
 */
export async function runLoad(
  spec: LoadSpec,
): Promise<Sample & { errorSamples: string[]; statusCounts: Record<number, number> }> {
  const histogram = newHistogram();
  let clients = 0;
  let ok = 0;
  let errors = 0;
  const errorSamples: string[] = [];
  const statusCounts: Record<number, number> = {};
  const started = performance.now();
  let finish: (error: Error | null) => void = () => undefined;
  const finished = new Promise<void>((resolve, reject) => {
    finish = (error) => (error ? reject(error) : resolve());
  });
  const instance = autocannon(
    {
      url: spec.url,
      connections: spec.connections,
      ...(spec.requestsPerClient
        ? { maxConnectionRequests: spec.requestsPerClient, duration: 3600 }
        : { duration: spec.durationSeconds ?? 5 }),
      timeout: 60,
      // How often autocannon checks for the end; its default (1 s) would idle after the last answer.
      sampleInt: 20,
      setupClient(client) {
        const own = spec.client(clients++);
        client.setRequests([
          {
            setupRequest: (request) => {
              const next = own.next();
              // autocannon writes Content-Length into the headers object it is given: never a caller's own.
              return { ...request, ...next, headers: { ...next.headers } } as typeof request;
            },
            onResponse: (status, body) => {
              if ((status < 200 || status >= 300) && errorSamples.length < 5)
                errorSamples.push(`${status} ${body.slice(0, 300)}`);
              own.onResponse?.(status, body);
            },
          },
        ]);
      },
    },
    (error) => finish(error ?? null),
  );
  let lastAnswer = started;
  instance.on('response', (_client, status, _bytes, responseMs) => {
    lastAnswer = performance.now();
    statusCounts[status] = (statusCounts[status] ?? 0) + 1;
    if (status >= 200 && status < 300) {
      ok += 1;
      histogram.recordValue(Math.max(1, Math.round(responseMs * 1000)));
    } else errors += 1;
  });
  instance.on('reqError', (error: Error) => {
    errors += 1;
    if (errorSamples.length < 5) errorSamples.push(`request error: ${error.message}`);
  });
  await finished;
  // From the first request to the last answer: the run's end is detected a little later.
  const seconds = (lastAnswer - started) / 1000;
  const sample = {
    throughput: ok / seconds,
    p50: ok > 0 ? ms(histogram, 50) : Number.NaN,
    p99: ok > 0 ? ms(histogram, 99) : Number.NaN,
    count: ok,
    errors,
    load: loadavg()[0],
    errorSamples,
    statusCounts,
  };
  histogram.destroy();
  return sample;
}

/**
 * A side of a pair whose runs last about `seconds` yet end cleanly: the first run (the warm-up) is timed, or
 * counted when `firstRequestsPerClient` is given; later runs send each client the number of requests it
 * answered in `seconds` at the previous run's rate, so no request is ever abandoned mid-flight (a mutation
 * abandoned by the client still commits, and would make that client's next request stale).
 */
export function closedLoop(
  base: Omit<LoadSpec, 'durationSeconds' | 'requestsPerClient'>,
  firstRequestsPerClient?: number,
): (seconds: number) => ReturnType<typeof runLoad> {
  let perClient = firstRequestsPerClient;
  return async (seconds) => {
    const sample = await runLoad(
      perClient ? { ...base, requestsPerClient: perClient } : { ...base, durationSeconds: seconds },
    );
    if (sample.count > 0)
      perClient = Math.max(3, Math.round((sample.throughput / base.connections) * seconds));
    return sample;
  };
}

/** A sample of operations timed one by one (sequential or not): throughput over the wall time given. */
export function sampleOf(latenciesMs: readonly number[], wallSeconds: number, errors = 0): Sample {
  const histogram = newHistogram();
  for (const value of latenciesMs) histogram.recordValue(Math.max(1, Math.round(value * 1000)));
  const sample: Sample = {
    throughput: latenciesMs.length / wallSeconds,
    p50: latenciesMs.length > 0 ? ms(histogram, 50) : Number.NaN,
    p99: latenciesMs.length > 0 ? ms(histogram, 99) : Number.NaN,
    count: latenciesMs.length,
    errors,
    load: loadavg()[0],
  };
  histogram.destroy();
  return sample;
}
