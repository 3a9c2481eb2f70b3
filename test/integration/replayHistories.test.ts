import { execFileSync } from 'node:child_process';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Worker } from '@temporalio/worker';
import { projectRoot } from '../../infra/paths';
import { importMathRunWorkflowId } from '../../workflows/importMathRun/messages';
import { importGenomicsBundleWorkflowId } from '../../workflows/importGenomicsBundle/messages';
import { genomicsTaskWorkflowId } from '../../workflows/genomicsTask/ids';
import { mathTaskWorkflowId } from '../../workflows/mathTask/ids';
import { mathTaskStateQuery } from '../../workflows/mathTask/messages';
import { SHORT_RUNS_PATCH, TRANSITIONS_PER_RUN } from '../../workflows/taskEntity';
import { g, inMs, topicPath } from '../helpers/genomics';
import { type History, HistoryMessage, historyToObject } from '../helpers/histories';
import { act, taskVersion } from '../helpers/math';
import { setupDemoWorld } from '../helpers/reliability';
import { http, startStack } from '../helpers/stack';
import { readTestEnv } from '../helpers/testEnv';

/**
 * Workflow code evolution: histories recorded from real runs of every workflow type are replayed against the
 * current workflow code. A change that would make a running workflow take another path (a reordered or new
 * activity, timer or command without `patched()`) fails here. See docs/workflow-evolution.md.
 *
 * Re-record after an intentional, patched change: `RECORD_HISTORIES=1 npx jest test/integration/replayHistories.test.ts`.
 */

const HISTORIES_DIR = join(projectRoot, 'test', 'fixtures', 'histories');
const RECORDING = process.env.RECORD_HISTORIES === '1';

/** The workflow types the worker runs; each must have at least one recorded history. */
const WORKFLOW_TYPES = [
  'mathTaskWorkflow',
  'genomicsTaskWorkflow',
  'importMathRunWorkflow',
  'importGenomicsBundleWorkflow',
];

(RECORDING ? describe : describe.skip)('recording histories (RECORD_HISTORIES=1)', () => {
  it('runs a representative scenario of every workflow and saves its history', async () => {
    const stack = await startStack();
    try {
      const world = await setupDemoWorld(stack);
      const { owner } = world.math;
      // Math: every action, an idempotent retry, a rejected transition and a stale version.
      const taskId = 'demo-q1-a';
      await act(stack, world.math.rui, taskId, { action: 'start' });
      await act(stack, world.math.rui, taskId, { action: 'feedback', comment: 'Check the count.' });
      const version = await taskVersion(stack, owner, taskId);
      const retried = { version, action: 'verdict', decision: 'ACCEPTED', comment: 'Correct.' };
      const headers = { 'idempotency-key': 'replay-fixture-verdict-0001' };
      for (let i = 0; i < 2; i++)
        await http(stack, 'POST', `/api/math/tasks/${taskId}`, {
          token: world.math.rui,
          body: retried,
          headers,
        });
      const refused = await http(stack, 'POST', `/api/math/tasks/${taskId}`, {
        token: owner,
        body: { version: version + 1, action: 'start' },
      });
      expect(refused.status).toBe(409);
      await http(stack, 'POST', `/api/math/tasks/${taskId}`, {
        token: owner,
        body: { version: 0, action: 'start' },
      });
      await act(stack, owner, taskId, { action: 'reopen', comment: 'One more look.' });
      await act(stack, owner, taskId, { action: 'client', client_id: world.ids.clientId });
      await act(stack, owner, taskId, { action: 'archive', comment: null });
      await act(stack, owner, taskId, { action: 'restore' });
      await act(stack, owner, taskId, { action: 'assign', assignee_id: null });

      // Genomics: assignment with a due date that expires (timer), review, override, reopen, disposition.
      const uid = 'batch-001:2';
      const campaignId = 'cmp-2026-spring';
      const assign = await g(stack, 'PUT', topicPath(uid, '/reviewer'), {
        token: world.genomics.owner,
        body: { reviewerId: world.ids.genomicsRui, instructions: 'Quick look.', dueAt: inMs(1500) },
      });
      expect(assign.status).toBe(200);
      await new Promise((resolve) => setTimeout(resolve, 3000));
      const revive = await g(stack, 'PUT', topicPath(uid, '/disposition'), {
        token: world.genomics.owner,
        body: { expectedDisposition: 'TIMED_OUT', disposition: 'ACTIVE', reason: 'Late, but wanted.' },
      });
      expect([revive.status, revive.body]).toEqual([200, expect.anything()]);
      const again = await g(stack, 'PUT', topicPath(uid, '/reviewer'), {
        token: world.genomics.owner,
        body: { reviewerId: world.ids.genomicsRui, instructions: 'Again.', dueAt: null },
      });
      expect([again.status, again.body]).toEqual([200, expect.anything()]);
      const assignmentId = again.body.assignmentId as string;
      const review = (verdict: string) =>
        g(stack, 'POST', topicPath(uid, '/reviews'), {
          token: world.genomics.rui,
          body: { assignmentId, verdict, body: `Verdict ${verdict}.` },
        });
      expect((await review('COMMENT')).status).toBe(200);
      expect((await review('MINOR_REPAIR')).status).toBe(200);
      const owner2 = world.genomics.owner;
      const decision = await g(stack, 'POST', topicPath(uid, '/decision'), {
        token: owner2,
        body: { expectedDecision: 'MINOR_REPAIR', decision: 'READY', campaignId, reason: 'Fine.' },
      });
      expect(decision.status).toBe(200);
      const reopen = await g(stack, 'POST', topicPath(uid, '/reopen'), {
        token: owner2,
        body: { expectedDecision: 'READY', campaignId, reason: 'New data.' },
      });
      expect(reopen.status).toBe(200);
      expect((await review('READY_AS_IS')).status).toBe(200);
      const revision = await g(stack, 'POST', topicPath(uid, '/revisions'), {
        token: world.genomics.rui,
        body: { campaignId, notes: 'v2' },
      });
      expect(revision.status).toBe(201);
      const dispose = await g(stack, 'PUT', topicPath(uid, '/disposition'), {
        token: owner2,
        body: { expectedDisposition: 'ACTIVE', disposition: 'DISCARDED', reason: 'Done.' },
      });
      expect(dispose.status).toBe(200);

      const recordings: Record<string, string> = {
        'math-task': mathTaskWorkflowId(taskId),
        'genomics-task': genomicsTaskWorkflowId(uid),
        'import-math-run': importMathRunWorkflowId('demo-run-001'),
        'import-genomics-bundle': importGenomicsBundleWorkflowId('batch-001', 'demo-genomics-001'),
      };
      await mkdir(HISTORIES_DIR, { recursive: true });
      for (const [name, workflowId] of Object.entries(recordings)) {
        const history = await stack.temporal.workflow.getHandle(workflowId).fetchHistory();
        await writeFile(join(HISTORIES_DIR, `${name}.json`), JSON.stringify(historyToObject(history)));
      }
      // Formatted like every other file of the repository (prettier's API needs ES modules, which jest lacks here).
      execFileSync(process.execPath, [
        require.resolve('prettier/bin/prettier.cjs'),
        '--write',
        HISTORIES_DIR,
      ]);
    } finally {
      await stack.stop();
    }
  }, 180_000);
});

async function recordedHistories(): Promise<Array<{ workflowId: string; history: History }>> {
  const files = (await readdir(HISTORIES_DIR)).filter((f) => f.endsWith('.json')).sort();
  return Promise.all(
    files.map(async (file) => ({
      workflowId: file.replace(/\.json$/, ''),
      history: HistoryMessage.fromObject(JSON.parse(await readFile(join(HISTORIES_DIR, file), 'utf8'))),
    })),
  );
}

describe('recorded workflow histories replay on the current workflow code', () => {
  it('covers every workflow type', async () => {
    const types = new Set<string>();
    for (const { history } of await recordedHistories()) {
      const started = history.events?.[0]?.workflowExecutionStartedEventAttributes;
      types.add(started?.workflowType?.name ?? '');
    }
    expect([...types].sort()).toEqual([...WORKFLOW_TYPES].sort());
  });

  it('replays on the bundle npm start builds, which evaluates the SDK and the workflow modules once per worker', async () => {
    // globalSetup builds the bundle with scripts/bundleWorkflows.ts, as npm start and the bench do.
    const code = await readFile(readTestEnv().workflowBundlePath, 'utf8');
    const preload = /exports\.preloadModules = function preloadModules\(\) \{([^}]*)\}/.exec(code)?.[1] ?? '';
    expect(preload).toContain('"./node_modules/@temporalio/workflow/lib/index.js"');
    expect(preload).toContain('"./workflows/index.ts"');
  });

  it('replays every history without a determinism error', async () => {
    const histories = await recordedHistories();
    const results = Worker.runReplayHistories(
      { workflowBundle: { codePath: readTestEnv().workflowBundlePath } },
      histories,
    );
    const failures: string[] = [];
    let replayed = 0;
    for await (const result of results) {
      replayed += 1;
      if (result.error) failures.push(`${result.workflowId}: ${result.error.name}: ${result.error.message}`);
    }
    expect(replayed).toBe(histories.length);
    expect(failures).toEqual([]);
  }, 60_000);
});

describe('short runs (the task-short-runs patch)', () => {
  it('a task workflow continues as new after TRANSITIONS_PER_RUN updates, carries its state and receipts, and its closed run replays', async () => {
    const stack = await startStack();
    try {
      const world = await setupDemoWorld(stack);
      const { owner } = world.math;
      const taskId = 'demo-q2-a';
      const handle = stack.temporal.workflow.getHandle(mathTaskWorkflowId(taskId));
      const firstRunId = (await handle.describe()).runId;
      // The setup has already acted on this task; the first run ends at its TRANSITIONS_PER_RUN-th transition.
      const retried = { 'idempotency-key': 'short-runs-feedback-0001' };
      const first = await http(stack, 'POST', `/api/math/tasks/${taskId}`, {
        token: owner,
        body: { version: await taskVersion(stack, owner, taskId), action: 'feedback', comment: 'Kept.' },
        headers: retried,
      });
      expect(first.status).toBe(200);
      for (let i = 0; i < TRANSITIONS_PER_RUN; i++)
        await act(stack, owner, taskId, { action: 'feedback', comment: `Update ${i}.` });

      const now = await handle.describe();
      expect(now.runId).not.toBe(firstRunId);
      const firstRun = stack.temporal.workflow.getHandle(mathTaskWorkflowId(taskId), firstRunId);
      expect((await firstRun.describe()).status.name).toBe('CONTINUED_AS_NEW');
      const history = await firstRun.fetchHistory();
      const markers = (history.events ?? [])
        .map((e) => e.markerRecordedEventAttributes?.details?.['patch-data']?.payloads?.[0]?.data)
        .filter((data): data is Uint8Array => data instanceof Uint8Array)
        .map((data) => Buffer.from(data).toString());
      expect(markers.some((json) => json.includes(SHORT_RUNS_PATCH))).toBe(true);
      const updatesInFirstRun = (history.events ?? []).filter(
        (e) => e.workflowExecutionUpdateCompletedEventAttributes,
      ).length;
      expect(updatesInFirstRun).toBeLessThanOrEqual(TRANSITIONS_PER_RUN);

      // The new run holds the projection's state; a retry of the first run's update gets its first answer.
      const state = await handle.query(mathTaskStateQuery);
      expect(state.version).toBe(await taskVersion(stack, owner, taskId));
      const again = await http(stack, 'POST', `/api/math/tasks/${taskId}`, {
        token: owner,
        body: { version: first.body.task.version - 1, action: 'feedback', comment: 'Kept.' },
        headers: retried,
      });
      expect(again.status).toBe(200);
      expect(again.body.task.version).toBe(first.body.task.version);
      expect(await taskVersion(stack, owner, taskId)).toBe(state.version);

      const [replayed] = await collect(
        Worker.runReplayHistories({ workflowBundle: { codePath: readTestEnv().workflowBundlePath } }, [
          { workflowId: mathTaskWorkflowId(taskId), history },
        ]),
      );
      expect(replayed.error).toBeUndefined();
    } finally {
      await stack.stop();
    }
  }, 120_000);
});

async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const all: T[] = [];
  for await (const item of items) all.push(item);
  return all;
}
