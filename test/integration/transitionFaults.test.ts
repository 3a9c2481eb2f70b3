import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FaultPoint } from '../../activities/testFaults';
import { ensureAllTools } from '../../infra/goTools';
import { reconcile } from '../../cli/operator/reconcile';
import type { ManagedProcess } from '../../infra/processes';
import { type TemporalDevServer, startTemporalDevServer } from '../../infra/temporalDevServer';
import type { RunningServer } from '../../server';
import { genomicsTaskWorkflowId } from '../../workflows/genomicsTask/ids';
import { genomicsTaskStateQuery } from '../../workflows/genomicsTask/messages';
import { mathTaskWorkflowId } from '../../workflows/mathTask/ids';
import { mathTaskStateQuery } from '../../workflows/mathTask/messages';
import { WEBHOOK_EVENT_TYPES } from '../../webhooks/events';
import { taskUpdateId, type TaskService } from '../../workflows/ids';
import { createTopic, eventually, EXTRA_GENOMICS_MEMBERS, topicPath } from '../helpers/genomics';
import { startExtraServer } from '../helpers/keys';
import { LISTS_FIXTURE_DIR } from '../helpers/math';
import { processEnv, spawnProgram } from '../helpers/reliability';
import {
  http,
  type HttpResult,
  importBundle,
  memberId,
  mintKey,
  seedMembers,
  startStack,
  type TestStack,
} from '../helpers/stack';
import { type Received, WebhookReceiver } from '../helpers/webhooks';

/**
 * Transitions persisted inside the update's own workflow task (docs/decisions.md), under deterministic faults: the
 * worker (a child process started with the test-only REFEREE_TEST_FAULT_FILE) SIGKILLs itself at a chosen point of
 * a chosen update's persisting activity: before the commit, and after the commit but before the workflow task that
 * carries the update's acceptance completes. Then the same update is retried, or Temporal is restarted so the
 * update is lost and a different update comes next (the unacknowledged transition is replaced and audited), and
 * the replacing write is itself cut off after its commit. For both task workflows: every acknowledged change is in
 * the projection exactly once, nothing unacknowledged survives, the projection equals the workflow's state, and no
 * request is answered 5xx except the documented 503 while Temporal is stopped. Webhook events follow the same rule
 * (docs/webhooks.md, "Withdrawn events"): an endpoint that received the replaced transition's event receives its
 * withdrawal next, and a paused endpoint that had not been sent it never receives it.
 */

/** Short, so a request whose worker died is answered (503) and retried by its client within the test's bound. */
const CALL_TIMEOUT_MS = 4000;

let workDir: string;
let temporal: TemporalDevServer;
let temporalPort: number;
let temporalBinary: string;
let stack: TestStack;
let api: RunningServer;
let worker: ManagedProcess;
let faultFile: string;
let owner: { math: string; genomics: string };
/** Admin keys, which manage webhook endpoints. */
let admin: { math: string; genomics: string };
const receivers: WebhookReceiver[] = [];
/** The owner's member id per service: an update id is derived from it and the Idempotency-Key. */
let ownerId: { math: string; genomics: string };
const answers: Array<{ label: string; status: number; code?: string }> = [];

const startTemporal = (port?: number) =>
  startTemporalDevServer({
    binary: temporalBinary,
    headless: true,
    port,
    dbFile: join(workDir, 'temporal.sqlite'),
    logFile: join(workDir, 'temporal.log'),
  });
const startWorker = () =>
  spawnProgram(
    'worker.ts',
    processEnv(stack, {
      REFEREE_TEST_FAULT_FILE: faultFile,
      WEBHOOK_SECRET_KEY: stack.config.webhooks.secretKey ?? '',
      WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
    }),
    join(workDir, 'worker.log'),
  );
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

beforeAll(async () => {
  workDir = await mkdtemp(join(tmpdir(), 'referee-faults-'));
  faultFile = join(workDir, 'fault.json');
  temporalBinary = (await ensureAllTools()).temporal;
  temporal = await startTemporal();
  temporalPort = Number(temporal.address.split(':').pop());
  stack = await startStack({
    temporalAddress: temporal.address,
    env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' },
  });
  await seedMembers(stack, EXTRA_GENOMICS_MEMBERS);
  await importBundle(stack, join(LISTS_FIXTURE_DIR, 'run-a'));
  owner = {
    math: (await mintKey(stack, 'math', 'idp|olga')).token,
    genomics: (await mintKey(stack, 'genomics', 'idp|olga')).token,
  };
  admin = {
    math: (await mintKey(stack, 'math', 'idp|ada')).token,
    genomics: (await mintKey(stack, 'genomics', 'idp|ada')).token,
  };
  ownerId = {
    math: await memberId(stack, 'math', 'idp|olga'),
    genomics: await memberId(stack, 'genomics', 'idp|olga'),
  };
  // From here on the worker is a child process that the fault points can kill.
  await stack.worker.shutdown();
  worker = startWorker();
  api = await startExtraServer(stack, {
    temporal: { ...stack.config.temporal, callTimeoutMs: CALL_TIMEOUT_MS },
  });
}, 180_000);

afterAll(async () => {
  // Let the API's pending Temporal retries reach their deadline before connections close.
  await sleep(CALL_TIMEOUT_MS + 500);
  await worker?.stop();
  await Promise.all(receivers.map((r) => r.stop()));
  await api?.close();
  await stack?.stop();
  await temporal?.stop();
  if (workDir && !process.env.KEEP_TEST_LOGS) await rm(workDir, { recursive: true, force: true });
}, 60_000);

/** A request to the API under test, whose every answer is recorded for the no-5xx check. */
async function send(
  label: string,
  method: 'POST' | 'PUT',
  path: string,
  token: string,
  body: unknown,
  key: string,
): Promise<HttpResult> {
  const res = await http({ ...stack, url: api.url }, method, path, {
    token,
    body,
    headers: { 'idempotency-key': key },
  });
  answers.push({ label, status: res.status, code: res.body?.code });
  return res;
}

/** Sends until answered other than 503 (or a claim of a request still in flight), as a careful client retries. */
async function untilAnswered(
  label: string,
  method: 'POST' | 'PUT',
  path: string,
  token: string,
  body: unknown,
  key: string,
): Promise<HttpResult> {
  const deadline = Date.now() + 90_000;
  for (;;) {
    const res = await send(label, method, path, token, body, key);
    const retry = res.status === 503 || res.body?.code === 'idempotency_request_in_progress';
    if (!retry || Date.now() > deadline) return res;
    await sleep(500);
  }
}

/** The Temporal update id of the owner's request under an Idempotency-Key, as the API derives it. */
const updateIdOf = (service: TaskService, key: string) => taskUpdateId(service, ownerId[service], key);

/** Arms the fault point for the owner's request under one Idempotency-Key of a service. */
async function arm(service: TaskService, point: FaultPoint, key: string): Promise<void> {
  await writeFile(faultFile, JSON.stringify({ point, updateId: updateIdOf(service, key) }));
}

async function workerKilledItself(): Promise<void> {
  const exited = await Promise.race([worker.exited.then(() => true), sleep(60_000).then(() => false)]);
  if (!exited) throw new Error('the worker did not reach its fault point');
}

/** Waits until the restarted worker answers queries (it needs a few seconds to start polling). */
async function untilPolling(workflowId: string): Promise<void> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    try {
      await stack.temporal.workflow.getHandle(workflowId).query(mathTaskStateQuery);
      return;
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await sleep(500);
    }
  }
}

async function restartTemporal(): Promise<void> {
  await temporal.stop();
  temporal = await startTemporal(temporalPort);
}

/** Two endpoints of a service on their own receivers, subscribed to every event: one active, one paused. */
async function subscribe(service: TaskService) {
  const register = async () => {
    const receiver = await new WebhookReceiver().start();
    receivers.push(receiver);
    const res = await http(
      { ...stack, url: api.url },
      'POST',
      service === 'math' ? '/api/webhooks' : '/api/v1/webhooks',
      {
        token: admin[service],
        body:
          service === 'math'
            ? { url: receiver.url, event_types: WEBHOOK_EVENT_TYPES.math, description: 'faults' }
            : { url: receiver.url, eventTypes: WEBHOOK_EVENT_TYPES.genomics, description: 'faults' },
        headers: { 'idempotency-key': `fault-register-endpoint-${receivers.length}` },
      },
    );
    expect(res.status).toBe(201);
    receiver.secrets = [res.body.secret];
    return { receiver, id: res.body.id as string };
  };
  const live = await register();
  const paused = await register();
  await setStatus(service, paused.id, paused.receiver.url, 'PAUSED');
  return { live, paused };
}

async function setStatus(service: TaskService, id: string, url: string, status: 'ACTIVE' | 'PAUSED') {
  const res =
    service === 'math'
      ? await http({ ...stack, url: api.url }, 'POST', `/api/webhooks/${id}`, {
          token: admin.math,
          body: { url, description: 'faults', event_types: WEBHOOK_EVENT_TYPES.math, status },
        })
      : await http({ ...stack, url: api.url }, 'PUT', `/api/v1/webhooks/${id}`, {
          token: admin.genomics,
          body: { url, description: 'faults', eventTypes: WEBHOOK_EVENT_TYPES.genomics, status },
          headers: { 'idempotency-key': `fault-status-${id}-${status}` },
        });
  expect([res.status, res.body.status]).toEqual([200, status]);
}

/** The webhook id of the newest event of a task or topic: the one its last committed transition emitted. */
async function newestEvent(subject: string): Promise<string> {
  const [row] = await stack.dataSource.query(
    'SELECT message_id FROM webhook_events WHERE subject = $1 ORDER BY id DESC LIMIT 1',
    [subject],
  );
  return row.message_id;
}

/** Waits until the receiver got the event with this webhook id (at least once: retries may repeat it). */
async function untilReceived(receiver: WebhookReceiver, webhookId: string): Promise<void> {
  const got = await eventually(
    async () => receiver.received.some((r) => r.webhookId === webhookId),
    90_000,
    250,
  );
  if (!got) throw new Error(`${webhookId} was not delivered`);
}

/** What a receiver got about one subject, deduplicated on webhook-id as a receiver must, in arrival order. */
function deliveredAbout(receiver: WebhookReceiver, field: 'task_id' | 'topic_uid', subject: string) {
  const seen = new Set<string>();
  return receiver.received
    .filter(
      (r: Received) => r.payload.data[field] === subject && !seen.has(r.webhookId) && seen.add(r.webhookId),
    )
    .map((r) => {
      expect(r.verifiedBy).toEqual([0]);
      return { id: r.webhookId, type: r.payload.type, data: r.payload.data };
    });
}

describe('a math task transition cut off at each window of its workflow task', () => {
  let taskId: string;
  let rui: string;
  const path = () => `/api/math/tasks/${taskId}`;
  const version = async () =>
    (await stack.dataSource.query('SELECT version FROM math_tasks WHERE task_id = $1', [taskId]))[0]
      .version as number;
  const eventsOf = async () =>
    (await stack.dataSource.query(
      `SELECT version, split_part(update_id, ':', 3) AS update_id FROM math_task_events
        WHERE task_id = $1 ORDER BY version`,
      [taskId],
    )) as Array<{ version: number; update_id: string }>;

  beforeAll(async () => {
    [{ task_id: taskId }] = await stack.dataSource.query(
      `SELECT task_id FROM math_tasks WHERE review_state = 'UNASSIGNED' ORDER BY task_id LIMIT 1`,
    );
    rui = await memberId(stack, 'math', 'idp|rui');
  });

  it('before the commit: the worker dies, the update is delivered again and applied once', async () => {
    const v = await version();
    const key = 'fault-math-before-commit-01';
    await arm('math', 'before-commit', key);
    const body = { version: v, action: 'assign', assignee_id: rui };
    const first = send('math before-commit', 'POST', path(), owner.math, body, key);
    await workerKilledItself();
    expect(await version()).toBe(v);
    worker = startWorker();
    await first;
    const res = await untilAnswered('math before-commit retry', 'POST', path(), owner.math, body, key);
    expect([res.status, res.body.task.version]).toEqual([200, v + 1]);
    expect((await eventsOf()).filter((e) => e.update_id === key)).toEqual([
      { version: v + 1, update_id: key },
    ]);
  }, 120_000);

  it('after the commit, before the workflow task completes: the same update finds its own write', async () => {
    const v = await version();
    const key = 'fault-math-after-commit-01';
    await arm('math', 'after-commit', key);
    const body = { version: v, action: 'start' };
    const first = send('math after-commit', 'POST', path(), owner.math, body, key);
    await workerKilledItself();
    // Committed, not yet recorded by the workflow: the projection is ahead of the workflow.
    expect(await version()).toBe(v + 1);
    worker = startWorker();
    await first;
    const res = await untilAnswered('math after-commit retry', 'POST', path(), owner.math, body, key);
    expect([res.status, res.body.task.version]).toEqual([200, v + 1]);
    expect((await eventsOf()).filter((e) => e.update_id === key)).toEqual([
      { version: v + 1, update_id: key },
    ]);
    expect(
      await stack.dataSource.query('SELECT 1 FROM projection_repairs WHERE subject_id = $1', [taskId]),
    ).toEqual([]);
  }, 120_000);

  it('after the commit, the update lost with a Temporal restart: a different update replaces it, audited', async () => {
    const { live, paused } = await subscribe('math');
    const v = await version();
    const lost = 'fault-math-lost-update-01';
    const replacing = 'fault-math-replacing-01';
    await arm('math', 'after-commit', lost);
    const lostBody = { version: v, action: 'feedback', comment: 'Never acknowledged.' };
    const first = send('math lost', 'POST', path(), owner.math, lostBody, lost);
    await workerKilledItself();
    const lostEvent = await newestEvent(taskId);
    await restartTemporalAfter(first);
    expect(await version()).toBe(v + 1); // the unacknowledged transition, still in the projection
    worker = startWorker();
    // Its event was committed with it, so the active endpoint gets it before anyone knows it is unacknowledged.
    await untilReceived(live.receiver, lostEvent);
    // The reconciler reports it and leaves it to the workflow's next transition, even with --repair.
    await untilPolling(mathTaskWorkflowId(taskId));
    const reconciled = await reconcile(
      { dataSource: stack.dataSource, temporal: stack.temporal },
      { services: ['math'], repair: true, restart: true },
    );
    expect(
      reconciled.findings.map((f) => [f.subjectId, f.outcome, f.projectionVersion, f.workflowVersion]),
    ).toEqual([[taskId, 'unacknowledged', v + 1, v]]);
    expect(await version()).toBe(v + 1);

    // A new key at the version the client last had acknowledged is not refused; its own write is cut off
    // after its commit too, then delivered again.
    await arm('math', 'after-commit', replacing);
    const replacingBody = { version: v, action: 'feedback', comment: 'Acknowledged.' };
    const second = send('math replacing', 'POST', path(), owner.math, replacingBody, replacing);
    await workerKilledItself();
    worker = startWorker();
    await second;
    const res = await untilAnswered(
      'math replacing retry',
      'POST',
      path(),
      owner.math,
      replacingBody,
      replacing,
    );
    expect([res.status, res.body.task.version]).toEqual([200, v + 1]);

    const events = await eventsOf();
    expect(events.filter((e) => e.version === v + 1)).toEqual([{ version: v + 1, update_id: replacing }]);
    expect(events.some((e) => e.update_id === lost)).toBe(false);
    const repairs = await stack.dataSource.query(
      `SELECT cause, workflow_version, projection_version, jsonb_build_object(
                'field', differences->0->>'field',
                'projection', split_part(differences->0->>'projection', ':', 3),
                'workflow', split_part(differences->0->>'workflow', ':', 3)) AS update
         FROM projection_repairs WHERE service = 'math' AND subject_id = $1`,
      [taskId],
    );
    expect(repairs).toEqual([
      {
        cause: 'unacknowledged_transition',
        workflow_version: v,
        projection_version: v + 1,
        update: { field: 'update_id', projection: lost, workflow: replacing },
      },
    ]);
    // The lost request, retried with its own key, is now stale: it was never applied.
    const retried = await untilAnswered('math lost retry', 'POST', path(), owner.math, lostBody, lost);
    expect([retried.status, retried.body.code]).toEqual([409, 'stale_version']);

    await restartTemporal();
    const next = await untilAnswered(
      'math after restart',
      'POST',
      path(),
      owner.math,
      { version: v + 1, action: 'feedback', comment: 'After the restart.' },
      'fault-math-after-restart-01',
    );
    expect([next.status, next.body.task.version]).toEqual([200, v + 2]);
    await expectMathProjectionIsWorkflowState(taskId);
    const versions = (await eventsOf()).map((e) => e.version);
    expect(versions).toEqual([...new Set(versions)]);

    // Webhooks: the active endpoint got the lost event, then its withdrawal, then what was acknowledged; the
    // paused one, resumed, gets only what was acknowledged. The last event received shows nothing is left queued.
    const afterRestart = await newestEvent(taskId);
    await untilReceived(live.receiver, afterRestart);
    await setStatus('math', paused.id, paused.receiver.url, 'ACTIVE');
    await untilReceived(paused.receiver, afterRestart);
    const comments = (received: ReturnType<typeof deliveredAbout>) =>
      received.map((r) => [r.type, r.data.comment ?? r.data.withdrawn_webhook_id]);
    const liveGot = deliveredAbout(live.receiver, 'task_id', taskId);
    expect(comments(liveGot)).toEqual([
      ['math.task.feedback_added', 'Never acknowledged.'],
      ['math.task.withdrawn', lostEvent],
      ['math.task.feedback_added', 'Acknowledged.'],
      ['math.task.feedback_added', 'After the restart.'],
    ]);
    expect(liveGot[1].data).toMatchObject({
      withdrawn_type: 'math.task.feedback_added',
      withdrawn_event_id: liveGot[0].data.event_id,
      reason: 'unacknowledged_transition',
    });
    expect(comments(deliveredAbout(paused.receiver, 'task_id', taskId))).toEqual([
      ['math.task.feedback_added', 'Acknowledged.'],
      ['math.task.feedback_added', 'After the restart.'],
    ]);
    await expectWithdrawnIsNeverSentAgain('math', lostEvent, live.id, paused.id);
  }, 300_000);
});

describe('a genomics topic transition cut off at each window of its workflow task', () => {
  let uid: string;
  let topicId: string;
  let rui: string;
  let vera: string;
  const reviewer = () => topicPath(uid, '/reviewer');
  const assign = (reviewerId: string | null, instructions: string) => ({
    reviewerId,
    instructions,
    dueAt: null,
  });
  const eventsOf = async () =>
    (await stack.dataSource.query(
      `SELECT workflow_version, split_part(update_id, ':', 3) AS update_id FROM genomics_events
        WHERE topic_id = $1 AND workflow_version IS NOT NULL ORDER BY workflow_version`,
      [topicId],
    )) as Array<{ workflow_version: number; update_id: string }>;
  const assignments = async () =>
    (await stack.dataSource.query(
      'SELECT instructions, status FROM genomics_assignments WHERE topic_id = $1 ORDER BY id',
      [topicId],
    )) as Array<{ instructions: string; status: string }>;

  beforeAll(async () => {
    uid = await createTopic(stack, owner.genomics, { batch: 'batch-880', topic: 880 });
    [{ id: topicId }] = await stack.dataSource.query(
      'SELECT id::text FROM genomics_topics WHERE batch = $1 AND topic = $2',
      ['batch-880', 880],
    );
    rui = await memberId(stack, 'genomics', 'idp|rui');
    vera = await memberId(stack, 'genomics', 'idp|vera');
  });

  it('before the commit: the worker dies, the update is delivered again and applied once', async () => {
    const key = 'fault-genomics-before-commit-01';
    await arm('genomics', 'before-commit', key);
    const first = send(
      'genomics before-commit',
      'PUT',
      reviewer(),
      owner.genomics,
      assign(rui, 'first'),
      key,
    );
    await workerKilledItself();
    expect(await assignments()).toEqual([]);
    worker = startWorker();
    await first;
    const res = await untilAnswered(
      'genomics before-commit retry',
      'PUT',
      reviewer(),
      owner.genomics,
      assign(rui, 'first'),
      key,
    );
    expect(res.status).toBe(200);
    expect(await assignments()).toEqual([{ instructions: 'first', status: 'ACTIVE' }]);
    expect((await eventsOf()).filter((e) => e.update_id === key)).toHaveLength(1);
  }, 120_000);

  it('after the commit, before the workflow task completes: the same update finds its own write', async () => {
    const key = 'fault-genomics-after-commit-01';
    await arm('genomics', 'after-commit', key);
    const first = send(
      'genomics after-commit',
      'PUT',
      reviewer(),
      owner.genomics,
      assign(vera, 'second'),
      key,
    );
    await workerKilledItself();
    worker = startWorker();
    await first;
    const res = await untilAnswered(
      'genomics after-commit retry',
      'PUT',
      reviewer(),
      owner.genomics,
      assign(vera, 'second'),
      key,
    );
    expect(res.status).toBe(200);
    expect(await assignments()).toEqual([
      { instructions: 'first', status: 'CANCELLED' },
      { instructions: 'second', status: 'ACTIVE' },
    ]);
    expect((await eventsOf()).filter((e) => e.update_id === key)).toHaveLength(1);
  }, 120_000);

  it('after the commit, the update lost with a Temporal restart: its record changes are undone and replaced, audited', async () => {
    const lost = 'fault-genomics-lost-update-01';
    const replacing = 'fault-genomics-replacing-01';
    const [{ workflow_version: v }] = await stack.dataSource.query(
      'SELECT workflow_version FROM genomics_topics WHERE id = $1',
      [topicId],
    );
    const { live, paused } = await subscribe('genomics');
    await arm('genomics', 'after-commit', lost);
    const first = send('genomics lost', 'PUT', reviewer(), owner.genomics, assign(rui, 'lost'), lost);
    await workerKilledItself();
    const lostEvent = await newestEvent(uid);
    await restartTemporalAfter(first);
    // The unacknowledged reassignment is in the tables: vera's assignment cancelled, a new one for rui.
    expect(await assignments()).toEqual([
      { instructions: 'first', status: 'CANCELLED' },
      { instructions: 'second', status: 'CANCELLED' },
      { instructions: 'lost', status: 'ACTIVE' },
    ]);
    worker = startWorker();
    await untilReceived(live.receiver, lostEvent);

    await arm('genomics', 'after-commit', replacing);
    const second = send(
      'genomics replacing',
      'PUT',
      reviewer(),
      owner.genomics,
      assign(null, 'removed'),
      replacing,
    );
    await workerKilledItself();
    worker = startWorker();
    await second;
    const res = await untilAnswered(
      'genomics replacing retry',
      'PUT',
      reviewer(),
      owner.genomics,
      assign(null, 'removed'),
      replacing,
    );
    expect(res.status).toBe(200);
    // The lost assignment is gone, vera's is as the acknowledged removal left it.
    expect(await assignments()).toEqual([
      { instructions: 'first', status: 'CANCELLED' },
      { instructions: 'second', status: 'CANCELLED' },
    ]);
    const events = await eventsOf();
    expect(events.filter((e) => e.workflow_version === v + 1)).toEqual([
      { workflow_version: v + 1, update_id: replacing },
    ]);
    expect(events.some((e) => e.update_id === lost)).toBe(false);
    const repairs = await stack.dataSource.query(
      `SELECT cause, workflow_version, projection_version, jsonb_build_object(
                'field', differences->0->>'field',
                'projection', split_part(differences->0->>'projection', ':', 3),
                'workflow', split_part(differences->0->>'workflow', ':', 3)) AS update
         FROM projection_repairs WHERE service = 'genomics' AND subject_id = $1`,
      [uid],
    );
    expect(repairs).toEqual([
      {
        cause: 'unacknowledged_transition',
        workflow_version: v,
        projection_version: v + 1,
        update: { field: 'update_id', projection: lost, workflow: replacing },
      },
    ]);

    // The lost request retried with its own key was never applied, so it applies now, once.
    const retried = await untilAnswered(
      'genomics lost retry',
      'PUT',
      reviewer(),
      owner.genomics,
      assign(rui, 'lost'),
      lost,
    );
    expect(retried.status).toBe(200);
    await restartTemporal();
    const after = await untilAnswered(
      'genomics after restart',
      'PUT',
      reviewer(),
      owner.genomics,
      assign(vera, 'after restart'),
      'fault-genomics-after-restart-01',
    );
    expect(after.status).toBe(200);
    expect(await assignments()).toEqual([
      { instructions: 'first', status: 'CANCELLED' },
      { instructions: 'second', status: 'CANCELLED' },
      { instructions: 'lost', status: 'CANCELLED' },
      { instructions: 'after restart', status: 'ACTIVE' },
    ]);
    const updates = (await eventsOf()).map((e) => e.update_id);
    expect(updates.filter((u) => u === lost)).toHaveLength(1);
    const versions = (await eventsOf()).map((e) => e.workflow_version);
    expect(versions).toEqual([...new Set(versions)]);
    await expectGenomicsProjectionIsWorkflowState(uid, topicId);

    const afterRestart = await newestEvent(uid);
    await untilReceived(live.receiver, afterRestart);
    await setStatus('genomics', paused.id, paused.receiver.url, 'ACTIVE');
    await untilReceived(paused.receiver, afterRestart);
    const summary = (received: ReturnType<typeof deliveredAbout>) =>
      received.map((r) => [r.type, r.data.detail?.reviewer_id ?? r.data.withdrawn_webhook_id ?? null]);
    const liveGot = deliveredAbout(live.receiver, 'topic_uid', uid);
    expect(summary(liveGot)).toEqual([
      ['genomics.topic.reviewer_assigned', rui],
      ['genomics.topic.withdrawn', lostEvent],
      ['genomics.topic.reviewer_removed', null],
      ['genomics.topic.reviewer_assigned', rui],
      ['genomics.topic.reviewer_assigned', vera],
    ]);
    expect(liveGot[1].data).toMatchObject({
      withdrawn_type: 'genomics.topic.reviewer_assigned',
      withdrawn_event_id: liveGot[0].data.event_id,
      reason: 'unacknowledged_transition',
    });
    // The retried request is a new transition: a new event, not the withdrawn one again.
    expect(liveGot[3].id).not.toBe(lostEvent);
    expect(summary(deliveredAbout(paused.receiver, 'topic_uid', uid))).toEqual([
      ['genomics.topic.reviewer_removed', null],
      ['genomics.topic.reviewer_assigned', rui],
      ['genomics.topic.reviewer_assigned', vera],
    ]);
    await expectWithdrawnIsNeverSentAgain('genomics', lostEvent, live.id, paused.id);
  }, 300_000);
});

describe('an action while its workflow task is failing', () => {
  it('is answered 503 (not 500) until a worker completes the task, then each is applied once', async () => {
    const uid = await createTopic(stack, owner.genomics, { batch: 'batch-881', topic: 881 });
    const rui = await memberId(stack, 'genomics', 'idp|rui');
    const path = topicPath(uid, '/reviewer');
    const assign = (instructions: string) => ({ reviewerId: rui, instructions, dueAt: null });
    const firstKey = 'fault-genomics-task-failing-01';
    const secondKey = 'fault-genomics-task-failing-02';
    // The topic has no workflow yet, so the API sends update-with-start; the worker dies inside its first task.
    await arm('genomics', 'before-commit', firstKey);
    const first = send('genomics task failing', 'PUT', path, owner.genomics, assign('first'), firstKey);
    await workerKilledItself();
    expect([(await first).status, (await first).body.code]).toEqual([503, 'dependency_unavailable']);
    // Its task times out; a new worker takes the next attempt and dies inside it too. From the third attempt on,
    // Temporal admits no new update until a worker completes the task: update-with-start gets FAILED_PRECONDITION
    // (WorkflowNotReadyFailure).
    await arm('genomics', 'before-commit', firstKey);
    worker = startWorker();
    await workerKilledItself();
    const handle = stack.temporal.workflow.getHandle(genomicsTaskWorkflowId(uid));
    const failing = await eventually(
      async () => ((await handle.describe()).raw.pendingWorkflowTask?.attempt ?? 0) >= 3,
      40_000,
      250,
    );
    expect(failing).toBe(true);
    const refused = await send(
      'genomics task failing, another',
      'PUT',
      path,
      owner.genomics,
      assign('second'),
      secondKey,
    );
    expect([refused.status, refused.body.code, refused.body.dependency]).toEqual([
      503,
      'dependency_unavailable',
      'temporal',
    ]);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);

    worker = startWorker();
    for (const [key, instructions] of [
      [firstKey, 'first'],
      [secondKey, 'second'],
    ]) {
      const res = await untilAnswered(
        `genomics task failing, ${instructions}`,
        'PUT',
        path,
        owner.genomics,
        assign(instructions),
        key,
      );
      expect(res.status).toBe(200);
    }
    const assignments = await stack.dataSource.query(
      `SELECT a.instructions, a.status FROM genomics_assignments a JOIN genomics_topics t ON t.id = a.topic_id
        WHERE t.batch = 'batch-881' AND t.topic = 881 ORDER BY a.id`,
    );
    expect(assignments).toEqual([
      { instructions: 'first', status: 'CANCELLED' },
      { instructions: 'second', status: 'ACTIVE' },
    ]);
  }, 120_000);
});

describe('every answer', () => {
  it('was a success, a 4xx the client expects, or a 503 while Temporal or the worker was away', () => {
    const unexpected = answers.filter(
      (a) => a.status >= 500 && !(a.status === 503 && a.code === 'dependency_unavailable'),
    );
    expect(unexpected).toEqual([]);
  });
});

/**
 * Stops Temporal once the worker is dead and the cut-off request has been answered (503: the API's deadline passed
 * with no worker), so no client call re-admits the update; the dev server keeps admitted updates only in memory.
 */
async function restartTemporalAfter(request: Promise<HttpResult>): Promise<void> {
  const res = await request;
  expect([res.status, res.body?.code]).toEqual([503, 'dependency_unavailable']);
  await restartTemporal();
}

async function expectMathProjectionIsWorkflowState(taskId: string): Promise<void> {
  const state = await stack.temporal.workflow.getHandle(mathTaskWorkflowId(taskId)).query(mathTaskStateQuery);
  const [row] = await stack.dataSource.query(
    'SELECT version, review_state, decision, assignee_id::text, archived FROM math_tasks WHERE task_id = $1',
    [taskId],
  );
  expect(row).toEqual({
    version: state.version,
    review_state: state.reviewState,
    decision: state.decision,
    assignee_id: state.assigneeId,
    archived: state.archived,
  });
}

async function expectGenomicsProjectionIsWorkflowState(uid: string, topicId: string): Promise<void> {
  const state = await stack.temporal.workflow
    .getHandle(genomicsTaskWorkflowId(uid))
    .query(genomicsTaskStateQuery);
  const [row] = await stack.dataSource.query(
    `SELECT workflow_version, planned_reviewer_id::text, decision, disposition FROM genomics_topics WHERE id = $1`,
    [topicId],
  );
  expect(row).toEqual({
    workflow_version: state.version,
    planned_reviewer_id: state.plannedReviewerId,
    decision: state.decision,
    disposition: state.disposition,
  });
  const [active] = await stack.dataSource.query(
    `SELECT id::text FROM genomics_assignments WHERE topic_id = $1 AND status = 'ACTIVE'`,
    [topicId],
  );
  expect(active?.id ?? null).toBe(state.assignment?.status === 'ACTIVE' ? state.assignment.id : null);
}

/**
 * The withdrawn event in the database: marked withdrawn, its delivery to the active endpoint succeeded (it was
 * sent), to the paused one cancelled; neither can be redelivered (409 event_withdrawn).
 */
async function expectWithdrawnIsNeverSentAgain(
  service: TaskService,
  webhookId: string,
  liveId: string,
  pausedId: string,
): Promise<void> {
  const rows = await stack.dataSource.query(
    `SELECT d.id::text, d.endpoint_id, d.status, v.withdrawn_at IS NOT NULL AS withdrawn
       FROM webhook_deliveries d JOIN webhook_events v ON v.id = d.event_id
      WHERE v.message_id = $1 ORDER BY d.endpoint_id = $2 DESC`,
    [webhookId, liveId],
  );
  expect(
    rows.map((r: { endpoint_id: string; status: string; withdrawn: boolean }) => [
      r.endpoint_id,
      r.status,
      r.withdrawn,
    ]),
  ).toEqual([
    [liveId, 'SUCCEEDED', true],
    [pausedId, 'CANCELLED', true],
  ]);
  for (const row of rows as Array<{ id: string; endpoint_id: string }>) {
    const res =
      service === 'math'
        ? await http(
            { ...stack, url: api.url },
            'POST',
            `/api/webhooks/${row.endpoint_id}/deliveries/${row.id}/redeliver`,
            {
              token: admin.math,
            },
          )
        : await http(
            { ...stack, url: api.url },
            'POST',
            `/api/v1/webhooks/${row.endpoint_id}/deliveries/${row.id}/redeliver`,
            {
              token: admin.genomics,
              headers: { 'idempotency-key': `fault-redeliver-delivery-${row.id}` },
            },
          );
    expect([res.status, res.body.code]).toEqual([409, 'event_withdrawn']);
  }
}
