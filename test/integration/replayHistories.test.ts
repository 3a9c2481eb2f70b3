import { execFileSync } from 'node:child_process';
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Worker } from '@temporalio/worker';
import { projectRoot } from '../../infra/paths';
import { startWorker } from '../../worker';
import { importMathRunWorkflowId } from '../../workflows/importMathRun/messages';
import { importGenomicsBundleWorkflowId } from '../../workflows/importGenomicsBundle/messages';
import { genomicsTaskWorkflowId } from '../../workflows/genomicsTask/ids';
import { mathTaskWorkflowId } from '../../workflows/mathTask/ids';
import { mathTaskStateQuery } from '../../workflows/mathTask/messages';
import { TRANSITIONS_PER_RUN } from '../../workflows/taskEntity';
import { eventually, g, inMs, topicPath } from '../helpers/genomics';
import {
  fetchRuns,
  firstAcceptedUpdate,
  hasRefusedUpdate,
  type History,
  type HistoryEvent,
  HistoryMessage,
  historyToObject,
} from '../helpers/histories';
import { act, taskVersion } from '../helpers/math';
import { type DemoWorld, setupDemoWorld } from '../helpers/reliability';
import { http, startStack, type TestStack } from '../helpers/stack';
import { readTestEnv } from '../helpers/testEnv';

/**
 * Workflow code evolution: histories recorded from real runs of every workflow type are replayed against the
 * current workflow code. A change that would make a running workflow issue other commands (a reordered or new
 * activity, timer, upsert or continue-as-new without `patched()`) fails here. See docs/workflow-evolution.md.
 *
 * Re-record after an intentional change: `RECORD_HISTORIES=1 npx jest test/integration/replayHistories.test.ts`.
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

/** A task workflow's recorded runs: `<name>.run-<n>.json`, oldest first. */
const runName = (name: string, run: number) => `${name}.run-${run}`;
const isRunFileOf = (name: string, file: string) => new RegExp(`^${name}\\.run-\\d+\\.json$`).test(file);

const MATH_TASK = 'demo-q1-a';
const GENOMICS_TOPIC = 'batch-001:2';
const CAMPAIGN = 'cmp-2026-spring';

(RECORDING ? describe : describe.skip)('recording histories (RECORD_HISTORIES=1)', () => {
  it('runs a representative scenario of every workflow and saves its history', async () => {
    const stack = await startStack();
    try {
      const world = await setupDemoWorld(stack);
      const math = stack.temporal.workflow.getHandle(mathTaskWorkflowId(MATH_TASK));
      const genomics = stack.temporal.workflow.getHandle(genomicsTaskWorkflowId(GENOMICS_TOPIC));
      // The setup's assignment started the math task's workflow; the genomics topic's starts with its first action.
      const mathFirstRun = (await math.describe()).runId;
      await mathFirstRun10(stack, world);
      const genomicsFirstRun = await genomicsFirstRun10(stack, world);
      const [mathRun1] = await fetchRuns(stack.temporal, math.workflowId, mathFirstRun);
      const [genomicsRun1] = await fetchRuns(stack.temporal, genomics.workflowId, genomicsFirstRun);

      // Second runs: an update of the first run, sent again with its update id, gets its carried receipt.
      for (const [handle, run1] of [
        [math, mathRun1],
        [genomics, genomicsRun1],
      ] as const) {
        const repeated = firstAcceptedUpdate(run1);
        const receipt = await handle.executeUpdate<{ updateId: string }, [unknown, ...unknown[]]>(
          repeated.name,
          {
            args: repeated.args as [unknown, ...unknown[]],
            updateId: repeated.updateId,
          },
        );
        expect(receipt.updateId).toBe(repeated.updateId);
      }
      await genomicsSecondRun(stack, world);
      await refusedByHandlers(stack, world);

      const recordings: Record<string, History[]> = {
        'math-task': await fetchRuns(stack.temporal, math.workflowId, mathFirstRun),
        'genomics-task': await fetchRuns(stack.temporal, genomics.workflowId, genomicsFirstRun),
      };
      for (const [name, runs] of Object.entries(recordings)) expect([name, runs.length]).toEqual([name, 2]);
      const imports: Record<string, string> = {
        'import-math-run': importMathRunWorkflowId('demo-run-001'),
        'import-genomics-bundle': importGenomicsBundleWorkflowId('batch-001', 'demo-genomics-001'),
      };
      await mkdir(HISTORIES_DIR, { recursive: true });
      for (const [name, runs] of Object.entries(recordings)) {
        for (const file of await readdir(HISTORIES_DIR))
          if (isRunFileOf(name, file)) await rm(join(HISTORIES_DIR, file));
        for (const [i, history] of runs.entries())
          await writeFile(
            join(HISTORIES_DIR, `${runName(name, i + 1)}.json`),
            JSON.stringify(historyToObject(history)),
          );
      }
      for (const [name, workflowId] of Object.entries(imports)) {
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
  }, 240_000);
});

/** The math task's first run: every action, an idempotent retry and a refusal; its tenth transition continues as new. */
async function mathFirstRun10(stack: TestStack, world: DemoWorld): Promise<void> {
  const { owner, rui } = world.math;
  await act(stack, rui, MATH_TASK, { action: 'start' });
  await act(stack, rui, MATH_TASK, { action: 'feedback', comment: 'Check the count.' });
  const version = await taskVersion(stack, owner, MATH_TASK);
  const verdict = { version, action: 'verdict', decision: 'ACCEPTED', comment: 'Correct.' };
  const headers = { 'idempotency-key': 'replay-fixture-verdict-0001' };
  for (let i = 0; i < 2; i++) {
    const sent = await http(stack, 'POST', `/api/math/tasks/${MATH_TASK}`, {
      token: rui,
      body: verdict,
      headers,
    });
    expect(sent.status).toBe(200);
  }
  // Refused by the validator: not in history.
  const refused = await http(stack, 'POST', `/api/math/tasks/${MATH_TASK}`, {
    token: owner,
    body: { version: version + 1, action: 'start' },
  });
  expect(refused.status).toBe(409);
  await act(stack, owner, MATH_TASK, { action: 'reopen', comment: 'One more look.' });
  await act(stack, owner, MATH_TASK, { action: 'client', client_id: world.ids.clientId });
  await act(stack, owner, MATH_TASK, { action: 'archive', comment: null });
  await act(stack, owner, MATH_TASK, { action: 'restore' });
  await act(stack, owner, MATH_TASK, { action: 'assign', assignee_id: null });
  await act(stack, owner, MATH_TASK, { action: 'assign', assignee_id: world.ids.rui });
}

/**
 * The genomics topic's first run: an assignment whose due date passes (the durable timer expires it), the
 * disposition back to ACTIVE, a reassignment, a comment and verdicts, an override, a reopen and a new revision
 * (its tenth transition continues as new). Returns the run's id.
 */
async function genomicsFirstRun10(stack: TestStack, world: DemoWorld): Promise<string> {
  const owner = world.genomics.owner;
  const ok = async (call: Promise<{ status: number; body: any }>, status = 200) => {
    const result = await call;
    expect([result.status, result.body]).toEqual([status, expect.anything()]);
    return result.body;
  };
  await ok(
    g(stack, 'PUT', topicPath(GENOMICS_TOPIC, '/reviewer'), {
      token: owner,
      body: { reviewerId: world.ids.genomicsRui, instructions: 'Quick look.', dueAt: inMs(1500) },
    }),
  );
  const firstRun = (
    await stack.temporal.workflow.getHandle(genomicsTaskWorkflowId(GENOMICS_TOPIC)).describe()
  ).runId;
  const timedOut = await eventually(async () => {
    const topic = await g(stack, 'GET', topicPath(GENOMICS_TOPIC), { token: owner });
    return topic.body.topic.disposition === 'TIMED_OUT';
  });
  expect(timedOut).toBe(true);
  await ok(
    g(stack, 'PUT', topicPath(GENOMICS_TOPIC, '/disposition'), {
      token: owner,
      body: { expectedDisposition: 'TIMED_OUT', disposition: 'ACTIVE', reason: 'Late, but wanted.' },
    }),
  );
  const { assignmentId } = await ok(
    g(stack, 'PUT', topicPath(GENOMICS_TOPIC, '/reviewer'), {
      token: owner,
      body: { reviewerId: world.ids.genomicsRui, instructions: 'Again.', dueAt: null },
    }),
  );
  const review = (verdict: string) =>
    ok(
      g(stack, 'POST', topicPath(GENOMICS_TOPIC, '/reviews'), {
        token: world.genomics.rui,
        body: { assignmentId, verdict, body: `Verdict ${verdict}.` },
      }),
    );
  await review('COMMENT');
  await review('MINOR_REPAIR');
  await ok(
    g(stack, 'POST', topicPath(GENOMICS_TOPIC, '/decision'), {
      token: owner,
      body: { expectedDecision: 'MINOR_REPAIR', decision: 'READY', campaignId: CAMPAIGN, reason: 'Fine.' },
    }),
  );
  await ok(
    g(stack, 'POST', topicPath(GENOMICS_TOPIC, '/reopen'), {
      token: owner,
      body: { expectedDecision: 'READY', campaignId: CAMPAIGN, reason: 'New data.' },
    }),
  );
  await review('READY_AS_IS');
  await ok(startRevision(stack, world), 201);
  return firstRun;
}

const startRevision = (stack: TestStack, world: DemoWorld) =>
  g(stack, 'POST', topicPath(GENOMICS_TOPIC, '/revisions'), {
    token: world.genomics.rui,
    body: { campaignId: CAMPAIGN, notes: 'v2' },
  });

/** The genomics topic's second run: the open revision resumed, the reviewer removed. */
async function genomicsSecondRun(stack: TestStack, world: DemoWorld): Promise<void> {
  const resumed = await startRevision(stack, world);
  expect([resumed.status, resumed.body.resumed]).toEqual([201, true]);
  const removed = await g(stack, 'PUT', topicPath(GENOMICS_TOPIC, '/reviewer'), {
    token: world.genomics.owner,
    body: { reviewerId: null, instructions: 'Not needed.', dueAt: null },
  });
  expect(removed.status).toBe(200);
}

/**
 * Updates refused by the handler, which history records (a validator's refusal it does not): with no worker
 * polling, two updates that each pass validation against the same state are admitted, then delivered in one
 * workflow task; the first applies, and the second, decided again under the lock, is refused.
 */
async function refusedByHandlers(stack: TestStack, world: DemoWorld): Promise<void> {
  await stack.worker.shutdown();
  const version = await taskVersion(stack, world.math.owner, MATH_TASK);
  const calls = [
    ...[0, 1].map(() =>
      http(stack, 'POST', `/api/math/tasks/${MATH_TASK}`, {
        token: world.math.rui,
        body: { version, action: 'start' },
      }),
    ),
    ...[0, 1].map(() =>
      g(stack, 'PUT', topicPath(GENOMICS_TOPIC, '/disposition'), {
        token: world.genomics.owner,
        body: { expectedDisposition: 'ACTIVE', disposition: 'DISCARDED', reason: 'Done.' },
      }),
    ),
  ];
  await new Promise((resolve) => setTimeout(resolve, 1000));
  const worker = await startWorker(stack.config, {
    workflowBundle: { codePath: readTestEnv().workflowBundlePath },
  });
  try {
    const statuses = (await Promise.all(calls)).map((result) => result.status);
    expect(statuses.sort()).toEqual([200, 200, 409, 409]);
  } finally {
    await worker.shutdown();
  }
}

async function recordedHistories(): Promise<Array<{ workflowId: string; history: History }>> {
  const files = (await readdir(HISTORIES_DIR)).filter((f) => f.endsWith('.json')).sort();
  return Promise.all(
    files.map(async (file) => ({
      workflowId: file.replace(/\.json$/, ''),
      history: HistoryMessage.fromObject(JSON.parse(await readFile(join(HISTORIES_DIR, file), 'utf8'))),
    })),
  );
}

const workflowType = (history: History) =>
  history.events?.[0]?.workflowExecutionStartedEventAttributes?.workflowType?.name ?? '';

async function replay(histories: Array<{ workflowId: string; history: History }>): Promise<string[]> {
  const results = Worker.runReplayHistories(
    { workflowBundle: { codePath: readTestEnv().workflowBundlePath } },
    histories,
  );
  const outcomes: string[] = [];
  for await (const result of results)
    outcomes.push(
      result.error ? `${result.workflowId}: ${result.error.name}: ${result.error.message}` : 'ok',
    );
  return outcomes;
}

describe('recorded workflow histories replay on the current workflow code', () => {
  it('covers every workflow type', async () => {
    const types = new Set((await recordedHistories()).map(({ history }) => workflowType(history)));
    expect([...types].sort()).toEqual([...WORKFLOW_TYPES].sort());
  });

  it('covers what each task workflow does: local persistence, upserts, handler refusals, continue-as-new', async () => {
    const histories = await recordedHistories();
    const events = (type: string) =>
      histories
        .filter(({ history }) => workflowType(history) === type)
        .flatMap(({ history }) => history.events ?? []);
    const covered = (type: string) => {
      const all = events(type);
      const has = (test: (e: HistoryEvent) => unknown) => all.some(test);
      return {
        localActivity: has((e) => e.markerRecordedEventAttributes?.markerName === 'core_local_activity'),
        upsert: has((e) => e.upsertWorkflowSearchAttributesEventAttributes),
        refusedUpdate: histories.some(
          ({ history }) => workflowType(history) === type && hasRefusedUpdate(history),
        ),
        continuedAsNew: has((e) => e.workflowExecutionContinuedAsNewEventAttributes),
        timerFired: has((e) => e.timerFiredEventAttributes),
        activity: has((e) => e.activityTaskCompletedEventAttributes),
      };
    };
    const always = { localActivity: true, upsert: true, refusedUpdate: true, continuedAsNew: true };
    expect(covered('mathTaskWorkflow')).toEqual({ ...always, timerFired: false, activity: false });
    // The due-date timer's expiry and the open-revision lookup are remote activities.
    expect(covered('genomicsTaskWorkflow')).toEqual({ ...always, timerFired: true, activity: true });
  });

  it('replays on the bundle npm start builds, which evaluates the SDK and the workflow modules once per worker', async () => {
    // globalSetup builds the bundle with scripts/bundleWorkflows.ts, as npm start and the bench do.
    const code = await readFile(readTestEnv().workflowBundlePath, 'utf8');
    const preload = /exports\.preloadModules = function preloadModules\(\) \{([^}]*)\}/.exec(code)?.[1] ?? '';
    // Wherever node_modules resolves (a git worktree may link another checkout's).
    expect(preload).toMatch(/"[./\w-]*node_modules\/@temporalio\/workflow\/lib\/index\.js"/);
    expect(preload).toContain('"./workflows/index.ts"');
  });

  it('replays every history without a determinism error', async () => {
    const histories = await recordedHistories();
    const outcomes = await replay(histories);
    expect(outcomes).toEqual(histories.map(() => 'ok'));
  }, 60_000);

  it('fails a history that lacks a command the code issues', async () => {
    // As if the code had upserted one search attribute more than the recorded code did.
    const { history } = (await recordedHistories()).find(
      ({ workflowId }) => workflowId === runName('math-task', 1),
    )!;
    const upsert = (history.events ?? []).findIndex((e) => e.upsertWorkflowSearchAttributesEventAttributes);
    const [outcome] = await replay([
      { workflowId: 'math-task-edited', history: withoutEvent(history, upsert) },
    ]);
    expect(outcome).toMatch(
      /DeterminismViolationError.*Nondeterminism error: UpsertWorkflowSearchAttributes/,
    );
  }, 60_000);
});

/** The history with one event removed and every later event id (and each reference to one) moved down by one. */
function withoutEvent(history: History, index: number): History {
  const removed = Number(history.events![index].eventId);
  const renumber = (value: unknown, key = ''): unknown => {
    if (/(^e|E)ventId$/.test(key) && Number(value) > removed) return String(Number(value) - 1);
    if (Array.isArray(value)) return value.map((item) => renumber(item));
    if (value && typeof value === 'object')
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, renumber(v, k)]));
    return value;
  };
  const plain = historyToObject(history) as { events: unknown[] };
  return HistoryMessage.fromObject({
    events: plain.events.filter((_, i) => i !== index).map((e) => renumber(e)),
  });
}

describe('short runs', () => {
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

      expect(await replay([{ workflowId: mathTaskWorkflowId(taskId), history }])).toEqual(['ok']);
    } finally {
      await stack.stop();
    }
  }, 120_000);
});
