import { spawn } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Client } from '@temporalio/client';
import type { SystemAccess } from '../bench/system';
import type { SupervisedRolloutReport } from '../infra/launcherControl';
import { projectRoot } from '../infra/paths';
import { CLI_NODE_FLAGS } from '../infra/processes';
import { deploymentNameOf, pinnedToVersion } from '../deployment/workerDeployments';
import { genomicsTaskWorkflowId } from '../workflows/genomicsTask/ids';
import { mathTaskWorkflowId } from '../workflows/mathTask/ids';
import type { Cluster } from './chaosCluster';
import type { Load } from './chaosLoad';
import { type Check, markdownTable } from './results';

/** The changed build the drill rolls out: one more search-attribute upsert per transition (workflows/variant.ts). */
export const ROLLOUT_VARIANT = 'extra-upsert';

const TASK_WORKFLOW_TYPES = ['mathTaskWorkflow', 'genomicsTaskWorkflow'];

/** One step of the drill: `referee workers rollout` to the changed build, or `referee workers rollback`. */
export interface RolloutStep {
  step: 'rollout' | 'rollback';
  report: SupervisedRolloutReport | null;
  /** What the command said when it failed. */
  error?: string;
  /** From the command's start until no running task workflow is on another build than the new one (null: never). */
  tasksOnNewBuildMs: number | null;
  /** Task workflows that received a change after the move finished, and of those the ones on the new build. */
  updatedAfterMove: number;
  updatedAfterMoveOnNewBuild: number;
  unavailable: number;
  unavailableWithoutRetryAfter: number;
  dropped: number;
}

export interface RolloutDrillResult {
  steps: RolloutStep[];
  /** `TMPRL1100` (nondeterminism) lines in every worker log of the run. */
  nondeterminismErrors: number;
}

/**
 * The rollout drill (docs/chaos.md, "Rollout"): under the load, `referee workers rollout` of the checkout built as
 * the `extra-upsert` variant (its task workflows issue a command the running ones do not, and no patch guards it),
 * then `referee workers rollback`, each one command against the launcher that supervises the workers. Measures each
 * step and what the load met meanwhile; afterwards counts nondeterminism errors in every worker's log.
 */
export async function rolloutDrill(
  cluster: Cluster,
  access: SystemAccess,
  load: Load,
  plan: { deadline: number; log: (line: string) => void },
): Promise<RolloutDrillResult> {
  // A minute of steady load first, as before the chaos faults (less in a short run).
  await sleep(Math.max(0, Math.min(60_000, (plan.deadline - Date.now()) / 4)));
  const steps: RolloutStep[] = [];
  steps.push(await step('rollout', cluster, access, load, plan.log));
  await sleep(Math.max(0, Math.min(30_000, (plan.deadline - Date.now()) / 3)));
  steps.push(await step('rollback', cluster, access, load, plan.log));
  return { steps, nondeterminismErrors: 0 };
}

/** Counts `TMPRL1100` in every worker log of the run (after the load, so late failures count too). */
export async function countNondeterminismErrors(dataDir: string): Promise<number> {
  const logs = join(dataDir, 'logs');
  let found = 0;
  for (const name of await readdir(logs)) {
    if (!name.startsWith('worker')) continue;
    const text = await readFile(join(logs, name), 'utf8');
    found += text.split('TMPRL1100').length - 1;
  }
  return found;
}

async function step(
  kind: RolloutStep['step'],
  cluster: Cluster,
  access: SystemAccess,
  load: Load,
  log: (line: string) => void,
): Promise<RolloutStep> {
  const before = {
    unavailable: load.counters.unavailable,
    withoutRetryAfter: load.counters.unavailableWithoutRetryAfter,
    dropped: load.counters.connectionsDropped,
  };
  const started = Date.now();
  log(`${kind}: npx referee workers ${kind}`);
  let target: string | null = null;
  let tasksOnNewBuildMs: number | null = null;
  /** Set when the command has returned: the watcher looks on for a minute at most. */
  let watchUntil = Infinity;
  // Watches visibility while the command runs (and a little after): when does no task workflow run elsewhere?
  const watcher = (async () => {
    while (Date.now() < watchUntil) {
      if (
        target &&
        tasksOnNewBuildMs === null &&
        (await allTasksOn(access.temporal, access.config.temporal.taskQueue, target))
      )
        tasksOnNewBuildMs = Date.now() - started;
      if (watchUntil !== Infinity && tasksOnNewBuildMs !== null) return;
      await sleep(1000);
    }
  })();
  const outcome = await runRolloutCommand(kind, cluster, access.env, (line) => {
    log(`${kind}: ${line}`);
    const current = /^Build (\S+) is current/.exec(line);
    if (current) target = current[1];
  });
  watchUntil = Date.now() + 60_000;
  if (outcome.report) target = outcome.report.to;
  await watcher;
  const finished = Date.now();
  // Every task that received a change after the move finished: its workflow runs the new build.
  const movedAt = outcome.report ? outcome.report.startedAt + outcome.report.movedAfterMs : finished;
  await sleep(10_000);
  const subjects = new Map<string, string>();
  for (const a of load.acknowledged)
    if (a.at > movedAt)
      subjects.set(
        a.subject,
        a.service === 'math' ? mathTaskWorkflowId(a.subject) : genomicsTaskWorkflowId(a.subject),
      );
  let onNew = 0;
  for (const workflowId of subjects.values())
    if (target && (await runsOn(access.temporal, workflowId)) === target) onNew += 1;
  // The launcher's times count from when it got the request; the table counts from the command's start.
  const fromCommand = (report: SupervisedRolloutReport): SupervisedRolloutReport => {
    const shift = report.startedAt - started;
    return {
      ...report,
      workersStartedAfterMs: report.workersStartedAfterMs + shift,
      promotedAfterMs: report.promotedAfterMs + shift,
      movedAfterMs: report.movedAfterMs + shift,
      drainedAfterMs: report.drainedAfterMs + shift,
      oldWorkersStoppedAfterMs: report.oldWorkersStoppedAfterMs + shift,
    };
  };
  const result: RolloutStep = {
    step: kind,
    report: outcome.report && fromCommand(outcome.report),
    error: outcome.error,
    tasksOnNewBuildMs,
    updatedAfterMove: subjects.size,
    updatedAfterMoveOnNewBuild: onNew,
    unavailable: load.counters.unavailable - before.unavailable,
    unavailableWithoutRetryAfter: load.counters.unavailableWithoutRetryAfter - before.withoutRetryAfter,
    dropped: load.counters.connectionsDropped - before.dropped,
  };
  log(
    `${kind}: ${result.report ? `build ${result.report.to} current, old workers stopped after ${(result.report.oldWorkersStoppedAfterMs / 1000).toFixed(1)} s` : `FAILED: ${outcome.error}`}; ` +
      `${onNew} of ${subjects.size} tasks changed afterwards on the new build`,
  );
  return result;
}

/** Whether every running task workflow is pinned to `buildId` (visibility). */
async function allTasksOn(client: Client, taskQueue: string, buildId: string): Promise<boolean> {
  const types = ` AND WorkflowType IN (${TASK_WORKFLOW_TYPES.map((t) => `'${t}'`).join(', ')})`;
  const [all, onBuild] = await Promise.all([
    client.workflow.count(`ExecutionStatus = 'Running'${types}`),
    client.workflow.count(pinnedToVersion(deploymentNameOf(taskQueue), buildId) + types),
  ]);
  return all.count === onBuild.count;
}

/** The build a workflow's current run is pinned to. */
async function runsOn(client: Client, workflowId: string): Promise<string | undefined> {
  const versioning = (await client.workflow.getHandle(workflowId).describe()).raw.workflowExecutionInfo
    ?.versioningInfo;
  return (
    versioning?.versioningOverride?.pinned?.version?.buildId ??
    versioning?.deploymentVersion?.buildId ??
    undefined
  );
}

/** Runs `referee workers rollout|rollback --json` as an operator does, streaming its progress lines. */
function runRolloutCommand(
  kind: RolloutStep['step'],
  cluster: Cluster,
  env: NodeJS.ProcessEnv,
  onLine: (line: string) => void,
): Promise<{ report: SupervisedRolloutReport | null; error?: string }> {
  return new Promise((resolve) => {
    const child = spawn(
      process.execPath,
      [...CLI_NODE_FLAGS, join(projectRoot, 'bin', 'referee.js'), 'workers', kind, '--json'],
      {
        cwd: projectRoot,
        env: {
          ...env,
          REFEREE_DATA_DIR: cluster.dataDir,
          ...(kind === 'rollout' ? { REFEREE_WORKFLOW_VARIANT: ROLLOUT_VARIANT } : {}),
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let stdout = '';
    let partial = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => {
      partial += chunk.toString();
      const lines = partial.split('\n');
      partial = lines.pop()!;
      for (const line of lines) if (line.trim()) onLine(line);
    });
    child.once('exit', (code) => {
      try {
        const result = JSON.parse(stdout.trim().split('\n').at(-1) ?? '') as {
          ok: boolean;
          rollout?: SupervisedRolloutReport;
          error?: { message?: string };
        };
        if (result.ok && result.rollout) return resolve({ report: result.rollout });
        resolve({ report: null, error: result.error?.message ?? `exit ${code}` });
      } catch {
        resolve({ report: null, error: `exit ${code}: ${stdout.slice(-500)}` });
      }
    });
  });
}

const s = (ms: number | null | undefined) =>
  ms === null || ms === undefined ? 'never' : `${(ms / 1000).toFixed(1)}`;

/** The drill's table: one row per step, timed from the command's start. */
export function rolloutTable(result: RolloutDrillResult): string[] {
  return [
    markdownTable(
      [
        'step (one command)',
        'builds',
        "new build's workers started (s)",
        'promoted (s)',
        'every task workflow on the new build (s)',
        'workflows moved',
        'old build drained (s)',
        'old workers stopped (s)',
        'tasks changed afterwards, on the new build',
        '503 answers (without Retry-After)',
        'dropped connections',
      ],
      result.steps.map((step) => [
        `\`referee workers ${step.step}\``,
        step.report ? `${step.report.from ?? '–'} → ${step.report.to}` : `failed: ${step.error ?? ''}`,
        s(step.report?.workersStartedAfterMs),
        s(step.report?.promotedAfterMs),
        s(step.tasksOnNewBuildMs),
        `${step.report?.moved ?? '–'}`,
        s(step.report?.drainedAfterMs),
        s(step.report?.oldWorkersStoppedAfterMs),
        `${step.updatedAfterMoveOnNewBuild} of ${step.updatedAfterMove}`,
        `${step.unavailable} (${step.unavailableWithoutRetryAfter})`,
        `${step.dropped}`,
      ]),
    ),
    '',
    `Nondeterminism errors (\`TMPRL1100\`) in the worker logs: ${result.nondeterminismErrors}.`,
  ];
}

/** The drill's own checks (the ledger's lost and duplicated changes and the 503s are the chaos run's). */
export function rolloutChecks(result: RolloutDrillResult): Check[] {
  return [
    {
      ok: result.nondeterminismErrors === 0,
      text: `${result.nondeterminismErrors} TMPRL1100 lines in the worker logs`,
    },
    ...result.steps.map((step) => ({
      ok:
        step.report !== null &&
        step.tasksOnNewBuildMs !== null &&
        step.updatedAfterMoveOnNewBuild === step.updatedAfterMove,
      text:
        `${step.step}: ${step.report ? `build ${step.report.to} current, every task workflow on it after ${s(step.tasksOnNewBuildMs)} s` : `failed (${step.error})`}, ` +
        `${step.updatedAfterMoveOnNewBuild} of ${step.updatedAfterMove} tasks changed afterwards on it`,
    })),
  ];
}
