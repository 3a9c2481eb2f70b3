import Joi from 'joi';

/** Runtime configuration shared by the API, the worker and the ops CLI, read from the environment once. */
export interface Config {
  /** HTTP port of the API (`PORT`, default 3000). */
  port: number;
  host: string;
  databaseUrl: string;
  /** Connections per process; two cores do not profit from more (`DATABASE_POOL_SIZE`). */
  databasePoolSize: number;
  /**
   * Deadlines on PostgreSQL, so that a slow or unreachable server costs a request a bounded wait, never a hang
   * (docs/operations.md, "Deadlines"): `connectMs` to take a connection from the pool or open one
   * (`DATABASE_CONNECT_TIMEOUT_MS`, default 3000); `apiStatementMs`, one statement of the API
   * (`DATABASE_STATEMENT_TIMEOUT_MS`, default 5000), and `workerStatementMs`, one of the worker's activities
   * (`WORKER_DATABASE_STATEMENT_TIMEOUT_MS`, default 60000, for its larger writes; an activity that times out is
   * retried). Each statement deadline is PostgreSQL's `statement_timeout` and, a second later, the client's own,
   * which also closes the connection: its answer may never come.
   */
  databaseDeadlines: { connectMs: number; apiStatementMs: number; workerStatementMs: number };
  temporal: {
    address: string;
    namespace: string;
    taskQueue: string;
    /** Deadline of every Temporal call made while serving a request; past it the API answers 503. */
    callTimeoutMs: number;
    /**
     * Task workflows the worker keeps in memory between updates (`WORKER_MAX_CACHED_WORKFLOWS`, default 300);
     * the least recently used is evicted and replays its history on its next update. See docs/operator-tools.md.
     */
    maxCachedWorkflows: number;
    /**
     * Workflow tasks one worker process runs at once (`WORKER_MAX_CONCURRENT_WORKFLOW_TASKS`, default 40, the SDK's
     * own) and its pollers of workflow tasks (`WORKER_WORKFLOW_TASK_POLLERS`, default 10, the SDK's own; a fifth
     * of them poll the shared queue, the rest the worker's sticky queue). Comparing settings: docs/operations.md.
     */
    maxConcurrentWorkflowTasks: number;
    workflowTaskPollers: number;
    /**
     * How long a workflow task waits on the sticky queue of the worker that cached its workflow before any worker
     * may take it (`WORKER_STICKY_QUEUE_TIMEOUT_SECONDS`, default 2, the SDK's is 10): what an action waits after
     * that worker died. Chosen by what a shorter one costs in replays: docs/operations.md, "Worker settings".
     */
    stickyQueueTimeoutMs: number;
    /**
     * The worker's Build ID in its Worker Deployment (named after the task queue): `TEMPORAL_WORKER_BUILD_ID`, else
     * derived from the content of the code the worker runs (deployment/buildId.ts, docs/workflow-evolution.md).
     */
    workerBuildId?: string;
    /**
     * Whether a worker whose deployment has no current version yet makes its own version current
     * (`TEMPORAL_WORKER_PROMOTE_FIRST`, default true): the first start of a deployment; later builds become current
     * through `referee workers rollout`.
     */
    promoteFirstVersion: boolean;
    /**
     * Transport compression of the API's and the worker's gRPC calls to Temporal (`TEMPORAL_GRPC_COMPRESSION`,
     * `none` or `gzip`, default `none`): the worker's SDK compresses with gzip unless told not to, which costs CPU
     * on both ends and buys nothing on loopback or a datacentre network (docs/operations.md, "Worker settings").
     */
    grpcCompression: 'none' | 'gzip';
  };
  /**
   * How long a process told to stop (SIGTERM, SIGINT) lets its work in flight finish (`SHUTDOWN_GRACE_SECONDS`,
   * default 10): the API's requests, the worker's tasks. Past it the API closes the connections left and the worker
   * cancels its activities (their next attempt runs elsewhere). See docs/operations.md, "Stopping".
   */
  shutdownGraceMs: number;
  s3: {
    endpoint: string | undefined;
    region: string;
    bucket: string;
    accessKeyId: string | undefined;
    secretAccessKey: string | undefined;
    forcePathStyle: boolean;
    /**
     * Deadline to open a connection to S3 (`S3_CONNECT_TIMEOUT_MS`, default 3000) and longest silence of a
     * request's connection before it is given up (`S3_REQUEST_TIMEOUT_MS`, default 5000); the SDK retries a
     * request that failed so up to twice more. See docs/operations.md, "Deadlines".
     */
    connectTimeoutMs: number;
    requestTimeoutMs: number;
  };
  logLevel: string;
  /** Largest JSON body accepted, in bytes; the genomics topic markdown (2,000,000 chars) must fit. */
  jsonBodyLimitBytes: number;
  /**
   * Uploads and downloads one API key may have in flight at once, across all API processes
   * (`FILE_CONCURRENCY_PER_KEY`, default 4); one more gets 429 with Retry-After. See docs/math-files.md.
   */
  fileConcurrencyPerKey: number;
  /**
   * Request rate limit per API key (per member for dashboard assertions), across all API processes: a token
   * bucket refilled at `perSecond` (`RATE_LIMIT_PER_KEY_PER_SECOND`, default 100; 0 turns it off) holding at
   * most `burst` requests (`RATE_LIMIT_BURST`, default 1000). Past it: 429 with Retry-After. See docs/limits.md.
   */
  rateLimit: { perSecond: number; burst: number };
  /**
   * Verified downloads kept on local disk per API process: at most `maxBytes` (`VERIFIED_CACHE_MAX_BYTES`,
   * default 1 GiB; 0 turns it off) under `parentDir` (`VERIFIED_CACHE_DIR`, default the OS temporary folder),
   * served without asking S3 for `recheckAfterMs` after S3 last showed the object unchanged
   * (`VERIFIED_CACHE_RECHECK_SECONDS`, default 10; 0 asks before every serve). See docs/math-files.md.
   */
  verifiedCache: { maxBytes: number; parentDir?: string; recheckAfterMs: number };
  /**
   * Verification key of genomics dashboard assertions (`GENOMICS_DASHBOARD_ASSERTION_KEY`): an Ed25519 public
   * key in PEM, or a shared HS256 secret of at least 32 characters. Unset: assertions are refused.
   * See docs/dashboard-assertion.md.
   */
  genomicsDashboardAssertionKey?: string;
  /**
   * Where this process serves its Prometheus metrics: `METRICS_HOST` (default 127.0.0.1, loopback only) and
   * `METRICS_PORT` (unset: not served; 0: any free port). Each process takes its own port (npm start assigns them).
   * See docs/observability.md.
   */
  metrics: { host: string; port: number | undefined };
  /** Exports of task lists (docs/exports.md). */
  exports: {
    /**
     * How long a finished export's file is kept (`EXPORT_RETENTION_SECONDS`, default 604800, 7 days; 1 to
     * 31536000). Past it downloads are refused with 410 and the worker's purge deletes the file.
     */
    retentionMs: number;
    /** Exports one member may have running at once (`EXPORT_MAX_RUNNING_PER_MEMBER`, default 2); past it: 429. */
    maxRunningPerMember: number;
    /** Exports running at once across both services (`EXPORT_MAX_RUNNING`, default 8); past it: 429. */
    maxRunning: number;
    /**
     * Bytes of each part of an export's multipart upload (`EXPORT_PART_BYTES`, default 8 MiB): a worker holds
     * two per export in memory (one sending, the next filling), and a resumed export writes one again at most; at
     * least 5 MiB, S3's least for every part but the last.
     */
    partBytes: number;
    /**
     * The share of the time an export takes while transitions run on its worker (`EXPORT_SHARE_UNDER_LOAD`,
     * default 0.1, 1 for none given way): it pauses between reads so that members' transitions keep their
     * latency; alone, it runs at full speed.
     */
    shareUnderLoad: number;
    /** How often each worker purges expired exports (`EXPORT_PURGE_INTERVAL_SECONDS`, default 300). */
    purgeIntervalMs: number;
    /**
     * The statement deadline of an export's snapshot (`EXPORT_SNAPSHOT_TIMEOUT_MS`, default 120000), in place of
     * `DATABASE_STATEMENT_TIMEOUT_MS`: the snapshot copies every row the list returns, in the request that starts
     * the export, so it grows with the list (docs/exports.md).
     */
    snapshotTimeoutMs: number;
  };
  /** Outbound webhooks (docs/webhooks.md). */
  webhooks: {
    /**
     * Key sealing the endpoints' signing secrets at rest (`WEBHOOK_SECRET_KEY`: 32 bytes in base64, e.g.
     * `openssl rand -base64 32`). The API seals with it, the worker opens with it. Unset: endpoints cannot be
     * created or rotated (503) and deliveries wait. `npm start` generates one in its data folder.
     */
    secretKey?: string;
    /**
     * Allow targets on loopback, private, link-local and metadata addresses, and plain http
     * (`WEBHOOK_ALLOW_PRIVATE_TARGETS`, default false): for local receivers only.
     */
    allowPrivateTargets: boolean;
    /**
     * How often each worker looks for active endpoints with pending deliveries whose delivery workflow is not
     * running, and starts it (`WEBHOOK_SWEEP_INTERVAL_SECONDS`, default 60, 1 to 3600); also once at worker start.
     */
    sweepIntervalMs: number;
  };
  /** Console sign-in with the organisation's OpenID Provider (docs/console.md "Sign-in"); absent: API keys only. */
  oidc?: {
    /** The provider's issuer URL (`OIDC_ISSUER`); its discovery document is read at the first sign-in. */
    issuer: string;
    /** The console's client at the provider (`OIDC_CLIENT_ID`, `OIDC_CLIENT_SECRET`): a confidential client. */
    clientId: string;
    clientSecret: string;
    /** Where the provider sends the browser back (`OIDC_REDIRECT_URL`): `<public origin>/console/auth/callback`. */
    redirectUrl: string;
    /** The ID token claim matched to members' `identity_id` (`OIDC_MEMBER_CLAIM`, default `sub`). */
    memberClaim: string;
    /** Scopes asked for (`OIDC_SCOPES`, default `openid`); add `email` when the member claim is `email`. */
    scopes: string;
    /** The provider's name on the sign-in button (`OIDC_PROVIDER_NAME`, default "your organisation"). */
    providerName: string;
  };
  /**
   * Console sessions: ended after `idleSeconds` without a request (`CONSOLE_SESSION_IDLE_SECONDS`, default 3600)
   * and `absoluteSeconds` after sign-in whatever the use (`CONSOLE_SESSION_ABSOLUTE_SECONDS`, default 43200).
   */
  consoleSession: {
    idleSeconds: number;
    absoluteSeconds: number;
    /**
     * Sign-ins one source address may start per minute, per API process (`CONSOLE_SIGN_IN_STARTS_PER_MINUTE`,
     * default 20, bursts of as many): each start stores a row until its ten minutes are up, so an anonymous flood
     * is refused (429 with Retry-After) before it writes. See docs/console.md, "Sign-in".
     */
    signInStartsPerMinute: number;
  };
  /** The identity audit (docs/keys.md, "Identity audit"). */
  identityAudit: {
    /**
     * How often each API process writes the refused credentials it counted (`AUTH_FAILURE_AUDIT_SECONDS`, default
     * 10): one record per reason, member, key, route and source address, with its count, never one per request.
     */
    failureIntervalMs: number;
    /**
     * Records older than this many days are purged (`IDENTITY_AUDIT_RETENTION_DAYS`, default 365; 0 keeps them
     * all). Checked every few minutes by each API process.
     */
    retentionDays: number;
  };
}

const envSchema = Joi.object({
  PORT: Joi.number().integer().min(0).max(65535).default(3000),
  HOST: Joi.string().default('0.0.0.0'),
  DATABASE_URL: Joi.string()
    .uri({ scheme: ['postgres', 'postgresql'] })
    .default('postgres://postgres@127.0.0.1:5432/referee'),
  DATABASE_POOL_SIZE: Joi.number().integer().min(1).max(100).default(10),
  DATABASE_CONNECT_TIMEOUT_MS: Joi.number().integer().min(100).max(600_000).default(3000),
  DATABASE_STATEMENT_TIMEOUT_MS: Joi.number().integer().min(100).max(3_600_000).default(5000),
  WORKER_DATABASE_STATEMENT_TIMEOUT_MS: Joi.number().integer().min(100).max(3_600_000).default(60_000),
  TEMPORAL_ADDRESS: Joi.string().default('127.0.0.1:7233'),
  TEMPORAL_NAMESPACE: Joi.string().default('default'),
  TEMPORAL_TASK_QUEUE: Joi.string().default('referee'),
  TEMPORAL_CALL_TIMEOUT_MS: Joi.number().integer().min(100).default(10_000),
  WORKER_MAX_CACHED_WORKFLOWS: Joi.number().integer().min(2).max(100_000).default(300),
  WORKER_MAX_CONCURRENT_WORKFLOW_TASKS: Joi.number().integer().min(2).max(1000).default(40),
  WORKER_WORKFLOW_TASK_POLLERS: Joi.number().integer().min(2).max(100).default(10),
  WORKER_STICKY_QUEUE_TIMEOUT_SECONDS: Joi.number().min(1).max(600).default(2),
  // A Build ID may not hold the separators of a version string ("deployment:build", "deployment.build").
  TEMPORAL_WORKER_BUILD_ID: Joi.string().pattern(/^[A-Za-z0-9_-]{1,64}$/),
  TEMPORAL_WORKER_PROMOTE_FIRST: Joi.boolean().default(true),
  TEMPORAL_GRPC_COMPRESSION: Joi.string().valid('none', 'gzip').default('none'),
  SHUTDOWN_GRACE_SECONDS: Joi.number().min(0).max(600).default(10),
  S3_ENDPOINT: Joi.string().uri({ scheme: ['http', 'https'] }),
  S3_REGION: Joi.string().default('us-east-1'),
  S3_BUCKET: Joi.string().default('referee-artifacts'),
  S3_ACCESS_KEY_ID: Joi.string(),
  S3_SECRET_ACCESS_KEY: Joi.string(),
  S3_FORCE_PATH_STYLE: Joi.boolean().default(true),
  S3_CONNECT_TIMEOUT_MS: Joi.number().integer().min(100).max(600_000).default(3000),
  S3_REQUEST_TIMEOUT_MS: Joi.number().integer().min(100).max(3_600_000).default(5000),
  LOG_LEVEL: Joi.string().valid('fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent').default('info'),
  JSON_BODY_LIMIT_BYTES: Joi.number()
    .integer()
    .min(1024)
    .default(8 * 1024 * 1024),
  FILE_CONCURRENCY_PER_KEY: Joi.number().integer().min(1).max(1000).default(4),
  RATE_LIMIT_PER_KEY_PER_SECOND: Joi.number().min(0).max(1_000_000).default(100),
  RATE_LIMIT_BURST: Joi.number().integer().min(1).max(10_000_000).default(1000),
  VERIFIED_CACHE_MAX_BYTES: Joi.number()
    .integer()
    .min(0)
    .default(2 ** 30),
  VERIFIED_CACHE_DIR: Joi.string(),
  VERIFIED_CACHE_RECHECK_SECONDS: Joi.number().min(0).max(3600).default(10),
  GENOMICS_DASHBOARD_ASSERTION_KEY: Joi.string(),
  METRICS_HOST: Joi.string().default('127.0.0.1'),
  METRICS_PORT: Joi.number().integer().min(0).max(65535),
  WEBHOOK_SECRET_KEY: Joi.string()
    .base64()
    .length(44)
    .message('WEBHOOK_SECRET_KEY must be 32 bytes in base64 (openssl rand -base64 32)'),
  WEBHOOK_ALLOW_PRIVATE_TARGETS: Joi.boolean().default(false),
  EXPORT_RETENTION_SECONDS: Joi.number().integer().min(1).max(31_536_000).default(604_800),
  EXPORT_MAX_RUNNING_PER_MEMBER: Joi.number().integer().min(1).max(100).default(2),
  EXPORT_MAX_RUNNING: Joi.number().integer().min(1).max(1000).default(8),
  EXPORT_PART_BYTES: Joi.number()
    .integer()
    .min(5 * 1024 * 1024)
    .max(512 * 1024 * 1024)
    .default(8 * 1024 * 1024),
  EXPORT_SHARE_UNDER_LOAD: Joi.number().greater(0).max(1).default(0.1),
  EXPORT_PURGE_INTERVAL_SECONDS: Joi.number().integer().min(1).max(86_400).default(300),
  EXPORT_SNAPSHOT_TIMEOUT_MS: Joi.number().integer().min(100).max(3_600_000).default(120_000),
  WEBHOOK_SWEEP_INTERVAL_SECONDS: Joi.number().integer().min(1).max(3600).default(60),
  OIDC_ISSUER: Joi.string().uri({ scheme: ['http', 'https'] }),
  OIDC_CLIENT_ID: Joi.string().when('OIDC_ISSUER', { is: Joi.exist(), then: Joi.required() }),
  OIDC_CLIENT_SECRET: Joi.string().when('OIDC_ISSUER', { is: Joi.exist(), then: Joi.required() }),
  OIDC_REDIRECT_URL: Joi.string()
    .uri({ scheme: ['http', 'https'] })
    .pattern(/\/console\/auth\/callback$/)
    .message('OIDC_REDIRECT_URL must end in /console/auth/callback')
    .when('OIDC_ISSUER', { is: Joi.exist(), then: Joi.required() }),
  OIDC_MEMBER_CLAIM: Joi.string().default('sub'),
  OIDC_SCOPES: Joi.string()
    .pattern(/(^| )openid( |$)/)
    .message('OIDC_SCOPES must include openid')
    .default('openid'),
  OIDC_PROVIDER_NAME: Joi.string().max(80).default('your organisation'),
  CONSOLE_SESSION_IDLE_SECONDS: Joi.number().integer().min(60).max(86_400).default(3600),
  CONSOLE_SESSION_ABSOLUTE_SECONDS: Joi.number()
    .integer()
    .min(60)
    .max(30 * 86_400)
    .default(43_200),
  CONSOLE_SIGN_IN_STARTS_PER_MINUTE: Joi.number().integer().min(1).max(100_000).default(20),
  AUTH_FAILURE_AUDIT_SECONDS: Joi.number().min(0.1).max(300).default(10),
  IDENTITY_AUDIT_RETENTION_DAYS: Joi.number().integer().min(0).max(36_500).default(365),
}).unknown(true);

/** The environment variables the services read (deployment files are checked against this list). */
export const CONFIG_VARIABLES: readonly string[] = Object.keys(envSchema.describe().keys ?? {});

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const { value, error } = envSchema.validate(env, { abortEarly: false });
  if (error) throw new Error(`Invalid configuration: ${error.message}`);
  return {
    port: value.PORT,
    host: value.HOST,
    databaseUrl: value.DATABASE_URL,
    databasePoolSize: value.DATABASE_POOL_SIZE,
    databaseDeadlines: {
      connectMs: value.DATABASE_CONNECT_TIMEOUT_MS,
      apiStatementMs: value.DATABASE_STATEMENT_TIMEOUT_MS,
      workerStatementMs: value.WORKER_DATABASE_STATEMENT_TIMEOUT_MS,
    },
    temporal: {
      address: value.TEMPORAL_ADDRESS,
      namespace: value.TEMPORAL_NAMESPACE,
      taskQueue: value.TEMPORAL_TASK_QUEUE,
      callTimeoutMs: value.TEMPORAL_CALL_TIMEOUT_MS,
      maxCachedWorkflows: value.WORKER_MAX_CACHED_WORKFLOWS,
      maxConcurrentWorkflowTasks: value.WORKER_MAX_CONCURRENT_WORKFLOW_TASKS,
      // The SDK refuses more pollers than task slots.
      workflowTaskPollers: Math.min(
        value.WORKER_WORKFLOW_TASK_POLLERS,
        value.WORKER_MAX_CONCURRENT_WORKFLOW_TASKS,
      ),
      stickyQueueTimeoutMs: value.WORKER_STICKY_QUEUE_TIMEOUT_SECONDS * 1000,
      workerBuildId: value.TEMPORAL_WORKER_BUILD_ID,
      promoteFirstVersion: value.TEMPORAL_WORKER_PROMOTE_FIRST,
      grpcCompression: value.TEMPORAL_GRPC_COMPRESSION,
    },
    shutdownGraceMs: value.SHUTDOWN_GRACE_SECONDS * 1000,
    s3: {
      endpoint: value.S3_ENDPOINT,
      region: value.S3_REGION,
      bucket: value.S3_BUCKET,
      accessKeyId: value.S3_ACCESS_KEY_ID,
      secretAccessKey: value.S3_SECRET_ACCESS_KEY,
      forcePathStyle: value.S3_FORCE_PATH_STYLE,
      connectTimeoutMs: value.S3_CONNECT_TIMEOUT_MS,
      requestTimeoutMs: value.S3_REQUEST_TIMEOUT_MS,
    },
    logLevel: value.LOG_LEVEL,
    jsonBodyLimitBytes: value.JSON_BODY_LIMIT_BYTES,
    fileConcurrencyPerKey: value.FILE_CONCURRENCY_PER_KEY,
    rateLimit: { perSecond: value.RATE_LIMIT_PER_KEY_PER_SECOND, burst: value.RATE_LIMIT_BURST },
    verifiedCache: {
      maxBytes: value.VERIFIED_CACHE_MAX_BYTES,
      parentDir: value.VERIFIED_CACHE_DIR,
      recheckAfterMs: value.VERIFIED_CACHE_RECHECK_SECONDS * 1000,
    },
    genomicsDashboardAssertionKey: value.GENOMICS_DASHBOARD_ASSERTION_KEY,
    metrics: { host: value.METRICS_HOST, port: value.METRICS_PORT },
    exports: {
      retentionMs: value.EXPORT_RETENTION_SECONDS * 1000,
      maxRunningPerMember: value.EXPORT_MAX_RUNNING_PER_MEMBER,
      maxRunning: value.EXPORT_MAX_RUNNING,
      partBytes: value.EXPORT_PART_BYTES,
      shareUnderLoad: value.EXPORT_SHARE_UNDER_LOAD,
      purgeIntervalMs: value.EXPORT_PURGE_INTERVAL_SECONDS * 1000,
      snapshotTimeoutMs: value.EXPORT_SNAPSHOT_TIMEOUT_MS,
    },
    webhooks: {
      secretKey: value.WEBHOOK_SECRET_KEY,
      allowPrivateTargets: value.WEBHOOK_ALLOW_PRIVATE_TARGETS,
      sweepIntervalMs: value.WEBHOOK_SWEEP_INTERVAL_SECONDS * 1000,
    },
    oidc: value.OIDC_ISSUER
      ? {
          issuer: value.OIDC_ISSUER,
          clientId: value.OIDC_CLIENT_ID,
          clientSecret: value.OIDC_CLIENT_SECRET,
          redirectUrl: value.OIDC_REDIRECT_URL,
          memberClaim: value.OIDC_MEMBER_CLAIM,
          scopes: value.OIDC_SCOPES,
          providerName: value.OIDC_PROVIDER_NAME,
        }
      : undefined,
    consoleSession: {
      idleSeconds: value.CONSOLE_SESSION_IDLE_SECONDS,
      absoluteSeconds: value.CONSOLE_SESSION_ABSOLUTE_SECONDS,
      signInStartsPerMinute: value.CONSOLE_SIGN_IN_STARTS_PER_MINUTE,
    },
    identityAudit: {
      failureIntervalMs: value.AUTH_FAILURE_AUDIT_SECONDS * 1000,
      retentionDays: value.IDENTITY_AUDIT_RETENTION_DAYS,
    },
  };
}
