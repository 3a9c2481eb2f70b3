import { join } from 'node:path';
import { NativeConnection, Runtime, Worker } from '@temporalio/worker';
import { createLogger } from '../../logging/logger';
import { loadConfig } from '../../config';
import { workflowModulesToPreload } from '../../deployment/workflowBundle';
import { projectRoot } from '../../infra/paths';
import { sdkLoggerFor } from '../../logging/temporalSdkLogger';
import { exitWhenDone } from '../exitWhenDone';

/**
 * The bench-only worker of the mutation baseline: the echo workflow alone, bundled from its own file, on
 * its own task queue (`BENCH_ECHO_TASK_QUEUE`), with the SDK's default worker options like worker.ts, and like
 * worker.ts's bundle its modules evaluated once per worker (`workflowModulesToPreload`), so
 * the mutation pair's ratio does not credit ours with that setting.
 */
async function main(): Promise<void> {
  const config = loadConfig();
  const logger = createLogger(config.logLevel);
  Runtime.install({ shutdownSignals: ['SIGINT', 'SIGTERM'], logger: sdkLoggerFor(logger) });
  const connection = await NativeConnection.connect({ address: config.temporal.address });
  const taskQueue = process.env.BENCH_ECHO_TASK_QUEUE ?? 'bench-echo';
  // By its source path, the same from source and from the build in dist/ (the SDK's bundler compiles it).
  const echoWorkflowPath = join(projectRoot, 'bench', 'baseline', 'echoWorkflow.ts');
  const worker = await Worker.create({
    connection,
    namespace: config.temporal.namespace,
    taskQueue,
    workflowsPath: echoWorkflowPath,
    bundlerOptions: { preloadModules: workflowModulesToPreload(echoWorkflowPath) },
  });
  logger.info({ taskQueue }, 'echo worker polling');
  await worker.run();
  await connection.close();
}

exitWhenDone(main, 'echo worker');
