// First: tracing must hook pg and the AWS SDK before anything loads them.
import './observability/traceWorkerProcess';
import { Client } from '@temporalio/client';
import { NativeConnection, Runtime, Worker, type WorkerOptions } from '@temporalio/worker';
import type { Logger } from 'pino';
import { createActivities } from './activities';
import { workerStateQueries } from './activities/workerStateQueries';
import { createLogger } from './logging/logger';
import { sdkLoggerFor } from './logging/temporalSdkLogger';
import { currentWorkerBuildId } from './deployment/buildId';
import { deploymentNameOf, promoteIfNoCurrentVersion } from './deployment/workerDeployments';
import { WORKFLOWS_PATH, workflowModulesToPreload } from './deployment/workflowBundle';
import { freePort } from './observability/freePort';
import { registerPoolMetrics } from './observability/storeMetrics';
import { WebhookMetrics } from './observability/webhookMetrics';
import { createRegistry, type MetricsServer, scrapeText, startMetricsServer } from './observability/metrics';
import { sdkMetricsTelemetry, WorkerMetrics } from './observability/workerMetrics';
import { stopTracing, tracingActive, withWorkerTracing } from './observability/tracing';
import { type Config, loadConfig } from './config';
import { createDataSource, poolStateOf } from './entities/dataSource';
import { createS3Client } from './storage/objectStore';
import { selectBacklogs } from './activities/webhookQueries';
import { WebhookSweep } from './activities/webhookSweep';
import { ExportPurge } from './activities/exports';
import { WebhookWakeups } from './activities/webhookWakeups';
import { parseSealingKey } from './webhooks/secrets';

export interface RunningWorker {
  worker: Worker;
  /** The Worker Deployment Version it polls as: the deployment (named after the task queue) and the build ID. */
  version: { deploymentName: string; buildId: string };
  /** Where the worker's metrics are served (METRICS_PORT); undefined when it is not set. */
  metricsUrl?: string;
  /** Resolves when the worker has stopped polling and finished its in-flight tasks. */
  done: Promise<void>;
  shutdown(): Promise<void>;
}

/** Workflow code source: a prebuilt bundle when given (tests, images), else bundled from workflows/. */
export type WorkflowSource = { workflowBundle: { codePath: string } } | { workflowsPath: string };

/**
 * Starts a Temporal worker on the task queue: the task workflows, the import workflows, and the
 * activities that persist their decisions through TypeORM and move bytes to S3.
 */
export async function startWorker(
  config: Config = loadConfig(),
  source: WorkflowSource = { workflowsPath: WORKFLOWS_PATH },
  extra: {
    /** Where the worker logs; default: JSON lines on stdout at `config.logLevel` (tests capture them here). */
    logger?: Logger;
    /** The Temporal SDK runtime's own Prometheus exporter, when the process installed it (`sdkMetricsTelemetry`). */
    sdkMetricsUrl?: string;
  } = {},
): Promise<RunningWorker> {
  const logger = extra.logger ?? createLogger(config.logLevel);
  // Modules loaded, connecting next: where docs/chaos.md's restart split puts the line between the two.
  logger.info('worker starting');
  const dataSource = createDataSource(config.databaseUrl, config.databasePoolSize, {
    connectMs: config.databaseDeadlines.connectMs,
    statementMs: config.databaseDeadlines.workerStatementMs,
  });
  await dataSource.initialize();
  const s3 = createS3Client(config.s3);
  const registry = createRegistry({ processMetrics: config.metrics.port !== undefined });
  const onMetricsError = (error: unknown) => logger.warn({ err: error }, 'metrics exposition failed');
  const metrics = new WorkerMetrics(registry, {
    projectionActivities: { persistMathTransition: 'math', persistGenomicsTransition: 'genomics' },
    sources: workerStateQueries(dataSource),
    onError: onMetricsError,
  });
  registerPoolMetrics(registry, () => poolStateOf(dataSource));
  let metricsServer: MetricsServer | undefined;
  if (config.metrics.port !== undefined) {
    metricsServer = await startMetricsServer({
      host: config.metrics.host,
      port: config.metrics.port,
      registry,
      more: extra.sdkMetricsUrl ? scrapeText(extra.sdkMetricsUrl) : undefined,
      onError: onMetricsError,
    });
  }
  const wakeups = new WebhookWakeups(config.databaseUrl);
  const version = {
    deploymentName: deploymentNameOf(config.temporal.taskQueue),
    buildId: config.temporal.workerBuildId ?? currentWorkerBuildId(),
  };
  const connection = await NativeConnection.connect({
    address: config.temporal.address,
    grpcCompression: { codec: config.temporal.grpcCompression },
  });
  const options: WorkerOptions = {
    connection,
    namespace: config.temporal.namespace,
    taskQueue: config.temporal.taskQueue,
    // The SDK's default follows the heap limit, not what a cached run costs here (docs/operator-tools.md).
    maxCachedWorkflows: config.temporal.maxCachedWorkflows,
    maxConcurrentWorkflowTaskExecutions: config.temporal.maxConcurrentWorkflowTasks,
    maxConcurrentWorkflowTaskPolls: config.temporal.workflowTaskPollers,
    stickyQueueScheduleToStartTimeout: config.temporal.stickyQueueTimeoutMs,
    // A version of the task queue's deployment: each workflow type declares how it moves to another build
    // (docs/workflow-evolution.md); PINNED is the default of a type that declares nothing.
    workerDeploymentOptions: { version, useWorkerVersioning: true, defaultVersioningBehavior: 'PINNED' },
    // On SIGTERM the worker stops polling and lets its tasks in flight finish for this long before it cancels its
    // activities; past the force time it gives up (the supervisor's stop timeout is longer still).
    shutdownGraceTime: config.shutdownGraceMs,
    shutdownForceTime: config.shutdownGraceMs + 5000,
    activities: createActivities({
      dataSource,
      s3,
      bucket: config.s3.bucket,
      exportPartBytes: config.exports.partBytes,
      exportShareUnderLoad: config.exports.shareUnderLoad,
      webhooks: {
        sealingKey: config.webhooks.secretKey ? parseSealingKey(config.webhooks.secretKey) : null,
        policy: { allowPrivate: config.webhooks.allowPrivateTargets },
        wakeups,
        metrics: new WebhookMetrics(registry, {
          backlogs: () => selectBacklogs(dataSource),
          onError: onMetricsError,
        }),
      },
    }),
    interceptors: { activity: [metrics.activityInterceptor] },
    // Only used when the worker bundles workflowsPath itself; a prebuilt bundle carries its own preload.
    bundlerOptions:
      'workflowsPath' in source
        ? { preloadModules: workflowModulesToPreload(source.workflowsPath) }
        : undefined,
    ...source,
  };
  if (tracingActive() && 'workflowBundle' in source)
    logger.warn(
      'tracing is on but the workflow code is a prebuilt bundle: workflow spans need the bundle built with ' +
        'the OpenTelemetry workflow interceptors (unset REFEREE_WORKFLOW_BUNDLE to bundle at start)',
    );
  const worker = await Worker.create(withWorkerTracing(options)).catch(async (error: unknown) => {
    await metricsServer?.close();
    throw error;
  });
  const client = new Client({ connection, namespace: config.temporal.namespace });
  const sweep = new WebhookSweep({
    db: dataSource,
    client,
    taskQueue: config.temporal.taskQueue,
    intervalMs: config.webhooks.sweepIntervalMs,
    callTimeoutMs: config.temporal.callTimeoutMs,
    logger,
  });
  sweep.start();
  const exportPurge = new ExportPurge(
    { dataSource, s3, bucket: config.s3.bucket },
    config.exports.purgeIntervalMs,
    logger,
  );
  exportPurge.start();
  logger.info(
    {
      taskQueue: config.temporal.taskQueue,
      namespace: config.temporal.namespace,
      metricsUrl: metricsServer?.url,
      workflowCode: 'workflowBundle' in source ? source.workflowBundle.codePath : 'bundled at start',
      deployment: version.deploymentName,
      buildId: version.buildId,
    },
    'worker polling',
  );
  const done = worker.run().finally(async () => {
    await promoted;
    await sweep.stop();
    await exportPurge.stop();
    await metricsServer?.close();
    await connection.close();
    await wakeups.close();
    s3.destroy();
    await dataSource.destroy();
  });
  // A deployment's first version becomes current by itself; later ones by a rollout (referee workers rollout).
  const promoted = config.temporal.promoteFirstVersion
    ? promoteIfNoCurrentVersion(client, config.temporal.taskQueue, version.buildId, worker.options.identity)
        .then((made) => {
          if (made) logger.info(version, 'worker version made current (the deployment had none)');
        })
        .catch((error: unknown) => {
          if (worker.getState() === 'RUNNING')
            logger.error({ err: error, ...version }, 'could not make the first worker version current');
        })
    : Promise.resolve();
  // Returned once workflows have a version to run on, so a caller's first workflow does not wait for it.
  await promoted;
  return {
    worker,
    version,
    metricsUrl: metricsServer?.url,
    done,
    async shutdown() {
      if (worker.getState() === 'RUNNING') worker.shutdown();
      await done;
    },
  };
}

/** Installs the SDK runtime of a worker process; with metrics on, its Prometheus exporter on a loopback port. */
async function installRuntime(config: Config): Promise<{ sdkMetricsUrl?: string }> {
  const sdkMetricsAddress =
    config.metrics.port === undefined ? undefined : `127.0.0.1:${await freePort('127.0.0.1')}`;
  // The worker's own SIGINT/SIGTERM handling drains in-flight tasks before run() resolves.
  Runtime.install({
    shutdownSignals: ['SIGINT', 'SIGTERM'],
    logger: sdkLoggerFor(createLogger(config.logLevel), 'INFO'),
    ...(sdkMetricsAddress ? { telemetryOptions: sdkMetricsTelemetry(sdkMetricsAddress) } : {}),
  });
  return { sdkMetricsUrl: sdkMetricsAddress && `http://${sdkMetricsAddress}/metrics` };
}

if (require.main === module) {
  const config = loadConfig();
  // A prebuilt bundle (npm start's, the bench's, the tests') starts in a second and keeps the bundler's memory out of
  // the worker; without one the worker bundles workflows/ itself (the image, and tracing, which adds interceptors).
  const bundle = process.env.REFEREE_WORKFLOW_BUNDLE;
  installRuntime(config)
    .then((runtime) =>
      startWorker(config, bundle ? { workflowBundle: { codePath: bundle } } : undefined, runtime),
    )
    .then((running) => running.done)
    .then(stopTracing)
    .then(
      () => process.exit(0),
      (error: unknown) => {
        console.error('worker stopped with an error:', error instanceof Error ? error.message : error);
        process.exit(1);
      },
    );
}
