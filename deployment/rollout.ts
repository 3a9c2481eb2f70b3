import { setTimeout as sleep } from 'node:timers/promises';
import type { Client } from '@temporalio/client';
import {
  describeDeployment,
  MOVABLE_WORKFLOW_TYPES,
  moveWorkflow,
  pinnedToVersion,
  pinnedWorkflowIds,
  deploymentNameOf,
  setCurrentVersion,
  setRampingVersion,
  waitForVersion,
} from './workerDeployments';

/** What a rollout (or a rollback, a rollout to an older build) does; docs/workflow-evolution.md, "Rolling out". */
export interface RolloutPlan {
  taskQueue: string;
  /** The build to make current; its workers poll already (or start within `registerTimeoutMs`). */
  to: string;
  /** Before promoting: send this percentage of new workflows to `to` for `rampForMs`. */
  ramp?: { percentage: number; forMs: number };
  /** How long to wait for `to`'s first worker (default 2 min). */
  registerTimeoutMs?: number;
  /** How long the old version may take to drain: every workflow moved or finished (default 15 min). */
  drainTimeoutMs?: number;
  /** Moves in flight at once (default 8). */
  concurrency?: number;
  identity: string;
  log(line: string): void;
}

export interface RolloutReport {
  from: string | null;
  to: string;
  /** Workflows moved from `from` to `to`. */
  moved: number;
  /** Milliseconds from the start of the rollout: `to` current, every movable workflow moved, `from` drained. */
  promotedAfterMs: number;
  movedAfterMs: number;
  drainedAfterMs: number;
}

/**
 * Ramps (optionally), promotes `to`, moves every task and webhook endpoint workflow pinned to the previous current
 * version onto it, and waits until nothing runs on that version any more (imports finish where they started). The
 * caller stops the old version's workers afterwards. Safe to run again after an interruption: it moves whatever
 * is still pinned to the old version.
 */
export async function rollout(client: Client, plan: RolloutPlan): Promise<RolloutReport> {
  const started = Date.now();
  const since = () => Date.now() - started;
  const { taskQueue, to, log } = plan;
  await waitForVersion(client, taskQueue, to, plan.registerTimeoutMs ?? 120_000);
  const before = await describeDeployment(client, taskQueue);
  const from = before?.currentBuildId ?? null;
  if (from === to) {
    log(`Build ${to} is already current.`);
  } else {
    if (plan.ramp && plan.ramp.percentage > 0) {
      log(
        `Ramping ${plan.ramp.percentage}% of new workflows to build ${to} for ${plan.ramp.forMs / 1000} s.`,
      );
      await setRampingVersion(client, taskQueue, to, plan.ramp.percentage, plan.identity);
      await sleep(plan.ramp.forMs);
    }
    await setCurrentVersion(client, taskQueue, to, plan.identity);
    log(`Build ${to} is current${from ? ` (was ${from})` : ''}: new workflows start on it.`);
  }
  const promotedAfterMs = since();
  // Every version other than `to` that still has pinned workflows drains: the previous current one, and any left
  // over from an interrupted rollout.
  const draining =
    (await describeDeployment(client, taskQueue))?.versions
      .filter((v) => v.buildId !== to && v.pinnedWorkflows > 0)
      .map((v) => v.buildId) ?? [];
  const deadline = Date.now() + (plan.drainTimeoutMs ?? 15 * 60_000);
  let moved = 0;
  for (const old of draining) moved += await moveAll(client, plan, old, deadline);
  const movedAfterMs = since();
  if (moved > 0) log(`Moved ${moved} workflow(s) to build ${to}.`);
  for (const old of draining) await waitDrained(client, plan, old, deadline);
  const drainedAfterMs = since();
  log(
    draining.length > 0
      ? `Build${draining.length > 1 ? 's' : ''} ${draining.join(', ')} drained: nothing is pinned to ${draining.length > 1 ? 'them' : 'it'}.`
      : 'No other build had workflows pinned to it.',
  );
  return { from, to, moved, promotedAfterMs, movedAfterMs, drainedAfterMs };
}

/** Moves every movable workflow pinned to `old`, a few at a time, until none is left (new ones may appear). */
async function moveAll(client: Client, plan: RolloutPlan, old: string, deadline: number): Promise<number> {
  let moved = 0;
  for (;;) {
    const pinned = await pinnedWorkflowIds(client, plan.taskQueue, old, MOVABLE_WORKFLOW_TYPES);
    if (pinned.length === 0) return moved;
    const queue = [...pinned];
    const failures: string[] = [];
    const mover = async () => {
      for (let next = queue.shift(); next; next = queue.shift()) {
        try {
          const outcome = await moveWorkflow(
            client,
            plan.taskQueue,
            next.workflowId,
            old,
            plan.to,
            Math.max(1000, deadline - Date.now()),
          );
          if (outcome === 'moved') moved += 1;
        } catch (error) {
          failures.push(`${next.workflowId}: ${error instanceof Error ? error.message : String(error)}`);
        }
      }
    };
    await Promise.all(Array.from({ length: plan.concurrency ?? 8 }, mover));
    if (Date.now() > deadline)
      throw new Error(
        `build ${old} did not drain in time; could not move: ${failures.slice(0, 5).join('; ')}`,
      );
    // Visibility lags the moves by up to a second: look again before the next pass.
    await sleep(1000);
  }
}

/** Waits until no running workflow is pinned to `old` (imports finish there). */
async function waitDrained(client: Client, plan: RolloutPlan, old: string, deadline: number): Promise<void> {
  const query = pinnedToVersion(deploymentNameOf(plan.taskQueue), old);
  let told = false;
  for (;;) {
    const { count } = await client.workflow.count(query);
    if (count === 0) return;
    if (Date.now() > deadline) throw new Error(`build ${old} still has ${count} running workflow(s) pinned`);
    if (!told)
      plan.log(
        `Waiting for ${count} workflow(s) to finish on build ${old} (imports finish where they start).`,
      );
    told = true;
    // Movable workflows that continued as new on their own meanwhile are moved too.
    const movable = await pinnedWorkflowIds(client, plan.taskQueue, old, MOVABLE_WORKFLOW_TYPES);
    if (movable.length > 0) await moveAll(client, plan, old, deadline);
    await sleep(1000);
  }
}
