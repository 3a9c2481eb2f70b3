import { HeadBucketCommand } from '@aws-sdk/client-s3';
import { Client, Connection } from '@temporalio/client';
import { temporal as proto } from '@temporalio/proto';
import type { Config } from '../../config';
import { type ConnectionFile, processAlive } from '../../infra/connectionFile';
import { createDataSource, migrations } from '../../entities/dataSource';
import { MATH_REVIEW_STATES } from '../../workflows/mathTask/state';
import { DISPOSITIONS } from '../../workflows/genomicsTask/state';
import { createS3Client } from '../../storage/objectStore';
import { type DeploymentStatus, describeDeployment } from '../../deployment/workerDeployments';
import {
  countLiveWebhookEndpoints,
  importCounts,
  keysExpiringWithin,
  latestMigration,
  oldestRunningImport,
  serverVersion,
  unhealthyWebhookEndpoints,
} from './statusQueries';

export interface DependencyStatus {
  name: 'postgresql' | 'temporal' | 'worker' | 's3';
  up: boolean;
  /** Where it was looked for (never with a password). */
  address: string;
  detail: string;
}

export interface WorkflowCounts {
  workflowType: string;
  /** Executions by ExecutionStatus (each continued-as-new run counts once). */
  byStatus: Record<string, number>;
  /** Running task workflows by review state (math) or disposition (genomics), from search attributes. */
  runningByState?: Record<string, number>;
}

/** Which Temporal answers, as it describes itself, and who polls Referee's task queue. */
export interface EngineStatus {
  /** `dev server` when its persistence is SQLite (the CLI's dev server), `server` otherwise. */
  engine: 'dev server' | 'server';
  serverVersion: string;
  persistence: string;
  visibility: string;
  historyShards: number;
  /** Distinct poller identities (`pid@host`) per task queue type that polled within the last 2 minutes. */
  pollers: { workflow: string[]; activity: string[] };
  /** Distinct worker processes among those pollers. */
  workerProcesses: number;
}

/** The processes the connection file lists (a system `npm start` or `npm run start:cluster` runs), and how many live. */
export interface ProcessesStatus {
  apis: { listed: number; running: number; pids: number[] };
  workers: { listed: number; running: number; pids: number[] };
  temporal: { pid: number; running: boolean } | null;
  /** Every process of Temporal's own server run here (and its UI), with the service roles each runs. */
  temporalProcesses: Array<{ name: string; roles: string[]; pid: number; address: string; running: boolean }>;
}

export interface SystemStatus {
  ok: boolean;
  dependencies: DependencyStatus[];
  engine: EngineStatus | null;
  /**
   * The task queue's Worker Deployment: each version (build ID) with its role, its worker processes and the running
   * workflows pinned to it (docs/workflow-evolution.md); null while Temporal is down or before any versioned worker.
   */
  deployment: DeploymentStatus | null;
  processes: ProcessesStatus | null;
  schema: { current: string | null; latest: string; behind: boolean } | null;
  workflows: WorkflowCounts[];
  imports: {
    running: number;
    failed: number;
    oldestRunning: { service: string; workflowId: string; subjectId: string; startedAt: string } | null;
  } | null;
  keysExpiringSoon: Array<{ id: string; service: string; name: string; member: string; expiresAt: string }>;
  /** Live webhook endpoints, and each one disabled or failing (with why, and how much waits for it). */
  webhooks: {
    live: number;
    unhealthy: Array<{
      id: string;
      service: string;
      url: string;
      status: string;
      disabledReason: string | null;
      failingSince: string | null;
      pending: number;
    }>;
  } | null;
  /** The API processes' requests of the last minute, from their metrics; null when no metrics URL is known. */
  requests: RecentRequestsStatus | null;
}

/** Each API process's own last-minute figures (the `referee_http_recent_*` gauges of its /metrics). */
export interface ApiRequestsStatus {
  /** The process's name in the connection file's `metrics` (`api`, `api-2`, …). */
  process: string;
  url: string;
  /** False when its /metrics did not answer (the figures are then null). */
  up: boolean;
  requestsPerSecond: number | null;
  /** Null without a request in the last minute. */
  p99Seconds: number | null;
  detail?: string;
}

export interface RecentRequestsStatus {
  /** Sum over the API processes that answered. */
  requestsPerSecond: number;
  /**
   * The highest of the processes' p99s: quantiles of separate processes cannot be merged exactly, but at most 1%
   * of each process's requests is slower than its own p99, so at most 1% of all is slower than this.
   */
  p99SecondsAtMost: number | null;
  processes: ApiRequestsStatus[];
}

const WORKFLOW_TYPES = [
  'mathTaskWorkflow',
  'genomicsTaskWorkflow',
  'importMathRunWorkflow',
  'importGenomicsBundleWorkflow',
] as const;

const STATE_ATTRIBUTE: Partial<Record<(typeof WORKFLOW_TYPES)[number], [string, readonly string[]]>> = {
  mathTaskWorkflow: ['MathReviewState', MATH_REVIEW_STATES],
  genomicsTaskWorkflow: ['GenomicsDisposition', DISPOSITIONS],
};

const EXPIRY_WINDOW_DAYS = 7;

/** `host:port/database` of a PostgreSQL URL, without user or password. */
export function databaseAddress(url: string): string {
  const parsed = new URL(url);
  return `${parsed.host}${parsed.pathname}`;
}

const failureText = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * The one screen an operator reads first: each dependency up or down, the schema version, workflow counts
 * from Temporal visibility, imports and keys about to expire. Every probe has a deadline (`timeoutMs`), so a
 * dependency that is down is named as such instead of hanging the command.
 */
export async function collectStatus(
  config: Config,
  options: { timeoutMs?: number; connectionFile?: ConnectionFile } = {},
): Promise<SystemStatus> {
  const timeoutMs = options.timeoutMs ?? 5_000;
  // The request figures are read first, alongside the probes: they describe the minute before the command.
  const [requests, database, temporal, s3] = await Promise.all([
    recentRequestsStatus(options.connectionFile?.metrics, timeoutMs),
    databaseStatus(config, timeoutMs),
    temporalStatus(config, timeoutMs),
    s3Status(config, timeoutMs),
  ]);
  const dependencies = [database.dependency, ...temporal.dependencies, s3];
  const processes = options.connectionFile ? processesStatus(options.connectionFile) : null;
  const everyProcessRuns =
    !processes ||
    (processes.apis.running === processes.apis.listed &&
      processes.workers.running === processes.workers.listed &&
      (processes.temporal?.running ?? true) &&
      processes.temporalProcesses.every((p) => p.running));
  return {
    ok: dependencies.every((d) => d.up) && !database.schema?.behind && everyProcessRuns,
    dependencies,
    engine: temporal.engine,
    deployment: temporal.deployment,
    processes,
    schema: database.schema,
    workflows: temporal.workflows,
    imports: database.imports,
    keysExpiringSoon: database.keys,
    webhooks: database.webhooks,
    requests,
  };
}

const RATE_GAUGE = 'referee_http_recent_requests_per_second';
const P99_GAUGE = 'referee_http_recent_request_duration_p99_seconds';

/** A gauge's value in Prometheus' text exposition (`name value` or `name{labels} value`); NaN stays NaN. */
export function gaugeValue(exposition: string, name: string): number | undefined {
  const line = exposition.split('\n').find((l) => l.startsWith(`${name} `) || l.startsWith(`${name}{`));
  return line === undefined ? undefined : Number(line.slice(line.lastIndexOf(' ') + 1));
}

/** Reads every API process's last-minute gauges (the connection file's `api`, `api-2`, … metrics URLs). */
async function recentRequestsStatus(
  metrics: Record<string, string> | undefined,
  timeoutMs: number,
): Promise<RecentRequestsStatus | null> {
  const apis = Object.entries(metrics ?? {}).filter(([name]) => /^api(-\d+)?$/.test(name));
  if (apis.length === 0) return null;
  const processes = await Promise.all(
    apis.map(async ([process, url]): Promise<ApiRequestsStatus> => {
      try {
        const response = await fetch(url, { signal: AbortSignal.timeout(timeoutMs) });
        if (!response.ok) throw new Error(`HTTP ${response.status}`);
        const text = await response.text();
        const rate = gaugeValue(text, RATE_GAUGE);
        if (rate === undefined) throw new Error(`no ${RATE_GAUGE}`);
        const p99 = gaugeValue(text, P99_GAUGE);
        return {
          process,
          url,
          up: true,
          requestsPerSecond: rate,
          p99Seconds: p99 === undefined || Number.isNaN(p99) ? null : p99,
        };
      } catch (error) {
        return {
          process,
          url,
          up: false,
          requestsPerSecond: null,
          p99Seconds: null,
          detail: failureText(error),
        };
      }
    }),
  );
  const p99s = processes.flatMap((p) => (p.p99Seconds === null ? [] : [p.p99Seconds]));
  return {
    requestsPerSecond: processes.reduce((sum, p) => sum + (p.requestsPerSecond ?? 0), 0),
    p99SecondsAtMost: p99s.length === 0 ? null : Math.max(...p99s),
    processes,
  };
}

async function databaseStatus(config: Config, timeoutMs: number) {
  const address = databaseAddress(config.databaseUrl);
  const dataSource = createDataSource(config.databaseUrl, 1);
  (dataSource.options.extra as Record<string, unknown>).connectionTimeoutMillis = timeoutMs;
  try {
    await dataSource.initialize();
  } catch (error) {
    return {
      dependency: { name: 'postgresql' as const, up: false, address, detail: failureText(error) },
      schema: null,
      imports: null,
      keys: [],
      webhooks: null,
    };
  }
  try {
    const version = await serverVersion(dataSource);
    const latest = migrations[migrations.length - 1].name;
    const applied = await latestMigration(dataSource);
    const imports = await importCounts(dataSource);
    const oldest = await oldestRunningImport(dataSource);
    const keys = await keysExpiringWithin(dataSource, EXPIRY_WINDOW_DAYS);
    const live = await countLiveWebhookEndpoints(dataSource);
    const unhealthy = await unhealthyWebhookEndpoints(dataSource);
    return {
      webhooks: {
        live,
        unhealthy: unhealthy.map((e) => ({
          id: e.id,
          service: e.service,
          url: e.url,
          status: e.status,
          disabledReason: e.disabled_reason,
          failingSince: e.failing_since?.toISOString() ?? null,
          pending: e.pending,
        })),
      },
      dependency: {
        name: 'postgresql' as const,
        up: true,
        address,
        detail: `PostgreSQL ${version}`,
      },
      schema: { current: applied, latest, behind: applied !== latest },
      imports: {
        running: imports.running,
        failed: imports.failed,
        oldestRunning: oldest
          ? {
              service: oldest.service,
              workflowId: oldest.workflow_id,
              subjectId: oldest.subject_id,
              startedAt: oldest.started_at.toISOString(),
            }
          : null,
      },
      keys: keys.map((k) => ({
        id: k.id,
        service: k.service,
        name: k.name,
        member: k.member,
        expiresAt: k.expires_at.toISOString(),
      })),
    };
  } finally {
    await dataSource.destroy();
  }
}

async function temporalStatus(config: Config, timeoutMs: number) {
  const { address, namespace, taskQueue } = config.temporal;
  const down = (detail: string) => ({
    dependencies: [
      { name: 'temporal' as const, up: false, address, detail },
      { name: 'worker' as const, up: false, address: `task queue ${taskQueue}`, detail: 'Temporal is down' },
    ],
    workflows: [] as WorkflowCounts[],
    engine: null,
    deployment: null as DeploymentStatus | null,
  });
  let connection: Connection;
  try {
    connection = await Connection.connect({ address, connectTimeout: timeoutMs });
  } catch (error) {
    return down(failureText(error));
  }
  try {
    const client = new Client({ connection, namespace });
    const deadline = () => Date.now() + timeoutMs;
    const system = await connection
      .withDeadline(deadline(), () => connection.workflowService.getSystemInfo({}))
      .catch((error: unknown) => error as Error);
    if (system instanceof Error) return down(failureText(system));
    const cluster = await connection.withDeadline(deadline(), () =>
      connection.workflowService.getClusterInfo({}),
    );
    const recently = Date.now() - POLLER_WINDOW_MS;
    const pollers = await Promise.all(
      [
        proto.api.enums.v1.TaskQueueType.TASK_QUEUE_TYPE_WORKFLOW,
        proto.api.enums.v1.TaskQueueType.TASK_QUEUE_TYPE_ACTIVITY,
      ].map((taskQueueType) =>
        connection
          .withDeadline(deadline(), () =>
            connection.workflowService.describeTaskQueue({
              namespace,
              taskQueue: { name: taskQueue },
              taskQueueType,
            }),
          )
          .then((r) =>
            [
              ...new Set(
                (r.pollers ?? [])
                  .filter((p) => timestampMs(p.lastAccessTime) >= recently)
                  .map((p) => p.identity ?? ''),
              ),
            ].sort(),
          ),
      ),
    );
    const workflows: WorkflowCounts[] = [];
    for (const workflowType of WORKFLOW_TYPES) {
      const byStatus: Record<string, number> = {};
      const grouped = await client.withDeadline(deadline(), () =>
        client.workflow.count(`WorkflowType = '${workflowType}' GROUP BY ExecutionStatus`),
      );
      for (const group of grouped.groups) byStatus[String(group.groupValues[0])] = group.count;
      const counts: WorkflowCounts = { workflowType, byStatus };
      const stateAttribute = STATE_ATTRIBUTE[workflowType];
      if (stateAttribute) {
        const [attribute, values] = stateAttribute;
        counts.runningByState = {};
        for (const value of values) {
          const { count } = await client.withDeadline(deadline(), () =>
            client.workflow.count(
              `WorkflowType = '${workflowType}' AND ExecutionStatus = 'Running' AND ${attribute} = '${value}'`,
            ),
          );
          counts.runningByState[value] = count;
        }
      }
      workflows.push(counts);
    }
    const [workflowPollers, activityPollers] = pollers;
    const persistence = cluster.persistenceStore ?? '';
    const engine: EngineStatus = {
      engine: persistence === 'sqlite' ? 'dev server' : 'server',
      serverVersion: cluster.serverVersion ?? system.serverVersion ?? '',
      persistence,
      visibility: cluster.visibilityStore ?? '',
      historyShards: cluster.historyShardCount ?? 0,
      pollers: { workflow: workflowPollers, activity: activityPollers },
      workerProcesses: new Set([...workflowPollers, ...activityPollers]).size,
    };
    const deployment = await client
      .withDeadline(deadline(), () => describeDeployment(client, taskQueue))
      .catch(() => null);
    return {
      engine,
      deployment,
      dependencies: [
        {
          name: 'temporal' as const,
          up: true,
          address,
          detail: `namespace ${namespace}, server ${system.serverVersion || 'unknown version'}`,
        },
        {
          name: 'worker' as const,
          up: workflowPollers.length > 0 && activityPollers.length > 0,
          address: `task queue ${taskQueue}`,
          detail:
            `${engine.workerProcesses} worker process(es) polling: ${workflowPollers.length} on workflow tasks, ` +
            `${activityPollers.length} on activity tasks`,
        },
      ],
      workflows,
    };
  } catch (error) {
    // A call after the first that fails or outlasts its deadline: Temporal is named down with why, never thrown.
    return down(failureText(error));
  } finally {
    await connection.close();
  }
}

/** A poller counts while it polled within this window (an idle poll lasts about a minute). */
const POLLER_WINDOW_MS = 120_000;

const timestampMs = (ts: { seconds?: unknown; nanos?: number | null } | null | undefined): number =>
  ts ? Number(ts.seconds ?? 0) * 1000 + Math.floor((ts.nanos ?? 0) / 1e6) : 0;

function processesStatus(file: ConnectionFile): ProcessesStatus {
  const group = (pids: number[]) => ({
    listed: pids.length,
    running: pids.filter(processAlive).length,
    pids,
  });
  const { processes } = file;
  return {
    apis: group(processes.apis ?? (processes.api ? [processes.api] : [])),
    workers: group(processes.workers ?? (processes.worker ? [processes.worker] : [])),
    temporal: processes.temporal
      ? { pid: processes.temporal, running: processAlive(processes.temporal) }
      : null,
    temporalProcesses: (processes.temporalProcesses ?? []).map(({ name, roles, pid, address }) => ({
      name,
      roles,
      pid,
      address,
      running: processAlive(pid),
    })),
  };
}

async function s3Status(config: Config, timeoutMs: number): Promise<DependencyStatus> {
  const address = `${config.s3.endpoint ?? 'AWS S3'} bucket ${config.s3.bucket}`;
  const s3 = createS3Client(config.s3);
  try {
    await s3.send(new HeadBucketCommand({ Bucket: config.s3.bucket }), {
      abortSignal: AbortSignal.timeout(timeoutMs),
    });
    return { name: 's3', up: true, address, detail: 'bucket reachable' };
  } catch (error) {
    return { name: 's3', up: false, address, detail: failureText(error) };
  } finally {
    s3.destroy();
  }
}
