import { randomUUID } from 'node:crypto';
import http from 'node:http';
import pg from 'pg';
import { setTimeout as sleep } from 'node:timers/promises';
import { MockActivityEnvironment } from '@temporalio/testing';
import { DeliveryPolling } from '../../activities/webhookPolling';
import { holdDeliveryPolling, recordAttemptResults } from '../../activities/webhookQueries';
import { WebhookSweep } from '../../activities/webhookSweep';
import { WebhookWakeups } from '../../activities/webhookWakeups';
import { createActivities } from '../../activities';
import { createLogger } from '../../logging/logger';
import type { RunningServer } from '../../server';
import { ENDPOINT_CHANGED, WEBHOOK_EVENT_TYPES, WEBHOOK_WAKE_CHANNEL } from '../../webhooks/events';
import { WEBHOOK_EVENT_DOCS } from '../../webhooks/payloads';
import { guardedLookup, WebhookTargetRefused } from '../../webhooks/targets';
import { webhookEndpointWorkflowId } from '../../webhooks/endpointWorkflow';
import { importMathRunWorkflowId } from '../../workflows/importMathRun/messages';
import {
  createTopic,
  EXTRA_GENOMICS_MEMBERS,
  eventually,
  g,
  ik,
  type GenomicsActors,
  genomicsActors,
  importGenomicsBundle,
  inMs,
  topicPath,
} from '../helpers/genomics';
import { generated, kill, removeGenerated, spawnWorker } from '../helpers/imports';
import { httpVia, startExtraServer } from '../helpers/keys';
import { act, createClient } from '../helpers/math';
import {
  http as call,
  importBundle,
  memberId,
  mintKey,
  seedMembers,
  startStack,
  type TestStack,
} from '../helpers/stack';
import { type Received, WebhookReceiver } from '../helpers/webhooks';

// docs/webhooks.md: a real receiver on loopback checks every signature with the standardwebhooks package.
let stack: TestStack;
let mathAdmin: string;
let mathOwner: string;
let mathReviewer: string;
let rui: string;
let a: GenomicsActors;
const receivers: WebhookReceiver[] = [];

beforeAll(async () => {
  // A sweep every second, so the test of a delivery workflow that is not running waits seconds, not a minute.
  stack = await startStack({
    env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true', WEBHOOK_SWEEP_INTERVAL_SECONDS: '1' },
  });
  await seedMembers(stack, EXTRA_GENOMICS_MEMBERS);
  await importBundle(stack);
  await importGenomicsBundle(stack);
  mathAdmin = (await mintKey(stack, 'math', 'idp|ada')).token;
  mathOwner = (await mintKey(stack, 'math', 'idp|olga')).token;
  mathReviewer = (await mintKey(stack, 'math', 'idp|rui')).token;
  rui = await memberId(stack, 'math', 'idp|rui');
  a = await genomicsActors(stack);
});

afterAll(async () => {
  await Promise.all(receivers.map((r) => r.stop()));
  await removeGenerated();
  await stack?.stop();
});

async function receiver(): Promise<WebhookReceiver> {
  const r = await new WebhookReceiver().start();
  receivers.push(r);
  return r;
}

/** Registers an endpoint through the API; the receiver learns its secret. */
async function register(
  service: 'math' | 'genomics',
  r: WebhookReceiver,
  eventTypes: readonly string[] = WEBHOOK_EVENT_TYPES[service],
): Promise<string> {
  const res =
    service === 'math'
      ? await call(stack, 'POST', '/api/webhooks', {
          token: mathAdmin,
          body: { url: r.url, event_types: eventTypes, description: 'test receiver' },
        })
      : await g(stack, 'POST', '/api/v1/webhooks', {
          token: a.admin,
          body: { url: r.url, description: 'test receiver', eventTypes },
        });
  expect(res.status).toBe(201);
  expect(res.body.secret).toMatch(/^whsec_/);
  r.secrets = [res.body.secret];
  return res.body.id;
}

const deliveries = async (endpointId: string) =>
  (await call(stack, 'GET', `/api/webhooks/${endpointId}/deliveries?page_size=100`, { token: mathAdmin }))
    .body;

const typesOf = (received: Received[], subject: (r: Received) => string | undefined, value: string) =>
  received.filter((r) => subject(r) === value).map((r) => r.payload.type);

describe('events from every kind of transition, signed, in order per task, none missing, none extra', () => {
  it('math: task actions, an import completed and one failed, a key revoked', async () => {
    const r = await receiver();
    const endpointId = await register('math', r);
    const taskId = 'demo-q2-a';
    const clientId = await createClient(stack, mathOwner, 'Webhook client');
    await act(stack, mathAdmin, taskId, { action: 'assign', assignee_id: rui });
    await act(stack, mathReviewer, taskId, { action: 'start' });
    await act(stack, mathReviewer, taskId, { action: 'feedback', comment: 'Looks right.' });
    await act(stack, mathReviewer, taskId, { action: 'verdict', decision: 'ACCEPTED', comment: 'Correct.' });
    await act(stack, mathOwner, taskId, { action: 'reopen', comment: 'Second look.' });
    await act(stack, mathOwner, taskId, { action: 'client', client_id: clientId });
    await act(stack, mathOwner, taskId, { action: 'archive' });
    await act(stack, mathOwner, taskId, { action: 'restore' });
    // A refused action commits nothing, so it sends nothing.
    const refused = await call(stack, 'POST', `/api/math/tasks/${taskId}`, {
      token: mathOwner,
      body: { version: 1, action: 'start' },
    });
    expect(refused.status).toBe(409);

    const bundle = await generated('math', 3, { seed: 26 });
    await importBundle(stack, bundle.dir);
    const failing = await generated('math', 2, { seed: 27 });
    const activities = createActivities({
      dataSource: stack.dataSource,
      s3: stack.s3,
      bucket: stack.config.s3.bucket,
      webhooks: { sealingKey: null, policy: { allowPrivate: true }, wakeups: new WebhookWakeups('') },
    });
    const env = new MockActivityEnvironment({
      workflowExecution: { workflowId: importMathRunWorkflowId(failing.id), runId: 'webhook-run-1' },
    });
    const plan: { importId: string } = await env.run(activities.planMathImport, failing.dir);
    await env.run(activities.failImport, { importId: plan.importId, error: 'stopped by the test' });

    const key = await mintKey(stack, 'math', 'idp|olga');
    expect((await call(stack, 'DELETE', `/api/keys/${key.id}`, { token: mathAdmin })).status).toBe(200);

    await eventually(async () => r.received.length >= 11, 30_000);
    const byTask = typesOf(r.received, (x) => x.payload.data.task_id, taskId);
    expect(byTask).toEqual([
      'math.task.assigned',
      'math.task.started',
      'math.task.feedback_added',
      'math.task.verdict_recorded',
      'math.task.reopened',
      'math.task.client_changed',
      'math.task.archived',
      'math.task.restored',
    ]);
    expect(r.received.map((x) => x.payload.data.version).filter(Boolean)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    // Numbered per subject: the task's eight, the key's and each import's own first.
    expect(
      r.received.filter((x) => x.payload.data.task_id === taskId).map((x) => x.payload.sequence),
    ).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(
      r.received.filter((x) => !x.payload.type.startsWith('math.task.')).map((x) => x.payload.sequence),
    ).toEqual([1, 1, 1]);
    const imports = r.received.filter((x) => x.payload.type.startsWith('math.import.'));
    expect(imports.map((x) => [x.payload.type, x.payload.data.status])).toEqual([
      ['math.import.completed', 'SUCCEEDED'],
      ['math.import.failed', 'FAILED'],
    ]);
    expect(
      r.received.filter((x) => x.payload.type === 'math.key.revoked').map((x) => x.payload.data.key_id),
    ).toEqual([key.id]);
    // None extra: exactly the eleven, each once, each signed with the endpoint's secret, each as documented.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(r.received).toHaveLength(11);
    expect(new Set(r.received.map((x) => x.webhookId)).size).toBe(11);
    for (const x of r.received) {
      expect(x.verifiedBy).toEqual([0]);
      const docs = WEBHOOK_EVENT_DOCS.math as Record<
        string,
        { schema: { validate(v: unknown): { error?: unknown } } }
      >;
      expect(docs[x.payload.type].schema.validate(x.payload).error).toBeUndefined();
    }
    // The projection's events and the webhooks agree: one per committed transition of the task.
    const [{ n }] = await stack.dataSource.query(
      'SELECT count(*)::int AS n FROM math_task_events WHERE task_id = $1',
      [taskId],
    );
    expect(byTask).toHaveLength(n);
    const listed = await deliveries(endpointId);
    expect(listed.total).toBe(11);
    expect(listed.items.every((d: any) => d.status === 'SUCCEEDED' && d.attempts.length === 1)).toBe(true);
    expect(listed.items[0].attempts[0]).toMatchObject({
      status_code: 200,
      error: null,
      response_excerpt: 'ok',
    });
  });

  it('genomics: assignment, comment, review, revision started and resumed, removal, override, reopen, disposition, expiry, a key revoked', async () => {
    const r = await receiver();
    await register('genomics', r);
    const uid = await createTopic(stack, a.owner);
    const campaign = 'cmp-2026-spring';
    const assigned = await g(stack, 'PUT', topicPath(uid, '/reviewer'), {
      token: a.owner,
      body: { reviewerId: a.ruiId, instructions: 'Check it.', dueAt: null },
    });
    expect(assigned.status).toBe(200);
    const assignmentId = assigned.body.assignmentId;
    const review = (verdict: string) =>
      g(stack, 'POST', topicPath(uid, '/reviews'), {
        token: a.reviewer,
        body: { assignmentId, verdict, body: 'x' },
      });
    expect((await review('COMMENT')).status).toBe(200);
    expect((await review('MINOR_REPAIR')).status).toBe(200);
    const revise = () =>
      g(stack, 'POST', topicPath(uid, '/revisions'), {
        token: a.owner,
        body: { campaignId: campaign, notes: 'v2' },
      });
    expect((await revise()).status).toBe(201);
    expect((await revise()).status).toBe(201);
    const reassigned = await g(stack, 'PUT', topicPath(uid, '/reviewer'), {
      token: a.owner,
      body: { reviewerId: null, instructions: '', dueAt: null },
    });
    expect(reassigned.status).toBe(200);
    const decided = await g(stack, 'POST', topicPath(uid, '/decision'), {
      token: a.owner,
      body: { expectedDecision: 'MINOR_REPAIR', decision: 'REJECTED', campaignId: campaign, reason: 'No.' },
    });
    expect(decided.status).toBe(200);
    const reopened = await g(stack, 'POST', topicPath(uid, '/reopen'), {
      token: a.owner,
      body: { expectedDecision: 'REJECTED', campaignId: campaign, reason: 'Again.' },
    });
    expect(reopened.status).toBe(200);
    const disposed = await g(stack, 'PUT', topicPath(uid, '/disposition'), {
      token: a.owner,
      body: { expectedDisposition: 'ACTIVE', disposition: 'DISCARDED', reason: 'Triage.' },
    });
    expect(disposed.status).toBe(200);

    const expiring = await createTopic(stack, a.owner);
    const due = await g(stack, 'PUT', topicPath(expiring, '/reviewer'), {
      token: a.owner,
      body: { reviewerId: a.ruiId, instructions: 'Quick.', dueAt: inMs(1_500) },
    });
    expect(due.status).toBe(200);

    const key = await mintKey(stack, 'genomics', 'idp|olga');
    expect((await call(stack, 'DELETE', `/api/v1/keys/${key.id}`, { token: a.admin })).status).toBe(200);

    await eventually(async () => r.received.length >= 12, 30_000);
    expect(typesOf(r.received, (x) => x.payload.data.topic_uid, uid)).toEqual([
      'genomics.topic.reviewer_assigned',
      'genomics.topic.comment_added',
      'genomics.topic.review_submitted',
      'genomics.topic.revision_started',
      'genomics.topic.revision_resumed',
      'genomics.topic.reviewer_removed',
      'genomics.topic.decision_overridden',
      'genomics.topic.review_reopened',
      'genomics.topic.disposition_changed',
    ]);
    expect(typesOf(r.received, (x) => x.payload.data.topic_uid, expiring)).toEqual([
      'genomics.topic.reviewer_assigned',
      'genomics.topic.assignment_expired',
    ]);
    const [{ n }] = await stack.dataSource.query(
      `SELECT count(*)::int AS n FROM genomics_events e JOIN genomics_topics t ON t.id = e.topic_id
        WHERE t.uid = $1 AND e.workflow_version IS NOT NULL`,
      [uid],
    );
    expect(n).toBe(9);

    const bundle = await generated('genomics', 2, { seed: 26 });
    await importGenomicsBundle(stack, bundle.dir);
    await eventually(async () => r.received.length >= 13, 30_000);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(r.received.map((x) => x.payload.type).filter((t) => !t.startsWith('genomics.topic.'))).toEqual([
      'genomics.key.revoked',
      'genomics.import.completed',
    ]);
    expect(r.received).toHaveLength(13);
    for (const x of r.received) {
      expect(x.verifiedBy).toEqual([0]);
      const docs = WEBHOOK_EVENT_DOCS.genomics as Record<
        string,
        { schema: { validate(v: unknown): { error?: unknown } } }
      >;
      expect(docs[x.payload.type].schema.validate(x.payload).error).toBeUndefined();
    }
  });
});

describe('delivery', () => {
  it('a receiver answering 500 then recovering gets the same webhook-id; Retry-After is honoured', async () => {
    const r = await receiver();
    r.answer = (_request, index) =>
      index === 0
        ? { status: 500 }
        : index === 1
          ? { status: 503, headers: { 'retry-after': '1' } }
          : { status: 200 };
    const endpointId = await register('math', r, ['math.task.assigned']);
    await act(stack, mathAdmin, 'demo-q3-a', { action: 'assign', assignee_id: rui });
    await eventually(async () => r.received.length >= 3, 30_000);
    expect(new Set(r.received.map((x) => x.webhookId)).size).toBe(1);
    // The schedule's second attempt waits 5 s ± 20 %; the third waits what Retry-After asked (1 s).
    expect(r.received[1].at - r.received[0].at).toBeGreaterThanOrEqual(3_900);
    expect(r.received[2].at - r.received[1].at).toBeGreaterThanOrEqual(900);
    expect(r.received[2].at - r.received[1].at).toBeLessThan(3_900);
    const listed = await eventually(async () => {
      const body = await deliveries(endpointId);
      return body.items[0]?.status === 'SUCCEEDED' ? body : null;
    }, 10_000);
    expect(listed.items[0].message_id).toBe(r.received[0].webhookId);
    expect(listed.items[0].attempts.map((x: any) => x.status_code)).toEqual([500, 503, 200]);

    // A redelivery sends the same message again, with the same webhook-id.
    const again = await call(
      stack,
      'POST',
      `/api/webhooks/${endpointId}/deliveries/${listed.items[0].id}/redeliver`,
      {
        token: mathAdmin,
      },
    );
    expect(again.status).toBe(202);
    await eventually(async () => r.received.length >= 4, 15_000);
    expect(r.received[3].webhookId).toBe(r.received[0].webhookId);
    expect(r.received[3].body).toBe(r.received[0].body);
  });

  it('410 disables the endpoint; nothing is queued for it until it is resumed', async () => {
    const r = await receiver();
    r.answer = () => ({ status: 410 });
    const endpointId = await register('math', r, ['math.task.feedback_added']);
    await act(stack, mathAdmin, 'demo-q2-b', { action: 'assign', assignee_id: rui });
    await act(stack, mathReviewer, 'demo-q2-b', { action: 'feedback', comment: 'one' });
    const disabled = await eventually(async () => {
      const res = await call(stack, 'GET', `/api/webhooks/${endpointId}`, { token: mathAdmin });
      return res.body.status === 'DISABLED' ? res.body : null;
    }, 15_000);
    expect(disabled.disabled_reason).toBe('gone');
    await act(stack, mathReviewer, 'demo-q2-b', { action: 'feedback', comment: 'two' });
    expect((await deliveries(endpointId)).total).toBe(1);

    r.answer = () => ({ status: 200 });
    const resumed = await call(stack, 'POST', `/api/webhooks/${endpointId}`, {
      token: mathAdmin,
      body: { url: r.url, description: '', event_types: ['math.task.feedback_added'], status: 'ACTIVE' },
    });
    expect(resumed.body).toMatchObject({ status: 'ACTIVE', disabled_reason: null });
    await act(stack, mathReviewer, 'demo-q2-b', { action: 'feedback', comment: 'three' });
    await eventually(async () => r.received.length >= 2, 15_000);
    expect(r.received.map((x) => x.payload.data.comment)).toEqual(['one', 'three']);
  });

  it('rotation: during the grace period both secrets sign; after a rotation without grace only the new one', async () => {
    const r = await receiver();
    const endpointId = await register('genomics', r, ['genomics.topic.reviewer_assigned']);
    const rotated = await g(stack, 'POST', `/api/v1/webhooks/${endpointId}/rotate-secret`, {
      token: a.admin,
      body: { gracePeriodHours: 1 },
    });
    expect(rotated.status).toBe(200);
    expect(rotated.body.previous_secret_expires_at).not.toBeNull();
    r.secrets = [r.secrets[0], rotated.body.secret];
    const uid = await createTopic(stack, a.owner);
    const assign = () =>
      g(stack, 'PUT', topicPath(uid, '/reviewer'), {
        token: a.owner,
        body: { reviewerId: a.ruiId, instructions: 'x', dueAt: null },
      });
    expect((await assign()).status).toBe(200);
    await eventually(async () => r.received.length >= 1, 15_000);
    expect(r.received[0].signature.split(' ')).toHaveLength(2);
    expect(r.received[0].verifiedBy).toEqual([0, 1]);

    const immediate = await g(stack, 'POST', `/api/v1/webhooks/${endpointId}/rotate-secret`, {
      token: a.admin,
      body: { gracePeriodHours: 0 },
    });
    expect(immediate.body.previous_secret_expires_at).toBeNull();
    r.secrets = [...r.secrets, immediate.body.secret];
    expect((await assign()).status).toBe(200);
    await eventually(async () => r.received.length >= 2, 15_000);
    expect(r.received[1].verifiedBy).toEqual([2]);
    // The secret is shown at creation and rotation only.
    const read = await g(stack, 'GET', `/api/v1/webhooks/${endpointId}`, { token: a.admin });
    expect(read.body).not.toHaveProperty('secret');
    const [{ sealed }] = await stack.dataSource.query(
      'SELECT secret_sealed AS sealed FROM webhook_endpoints WHERE id = $1',
      [endpointId],
    );
    expect(sealed).not.toContain(immediate.body.secret.slice('whsec_'.length, 20));
  });

  it('an endpoint workflow that is not running (terminated by an operator) is started again by the sweep: every event arrives once, with its webhook-id', async () => {
    const r = await receiver();
    const endpointId = await register('genomics', r, ['genomics.topic.reviewer_assigned']);
    const workflow = stack.temporal.workflow.getHandle(webhookEndpointWorkflowId(endpointId));
    const terminated = await eventually(async () => {
      const run = await workflow.describe();
      return run.status.name === 'RUNNING' ? run : null;
    }, 15_000);
    expect(terminated?.status.name).toBe('RUNNING');
    await workflow.terminate('stopped by an operator');
    // Its delivery activity learns of it at its next heartbeat (within the 5 s heartbeat timeout) and stops.
    await sleep(6_000);

    // Committed while the workflow is not running: a transition's commit only wakes a running one.
    const uid = await createTopic(stack, a.owner);
    for (const instructions of ['first', 'second']) {
      const assigned = await g(stack, 'PUT', topicPath(uid, '/reviewer'), {
        token: a.owner,
        body: { reviewerId: a.ruiId, instructions, dueAt: null },
      });
      expect(assigned.status).toBe(200);
    }
    await eventually(async () => r.received.length >= 2, 30_000);
    const restarted = await workflow.describe();
    expect(restarted.status.name).toBe('RUNNING');
    expect(restarted.runId).not.toBe(terminated?.runId);

    // Two more sweeps find the workflow running: nothing is sent twice.
    await sleep(2_500);
    expect(r.received.map((x) => x.payload.type)).toEqual([
      'genomics.topic.reviewer_assigned',
      'genomics.topic.reviewer_assigned',
    ]);
    expect(new Set(r.received.map((x) => x.webhookId)).size).toBe(2);
    const listed = await g(stack, 'GET', `/api/v1/webhooks/${endpointId}/deliveries`, { token: a.admin });
    const oldestFirst = [...listed.body.items].reverse();
    expect(oldestFirst.map((d: any) => [d.status, d.attempt_count])).toEqual([
      ['SUCCEEDED', 1],
      ['SUCCEEDED', 1],
    ]);
    expect(r.received.map((x) => x.webhookId)).toEqual(oldestFirst.map((d: any) => d.message_id));
  });

  it('the sweep leaves a running endpoint workflow alone, even while its delivery waits out a backoff', async () => {
    const r = await receiver();
    r.answer = (_request, index) => ({ status: index === 0 ? 500 : 200 });
    const endpointId = await register('genomics', r, ['genomics.topic.reviewer_assigned']);
    const uid = await createTopic(stack, a.owner);
    const assigned = await g(stack, 'PUT', topicPath(uid, '/reviewer'), {
      token: a.owner,
      body: { reviewerId: a.ruiId, instructions: 'x', dueAt: null },
    });
    expect(assigned.status).toBe(200);
    await eventually(async () => r.received.length >= 1, 15_000);
    const workflow = stack.temporal.workflow.getHandle(webhookEndpointWorkflowId(endpointId));
    const before = await workflow.describe();

    // Pending (its second attempt is about 5 s away) with the workflow running: nothing to start.
    const sweep = new WebhookSweep({
      db: stack.dataSource,
      client: stack.temporal,
      taskQueue: stack.config.temporal.taskQueue,
      intervalMs: 60_000,
      callTimeoutMs: 15_000,
      logger: createLogger('silent'),
    });
    expect(await sweep.sweep()).not.toContain(endpointId);
    const after = await workflow.describe();
    expect([after.runId, after.status.name]).toEqual([before.runId, 'RUNNING']);

    await eventually(async () => r.received.length >= 2, 15_000);
    await sleep(1_500);
    expect(r.received).toHaveLength(2);
    expect(r.received[1].webhookId).toBe(r.received[0].webhookId);
  });

  it('a worker killed mid-batch loses nothing: what was in flight is sent again by the next worker, same webhook-id and sequence', async () => {
    const queue = `${stack.config.temporal.taskQueue}-webhooks`;
    const api = await startExtraServer(stack, { temporal: { ...stack.config.temporal, taskQueue: queue } });
    let worker = spawnWorker(stack, queue);
    try {
      const r = await receiver();
      let arrived: () => void = () => undefined;
      const batchArrived = new Promise<void>((resolve) => (arrived = resolve));
      // The first two requests (two tasks' events, in flight together) hang until the worker is gone.
      r.answer = (_request, index) => {
        if (index === 1) arrived();
        return index < 2 ? { status: 200, delayMs: 10_000 } : { status: 200 };
      };
      const created = await httpVia(api, stack, 'POST', '/api/webhooks', {
        token: mathAdmin,
        body: { url: r.url, event_types: ['math.task.assigned', 'math.task.started'] },
      });
      expect(created.status).toBe(201);
      r.secrets = [created.body.secret];
      await act(stack, mathAdmin, 'demo-q1-a', { action: 'assign', assignee_id: rui });
      await act(stack, mathReviewer, 'demo-q3-a', { action: 'start' });
      await batchArrived;
      await kill(worker);
      // Committed while no worker runs: queued, delivered once one is back, after the task's earlier event.
      await act(stack, mathReviewer, 'demo-q1-a', { action: 'start' });
      worker = spawnWorker(stack, queue);
      await eventually(async () => r.received.length >= 5, 180_000);
      const [first, second] = r.received;
      const again = r.received.slice(2);
      for (const hung of [first, second]) {
        const resent = again.find((x) => x.webhookId === hung.webhookId);
        expect(resent?.body).toBe(hung.body);
      }
      const q1 = r.received.filter((x) => x.payload.data.task_id === 'demo-q1-a');
      expect(q1.map((x) => [x.payload.type, x.payload.sequence])).toEqual([
        ['math.task.assigned', 1],
        ['math.task.assigned', 1],
        ['math.task.started', 2],
      ]);
      expect(r.received.every((x) => x.verifiedBy.length === 1)).toBe(true);
    } finally {
      await kill(worker);
      await api.close();
    }
    // Two worker processes start here, each bundling the workflows: on a busy 2-core machine that takes a minute.
  }, 240_000);
});

/** Assigns (or, with null, removes) a topic's reviewer: one genomics.topic.reviewer_* event. */
const setReviewer = async (uid: string, reviewerId: string | null) => {
  const res = await g(stack, 'PUT', topicPath(uid, '/reviewer'), {
    token: a.owner,
    body: { reviewerId, instructions: 'x', dueAt: null },
  });
  expect(res.status).toBe(200);
};

const endpointOf = async (endpointId: string) =>
  (await g(stack, 'GET', `/api/v1/webhooks/${endpointId}`, { token: a.admin })).body;

describe('parallel delivery (docs/webhooks.md, "Order and parallelism")', () => {
  it('sends independent topics in parallel and each topic’s events in commit order, numbered 1, 2, 3…', async () => {
    const r = await receiver();
    // Answers take a varying while, so a later event of one topic could overtake an earlier one if allowed to.
    r.answer = (_request, index) => ({ status: 200, delayMs: 20 + ((index * 37) % 60) });
    await register('genomics', r, ['genomics.topic.reviewer_assigned', 'genomics.topic.reviewer_removed']);
    const topics = await Promise.all(Array.from({ length: 6 }, () => createTopic(stack, a.owner)));
    await Promise.all(
      topics.map(async (uid) => {
        for (const reviewer of [a.ruiId, null, a.ruiId, null]) await setReviewer(uid, reviewer);
      }),
    );
    await eventually(async () => r.received.length >= 24, 60_000);
    for (const uid of topics) {
      const mine = r.received.filter((x) => x.payload.data.topic_uid === uid);
      expect(mine.map((x) => x.payload.type)).toEqual([
        'genomics.topic.reviewer_assigned',
        'genomics.topic.reviewer_removed',
        'genomics.topic.reviewer_assigned',
        'genomics.topic.reviewer_removed',
      ]);
      expect(mine.map((x) => x.payload.sequence)).toEqual([1, 2, 3, 4]);
      const versions = mine.map((x) => x.payload.data.workflow_version as number);
      expect([...versions].sort((x, y) => x - y)).toEqual(versions);
    }
    // Parallel: the receiver answered more than one request at a time.
    expect(r.maxInFlight).toBeGreaterThan(1);
    expect(r.received).toHaveLength(24);
    // Over connections kept alive, not a new one per delivery.
    expect(r.connections).toBeLessThan(r.received.length);
  });

  it('a receiver that takes 2 s per request leaves another endpoint’s deliveries unhindered', async () => {
    const slow = await receiver();
    slow.answer = () => ({ status: 200, delayMs: 2_000 });
    const fast = await receiver();
    const created = await g(stack, 'POST', '/api/v1/webhooks', {
      token: a.admin,
      body: {
        url: slow.url,
        description: 'slow',
        eventTypes: ['genomics.topic.reviewer_assigned'],
        maxInFlight: 1,
      },
    });
    expect(created.status).toBe(201);
    expect(created.body.max_in_flight).toBe(1);
    slow.secrets = [created.body.secret];
    const slowId = created.body.id;
    await register('genomics', fast, ['genomics.topic.reviewer_assigned']);
    const topics = await Promise.all(Array.from({ length: 8 }, () => createTopic(stack, a.owner)));
    await Promise.all(topics.map((uid) => setReviewer(uid, a.ruiId)));

    // Every event reaches the fast endpoint while the slow one still has most of its backlog.
    await eventually(async () => fast.received.length >= 8, 60_000);
    expect(slow.received.length).toBeLessThan(8);
    const [{ pending }] = await stack.dataSource.query(
      `SELECT count(*)::int AS pending FROM webhook_deliveries WHERE endpoint_id = $1 AND status = 'PENDING'`,
      [slowId],
    );
    expect(pending).toBeGreaterThan(0);
    // The slow endpoint's bound holds: one request at a time.
    await eventually(async () => slow.received.length >= 8, 60_000);
    expect(slow.maxInFlight).toBe(1);
  }, 120_000);

  it('the circuit breaker: after five failures in a row it sends one probe at a time; a success closes it', async () => {
    const r = await receiver();
    let failing = true;
    r.answer = () => ({ status: failing ? 500 : 200 });
    const created = await g(stack, 'POST', '/api/v1/webhooks', {
      token: a.admin,
      body: {
        url: r.url,
        description: 'breaker',
        eventTypes: ['genomics.topic.reviewer_assigned'],
        maxInFlight: 1,
      },
    });
    expect(created.status).toBe(201);
    r.secrets = [created.body.secret];
    const endpointId = created.body.id;
    const topics = await Promise.all(Array.from({ length: 8 }, () => createTopic(stack, a.owner)));
    for (const uid of topics) await setReviewer(uid, a.ruiId);

    // Five failures open it; the next request is a lone probe after the cooldown, not the rest of the backlog.
    await eventually(async () => r.received.length >= 6, 60_000);
    await sleep(1_000);
    expect(r.received.length).toBe(6);
    const open = await endpointOf(endpointId);
    expect(open.consecutive_failures).toBeGreaterThanOrEqual(5);
    expect(open.failing_since).not.toBeNull();
    const [{ untried }] = await stack.dataSource.query(
      `SELECT count(*)::int AS untried FROM webhook_deliveries WHERE endpoint_id = $1 AND attempt_count = 0`,
      [endpointId],
    );
    expect(untried).toBeGreaterThanOrEqual(2);

    failing = false;
    await eventually(async () => {
      const listed = await g(stack, 'GET', `/api/v1/webhooks/${endpointId}/deliveries`, { token: a.admin });
      return listed.body.items.every((d: any) => d.status === 'SUCCEEDED') && listed.body.items.length === 8;
    }, 90_000);
    const closed = await endpointOf(endpointId);
    expect(closed).toMatchObject({ consecutive_failures: 0, failing_since: null, status: 'ACTIVE' });
    expect(closed.last_success_at).not.toBeNull();
    // Every topic's event arrived, with the same webhook-id on each of its attempts.
    const succeeded = r.received.filter((_x, index) => index >= 6);
    expect(new Set(succeeded.map((x) => x.payload.data.topic_uid))).toEqual(
      new Set(topics.filter((uid) => succeeded.some((x) => x.payload.data.topic_uid === uid))),
    );
    expect(new Set(r.received.map((x) => x.payload.data.topic_uid)).size).toBe(8);
  }, 180_000);

  it('an endpoint failing for 5 days without a success is disabled (reason shown); resuming sends what queued', async () => {
    const r = await receiver();
    let failing = true;
    r.answer = () => ({ status: failing ? 503 : 200 });
    const endpointId = await register('genomics', r, ['genomics.topic.reviewer_assigned']);
    const uid = await createTopic(stack, a.owner);
    await setReviewer(uid, a.ruiId);
    await eventually(async () => (await endpointOf(endpointId)).failing_since !== null, 30_000);
    // The test clock: the failures began five days and a minute ago (the window is measured from that record).
    await stack.dataSource.query(
      `UPDATE webhook_endpoints SET failing_since = now() - interval '5 days 1 minute' WHERE id = $1;`,
      [endpointId],
    );
    // Announced as the API announces an endpoint change, so the delivery reads the endpoint again.
    await stack.dataSource.query(`SELECT pg_notify($1, $2)`, [WEBHOOK_WAKE_CHANNEL, ENDPOINT_CHANGED]);
    const disabled = await eventually(async () => {
      const endpoint = await endpointOf(endpointId);
      return endpoint.status === 'DISABLED' ? endpoint : null;
    }, 30_000);
    expect(disabled.disabled_reason).toBe('failing');
    const [queued] = (await g(stack, 'GET', `/api/v1/webhooks/${endpointId}/deliveries`, { token: a.admin }))
      .body.items;
    expect(queued.status).toBe('PENDING');

    failing = false;
    const attemptsBefore = r.received.length;
    const resumed = await g(stack, 'PUT', `/api/v1/webhooks/${endpointId}`, {
      token: a.admin,
      body: {
        url: r.url,
        description: '',
        eventTypes: ['genomics.topic.reviewer_assigned'],
        status: 'ACTIVE',
      },
    });
    expect(resumed.body).toMatchObject({ status: 'ACTIVE', disabled_reason: null, failing_since: null });
    await eventually(async () => r.received.length > attemptsBefore, 30_000);
    expect(r.received.at(-1)!.webhookId).toBe(queued.message_id);
    expect(r.received.at(-1)!.payload.sequence).toBe(1);
  }, 120_000);
});

describe('locking', () => {
  it('recording attempts takes the endpoint’s row before any delivery’s, as deleting an endpoint does (no deadlock)', async () => {
    // A paused endpoint of its own event type: nothing but this test touches its deliveries.
    const endpointId = randomUUID();
    const type = `test.lock-order.${endpointId}`;
    await stack.dataSource.query(
      `INSERT INTO webhook_endpoints (id, service, url, event_types, secret_sealed, status)
       VALUES ($1, 'math', 'http://127.0.0.1:9/unused', ARRAY[$2], 'unused', 'PAUSED')`,
      [endpointId, type],
    );
    await stack.dataSource.query(`SELECT webhook_emit('math', $1, 'lock-order', '{}'::jsonb)`, [type]);
    const [{ id: deliveryId }]: Array<{ id: string }> = await stack.dataSource.query(
      `SELECT id::text FROM webhook_deliveries WHERE endpoint_id = $1`,
      [endpointId],
    );

    const holder = stack.dataSource.createQueryRunner();
    const probe = stack.dataSource.createQueryRunner();
    try {
      await holder.startTransaction();
      await holder.query(`SELECT 1 FROM webhook_endpoints WHERE id = $1 FOR UPDATE`, [endpointId]);
      let recorded = false;
      const recording = recordAttemptResults(stack.dataSource, endpointId, [
        {
          deliveryId,
          attemptedAt: new Date(),
          statusCode: 200,
          error: null,
          latencyMs: 1,
          responseExcerpt: '',
          delivered: true,
          retryAfterMs: null,
          disableEndpoint: null,
        },
      ]).then(() => (recorded = true));
      await sleep(300);
      expect(recorded).toBe(false);
      // Waiting for the endpoint, the record holds no delivery: another transaction takes it at once.
      await probe.startTransaction();
      await probe.query(`SELECT 1 FROM webhook_deliveries WHERE id = $1 FOR UPDATE NOWAIT`, [deliveryId]);
      await probe.rollbackTransaction();
      await holder.rollbackTransaction();
      await recording;
    } finally {
      await probe.release();
      await holder.release();
    }
    const [delivery] = await stack.dataSource.query(
      `SELECT status, attempt_count FROM webhook_deliveries WHERE id = $1`,
      [deliveryId],
    );
    expect(delivery).toEqual({ status: 'SUCCEEDED', attempt_count: 1 });
  });
});

describe('notifications while a delivery polls (migration 1767500000040)', () => {
  /** A paused endpoint of its own event type: no delivery run of this stack touches it. */
  const pausedEndpoint = async () => {
    const endpointId = randomUUID();
    const type = `test.polling.${endpointId}`;
    await stack.dataSource.query(
      `INSERT INTO webhook_endpoints (id, service, url, event_types, secret_sealed, status)
       VALUES ($1, 'math', 'http://127.0.0.1:9/unused', ARRAY[$2], 'unused', 'PAUSED')`,
      [endpointId, type],
    );
    const emit = (db: { query(sql: string, params: unknown[]): Promise<unknown> }) =>
      db.query(`SELECT webhook_emit('math', $1, 'polling', '{}'::jsonb)`, [type]);
    return { endpointId, emit };
  };

  it('a transition notifies only while no delivery of a subscribed endpoint says it polls', async () => {
    const { endpointId, emit } = await pausedEndpoint();
    const listener = new pg.Client({ connectionString: stack.config.databaseUrl });
    await listener.connect();
    let notified = 0;
    listener.on('notification', () => notified++);
    await listener.query(`LISTEN ${WEBHOOK_WAKE_CHANNEL}`);
    try {
      await emit(stack.dataSource);
      await eventually(async () => notified === 1, 5_000);
      await holdDeliveryPolling(stack.dataSource, endpointId, 60_000);
      await emit(stack.dataSource);
      await sleep(300);
      expect(notified).toBe(1);
      await holdDeliveryPolling(stack.dataSource, endpointId, 0);
      await emit(stack.dataSource);
      await eventually(async () => notified === 2, 5_000);
    } finally {
      await listener.end();
    }
  });

  it('a delivery stops polling only once every transaction that saw it polling has ended', async () => {
    const { endpointId, emit } = await pausedEndpoint();
    const polling = new DeliveryPolling(stack.dataSource, endpointId, 20);
    expect(await polling.afterLook(true, 10_000)).toBe(20);
    // A transition that queued an event without a notification, still open as the polling lapses.
    const open = stack.dataSource.createQueryRunner();
    try {
      await open.startTransaction();
      await emit(open);
      await holdDeliveryPolling(stack.dataSource, endpointId, 0);
      await sleep(2_100); // past the polling's own hold
      for (let look = 0; look < 5; look++) expect(await polling.afterLook(false, 10_000)).toBe(20);
      await open.commitTransaction();
    } finally {
      await open.release();
    }
    // Ended: one more look at once, then notifications wake it again. Transaction ids are the whole server's, so
    // transactions of tests running beside this one may hold it a little longer.
    let wait = 20;
    for (const deadline = Date.now() + 5_000; wait === 20 && Date.now() < deadline; await sleep(20))
      wait = await polling.afterLook(false, 10_000);
    expect(wait).toBe(0);
    expect(await polling.afterLook(false, 10_000)).toBe(10_000);
  });
});

describe('safety', () => {
  let strict: RunningServer;
  beforeAll(async () => {
    strict = await startExtraServer(stack, {
      webhooks: { ...stack.config.webhooks, allowPrivateTargets: false },
    });
  });
  afterAll(async () => strict?.close());

  it.each([
    ['http://127.0.0.1:8080/hooks', 'scheme_not_allowed'],
    ['https://127.0.0.1/hooks', 'private_target'],
    ['https://localhost/hooks', 'private_target'],
    ['https://169.254.169.254/latest/meta-data', 'private_target'],
    ['https://[::1]/hooks', 'private_target'],
    ['https://10.0.0.8/hooks', 'private_target'],
    ['https://user:pw@example.org/hooks', 'credentials_in_url'],
  ])('refuses %s at registration (%s) and writes nothing', async (url, reason) => {
    const before = await stack.dataSource.query('SELECT count(*)::int AS n FROM webhook_endpoints');
    const math = await httpVia(strict, stack, 'POST', '/api/webhooks', {
      token: mathAdmin,
      body: { url, event_types: ['math.task.assigned'] },
    });
    expect(math.status).toBe(400);
    expect(math.body).toMatchObject({ code: 'webhook_target_refused', reason });
    const genomics = await httpVia(strict, stack, 'POST', '/api/v1/webhooks', {
      token: a.admin,
      body: { url, description: '', eventTypes: ['genomics.key.revoked'] },
      headers: { 'idempotency-key': ik() },
    });
    expect(genomics.status).toBe(400);
    expect(genomics.body).toMatchObject({ code: 'webhook_target_refused', reason });
    expect(await stack.dataSource.query('SELECT count(*)::int AS n FROM webhook_endpoints')).toEqual(before);
  });

  it('refuses a private address at connection time too (a name that resolves there later: DNS rebinding)', async () => {
    const r = await receiver();
    const port = new URL(r.url).port;
    const error = await new Promise<unknown>((resolve) => {
      const request = http.request(`http://localhost:${port}/hooks`, {
        method: 'POST',
        lookup: guardedLookup({ allowPrivate: false }),
      });
      request.on('error', resolve);
      request.on('response', () => resolve(null));
      request.end('{}');
    });
    expect(error).toBeInstanceOf(WebhookTargetRefused);
    expect(r.received).toHaveLength(0);
  });

  it('only an Admin with keys:manage manages webhooks', async () => {
    const noScope = (await mintKey(stack, 'math', 'idp|ada', { scopes: ['read', 'write'] })).token;
    expect((await call(stack, 'GET', '/api/webhooks', { token: noScope })).body.code).toBe(
      'insufficient_scope',
    );
    expect((await call(stack, 'GET', '/api/webhooks', { token: mathOwner })).body.code).toBe(
      'insufficient_role',
    );
  });
});
