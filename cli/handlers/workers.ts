import { Client, Connection } from '@temporalio/client';
import { currentWorkerBuildId, workflowVariant } from '../../deployment/buildId';
import {
  LauncherRolloutError,
  requestSupervisedRollout,
  type SupervisedRolloutReport,
  type SupervisedRolloutRequest,
} from '../../infra/launcherControl';
import { rollout, type RolloutReport } from '../../deployment/rollout';
import { describeDeployment } from '../../deployment/workerDeployments';
import type { CommandContext } from '../kernel/context';
import { OpsError } from '../kernel/output';

export interface RolloutArgs {
  build?: string;
  ramp?: number;
  'ramp-for'?: number;
  'drain-timeout'?: number;
}

async function withClient<T>(ctx: CommandContext, run: (client: Client, taskQueue: string) => Promise<T>) {
  const { config } = ctx.system({ temporal: true });
  let connection: Connection;
  try {
    connection = await Connection.connect({ address: config.temporal.address, connectTimeout: '5 seconds' });
  } catch (error) {
    throw new OpsError(
      'temporal_unreachable',
      `cannot reach Temporal at ${config.temporal.address}: ${(error as Error).message}`,
      { dependency: 'temporal', address: config.temporal.address },
    );
  }
  try {
    return await run(
      new Client({ connection, namespace: config.temporal.namespace }),
      config.temporal.taskQueue,
    );
  } finally {
    await connection.close();
  }
}

const describeReport = (report: RolloutReport) =>
  `Build ${report.to} is current${report.from && report.from !== report.to ? ` (was ${report.from})` : ''}; ` +
  `${report.moved} workflow(s) moved; drained in ${(report.drainedAfterMs / 1000).toFixed(1)} s.` +
  (report.from && report.from !== report.to
    ? ` This system's workers are not supervised by npm start: stop the workers of build ${report.from}.`
    : '');

async function rolloutTo(ctx: CommandContext, to: string, args: RolloutArgs): Promise<void> {
  await withClient(ctx, async (client, taskQueue) => {
    const deployment = await describeDeployment(client, taskQueue);
    const version = deployment?.versions.find((v) => v.buildId === to);
    if (!version || version.workers.length === 0)
      throw new OpsError(
        'no_workers',
        `no worker of build ${to} polls task queue ${taskQueue}; start them first`,
        {
          build: to,
        },
      );
    const report = await rollout(client, {
      taskQueue,
      to,
      ramp: args.ramp ? { percentage: args.ramp, forMs: (args['ramp-for'] ?? 60) * 1000 } : undefined,
      drainTimeoutMs: (args['drain-timeout'] ?? 15) * 60_000,
      identity: `referee-cli@${process.pid}`,
      log: (line) => process.stderr.write(`${line}\n`),
    });
    ctx.out.result(describeReport(report), { rollout: report });
  });
}

/**
 * Against the system `npm start` or `npm run start:cluster` runs (its connection file names the launcher's control
 * socket), the launcher does the whole rollout: it starts the new build's workers, rolls out, and stops the old
 * build's. Against any other system (compose, a cluster of one's own), only the rollout: its workers are started
 * and stopped by whatever runs them (docs/workflow-evolution.md, "Rolling out a build").
 */
function supervisingLauncher(ctx: CommandContext): string | null {
  const { connectionFile } = ctx.system({ temporal: true });
  return connectionFile?.control?.socket ?? null;
}

async function supervisedRollout(
  ctx: CommandContext,
  socket: string,
  request: SupervisedRolloutRequest,
): Promise<void> {
  let report: SupervisedRolloutReport;
  try {
    report = await requestSupervisedRollout(socket, request, (line) => process.stderr.write(`${line}\n`));
  } catch (error) {
    if (error instanceof LauncherRolloutError) throw new OpsError(error.code, error.message, { socket });
    throw new OpsError(
      'launcher_unreachable',
      `cannot reach the launcher's control socket ${socket}: ${(error as Error).message}`,
      { socket },
    );
  }
  ctx.out.result(
    `Build ${report.to} is current${report.from && report.from !== report.to ? ` (was ${report.from})` : ''}; ` +
      `${report.moved} workflow(s) moved; ${report.startedWorkers.length} worker(s) started, ` +
      `${report.stoppedWorkers.length} stopped; old workers stopped after ` +
      `${(report.oldWorkersStoppedAfterMs / 1000).toFixed(1)} s.`,
    { rollout: report },
  );
}

const drainTimeoutMs = (args: RolloutArgs) => (args['drain-timeout'] ?? 15) * 60_000;

export async function rolloutCommand(ctx: CommandContext, args: RolloutArgs): Promise<void> {
  const socket = supervisingLauncher(ctx);
  if (socket)
    return supervisedRollout(ctx, socket, {
      direction: 'forward',
      build: args.build,
      // The rollout drill's changed build (workflows/variant.ts), built from the checkout by the launcher.
      variant: workflowVariant() || undefined,
      ramp: args.ramp ? { percentage: args.ramp, forMs: (args['ramp-for'] ?? 60) * 1000 } : undefined,
      drainTimeoutMs: drainTimeoutMs(args),
    });
  await rolloutTo(ctx, args.build ?? currentWorkerBuildId(), args);
}

export async function rollbackCommand(ctx: CommandContext, args: RolloutArgs): Promise<void> {
  const socket = supervisingLauncher(ctx);
  if (socket)
    return supervisedRollout(ctx, socket, {
      direction: 'back',
      build: args.build,
      drainTimeoutMs: drainTimeoutMs(args),
    });
  const to =
    args.build ??
    (await withClient(ctx, async (client, taskQueue) => {
      const deployment = await describeDeployment(client, taskQueue);
      const previous = deployment?.versions
        .filter((v) => v.role !== 'current' && v.workers.length > 0)
        .sort((a, b) => (b.createdAt ?? '').localeCompare(a.createdAt ?? ''))[0];
      if (!previous)
        throw new OpsError(
          'no_previous_build',
          'no other build has workers polling: nothing to roll back to',
          {},
        );
      return previous.buildId;
    }));
  await rolloutTo(ctx, to, args);
}
