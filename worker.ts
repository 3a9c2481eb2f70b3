import {
  DefaultLogger,
  type LogLevel,
  NativeConnection,
  Runtime,
  Worker,
  type WorkerOptions,
} from '@temporalio/worker';
import type { Logger } from 'pino';
import { createActivities } from './activities';
import { createLogger } from './logging/logger';
import { type Config, loadConfig } from './config';
import { createDataSource } from './entities/dataSource';
import { createS3Client } from './storage/objectStore';

export interface RunningWorker {
  worker: Worker;
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
  source: WorkflowSource = { workflowsPath: require.resolve('./workflows') },
  extra: {
    /** Where the worker logs; default: JSON lines on stdout at `config.logLevel` (tests capture them here). */
    logger?: Logger;
  } = {},
): Promise<RunningWorker> {
  const logger = extra.logger ?? createLogger(config.logLevel);
  const dataSource = createDataSource(config.databaseUrl, config.databasePoolSize);
  await dataSource.initialize();
  const s3 = createS3Client(config.s3);
  const connection = await NativeConnection.connect({ address: config.temporal.address });
  const options: WorkerOptions = {
    connection,
    namespace: config.temporal.namespace,
    taskQueue: config.temporal.taskQueue,
    // The SDK's default follows the heap limit (2,395 workflows at 4 GiB), not what a cached run costs here.
    maxCachedWorkflows: config.temporal.maxCachedWorkflows,
    activities: createActivities({ dataSource, s3, bucket: config.s3.bucket }),
    ...source,
  };
  const worker = await Worker.create(options);
  logger.info(
    { taskQueue: config.temporal.taskQueue, namespace: config.temporal.namespace },
    'worker polling',
  );
  const done = worker.run().finally(async () => {
    await connection.close();
    s3.destroy();
    await dataSource.destroy();
  });
  return {
    worker,
    done,
    async shutdown() {
      if (worker.getState() === 'RUNNING') worker.shutdown();
      await done;
    },
  };
}

/** Routes the Temporal SDK's own log lines into the project's structured log. */
export function sdkLoggerFor(logger: Logger, level: LogLevel = 'WARN'): DefaultLogger {
  const to = { TRACE: 'trace', DEBUG: 'debug', INFO: 'info', WARN: 'warn', ERROR: 'error' } as const;
  return new DefaultLogger(level, (entry) =>
    logger[to[entry.level]]({ ...entry.meta, component: 'temporal-sdk' }, entry.message),
  );
}

if (require.main === module) {
  // The worker's own SIGINT/SIGTERM handling drains in-flight tasks before run() resolves.
  Runtime.install({
    shutdownSignals: ['SIGINT', 'SIGTERM'],
    logger: sdkLoggerFor(createLogger(loadConfig().logLevel), 'INFO'),
  });
  // A prebuilt bundle (images, crash tests) starts in a second instead of bundling workflows/ again.
  const bundle = process.env.REFEREE_WORKFLOW_BUNDLE;
  startWorker(loadConfig(), bundle ? { workflowBundle: { codePath: bundle } } : undefined)
    .then((running) => running.done)
    .then(
      () => process.exit(0),
      (error: unknown) => {
        console.error('worker stopped with an error:', error instanceof Error ? error.message : error);
        process.exit(1);
      },
    );
}
