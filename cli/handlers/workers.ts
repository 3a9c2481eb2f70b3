import { Client, Connection } from '@temporalio/client';
import { currentWorkerBuildId } from '../../infra/buildId';
import { rollout, type RolloutReport } from '../../infra/rollout';
import { describeDeployment } from '../../infra/workerDeployments';
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
  (report.from && report.from !== report.to ? ` The workers of build ${report.from} can stop.` : '');

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

export async function rolloutCommand(ctx: CommandContext, args: RolloutArgs): Promise<void> {
  await rolloutTo(ctx, args.build ?? currentWorkerBuildId(), args);
}

export async function rollbackCommand(ctx: CommandContext, args: RolloutArgs): Promise<void> {
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
