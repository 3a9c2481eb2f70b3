import { Client, Connection } from '@temporalio/client';
import { SERVICES } from '../../entities/types';
import { createS3Client } from '../../storage/objectStore';
import type { OperatorProgress } from '../operator/progress';
import { reconcile, type ReconcileReport } from '../operator/reconcile';
import { collectStatus, type RecentRequestsStatus, type SystemStatus } from '../operator/status';
import { verifyStorage, type VerifyStorageReport } from '../operator/verifyStorage';
import { describeVersions } from '../../deployment/workerDeployments';
import type * as declared from '../commands/operator';
import type { CommandInput } from '../kernel/command';
import type { CommandContext } from '../kernel/context';
import { openDatabase } from '../kernel/database';
import { OpsError } from '../kernel/output';

/*
 * reconcile, verify-storage and status: the command framing (connections, progress, text, exit status) over
 * the tool modules of cli/operator/. A report with findings is exit code 1: with --json it is the error
 * document's `report`; without, its text on stdout and one line on stderr.
 */

/** Prints a report that found something wrong, then fails with exit code 1. */
function findings(ctx: CommandContext, code: string, message: string, human: string, report: object): never {
  if (!ctx.out.json) process.stdout.write(`${human}\n`);
  throw new OpsError(code, message, { report });
}

export async function status(ctx: CommandContext): Promise<void> {
  const { config, connectionFile } = ctx.system({ temporal: true });
  const result = await collectStatus(config, { connectionFile });
  const human = describeStatus(result);
  if (!result.ok) {
    const down = result.dependencies.filter((d) => !d.up).map((d) => `${d.name} (${d.address})`);
    const p = result.processes;
    if (p) {
      if (p.apis.running < p.apis.listed) down.push(`${p.apis.listed - p.apis.running} API process(es)`);
      if (p.workers.running < p.workers.listed) {
        down.push(`${p.workers.listed - p.workers.running} worker process(es)`);
      }
      if (p.temporal && !p.temporal.running) down.push(`the Temporal process (pid ${p.temporal.pid})`);
      for (const t of p.temporalProcesses) {
        if (!t.running && t.pid !== p.temporal?.pid) down.push(`Temporal ${t.name} (pid ${t.pid})`);
      }
    }
    findings(
      ctx,
      'unhealthy',
      down.length > 0 ? `down: ${down.join(', ')}` : 'the schema is behind: run "referee migrate"',
      human,
      result,
    );
  }
  ctx.out.result(human, { status: result });
}

export async function reconcileCommand(
  ctx: CommandContext,
  { options: args }: CommandInput<typeof declared.reconcile>,
): Promise<void> {
  const { config } = ctx.system({ temporal: true });
  const dataSource = await openDatabase(config, { migrate: false });
  let connection: Connection | undefined;
  try {
    try {
      connection = await Connection.connect({
        address: config.temporal.address,
        connectTimeout: '5 seconds',
      });
    } catch (error) {
      throw new OpsError(
        'temporal_unreachable',
        `cannot reach Temporal at ${config.temporal.address}: ${(error as Error).message}`,
        { dependency: 'temporal', address: config.temporal.address },
      );
    }
    const progress = progressReporter(ctx.out.json);
    const report = await reconcile(
      { dataSource, temporal: new Client({ connection, namespace: config.temporal.namespace }), progress },
      {
        services: args.service ? [args.service] : [...SERVICES],
        repair: args.repair,
        restart: args.restart,
      },
    );
    progress.end();
    const human = describeReconcile(report);
    if (!report.ok)
      findings(ctx, 'projection_diverged', 'projections differ from their workflows', human, report);
    ctx.out.result(human, { report });
  } finally {
    await connection?.close();
    await dataSource.destroy();
  }
}

export async function verifyStorageCommand(
  ctx: CommandContext,
  { options: args }: CommandInput<typeof declared.verifyStorage>,
): Promise<void> {
  const graceMinutes = args['orphan-grace'];
  const { config } = ctx.system();
  const dataSource = await openDatabase(config, { migrate: false });
  const s3 = createS3Client(config.s3);
  try {
    const progress = progressReporter(ctx.out.json);
    const report = await verifyStorage(
      { dataSource, s3, bucket: config.s3.bucket, progress },
      {
        rateMiBPerSecond: args.rate,
        restart: args.restart,
        orphanGraceMs: graceMinutes === undefined ? undefined : graceMinutes * 60_000,
      },
    );
    progress.end();
    const human = describeStorage(report);
    if (!report.ok)
      findings(
        ctx,
        'storage_damaged',
        'missing, altered or orphaned objects (see storage_audit)',
        human,
        report,
      );
    ctx.out.result(human, { report });
  } finally {
    s3.destroy();
    await dataSource.destroy();
  }
}

/** Progress on stderr: a bar redrawn in place on a terminal, a line per tenth otherwise (JSON Lines with --json). */
function progressReporter(json: boolean) {
  const tty = process.stderr.isTTY && !json;
  let lastTenth = -1;
  let drawn = false;
  const report = (p: OperatorProgress) => {
    const fraction = p.total > 0 ? p.done / p.total : 1;
    const line = `${p.phase}: ${p.done}/${p.total}`;
    if (tty) {
      const width = Math.max(10, Math.min(30, (process.stderr.columns ?? 80) - line.length - 10));
      const filled = Math.round(fraction * width);
      process.stderr.write(`\r[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${line}\x1b[K`);
      drawn = true;
      return;
    }
    const tenth = Math.floor(fraction * 10);
    if (tenth === lastTenth) return;
    lastTenth = tenth;
    process.stderr.write(json ? `${JSON.stringify({ progress: p })}\n` : `${line}\n`);
  };
  return Object.assign(report, {
    end: () => {
      if (drawn) process.stderr.write('\n');
    },
  });
}

const show = (value: unknown) => JSON.stringify(value);

function describeReconcile(report: ReconcileReport): string {
  const lines = report.services.map(
    (s) =>
      `${s.service}: ${s.checked} tasks checked, ${s.withWorkflow} with a workflow` +
      (s.resumedAfter ? ` (resumed after ${s.resumedAfter}; ${s.earlierFindings} findings before)` : ''),
  );
  for (const f of report.findings) {
    lines.push(
      `${f.outcome.toUpperCase()} ${f.service} ${f.subjectId} (projection v${f.projectionVersion}, ` +
        `workflow ${f.workflowVersion === null ? 'none' : `v${f.workflowVersion}`})${f.note ? `: ${f.note}` : ''}`,
    );
    for (const d of f.differences)
      lines.push(`  ${d.field}: projection ${show(d.projection)}, workflow ${show(d.workflow)}`);
  }
  lines.push(`${report.findings.length} findings in ${(report.elapsedMs / 1000).toFixed(1)} s.`);
  return lines.join('\n');
}

function describeStorage(report: VerifyStorageReport): string {
  const lines = [
    `${report.objectsChecked} of ${report.objectsNamed} objects read (${(report.bytesRead / 1024 ** 2).toFixed(1)} MiB)` +
      (report.resumedAfter
        ? `, resumed after ${report.resumedAfter} (${report.earlierFindings} findings before)`
        : ''),
  ];
  for (const f of report.findings) {
    const named = f.subjects.map((s) => `${s.service} ${s.type} ${s.id}`).join(', ');
    const detail =
      f.kind === 'altered'
        ? `: expected ${f.expected?.sizeBytes} B ${f.expected?.sha256}, found ${f.actual?.sizeBytes} B ${f.actual?.sha256}`
        : f.kind === 'orphaned'
          ? ` (${f.actual?.sizeBytes} B, named by no row)`
          : '';
    lines.push(`${f.kind.toUpperCase()} ${f.key}${detail}${named ? `; named by ${named}` : ''}`);
  }
  lines.push(`${report.findings.length} findings in ${(report.elapsedMs / 1000).toFixed(1)} s.`);
  return lines.join('\n');
}

function describeStatus(status: SystemStatus): string {
  const lines = status.dependencies.map(
    (d) => `${d.up ? 'UP  ' : 'DOWN'} ${d.name.padEnd(10)} ${d.address}: ${d.detail}`,
  );
  if (status.engine) {
    const e = status.engine;
    lines.push(
      `engine: Temporal ${e.engine} ${e.serverVersion}, persistence ${e.persistence}, visibility ${e.visibility}, ` +
        `${e.historyShards} history shard${e.historyShards === 1 ? '' : 's'}; pollers on the task queue: ` +
        `${e.pollers.workflow.length} workflow, ${e.pollers.activity.length} activity ` +
        `(${e.workerProcesses} worker process${e.workerProcesses === 1 ? '' : 'es'})`,
    );
  }
  if (status.deployment) lines.push(...describeVersions(status.deployment));
  if (status.processes) {
    const p = status.processes;
    lines.push(
      `processes: ${p.apis.running} of ${p.apis.listed} API running, ${p.workers.running} of ${p.workers.listed} ` +
        `workers running` +
        (p.temporal ? `, Temporal (pid ${p.temporal.pid}) ${p.temporal.running ? 'running' : 'gone'}` : ''),
    );
    if (p.temporalProcesses.length > 0) {
      lines.push(
        `temporal processes: ${p.temporalProcesses
          .map(
            (t) =>
              `${t.name} [${t.roles.join(', ')}] ${t.address} pid ${t.pid} ${t.running ? 'running' : 'gone'}`,
          )
          .join('; ')}`,
      );
    }
  }
  if (status.schema)
    lines.push(
      `schema: ${status.schema.current ?? 'none'}${status.schema.behind ? ` (behind ${status.schema.latest}: run ops migrate)` : ' (up to date)'}`,
    );
  for (const w of status.workflows) {
    const byStatus =
      Object.entries(w.byStatus)
        .map(([k, n]) => `${k} ${n}`)
        .join(', ') || 'none';
    const byState = w.runningByState
      ? `; running by state: ${Object.entries(w.runningByState)
          .map(([k, n]) => `${k} ${n}`)
          .join(', ')}`
      : '';
    lines.push(`workflows ${w.workflowType}: ${byStatus}${byState}`);
  }
  if (status.imports) {
    const oldest = status.imports.oldestRunning;
    lines.push(
      `imports: ${status.imports.running} running, ${status.imports.failed} failed` +
        (oldest ? `; oldest running ${oldest.workflowId} since ${oldest.startedAt}` : ''),
    );
  }
  lines.push(`keys expiring within 7 days: ${status.keysExpiringSoon.length}`);
  for (const k of status.keysExpiringSoon)
    lines.push(`  ${k.service} ${k.id} "${k.name}" (${k.member}) expires ${k.expiresAt}`);
  if (status.webhooks) {
    lines.push(
      `webhook endpoints: ${status.webhooks.live} live, ${status.webhooks.unhealthy.length} disabled or failing`,
    );
    for (const e of status.webhooks.unhealthy)
      lines.push(
        `  ${e.service} ${e.id} ${e.url} ` +
          (e.status === 'DISABLED'
            ? `disabled (${e.disabledReason ?? 'by an Admin'})`
            : `failing since ${e.failingSince}`) +
          `, ${e.pending} pending`,
      );
  }
  if (status.requests) lines.push(...describeRequests(status.requests));
  return lines.join('\n');
}

const perSecond = (rate: number) => `${rate.toFixed(2)}/s`;
const milliseconds = (seconds: number | null) =>
  seconds === null ? 'none' : `${(seconds * 1000).toFixed(seconds < 0.01 ? 2 : 1)} ms`;

/** The last minute's requests: the total, then each API process (the system's p99 is at most the highest). */
function describeRequests(requests: RecentRequestsStatus): string[] {
  const several = requests.processes.length > 1;
  return [
    `requests, last minute: ${perSecond(requests.requestsPerSecond)}, p99 ` +
      (several
        ? `at most ${milliseconds(requests.p99SecondsAtMost)} (the highest of the API processes')`
        : milliseconds(requests.p99SecondsAtMost)),
    ...requests.processes.map((p) =>
      p.up
        ? `  ${p.process.padEnd(6)} ${perSecond(p.requestsPerSecond ?? 0)}, p99 ${milliseconds(p.p99Seconds)}`
        : `  ${p.process.padEnd(6)} metrics not answering at ${p.url}: ${p.detail ?? ''}`,
    ),
  ];
}
