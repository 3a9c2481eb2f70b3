// First: tracing must hook pg, the AWS SDK and http before anything loads them.
import './observability/traceApiProcess';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import net from 'node:net';
import { Client, Connection } from '@temporalio/client';
import type { Logger } from 'pino';
import { consoleRoutes, defaultConsoleDir } from './api/console/routes';
import { signInRoutes } from './api/console/signIn/routes';
import { docsRoutes } from './api/docs/routes';
import { genomicsService } from './api/genomics';
import { checkDependencies, healthRoutes } from './api/health';
import { createApp } from './api/kernel/app';
import { AuthFailureAudit } from './api/kernel/authFailureAudit';
import { answerClientError } from './api/kernel/errorTranslation';
import { Housekeeping } from './api/kernel/housekeeping';
import { type KeyWithMemberRow, LastUsedRecorder } from './api/kernel/authenticate';
import type { AppDeps } from './api/kernel/deps';
import { KeyCache } from './api/kernel/keyCache';
import { LivenessSession } from './api/kernel/livenessSession';
import { createLogger } from './logging/logger';
import { ApiMetrics } from './observability/apiMetrics';
import { createRegistry, startMetricsServer } from './observability/metrics';
import { registerDependencyMetrics, registerPoolMetrics } from './observability/storeMetrics';
import { stopTracing, tracingClientInterceptors } from './observability/tracing';
import { postgresRateLimitStore, RateLimiter } from './api/kernel/rateLimit';
import { mathService } from './api/math';
import { scimRoutes } from './api/scim/routes';
import { type Config, loadConfig } from './config';
import { createDataSource, poolStateOf } from './entities/dataSource';
import { createS3Client } from './storage/objectStore';
import { VerifiedObjectCache } from './storage/verifiedCache';

/** How long an idle keep-alive connection stays open: longer than clients and proxies keep theirs. */
const IDLE_KEEP_ALIVE_MS = 65_000;
/**
 * How long a stopping API keeps its idle keep-alive connections open. A client may be sending a request on one at
 * the moment it closes, and that request is lost with the connection; one sent within this window is answered
 * (with `Connection: close`) instead.
 */
const DRAIN_IDLE_WINDOW_MS = 2_000;

export interface RunningServer {
  url: string;
  /** Where the API's metrics are served (METRICS_PORT); undefined when it is not set. */
  metricsUrl?: string;
  deps: AppDeps;
  /** The periodic purges (api/kernel/housekeeping.ts); tests run them at once. */
  housekeeping: Housekeeping;
  close(): Promise<void>;
}

/**
 * The API's channel to Temporal finds a dead connection (a partition, answers that stopped coming) by keep-alive
 * pings within 17 s, not the SDK's 45, and reconnects at most 2 s after the network is back, not after gRPC's
 * backoff of up to two minutes (docs/operations.md, "Deadlines"). Temporal's frontend refuses pings more often than
 * every 10 s.
 */
const TEMPORAL_CHANNEL_ARGS = {
  'grpc.keepalive_time_ms': 12_000,
  'grpc.keepalive_timeout_ms': 5_000,
  'grpc.initial_reconnect_backoff_ms': 500,
  'grpc.max_reconnect_backoff_ms': 2_000,
};

/** grpc-js sends uncompressed messages unless a default algorithm is set (2 is gzip in its numbering). */
const GRPC_COMPRESSION_ARGS = { none: {}, gzip: { 'grpc.default_compression_algorithm': 2 } };

/**
 * Starts the API: both services on one port. Reads go to PostgreSQL; review mutations go to Temporal.
 * The Temporal connection is lazy so the API serves reads (and answers 503 for mutations) while Temporal is down.
 */
export async function startServer(
  config: Config = loadConfig(),
  options: {
    validateResponses?: boolean;
    /** Where the API logs; default: JSON lines on stdout at `config.logLevel` (tests capture them here). */
    logger?: Logger;
  } = {},
): Promise<RunningServer> {
  const logger = options.logger ?? createLogger(config.logLevel);
  // Modules loaded, connecting next: where docs/chaos.md's restart split puts the line between the two.
  logger.info('API starting');
  // Node's process metrics only where they are served: tests start many APIs in one process.
  const registry = createRegistry({ processMetrics: config.metrics.port !== undefined });
  const metrics = new ApiMetrics(registry);
  const dataSource = createDataSource(config.databaseUrl, config.databasePoolSize, {
    connectMs: config.databaseDeadlines.connectMs,
    statementMs: config.databaseDeadlines.apiStatementMs,
  });
  await dataSource.initialize();
  const keyCache = new KeyCache<KeyWithMemberRow>(config.databaseUrl, {
    onError: (error) =>
      logger.warn({ err: error }, 'key cache listener failed; keys are looked up per request'),
  });
  const liveness = new LivenessSession(config.databaseUrl, {
    onError: (error) =>
      logger.warn(
        { err: error },
        'liveness session failed; new Idempotency-Key claims end by their lease only',
      ),
  });
  await Promise.all([keyCache.start(), liveness.start()]);
  const verifiedCache =
    config.verifiedCache.maxBytes > 0
      ? new VerifiedObjectCache({
          ...config.verifiedCache,
          onError: (error) => logger.warn({ err: error }, 'could not keep a verified download'),
        })
      : undefined;
  await verifiedCache?.start();
  const connection = Connection.lazy({
    address: config.temporal.address,
    channelArgs: { ...TEMPORAL_CHANNEL_ARGS, ...GRPC_COMPRESSION_ARGS[config.temporal.grpcCompression] },
  });
  const client = new Client({
    connection,
    namespace: config.temporal.namespace,
    interceptors: { workflow: tracingClientInterceptors() },
  });
  const deps: AppDeps = {
    config,
    dataSource,
    temporal: { client, connection },
    s3: createS3Client(config.s3),
    logger,
    metrics,
    lastUsed: new LastUsedRecorder(dataSource, 1000, (error) =>
      logger.warn({ err: error }, 'last_used_at flush failed'),
    ),
    authFailures: new AuthFailureAudit(dataSource, {
      intervalMs: config.identityAudit.failureIntervalMs,
      onError: (error) => logger.warn({ err: error }, 'could not record authentication failures'),
    }),
    liveness,
    keyCache,
    verifiedCache,
    validateResponses: options.validateResponses ?? false,
    rateLimiter: new RateLimiter(postgresRateLimitStore(dataSource), config.rateLimit, {
      onError: (error) => logger.warn({ err: error }, 'rate-limit sync failed'),
    }),
  };
  registerPoolMetrics(registry, () => poolStateOf(dataSource));
  registerDependencyMetrics(registry, async () =>
    Object.fromEntries(
      Object.entries(await checkDependencies(deps)).map(([name, result]) => [name, result.status === 'up']),
    ),
  );
  const housekeeping = new Housekeeping(dataSource, {
    auditRetentionDays: config.identityAudit.retentionDays,
    onError: (error) => logger.warn({ err: error }, 'a periodic purge failed; it runs again later'),
  });
  housekeeping.start();
  const services = [mathService, genomicsService];
  const contracts = docsRoutes(services, {
    onUnsupported: (at, what) => logger.warn({ at, what }, 'OpenAPI contract leaves out a joi construct'),
  });
  const app = createApp(deps, services, [
    healthRoutes(deps),
    contracts,
    scimRoutes(deps),
    // Before the console's page, which answers every other path under /console.
    signInRoutes(deps),
    consoleRoutes(defaultConsoleDir(__dirname)),
  ]);
  const server: Server = await new Promise((resolve) => {
    const s = app.listen(config.port, config.host, () => resolve(s));
  });
  // Clients (fetch's 4 s, browsers, proxies) must close an idle keep-alive connection before the server does: a
  // request sent as the server closes it fails with ECONNRESET. Draining closes every connection as it goes idle.
  server.keepAliveTimeout = IDLE_KEEP_ALIVE_MS;
  const drain = connectionDrain(server);
  server.on('clientError', (error: NodeJS.ErrnoException, socket) =>
    answerClientError(error, socket, logger),
  );
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const url = `http://${config.host === '0.0.0.0' ? '127.0.0.1' : config.host}:${port}`;
  const metricsServer =
    config.metrics.port === undefined
      ? undefined
      : await startMetricsServer({
          host: config.metrics.host,
          port: config.metrics.port,
          registry,
          onError: (error) => logger.warn({ err: error }, 'metrics exposition failed'),
        });
  logger.info({ url, metricsUrl: metricsServer?.url }, 'API listening');

  return {
    url,
    metricsUrl: metricsServer?.url,
    deps,
    housekeeping,
    async close() {
      await metricsServer?.close();
      await new Promise<void>((resolve) => {
        drain.start(Math.min(DRAIN_IDLE_WINDOW_MS, config.shutdownGraceMs));
        // A request still running past the grace time (a long download) loses its connection: the bound keeps a
        // stop within the supervisor's or the container's stop timeout.
        const overdue = setTimeout(() => {
          logger.warn(
            { grace: config.shutdownGraceMs },
            'closing connections still busy after the grace time',
          );
          server.closeAllConnections();
        }, config.shutdownGraceMs);
        // net.Server's close stops taking connections (in a node:cluster worker, the primary hands them to the
        // others) but, unlike http.Server's, leaves idle keep-alive connections open for the window.
        net.Server.prototype.close.call(server, () => {
          clearTimeout(overdue);
          drain.stop();
          resolve();
        });
      });
      await deps.lastUsed.flush();
      await deps.authFailures.flush();
      await housekeeping.close();
      // After the drain: a request still in flight keeps its claims' holder alive.
      await liveness.close();
      await keyCache.close();
      await verifiedCache?.close();
      await deps.rateLimiter?.close();
      await connection.close();
      deps.s3.destroy();
      await dataSource.destroy();
    },
  };
}

if (require.main === module) {
  startServer()
    .then((running) => {
      const stop = () => {
        running.deps.logger.info('draining HTTP and shutting down');
        running
          .close()
          .then(stopTracing)
          .then(
            () => process.exit(0),
            () => process.exit(1),
          );
      };
      process.once('SIGTERM', stop);
      process.once('SIGINT', stop);
    })
    .catch((error: unknown) => {
      console.error('API failed to start:', error instanceof Error ? error.message : error);
      process.exit(1);
    });
}

/**
 * Once draining, every response ends its connection: one not yet answered says `Connection: close`. Idle connections
 * stay open for `idleWindowMs`, then close, as does each connection a response already under way leaves idle after
 * that. Otherwise a connection that answers after the server stops listening stays open, idle, for the whole
 * keep-alive time and holds the shutdown.
 */
function connectionDrain(server: Server): { start(idleWindowMs: number): void; stop(): void } {
  let draining = false;
  let windowOver = false;
  let windowTimer: NodeJS.Timeout | undefined;
  const inFlight = new Set<ServerResponse>();
  server.on('request', (_request: IncomingMessage, response: ServerResponse) => {
    if (draining) response.setHeader('Connection', 'close');
    inFlight.add(response);
    response.on('close', () => inFlight.delete(response));
  });
  const closeIdle = () => server.closeIdleConnections();
  return {
    start(idleWindowMs) {
      draining = true;
      for (const response of inFlight) {
        if (!response.headersSent) response.setHeader('Connection', 'close');
        else response.on('finish', () => setImmediate(() => windowOver && closeIdle()));
      }
      windowTimer = setTimeout(() => {
        windowOver = true;
        closeIdle();
      }, idleWindowMs);
    },
    stop() {
      clearTimeout(windowTimer);
    },
  };
}
