import { randomUUID } from 'node:crypto';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ManagedProcess } from '../../infra/processes';
import { freePort } from '../../infra/ports';
import type { RunningServer } from '../../server';
import { genomicsTaskStateQuery } from '../../workflows/genomicsTask/messages';
import { genomicsTaskWorkflowId } from '../../workflows/genomicsTask/ids';
import { mathTaskStateQuery } from '../../workflows/mathTask/messages';
import { mathTaskWorkflowId } from '../../workflows/mathTask/ids';
import { createTopic, EXTRA_GENOMICS_MEMBERS, topicPath } from '../helpers/genomics';
import { historyToObject } from '../helpers/histories';
import { createClient, LISTS_FIXTURE_DIR } from '../helpers/math';
import { startExtraServer } from '../helpers/keys';
import { killHard, processEnv, seededRandom, spawnProgram, untilHealthy } from '../helpers/reliability';
import { importBundle, memberId, mintKey, seedMembers, startStack, type TestStack } from '../helpers/stack';

/**
 * Crash soak (bounded): concurrent math workflow actions and genomics mutations, each with an
 * Idempotency-Key and retried by its client until answered, while the worker and one of two API processes
 * are SIGKILLed at random points and restarted. Afterwards every action is applied exactly once, every
 * projection equals its workflow's state, every retry got the original receipt, and nothing answered 500.
 */

const SEED = Number(process.env.SOAK_SEED ?? Date.now() % 100_000);
const random = seededRandom(SEED);
const MATH_ACTIONS_PER_TASK = 14;
const GENOMICS_ACTIONS_PER_TOPIC = 16;
const GENOMICS_TOPICS = 8;
/** Crashes are injected during this window only, so the run ends within its bound. */
const CRASH_WINDOW_MS = 40_000;
const MAX_API_CRASHES = 2;
/** A client gives up on an action after this long (a lost action fails the test). */
const ACTION_DEADLINE_MS = 100_000;
const CALL_TIMEOUT_MS = '5000';

let stack: TestStack;
let stable: RunningServer;
let worker: ManagedProcess;
let api: ManagedProcess;
let apiUrl: string;
let apiPort: number;
let logDir: string;
let owner: { math: string; genomics: string };
let ids: { rui: string; genomicsRui: string; acme: string };
let apiUp = false;
/** The task workflows the soak drives, and whether it got to its end: a failed run keeps its evidence. */
const soakWorkflowIds: string[] = [];
let soakPassed = false;

const tally = {
  sent: 0,
  retried: 0,
  attempts: 0,
  unavailable: 0,
  inProgress: 0,
  connectionErrors: 0,
  serverErrors: [] as string[],
  crashes: { worker: 0, api: 0 },
};

beforeAll(async () => {
  stack = await startStack();
  await seedMembers(stack, EXTRA_GENOMICS_MEMBERS);
  await importBundle(stack, join(LISTS_FIXTURE_DIR, 'run-a'));
  await importBundle(stack, join(LISTS_FIXTURE_DIR, 'run-b'));
  owner = {
    math: (await mintKey(stack, 'math', 'idp|olga')).token,
    genomics: (await mintKey(stack, 'genomics', 'idp|olga')).token,
  };
  ids = {
    rui: await memberId(stack, 'math', 'idp|rui'),
    genomicsRui: await memberId(stack, 'genomics', 'idp|rui'),
    acme: await createClient(stack, owner.math, 'Soak Client'),
  };
  // The worker runs as a child process from now on, so it can be killed.
  await stack.worker.shutdown();
  logDir = join(tmpdir(), `referee-soak-${SEED}-${randomUUID().slice(0, 8)}`);
  worker = spawnProgram('worker.ts', processEnv(stack), join(logDir, 'worker.log'));
  apiPort = await freePort();
  apiUrl = `http://127.0.0.1:${apiPort}`;
  api = await startApi();
  stable = await startExtraServer(stack, { temporal: { ...stack.config.temporal, callTimeoutMs: 5000 } });
}, 120_000);

afterAll(async () => {
  if (logDir && !soakPassed) {
    await keepEvidence().catch((error) =>
      console.warn(`soak: evidence not kept: ${(error as Error).message}`),
    );
  }
  await api?.stop();
  await worker?.stop();
  await stable?.close();
  await stack?.stop();
  if (logDir && soakPassed && !process.env.KEEP_TEST_LOGS) await rm(logDir, { recursive: true, force: true });
});

/**
 * After a failed run, beside the API and worker logs: every driven workflow's history and the genomics events and
 * projection repairs, so the failure can be read after the stack is gone.
 */
async function keepEvidence(): Promise<void> {
  const histories = join(logDir, 'histories');
  await mkdir(histories, { recursive: true });
  for (const workflowId of soakWorkflowIds) {
    try {
      const history = await stack.temporal.workflow.getHandle(workflowId).fetchHistory();
      await writeFile(
        join(histories, `${workflowId.replace(/[^A-Za-z0-9_.-]/g, '_')}.json`),
        JSON.stringify(historyToObject(history)),
      );
    } catch (error) {
      console.warn(`soak: no history of ${workflowId}: ${(error as Error).message}`);
    }
  }
  for (const table of ['genomics_events', 'projection_repairs']) {
    const rows = await stack.dataSource.query(`SELECT * FROM ${table} ORDER BY 1`);
    await writeFile(join(logDir, `${table}.json`), JSON.stringify(rows, null, 1));
  }
  console.warn(`soak (seed ${SEED}) failed: logs, histories and tables kept in ${logDir}`);
}

async function startApi(): Promise<ManagedProcess> {
  const env = processEnv(stack, { PORT: String(apiPort), TEMPORAL_CALL_TIMEOUT_MS: CALL_TIMEOUT_MS });
  const proc = spawnProgram('server.ts', env, join(logDir, 'api.log'));
  await untilHealthy(apiUrl, proc);
  apiUp = true;
  return proc;
}

// ---- clients ----

interface Action {
  label: string;
  method: 'POST' | 'PUT';
  path: string;
  token: string;
  body: Record<string, unknown>;
  key: string;
  /** What each attempt got, for the failure message of an action that is never answered. */
  trail?: string[];
  /** The 200/201 answer the client finally got. */
  answer?: { status: number; body: unknown; attempts: number };
}

/** The first and last attempts of a long trail. */
const summarize = (trail: string[]) =>
  trail.length <= 12 ? trail.join(', ') : `${trail.slice(0, 4).join(', ')} … ${trail.slice(-8).join(', ')}`;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Sends one action until it is answered, retrying with the same Idempotency-Key as a careful client would. */
async function perform(action: Action): Promise<void> {
  tally.sent += 1;
  const started = Date.now();
  for (let attempt = 1; ; attempt++) {
    tally.attempts += 1;
    if (attempt === 2) tally.retried += 1;
    if (Date.now() - started > ACTION_DEADLINE_MS) {
      const record = await stack.dataSource.query(
        `SELECT state, locked_until, now() AS now, created_at FROM idempotency_records WHERE idempotency_key = $1`,
        [action.key],
      );
      throw new Error(
        `${action.label}: no answer in time: ${summarize(action.trail ?? [])}; ${JSON.stringify(record)}`,
      );
    }
    const base = random() < 0.6 && apiUp ? apiUrl : stable.url;
    let response: Response;
    try {
      response = await fetch(`${base}${action.path}`, {
        method: action.method,
        headers: {
          authorization: `Bearer ${action.token}`,
          'content-type': 'application/json',
          'idempotency-key': action.key,
        },
        body: JSON.stringify(action.body),
      });
    } catch {
      (action.trail ??= []).push(`${((Date.now() - started) / 1000).toFixed(1)}s connection`);
      tally.connectionErrors += 1; // the API process died under the request
      await sleep(100);
      continue;
    }
    const body = (await response.json()) as { code?: string };
    (action.trail ??= []).push(
      `${((Date.now() - started) / 1000).toFixed(1)}s ${base === apiUrl ? 'child' : 'stable'} ${response.status} ${body.code ?? ''}`,
    );
    if (response.status === 200 || response.status === 201) {
      action.answer = { status: response.status, body, attempts: attempt };
      return;
    }
    if (response.status >= 500 && response.status !== 503) {
      tally.serverErrors.push(`${action.label}: ${response.status} ${JSON.stringify(body)}`);
    } else if (response.status === 503) {
      tally.unavailable += 1;
      expect(Number(response.headers.get('retry-after'))).toBeGreaterThan(0);
    } else if (response.status === 409 && body.code === 'idempotency_request_in_progress') {
      // Held by a request still running, or by a killed process until PostgreSQL ends its session.
      tally.inProgress += 1;
    } else {
      throw new Error(`${action.label}: ${response.status} ${JSON.stringify(body)}`);
    }
    await sleep(Math.min(1000, 100 * attempt));
  }
}

interface MathTaskPlan {
  taskId: string;
  initialVersion: number;
  actions: Action[];
}

const mark = (label: string) => `soak ${SEED} ${label}`;

/** A valid sequence for one task, by an Owner: assign, start, then feedback / client / verdict / reopen / archive / restore. */
function mathPlan(taskId: string, initialVersion: number): MathTaskPlan {
  const cycle = ['feedback', 'client', 'verdict', 'reopen', 'archive', 'restore'];
  const actions: Action[] = [];
  for (let i = 0; i < MATH_ACTIONS_PER_TASK; i++) {
    const kind = i === 0 ? 'assign' : i === 1 ? 'start' : cycle[(i - 2) % cycle.length];
    const label = `${taskId} #${i} ${kind}`;
    const body: Record<string, unknown> = { version: initialVersion + i, action: kind };
    if (kind === 'assign') body.assignee_id = ids.rui;
    if (kind === 'client') body.client_id = i % 4 === 0 ? null : ids.acme;
    if (kind === 'verdict') body.decision = 'ACCEPTED';
    if (['feedback', 'verdict', 'reopen', 'archive', 'restore'].includes(kind)) body.comment = mark(label);
    actions.push({
      label,
      method: 'POST',
      path: `/api/math/tasks/${taskId}`,
      token: owner.math,
      body,
      key: `soak-${SEED}-${taskId}-${i}-${randomUUID().slice(0, 8)}`,
    });
  }
  return { taskId, initialVersion, actions };
}

interface GenomicsTopicPlan {
  uid: string;
  initialVersion: number;
  actions: Action[];
  notes: string[];
  reviewerChanges: string[];
}

/** Notes (written by the API) alternating with reviewer assignments and removals (through the workflow). */
function genomicsPlan(uid: string, initialVersion: number): GenomicsTopicPlan {
  const plan: GenomicsTopicPlan = { uid, initialVersion, actions: [], notes: [], reviewerChanges: [] };
  for (let i = 0; i < GENOMICS_ACTIONS_PER_TOPIC; i++) {
    const label = mark(`${uid} #${i}`);
    const key = `soak-${SEED}-${uid.replace(':', '-')}-${i}-${randomUUID().slice(0, 8)}`;
    if (i % 2 === 0) {
      plan.notes.push(label);
      plan.actions.push({
        label,
        method: 'POST',
        path: topicPath(uid, '/notes'),
        token: owner.genomics,
        body: { body: label, campaignId: null },
        key,
      });
    } else {
      plan.reviewerChanges.push(label);
      const assign = i % 4 === 1;
      plan.actions.push({
        label,
        method: 'PUT',
        path: topicPath(uid, '/reviewer'),
        token: owner.genomics,
        body: { reviewerId: assign ? ids.genomicsRui : null, instructions: label, dueAt: null },
        key,
      });
    }
  }
  return plan;
}

async function runSequentially(actions: Action[]): Promise<void> {
  for (const action of actions) await perform(action);
}

/** Kills the worker or the API process at random moments during the window, restarting each after a pause. */
async function injectCrashes(until: Promise<unknown>): Promise<void> {
  let done = false;
  void until.finally(() => (done = true));
  const windowEnds = Date.now() + CRASH_WINDOW_MS;
  // The first crash comes within a second: on a quiet machine every action can be answered within 5 s.
  for (let pause = 300 + random() * 700; !done && Date.now() < windowEnds; pause = 1500 + random() * 2500) {
    await sleep(pause);
    if (done) break;
    const target = tally.crashes.api < MAX_API_CRASHES && random() < 0.5 ? 'api' : 'worker';
    if (target === 'api') {
      apiUp = false;
      await killHard(api);
      tally.crashes.api += 1;
      await sleep(200 + random() * 1500);
      api = await startApi();
    } else {
      await killHard(worker);
      tally.crashes.worker += 1;
      await sleep(200 + random() * 1500);
      worker = spawnProgram('worker.ts', processEnv(stack), join(logDir, 'worker.log'));
    }
  }
}

describe('crash soak', () => {
  it('applies every action exactly once across SIGKILLed workers and API processes', async () => {
    const started = Date.now();
    const tasks: Array<{ task_id: string; version: number }> = await stack.dataSource.query(
      'SELECT task_id, version FROM math_tasks ORDER BY task_id',
    );
    const mathPlans = tasks.map((t) => mathPlan(t.task_id, t.version));
    const genomicsPlans: GenomicsTopicPlan[] = [];
    for (let i = 0; i < GENOMICS_TOPICS; i++) {
      const uid = await createTopic(stack, owner.genomics, { batch: 'batch-900', topic: 900 + i });
      const [{ workflow_version }]: Array<{ workflow_version: number }> = await stack.dataSource.query(
        'SELECT workflow_version FROM genomics_topics WHERE batch = $1 AND topic = $2',
        ['batch-900', 900 + i],
      );
      genomicsPlans.push(genomicsPlan(uid, workflow_version));
    }

    soakWorkflowIds.push(
      ...mathPlans.map((p) => mathTaskWorkflowId(p.taskId)),
      ...genomicsPlans.map((p) => genomicsTaskWorkflowId(p.uid)),
    );
    const clients = Promise.all([
      ...mathPlans.map((p) => runSequentially(p.actions)),
      ...genomicsPlans.map((p) => runSequentially(p.actions)),
    ]);
    await Promise.all([clients, injectCrashes(clients)]);
    const allActions = [...mathPlans, ...genomicsPlans].flatMap((p) => p.actions);

    // Exactly once, math: the version advanced by the number of actions; each marked comment is there once.
    let lost = 0;
    let duplicated = 0;
    for (const plan of mathPlans) {
      const [row] = await stack.dataSource.query('SELECT version FROM math_tasks WHERE task_id = $1', [
        plan.taskId,
      ]);
      const events: Array<{ version: number; comment: string | null }> = await stack.dataSource.query(
        'SELECT version, comment FROM math_task_events WHERE task_id = $1 AND version > $2 ORDER BY version',
        [plan.taskId, plan.initialVersion],
      );
      const expected = plan.initialVersion + plan.actions.length;
      if (row.version < expected) lost += expected - row.version;
      if (row.version > expected) duplicated += row.version - expected;
      expect(events.map((e) => e.version)).toEqual(plan.actions.map((_, i) => plan.initialVersion + i + 1));
      for (const action of plan.actions) {
        if (typeof action.body.comment !== 'string') continue;
        const copies = events.filter((e) => e.comment === action.body.comment).length;
        if (copies === 0) lost += 1;
        if (copies > 1) duplicated += copies - 1;
      }
    }
    // Exactly once, genomics: each note once, each reviewer change once (its instructions), versions advanced.
    for (const plan of genomicsPlans) {
      const notes: Array<{ body: string }> = await stack.dataSource.query(
        `SELECT n.body FROM genomics_notes n JOIN genomics_topics t ON t.id = n.topic_id
          WHERE t.batch || ':' || t.topic = $1`,
        [plan.uid],
      );
      const changes: Array<{ instructions: string }> = await stack.dataSource.query(
        `SELECT e.detail->>'instructions' AS instructions FROM genomics_events e
           JOIN genomics_topics t ON t.id = e.topic_id
          WHERE t.batch || ':' || t.topic = $1 AND e.kind IN ('reviewer_assigned', 'reviewer_removed')`,
        [plan.uid],
      );
      for (const [kind, expected, found] of [
        ['notes', plan.notes, notes.map((n) => n.body)],
        ['reviewer changes', plan.reviewerChanges, changes.map((c) => c.instructions)],
      ] as const) {
        for (const label of expected) {
          const copies = found.filter((f) => f === label).length;
          if (copies === 0) lost += 1;
          if (copies > 1) duplicated += copies - 1;
        }
        // Named, so a failure says which seed, topic and kind (SOAK_SEED reruns it).
        expect({ seed: SEED, topic: plan.uid, kind, found: [...found].sort() }).toEqual({
          seed: SEED,
          topic: plan.uid,
          kind,
          found: [...expected].sort(),
        });
      }
    }

    // Each task's projection equals its workflow's state.
    for (const plan of mathPlans) {
      const state = await stack.temporal.workflow
        .getHandle(mathTaskWorkflowId(plan.taskId))
        .query(mathTaskStateQuery);
      const [row] = await stack.dataSource.query(
        `SELECT version, review_state, decision, assignee_id::text, client_id::text, archived
           FROM math_tasks WHERE task_id = $1`,
        [plan.taskId],
      );
      expect({ task: plan.taskId, ...state }).toEqual({
        task: plan.taskId,
        version: row.version,
        reviewState: row.review_state,
        decision: row.decision,
        assigneeId: row.assignee_id,
        clientId: row.client_id,
        archived: row.archived,
      });
    }
    for (const plan of genomicsPlans) {
      const state = await stack.temporal.workflow
        .getHandle(genomicsTaskWorkflowId(plan.uid))
        .query(genomicsTaskStateQuery);
      const [row] = await stack.dataSource.query(
        `SELECT workflow_version, decision, disposition, planned_reviewer_id::text
           FROM genomics_topics WHERE batch || ':' || topic = $1`,
        [plan.uid],
      );
      expect({ topic: plan.uid, version: state.version, reviewer: state.plannedReviewerId }).toEqual({
        topic: plan.uid,
        version: row.workflow_version,
        reviewer: row.planned_reviewer_id,
      });
      expect([state.decision, state.disposition]).toEqual([row.decision, row.disposition]);
      expect(state.version).toBe(plan.initialVersion + plan.reviewerChanges.length);
    }

    // Every request, sent again with its key, gets the receipt its client got: the original one.
    let receiptsChecked = 0;
    for (const action of allActions) {
      const response = await fetch(`${stable.url}${action.path}`, {
        method: action.method,
        headers: {
          authorization: `Bearer ${action.token}`,
          'content-type': 'application/json',
          'idempotency-key': action.key,
        },
        body: JSON.stringify(action.body),
      });
      expect({ label: action.label, status: response.status, body: await response.json() }).toEqual({
        label: action.label,
        status: action.answer!.status,
        body: action.answer!.body,
      });
      expect(response.headers.get('idempotent-replayed')).toBe('true');
      receiptsChecked += 1;
    }

    const seconds = ((Date.now() - started) / 1000).toFixed(0);
    console.log(
      `soak (seed ${SEED}): actions sent ${tally.sent}, crashes injected ${tally.crashes.worker + tally.crashes.api} ` +
        `(worker ${tally.crashes.worker}, api ${tally.crashes.api}), lost ${lost}, duplicated ${duplicated}; ` +
        `${tally.retried} actions retried (${tally.attempts} attempts: ${tally.connectionErrors} connection errors, ` +
        `${tally.unavailable} 503, ${tally.inProgress} 409 in progress), ${tally.serverErrors.length} 5xx other than 503, ` +
        `${receiptsChecked} receipts replayed identical, ${seconds} s`,
    );
    expect(tally.sent).toBe(allActions.length);
    expect(tally.crashes.worker + tally.crashes.api).toBeGreaterThan(0);
    expect({ lost, duplicated }).toEqual({ lost: 0, duplicated: 0 });
    expect(tally.serverErrors).toEqual([]);
    soakPassed = true;
  }, 240_000);
});
