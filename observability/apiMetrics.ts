import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import { LATENCY_BUCKETS_SECONDS } from './metrics';
import { RecentRequests } from './recentRequests';
import { nameRequestSpan } from './tracing';

/** How a Temporal call from the API ended: done, refused by the workflow, Temporal unreachable/too slow, other. */
export type TemporalCallOutcome = 'ok' | 'rejected' | 'unavailable' | 'error';

/** Which Temporal call: a plain Workflow Update, or update-with-start. */
export type TemporalCallKind = 'update' | 'update_with_start';

/** How a verified download found the process's cache of verified objects. */
export type VerifiedCacheResult =
  /** Served from the cache within its recheck window, without asking S3. */
  | 'hit'
  /** Served from the cache after S3 showed the object unchanged (one HEAD). */
  | 'revalidated'
  /** S3 showed the object changed or gone: the copy was dropped and the object read again. */
  | 'stale'
  /** Not in the cache (or no cache): read from S3 and verified. */
  | 'miss';

/**
 * What the API records about itself. The kernel and the services call these methods through `AppDeps`; only this
 * folder knows the metric names and the client library. Every label value comes from a closed set: operation ids,
 * route templates, status codes, reasons — never a path, task id or key id.
 */
export class ApiMetrics {
  private readonly requests: Counter<'service' | 'operation' | 'method' | 'status'>;
  private readonly duration: Histogram<'service' | 'operation'>;
  private readonly inFlight: Gauge;
  private readonly refusedForRate: Counter<'service' | 'limit'>;
  private readonly replays: Counter<'service' | 'operation'>;
  private readonly authFailures: Counter<'service' | 'reason'>;
  private readonly temporalCalls: Histogram<'call' | 'outcome'>;
  private readonly cacheLookups: Counter<'result'>;
  private readonly refusedDownloads: Counter<'reason'>;
  private readonly bytesServed: Counter<'source'>;
  /** The last minute's requests, for `referee status` (also exported as two gauges). */
  readonly recent = new RecentRequests(LATENCY_BUCKETS_SECONDS);

  constructor(registry: Registry) {
    const registers = [registry];
    this.requests = new Counter({
      name: 'referee_http_requests_total',
      help: 'HTTP requests answered, by service, operation id (route template for public routes), method and status.',
      labelNames: ['service', 'operation', 'method', 'status'],
      registers,
    });
    this.duration = new Histogram({
      name: 'referee_http_request_duration_seconds',
      help: 'Time from a request reaching the API to its response being handed to the socket, by operation.',
      labelNames: ['service', 'operation'],
      buckets: [...LATENCY_BUCKETS_SECONDS],
      registers,
    });
    this.inFlight = new Gauge({
      name: 'referee_http_requests_in_flight',
      help: 'HTTP requests being served right now.',
      registers,
    });
    this.refusedForRate = new Counter({
      name: 'referee_rate_limit_refusals_total',
      help: 'Requests refused with 429: limit "request_rate" (per-key token bucket), "file_transfers" (concurrent transfers per key) or "sign_in_starts" (console sign-ins per source address, service "console").',
      labelNames: ['service', 'limit'],
      registers,
    });
    this.replays = new Counter({
      name: 'referee_idempotent_replays_total',
      help: 'Requests answered with the stored receipt of an earlier request with the same Idempotency-Key.',
      labelNames: ['service', 'operation'],
      registers,
    });
    this.authFailures = new Counter({
      name: 'referee_auth_failures_total',
      help: 'Requests refused because their credential was missing or not valid, by reason (malformed, unknown, revoked, expired, ...).',
      labelNames: ['service', 'reason'],
      registers,
    });
    this.temporalCalls = new Histogram({
      name: 'referee_temporal_call_duration_seconds',
      help: 'Workflow Updates the API sent to Temporal, by call (update, update_with_start) and outcome (ok, rejected, unavailable, error).',
      labelNames: ['call', 'outcome'],
      buckets: [...LATENCY_BUCKETS_SECONDS],
      registers,
    });
    this.cacheLookups = new Counter({
      name: 'referee_verified_cache_lookups_total',
      help: 'Verified downloads by what the cache of verified objects held: hit, revalidated (after a HEAD), stale (changed in S3), miss.',
      labelNames: ['result'],
      registers,
    });
    this.refusedDownloads = new Counter({
      name: 'referee_verified_download_refusals_total',
      help: 'Downloads refused because the stored object was missing or did not match its recorded size and SHA-256.',
      labelNames: ['reason'],
      registers,
    });
    this.bytesServed = new Counter({
      name: 'referee_download_bytes_total',
      help: 'Bytes of verified downloads sent in full, by source (cache or storage).',
      labelNames: ['source'],
      registers,
    });
    const recent = this.recent;
    new Gauge({
      name: 'referee_http_recent_requests_per_second',
      help: 'HTTP requests per second over the last 60 s (for a quick look without a Prometheus server).',
      registers,
      collect() {
        this.set(recent.summary().requestsPerSecond);
      },
    });
    new Gauge({
      name: 'referee_http_recent_request_duration_p99_seconds',
      help: 'The 0.99 quantile of HTTP request latency over the last 60 s (NaN without requests).',
      registers,
      collect() {
        this.set(recent.summary().quantileSeconds ?? Number.NaN);
      },
    });
  }

  /**
   * A request started; the returned function records its end (once). Called in the request's context, it also
   * names the request's trace span after its operation, as the metrics label it.
   */
  requestStarted(): (request: {
    service: string;
    operation: string;
    method: string;
    status: number;
    seconds: number;
  }) => void {
    this.inFlight.inc();
    let ended = false;
    return ({ service, operation, method, status, seconds }) => {
      if (ended) return;
      ended = true;
      this.inFlight.dec();
      this.requests.inc({ service, operation, method, status: String(status) });
      this.duration.observe({ service, operation }, seconds);
      this.recent.record(seconds);
      nameRequestSpan(method, operation);
    };
  }

  rateLimitRefused(service: string, limit: 'request_rate' | 'file_transfers' | 'sign_in_starts'): void {
    this.refusedForRate.inc({ service, limit });
  }

  idempotentReplay(service: string, operation: string): void {
    this.replays.inc({ service, operation });
  }

  authenticationFailed(service: string, reason: string): void {
    this.authFailures.inc({ service, reason });
  }

  temporalCall(call: TemporalCallKind, outcome: TemporalCallOutcome, seconds: number): void {
    this.temporalCalls.observe({ call, outcome }, seconds);
  }

  verifiedCacheLookup(result: VerifiedCacheResult): void {
    this.cacheLookups.inc({ result });
  }

  downloadRefused(reason: 'missing' | 'mismatch'): void {
    this.refusedDownloads.inc({ reason });
  }

  downloadServed(source: 'cache' | 'storage', bytes: number): void {
    this.bytesServed.inc({ source }, bytes);
  }
}
