import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { WorkflowHandle } from '@temporalio/client';
import { temporal as proto } from '@temporalio/proto';
import { workerBuildId } from '../../deployment/buildId';
import { projectRoot } from '../../infra/paths';
import { rollout } from '../../deployment/rollout';
import { collectStatus } from '../../cli/operator/status';
import { describeDeployment } from '../../deployment/workerDeployments';
import { buildWorkflowBundle } from '../../deployment/workflowBundle';
import { type RunningWorker, startWorker } from '../../worker';
import { mathTaskWorkflowId } from '../../workflows/mathTask/ids';
import { act } from '../helpers/math';
import { type DemoWorld, setupDemoWorld } from '../helpers/reliability';
import { startStack, type TestStack } from '../helpers/stack';

/** The build a run is pinned to: its versioning override's, else the version its last workflow task ran on. */
async function pinnedBuild(handle: WorkflowHandle): Promise<string | undefined> {
  const versioning = (await handle.describe()).raw.workflowExecutionInfo?.versioningInfo;
  return (
    versioning?.versioningOverride?.pinned?.version?.buildId ??
    versioning?.deploymentVersion?.buildId ??
    undefined
  );
}

const eventTypes = async (stack: TestStack, workflowId: string, runId: string): Promise<string[]> =>
  ((await stack.temporal.workflow.getHandle(workflowId, runId).fetchHistory()).events ?? []).map(
    (e) => proto.api.enums.v1.EventType[e.eventType ?? 0],
  );

/** The event types of the workflow's current run. */
const currentRun = async (stack: TestStack, workflowId: string) =>
  eventTypes(stack, workflowId, (await stack.temporal.workflow.getHandle(workflowId).describe()).runId);

/** Every run of a workflow with the event types of its history. */
async function runs(
  stack: TestStack,
  workflowId: string,
): Promise<Array<{ runId: string; events: string[] }>> {
  const found: Array<{ runId: string; events: string[] }> = [];
  for await (const run of stack.temporal.workflow.list({ query: `WorkflowId = '${workflowId}'` }))
    found.push({ runId: run.runId, events: await eventTypes(stack, workflowId, run.runId) });
  return found;
}

const count = (events: string[], type: string) => events.filter((e) => e === `EVENT_TYPE_${type}`).length;

describe('worker versioning: a rollout moves running task workflows to a build that issues other commands', () => {
  let stack: TestStack;
  let world: DemoWorld;
  let changedWorker: RunningWorker | undefined;
  let dir: string;

  beforeAll(async () => {
    stack = await startStack();
    world = await setupDemoWorld(stack);
    dir = await mkdtemp(join(tmpdir(), 'referee-versioning-'));
  }, 180_000);

  afterAll(async () => {
    await changedWorker?.shutdown();
    await stack?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('moves a pinned run to the new build at its next update without a patch, and back on rollback', async () => {
    const { taskQueue } = stack.config.temporal;
    const taskId = 'demo-q2-a';
    const workflowId = mathTaskWorkflowId(taskId);
    const handle = stack.temporal.workflow.getHandle(workflowId);
    const original = stack.worker.version.buildId;
    await act(stack, world.math.owner, taskId, { action: 'feedback', comment: 'On the first build.' });
    expect(await pinnedBuild(handle)).toBe(original);

    // The changed build: one more search-attribute upsert per transition, which no history of the first build has.
    const bundle = join(dir, 'workflow-bundle-extra-upsert.js');
    await buildWorkflowBundle(bundle, 'extra-upsert');
    const changed = workerBuildId(projectRoot, { REFEREE_WORKFLOW_VARIANT: 'extra-upsert' });
    expect(changed).not.toBe(original);
    changedWorker = await startWorker(
      { ...stack.config, temporal: { ...stack.config.temporal, workerBuildId: changed } },
      { workflowBundle: { codePath: bundle } },
    );
    const beside = await describeDeployment(stack.temporal, taskQueue);
    expect(beside?.currentBuildId).toBe(original);
    const byBuild = new Map(beside?.versions.map((v) => [v.buildId, v]));
    expect(byBuild.get(original)).toMatchObject({ role: 'current', workers: [expect.any(String)] });
    expect(byBuild.get(original)!.pinnedWorkflows).toBeGreaterThan(0);
    expect(byBuild.get(changed)).toMatchObject({ workers: [expect.any(String)], pinnedWorkflows: 0 });

    const lines: string[] = [];
    const report = await rollout(stack.temporal, {
      taskQueue,
      to: changed,
      identity: 'workerVersioning.test',
      log: (line) => lines.push(line),
    });
    expect(report).toMatchObject({ from: original, to: changed });
    expect(report.moved).toBeGreaterThan(0);
    expect(await pinnedBuild(handle)).toBe(changed);

    // The next update is decided on the changed build: it answers, and its transition carries the extra upsert.
    await act(stack, world.math.owner, taskId, { action: 'feedback', comment: 'On the changed build.' });
    const current = await currentRun(stack, workflowId);
    expect(count(current, 'WORKFLOW_EXECUTION_UPDATE_COMPLETED')).toBe(1);
    expect(count(current, 'UPSERT_WORKFLOW_SEARCH_ATTRIBUTES')).toBeGreaterThanOrEqual(1);
    const after = await describeDeployment(stack.temporal, taskQueue);
    expect(after?.currentBuildId).toBe(changed);
    expect(after?.versions.find((v) => v.buildId === original)?.pinnedWorkflows).toBe(0);
    // referee status (--json) lists both versions, their workers and what is pinned to each.
    const { deployment } = await collectStatus(stack.config);
    expect(deployment?.versions.map((v) => [v.buildId, v.role, v.workers.length])).toEqual([
      [changed, 'current', 1],
      [original, expect.stringMatching(/^(draining|drained|inactive)$/), 1],
    ]);
    expect(deployment?.versions[0].pinnedWorkflows).toBeGreaterThan(0);

    // Rollback: the same command back to the first build, whose workers still run.
    const back = await rollout(stack.temporal, {
      taskQueue,
      to: original,
      identity: 'workerVersioning.test',
      log: (line) => lines.push(line),
    });
    expect(back).toMatchObject({ from: changed, to: original });
    expect(await pinnedBuild(handle)).toBe(original);
    await act(stack, world.math.owner, taskId, { action: 'feedback', comment: 'Back on the first build.' });
    const rolledBack = await currentRun(stack, workflowId);
    expect(count(rolledBack, 'WORKFLOW_EXECUTION_UPDATE_COMPLETED')).toBe(1);
    expect(count(rolledBack, 'UPSERT_WORKFLOW_SEARCH_ATTRIBUTES')).toBe(0);

    // No workflow task of any run failed (a nondeterminism error fails the task and is recorded).
    for (const run of await runs(stack, workflowId))
      expect({ runId: run.runId, failed: count(run.events, 'WORKFLOW_TASK_FAILED') }).toEqual({
        runId: run.runId,
        failed: 0,
      });
  }, 300_000);
});
