import { setTimeout as sleep } from 'node:timers/promises';
import type { Client } from '@temporalio/client';
import { temporal as proto } from '@temporalio/proto';
import { moveToCurrentVersionSignal, resumeAfterMoveSignal } from '../workflows/versioning';

/*
 * Worker Deployments as Referee uses them (docs/workflow-evolution.md, "Versioning"): one deployment per task queue,
 * named after it; one version per build ID. The calls are the workflow service's (the TS client has no wrapper for
 * them in 1.24).
 */

/** The deployment of the workers polling `taskQueue`. */
export const deploymentNameOf = (taskQueue: string): string => taskQueue;

/** The `TemporalWorkerDeploymentVersion` values of a version (server 1.29 writes `name:build`; 1.28 `name.build`). */
const versionKeys = (deployment: string, buildId: string) => [
  `${deployment}:${buildId}`,
  `${deployment}.${buildId}`,
];

/** A visibility filter: running workflows pinned to one version. */
export const pinnedToVersion = (deployment: string, buildId: string): string =>
  `ExecutionStatus = 'Running' AND TemporalWorkerDeploymentVersion IN (${versionKeys(deployment, buildId)
    .map((key) => `'${key}'`)
    .join(', ')})`;

/** The workflow types that move to a new build at continue-as-new; the rest (imports) finish where they started. */
export const MOVABLE_WORKFLOW_TYPES = [
  'mathTaskWorkflow',
  'genomicsTaskWorkflow',
  'webhookEndpointWorkflow',
] as const;

export interface VersionStatus {
  buildId: string;
  /** Current: new workflows start on it; ramping: a share of them does; draining: workflows are still pinned to it. */
  role: 'current' | 'ramping' | 'draining' | 'drained' | 'inactive';
  /** The ramping version's share of new workflows, in percent. */
  rampingPercentage?: number;
  /** Identities of the worker processes polling as this version (within the last two minutes). */
  workers: string[];
  /** Running workflows pinned to this version. */
  pinnedWorkflows: number;
  createdAt: string | null;
}

export interface DeploymentStatus {
  name: string;
  currentBuildId: string | null;
  rampingBuildId: string | null;
  versions: VersionStatus[];
  /** Worker processes polling without a version (older builds). */
  unversionedWorkers: string[];
}

const { WorkerDeploymentVersionStatus: VersionStatusEnum, TaskQueueType } = proto.api.enums.v1;

const timestampMs = (ts: { seconds?: unknown; nanos?: number | null } | null | undefined): number =>
  ts ? Number(ts.seconds ?? 0) * 1000 + Math.floor((ts.nanos ?? 0) / 1e6) : 0;

const isNotFound = (error: unknown) => (error as { code?: number })?.code === 5;

/** A poller counts while it polled within this window (an idle poll lasts about a minute). */
const POLLER_WINDOW_MS = 120_000;

/** The pollers of the task queue (workflow and activity), as build ID → identities ('' for unversioned). */
async function pollersByBuild(connection: Client['connection'], namespace: string, taskQueue: string) {
  const recently = Date.now() - POLLER_WINDOW_MS;
  const byBuild = new Map<string, Set<string>>();
  for (const taskQueueType of [
    TaskQueueType.TASK_QUEUE_TYPE_WORKFLOW,
    TaskQueueType.TASK_QUEUE_TYPE_ACTIVITY,
  ]) {
    const { pollers } = await connection.workflowService.describeTaskQueue({
      namespace,
      taskQueue: { name: taskQueue },
      taskQueueType,
    });
    for (const poller of pollers ?? []) {
      if (timestampMs(poller.lastAccessTime) < recently) continue;
      const buildId = poller.deploymentOptions?.buildId ?? '';
      if (!byBuild.has(buildId)) byBuild.set(buildId, new Set());
      byBuild.get(buildId)!.add(poller.identity ?? '');
    }
  }
  return byBuild;
}

/** The deployment of `taskQueue`: its versions with their role, workers and pinned workflows; null before any. */
export async function describeDeployment(
  client: Client,
  taskQueue: string,
): Promise<DeploymentStatus | null> {
  const { connection, options } = client;
  const namespace = options.namespace;
  const name = deploymentNameOf(taskQueue);
  const pollers = await pollersByBuild(connection, namespace, taskQueue);
  let info: proto.api.deployment.v1.IWorkerDeploymentInfo | null | undefined;
  // A deployment whose versioned workers poll exists; the server may still answer NOT_FOUND for a moment while it
  // registers a version (its entity workflow is busy), so that answer is asked again for a few seconds.
  const versionedPollers = [...pollers.keys()].some((buildId) => buildId !== '');
  for (let attempt = 0; ; attempt++) {
    try {
      info = (await connection.workflowService.describeWorkerDeployment({ namespace, deploymentName: name }))
        .workerDeploymentInfo;
      break;
    } catch (error) {
      if (!isNotFound(error)) throw error;
      if (!versionedPollers || attempt >= 10) return null;
      await sleep(500);
    }
  }
  const routing = info?.routingConfig;
  const currentBuildId = routing?.currentDeploymentVersion?.buildId || null;
  const rampingBuildId = routing?.rampingDeploymentVersion?.buildId || null;
  const versions: VersionStatus[] = [];
  for (const summary of info?.versionSummaries ?? []) {
    const buildId = summary.deploymentVersion?.buildId ?? '';
    if (!buildId) continue;
    const { count } = await client.workflow.count(pinnedToVersion(name, buildId));
    const status = summary.status ?? VersionStatusEnum.WORKER_DEPLOYMENT_VERSION_STATUS_UNSPECIFIED;
    const role: VersionStatus['role'] =
      buildId === currentBuildId
        ? 'current'
        : buildId === rampingBuildId
          ? 'ramping'
          : count > 0 || status === VersionStatusEnum.WORKER_DEPLOYMENT_VERSION_STATUS_DRAINING
            ? 'draining'
            : status === VersionStatusEnum.WORKER_DEPLOYMENT_VERSION_STATUS_DRAINED
              ? 'drained'
              : 'inactive';
    versions.push({
      buildId,
      role,
      ...(role === 'ramping' ? { rampingPercentage: routing?.rampingVersionPercentage ?? 0 } : {}),
      workers: [...(pollers.get(buildId) ?? [])].sort(),
      pinnedWorkflows: count,
      createdAt: summary.createTime ? new Date(timestampMs(summary.createTime)).toISOString() : null,
    });
  }
  const order = { current: 0, ramping: 1, draining: 2, inactive: 3, drained: 4 };
  versions.sort(
    (a, b) => order[a.role] - order[b.role] || (b.createdAt ?? '').localeCompare(a.createdAt ?? ''),
  );
  return {
    name,
    currentBuildId,
    rampingBuildId,
    versions,
    unversionedWorkers: [...(pollers.get('') ?? [])].sort(),
  };
}

/** The build ID of the deployment's current version; null while it has none (or does not exist). */
export async function currentBuildIdOf(client: Client, taskQueue: string): Promise<string | null> {
  try {
    const { workerDeploymentInfo } = await client.connection.workflowService.describeWorkerDeployment({
      namespace: client.options.namespace,
      deploymentName: deploymentNameOf(taskQueue),
    });
    return workerDeploymentInfo?.routingConfig?.currentDeploymentVersion?.buildId || null;
  } catch (error) {
    if (isNotFound(error)) return null;
    throw error;
  }
}

/** Makes `buildId` the current version: new workflows start on it, and ends any ramp. */
export async function setCurrentVersion(
  client: Client,
  taskQueue: string,
  buildId: string,
  identity: string,
) {
  await client.connection.workflowService.setWorkerDeploymentCurrentVersion({
    namespace: client.options.namespace,
    deploymentName: deploymentNameOf(taskQueue),
    buildId,
    identity,
    ignoreMissingTaskQueues: true,
  });
}

/** Sends `percentage` of new workflows to `buildId` (0 to 100); `buildId` '' ends the ramp. */
export async function setRampingVersion(
  client: Client,
  taskQueue: string,
  buildId: string,
  percentage: number,
  identity: string,
) {
  await client.connection.workflowService.setWorkerDeploymentRampingVersion({
    namespace: client.options.namespace,
    deploymentName: deploymentNameOf(taskQueue),
    buildId,
    percentage: buildId ? percentage : 0,
    identity,
    ignoreMissingTaskQueues: true,
  });
}

/** Waits until a worker of `buildId` has registered its version with the deployment (its first poll). */
export async function waitForVersion(client: Client, taskQueue: string, buildId: string, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      await client.connection.workflowService.describeWorkerDeploymentVersion({
        namespace: client.options.namespace,
        deploymentVersion: { deploymentName: deploymentNameOf(taskQueue), buildId },
      });
      return;
    } catch (error) {
      if (!isNotFound(error) || Date.now() > deadline)
        throw new Error(
          `no worker of build ${buildId} registered with deployment ${deploymentNameOf(taskQueue)} ` +
            `within ${timeoutMs / 1000} s`,
          { cause: error },
        );
    }
    await sleep(500);
  }
}

/**
 * The first start of a deployment: makes the worker's own version current when the deployment has none (or does
 * not exist yet), so workflows have somewhere to run. Any later build becomes current by a rollout; a worker
 * never replaces a current version. Returns whether it promoted.
 */
export async function promoteIfNoCurrentVersion(
  client: Client,
  taskQueue: string,
  buildId: string,
  identity: string,
  timeoutMs = 60_000,
): Promise<boolean> {
  await waitForVersion(client, taskQueue, buildId, timeoutMs);
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    // The version can be visible a moment before its deployment is: not found reads as no current version yet.
    if (await currentBuildIdOf(client, taskQueue)) return false;
    try {
      await setCurrentVersion(client, taskQueue, buildId, identity);
      return true;
    } catch (error) {
      // Another worker of the first build may be promoting at the same moment: look again.
      if (Date.now() > deadline) throw error;
      await sleep(500);
    }
  }
}

/** How one run is moved, for the rollout's log. */
export type MoveOutcome = 'moved' | 'closed' | 'elsewhere';

/** The run's version and whether it started parked (its start argument says so). */
async function runVersion(client: Client, workflowId: string) {
  const description = await client.workflow.getHandle(workflowId).describe();
  const info = description.raw.workflowExecutionInfo;
  const versioning = info?.versioningInfo;
  const pinnedBuild =
    versioning?.versioningOverride?.pinned?.version?.buildId ??
    versioning?.deploymentVersion?.buildId ??
    null;
  return { runId: description.runId, running: description.status.name === 'RUNNING', pinnedBuild };
}

/** Events a parked run has before anything but its parking timer was issued: nothing for another build to replay. */
const PARKED_EVENTS = new Set(
  [
    'WORKFLOW_EXECUTION_STARTED',
    'WORKFLOW_TASK_SCHEDULED',
    'WORKFLOW_TASK_STARTED',
    'WORKFLOW_TASK_COMPLETED',
    'WORKFLOW_TASK_TIMED_OUT',
    'WORKFLOW_TASK_FAILED',
    'TIMER_STARTED',
    'TIMER_FIRED',
    'WORKFLOW_EXECUTION_SIGNALED',
    'WORKFLOW_EXECUTION_OPTIONS_UPDATED',
    'WORKFLOW_EXECUTION_UPDATE_ADMITTED',
    'WORKFLOW_EXECUTION_UPDATE_ACCEPTED',
  ].map(
    (name) => proto.api.enums.v1.EventType[`EVENT_TYPE_${name}` as keyof typeof proto.api.enums.v1.EventType],
  ),
);

/** Whether the run started parked and is still so (it issued nothing but its timer): it can move as it is. */
async function stillParked(client: Client, workflowId: string, runId: string): Promise<boolean> {
  const events = await historyOf(client, workflowId, runId);
  const payload = events[0]?.workflowExecutionStartedEventAttributes?.input?.payloads?.[0];
  if (!payload?.data) return false;
  try {
    const input = JSON.parse(Buffer.from(payload.data).toString('utf8')) as { parked?: boolean };
    if (input.parked !== true) return false;
  } catch {
    return false;
  }
  return events.every((e) => PARKED_EVENTS.has(e.eventType ?? 0));
}

/**
 * Moves one workflow pinned to `from` onto `to` (workflows/versioning.ts): asks its run to continue as new parked,
 * waits for that run, pins it to `to` with a versioning override (it has issued nothing but its parking timer), and
 * resumes it. Updates sent meanwhile wait in the parked run and are decided on `to`.
 */
export async function moveWorkflow(
  client: Client,
  taskQueue: string,
  workflowId: string,
  from: string,
  to: string,
  timeoutMs: number,
): Promise<MoveOutcome> {
  const deadline = Date.now() + timeoutMs;
  let run = await runVersion(client, workflowId);
  if (!run.running) return 'closed';
  if (run.pinnedBuild !== from) return 'elsewhere';
  if (!(await stillParked(client, workflowId, run.runId))) {
    const previous = run.runId;
    try {
      await client.workflow.getHandle(workflowId, previous).signal(moveToCurrentVersionSignal);
    } catch (error) {
      if (!isNotFoundError(error)) throw error;
    }
    for (;;) {
      run = await runVersion(client, workflowId);
      if (run.runId !== previous || !run.running) break;
      if (Date.now() > deadline)
        throw new Error(`${workflowId} did not continue as new within ${timeoutMs / 1000} s`);
      await sleep(250);
    }
    if (!run.running) return 'closed';
  }
  // The parked run's first task (its timer) is done first: an old worker completing it after the override would
  // make itself the run's sticky worker again.
  await firstTaskCompleted(client, workflowId, run.runId, deadline);
  await client.connection.workflowService.updateWorkflowExecutionOptions({
    namespace: client.options.namespace,
    workflowExecution: { workflowId, runId: run.runId },
    workflowExecutionOptions: {
      versioningOverride: {
        pinned: {
          behavior:
            proto.api.workflow.v1.VersioningOverride.PinnedOverrideBehavior.PINNED_OVERRIDE_BEHAVIOR_PINNED,
          version: { deploymentName: deploymentNameOf(taskQueue), buildId: to },
        },
      },
    },
    updateMask: { paths: ['versioning_override'] },
  });
  // Resumed once a worker of `to` handles the signal (a worker of another build ignores it): the run's next task
  // would otherwise go to the sticky queue of the old worker that cached it, which takes it whatever the override
  // says; without stickiness it goes through the task queue, routed to the new version.
  for (;;) {
    await client.connection.workflowService.resetStickyTaskQueue({
      namespace: client.options.namespace,
      execution: { workflowId, runId: run.runId },
    });
    const signalled = await lastEventId(client, workflowId, run.runId);
    await client.workflow.getHandle(workflowId, run.runId).signal(resumeAfterMoveSignal, to);
    if (
      await taskCompletedOn(
        client,
        workflowId,
        run.runId,
        signalled,
        to,
        Math.min(deadline, Date.now() + 5000),
      )
    )
      break;
    if (Date.now() > deadline) throw new Error(`${workflowId} was not resumed on build ${to} in time`);
  }
  return 'moved';
}

async function historyOf(client: Client, workflowId: string, runId: string) {
  return (await client.workflow.getHandle(workflowId, runId).fetchHistory()).events ?? [];
}

const lastEventId = async (client: Client, workflowId: string, runId: string): Promise<number> =>
  Number((await historyOf(client, workflowId, runId)).at(-1)?.eventId ?? 0);

/** Waits until the run's first workflow task has completed and no other is scheduled or running. */
async function firstTaskCompleted(client: Client, workflowId: string, runId: string, deadline: number) {
  for (;;) {
    const description = await client.workflow.getHandle(workflowId, runId).describe();
    const events = await historyOf(client, workflowId, runId);
    if (!description.raw.pendingWorkflowTask && events.some((e) => e.workflowTaskCompletedEventAttributes))
      return;
    if (Date.now() > deadline) throw new Error(`${workflowId}'s parked run did not start in time`);
    await sleep(100);
  }
}

/** Whether a workflow task after event `afterEventId` completes on build `buildId` before `deadline`. */
async function taskCompletedOn(
  client: Client,
  workflowId: string,
  runId: string,
  afterEventId: number,
  buildId: string,
  deadline: number,
): Promise<boolean> {
  for (;;) {
    const completed = (await historyOf(client, workflowId, runId)).filter(
      (e) => Number(e.eventId) > afterEventId && e.workflowTaskCompletedEventAttributes,
    );
    if (completed.some((e) => e.workflowTaskCompletedEventAttributes?.deploymentVersion?.buildId === buildId))
      return true;
    if (Date.now() > deadline) return false;
    await sleep(100);
  }
}

const isNotFoundError = (error: unknown) =>
  (error as { name?: string })?.name === 'WorkflowNotFoundError' || isNotFound(error);

/** The ids of running workflows pinned to `buildId`, of the given types (all types when none are given). */
export async function pinnedWorkflowIds(
  client: Client,
  taskQueue: string,
  buildId: string,
  types?: readonly string[],
): Promise<Array<{ workflowId: string; type: string }>> {
  const typeFilter = types ? ` AND WorkflowType IN (${types.map((t) => `'${t}'`).join(', ')})` : '';
  const found: Array<{ workflowId: string; type: string }> = [];
  for await (const workflow of client.workflow.list({
    query: pinnedToVersion(deploymentNameOf(taskQueue), buildId) + typeFilter,
  })) {
    found.push({ workflowId: workflow.workflowId, type: workflow.type });
  }
  return found;
}

/** One line per version of a deployment: role, workers, pinned workflows (the banner and `referee status`). */
export function describeVersions(deployment: DeploymentStatus): string[] {
  const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
  return [
    `worker deployment ${deployment.name}: ${plural(deployment.versions.length, 'version')}` +
      (deployment.unversionedWorkers.length > 0
        ? `, ${plural(deployment.unversionedWorkers.length, 'unversioned worker')}`
        : ''),
    ...deployment.versions.map(
      (v) =>
        `  ${v.buildId} ${v.role}${v.rampingPercentage !== undefined ? ` ${v.rampingPercentage}%` : ''}: ` +
        `${plural(v.workers.length, 'worker')}${v.workers.length > 0 ? ` (${v.workers.join(', ')})` : ''}, ` +
        `${plural(v.pinnedWorkflows, 'pinned workflow')}`,
    ),
  ];
}
