import { createHash } from 'node:crypto';
import { GetObjectCommand } from '@aws-sdk/client-s3';
import { WorkflowNotFoundError } from '@temporalio/client';
import { defaultPayloadConverter } from '@temporalio/common';
import { presentEvent } from '../../api/math/tasks/presenters';
import { mathTaskWorkflowId } from '../../workflows/mathTask/ids';
import {
  changeBehindService,
  http,
  importBundle,
  memberId,
  mintKey,
  seedMembers,
  startStack,
  type TestStack,
} from '../helpers/stack';

let stack: TestStack;
let owner: string;
let reviewer: string;
let reviewerKeyId: string;
let rui: string;

beforeAll(async () => {
  stack = await startStack();
  await seedMembers(stack);
  await importBundle(stack);
  owner = (await mintKey(stack, 'math', 'idp|olga')).token;
  ({ token: reviewer, id: reviewerKeyId } = await mintKey(stack, 'math', 'idp|rui'));
  rui = await memberId(stack, 'math', 'idp|rui');
});

afterAll(async () => {
  await stack?.stop();
});

const taskRow = async (taskId: string) =>
  (
    await stack.dataSource.query(
      'SELECT review_state, decision, assignee_id::text, version FROM math_tasks WHERE task_id = $1',
      [taskId],
    )
  )[0] as { review_state: string; decision: string | null; assignee_id: string | null; version: number };

const eventCount = async (taskId: string) =>
  Number(
    (await stack.dataSource.query('SELECT count(*) FROM math_task_events WHERE task_id = $1', [taskId]))[0]
      .count,
  );

describe('import of the demo math run', () => {
  it('stores every artifact in S3 with the size and SHA-256 that S3 actually holds', async () => {
    const artifacts: Array<{ artifact_id: string; object_key: string; size_bytes: string; sha256: string }> =
      await stack.dataSource.query(
        'SELECT artifact_id, object_key, size_bytes, sha256 FROM math_artifacts ORDER BY artifact_id',
      );
    expect(artifacts).toHaveLength(7);
    for (const a of artifacts) {
      const object = await stack.s3.send(
        new GetObjectCommand({ Bucket: stack.config.s3.bucket, Key: a.object_key }),
      );
      const bytes = Buffer.from(await object.Body!.transformToByteArray());
      expect(bytes.length).toBe(Number(a.size_bytes));
      expect(createHash('sha256').update(bytes).digest('hex')).toBe(a.sha256);
    }
  });

  it('upserts run, topics, reports and tasks, including a null report mapping', async () => {
    const tasks = await stack.dataSource.query('SELECT task_id, report_id FROM math_tasks ORDER BY task_id');
    expect(tasks).toEqual([
      { task_id: 'demo-q1-a', report_id: 'demo-report-q1' },
      { task_id: 'demo-q2-a', report_id: 'demo-report-q2' },
      { task_id: 'demo-q2-b', report_id: 'demo-report-q2' },
      { task_id: 'demo-q3-a', report_id: null },
    ]);
  });

  it('is a no-op when the unchanged bundle is imported again', async () => {
    const again = await importBundle(stack);
    expect(again.unchanged).toBe(true);
    expect(again.bytesUploaded).toBe(0);
  });
});

describe('GET /api/auth/session and GET /api/v1/session', () => {
  it('answers with the caller, role and scopes', async () => {
    const res = await http(stack, 'GET', '/api/auth/session', { token: owner });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ member: { identity_id: 'idp|olga', role: 'OWNER' }, role: 'OWNER' });
    expect(res.body.scopes).toContain('write');
  });

  it('answers the genomics session with the workspace and key id', async () => {
    const key = await mintKey(stack, 'genomics', 'idp|rui');
    const res = await http(stack, 'GET', '/api/v1/session', { token: key.token });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      user: { identityId: 'idp|rui', role: 'REVIEWER', enabled: true },
      workspace: { id: 'ws_genomics', environment: 'production' },
      apiKeyId: key.id,
    });
  });

  it('is 401 problem+json without a key, with a malformed key, and with the other service’s key', async () => {
    const genomicsKey = await mintKey(stack, 'genomics', 'idp|olga');
    for (const token of [undefined, 'not-a-key', genomicsKey.token]) {
      const res = await http(stack, 'GET', '/api/auth/session', { token });
      expect(res.status).toBe(401);
      expect(res.headers.get('content-type')).toContain('application/problem+json');
      expect(res.body).toMatchObject({ status: 401, code: 'unauthenticated' });
    }
  });

  it('refuses a revoked key on its next request', async () => {
    const key = await mintKey(stack, 'math', 'idp|olga');
    expect((await http(stack, 'GET', '/api/auth/session', { token: key.token })).status).toBe(200);
    await changeBehindService(stack, () =>
      stack.dataSource.query('UPDATE api_keys SET revoked_at = now() WHERE id = $1', [key.id]),
    );
    const res = await http(stack, 'GET', '/api/auth/session', { token: key.token });
    expect(res.status).toBe(401);
    expect(res.body.detail).toMatch(/revoked/);
  });

  it('refuses an expired key and a key of a disabled member', async () => {
    const expired = await mintKey(stack, 'math', 'idp|olga', { expiresInMs: -1000 });
    expect((await http(stack, 'GET', '/api/auth/session', { token: expired.token })).body.detail).toMatch(
      /expired/,
    );

    await seedMembers(stack, {
      math: [
        {
          identity_id: 'idp|temp',
          username: 'temp',
          display_name: 'Temp',
          email: null,
          role: 'OWNER',
          enabled: true,
        },
      ],
    });
    const temp = await mintKey(stack, 'math', 'idp|temp');
    expect((await http(stack, 'GET', '/api/auth/session', { token: temp.token })).status).toBe(200);
    await changeBehindService(stack, () => seedMembers(stack));
    const disabled = await http(stack, 'GET', '/api/auth/session', { token: temp.token });
    expect(disabled.status).toBe(401);
    expect(disabled.body.detail).toMatch(/disabled/);
  });

  it('is 403 when the key lacks the scope', async () => {
    const key = await mintKey(stack, 'math', 'idp|olga', { scopes: ['write'] });
    const res = await http(stack, 'GET', '/api/auth/session', { token: key.token });
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ code: 'insufficient_scope', missing_scopes: ['read'] });
  });
});

describe('POST /api/math/tasks/{task_id}: workflow actions through the task workflow', () => {
  const taskId = 'demo-q1-a';

  it('assigns, starts and records feedback, each bumping the version and returning the history', async () => {
    const assigned = await http(stack, 'POST', `/api/math/tasks/${taskId}`, {
      token: owner,
      body: { version: 0, action: 'assign', assignee_id: rui },
    });
    expect(assigned.status).toBe(200);
    expect(assigned.body.task).toMatchObject({ version: 1, review_state: 'ASSIGNED', assignee_id: rui });

    const started = await http(stack, 'POST', `/api/math/tasks/${taskId}`, {
      token: reviewer,
      body: { version: 1, action: 'start' },
    });
    expect(started.status).toBe(200);
    expect(started.body.task).toMatchObject({ version: 2, review_state: 'IN_REVIEW' });

    const feedback = await http(stack, 'POST', `/api/math/tasks/${taskId}`, {
      token: reviewer,
      body: { version: 2, action: 'feedback', comment: 'The count of 43 matches my enumeration.' },
    });
    expect(feedback.status).toBe(200);
    expect(feedback.body.workflow.version).toBe(3);
    expect(feedback.body.workflow.events.map((e: { action: string }) => e.action)).toEqual([
      'feedback',
      'start',
      'assign',
    ]);
    expect(feedback.body.workflow.events[0]).toMatchObject({
      actor_id: rui,
      comment: 'The count of 43 matches my enumeration.',
    });
    expect(await taskRow(taskId)).toEqual({
      review_state: 'IN_REVIEW',
      decision: null,
      assignee_id: rui,
      version: 3,
    });
  });

  it('titles the task workflow in the Temporal UI and names action and actor on each persistence activity', async () => {
    const handle = stack.temporal.workflow.getHandle(mathTaskWorkflowId(taskId));
    expect(await (await handle.describe()).staticSummary()).toBe(
      'Math task demo-q1-a: Count sums of two squares up to 100',
    );
    const history = await handle.fetchHistory();
    const summaries = (history.events ?? [])
      // A transition is persisted by a local activity: its marker carries the summary.
      .filter((event) => event.markerRecordedEventAttributes)
      .filter((event) => event.userMetadata?.summary)
      .map((event) => defaultPayloadConverter.fromPayload(event.userMetadata!.summary!));
    expect(summaries).toEqual(['assign by Olga Owner', 'start by Rui Reviewer', 'feedback by Rui Reviewer']);
  });

  it('has no workflow for an imported task nobody has acted on, even after it was read', async () => {
    const read = await http(stack, 'GET', '/api/math/tasks/demo-q3-a', { token: owner });
    expect(read.status).toBe(200);
    await expect(
      stack.temporal.workflow.getHandle(mathTaskWorkflowId('demo-q3-a')).describe(),
    ).rejects.toBeInstanceOf(WorkflowNotFoundError);
  });

  it('moves ASSIGNED straight to IN_REVIEW on feedback', async () => {
    await http(stack, 'POST', '/api/math/tasks/demo-q2-b', {
      token: owner,
      body: { version: 0, action: 'assign', assignee_id: rui },
    });
    const res = await http(stack, 'POST', '/api/math/tasks/demo-q2-b', {
      token: reviewer,
      body: { version: 1, action: 'feedback', comment: 'Orbit points check out.' },
    });
    expect(res.status).toBe(200);
    expect(res.body.task.review_state).toBe('IN_REVIEW');
  });

  it('answers a stale version with 409 and changes nothing', async () => {
    const before = await taskRow(taskId);
    const events = await eventCount(taskId);
    const res = await http(stack, 'POST', `/api/math/tasks/${taskId}`, {
      token: reviewer,
      body: { version: 1, action: 'feedback', comment: 'late' },
    });
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ code: 'stale_version', current_version: before.version });
    expect(await taskRow(taskId)).toEqual(before);
    expect(await eventCount(taskId)).toBe(events);
  });

  it('lets exactly one of two concurrent actions with the same version win', async () => {
    const { version } = await taskRow(taskId);
    const results = await Promise.all(
      ['first', 'second'].map((comment) =>
        http(stack, 'POST', `/api/math/tasks/${taskId}`, {
          token: reviewer,
          body: { version, action: 'feedback', comment },
        }),
      ),
    );
    expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
    expect((await taskRow(taskId)).version).toBe(version + 1);
    const [latest] = await stack.dataSource.query(
      'SELECT comment FROM math_task_events WHERE task_id = $1 ORDER BY version DESC LIMIT 1',
      [taskId],
    );
    expect(['first', 'second']).toContain(latest.comment);
  });

  it('replays an Idempotency-Key retry with the original receipt and applies the action once', async () => {
    const { version } = await taskRow(taskId);
    const request = {
      token: reviewer,
      headers: { 'idempotency-key': `retry-${version}-abcdefghijklmnop` },
      body: { version, action: 'feedback', comment: 'sent twice' },
    };
    const first = await http(stack, 'POST', `/api/math/tasks/${taskId}`, request);
    const second = await http(stack, 'POST', `/api/math/tasks/${taskId}`, request);
    expect(first.status).toBe(200);
    expect(second.status).toBe(200);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    expect(second.body).toEqual(first.body);
    expect((await taskRow(taskId)).version).toBe(version + 1);
    const other = await http(stack, 'POST', `/api/math/tasks/${taskId}`, {
      ...request,
      body: { ...request.body, comment: 'different' },
    });
    expect(other.status).toBe(409);
    expect(other.body.code).toBe('idempotency_key_reused');
  });

  it('records one write_request key event per action, with the receipt or alone on a replay', async () => {
    const { version } = await taskRow(taskId);
    const path = `/api/math/tasks/${taskId}`;
    const writes = async () =>
      (
        await stack.dataSource.query(
          `SELECT status FROM key_events WHERE key_id = $1 AND kind = 'write_request' AND path = $2`,
          [reviewerKeyId, path],
        )
      ).length as number;
    const before = await writes();
    const request = {
      token: reviewer,
      headers: { 'idempotency-key': `key-event-${version}-abcdefghijklmnop` },
      body: { version, action: 'feedback', comment: 'counted once' },
    };
    expect((await http(stack, 'POST', path, request)).status).toBe(200);
    expect(await writes()).toBe(before + 1);
    expect((await http(stack, 'POST', path, request)).headers.get('idempotent-replayed')).toBe('true');
    expect(await writes()).toBe(before + 2);
    const stale = await http(stack, 'POST', path, { ...request, headers: {}, body: { ...request.body } });
    expect(stale.status).toBe(409);
    const [last] = await stack.dataSource.query(
      `SELECT status FROM key_events WHERE key_id = $1 AND kind = 'write_request' ORDER BY id DESC LIMIT 1`,
      [reviewerKeyId],
    );
    expect(last.status).toBe(409);
  });

  it('answers an action with the task and workflow view a read gives afterwards, for operators and reviewers', async () => {
    for (const token of [owner, reviewer]) {
      const { version } = await taskRow(taskId);
      const action = await http(stack, 'POST', `/api/math/tasks/${taskId}`, {
        token,
        headers: { 'idempotency-key': `same-view-${version}-abcdefghijklmnop` },
        body: { version, action: 'feedback', comment: `view ${version}` },
      });
      expect(action.status).toBe(200);
      const task = await http(stack, 'GET', `/api/math/tasks/${taskId}`, { token });
      const workflow = await http(stack, 'GET', `/api/math/tasks/${taskId}/workflow`, { token });
      expect(action.body.task).toEqual(task.body);
      expect(action.body.workflow).toEqual(workflow.body);
      expect(workflow.body.events[0]).toMatchObject({ version: version + 1, comment: `view ${version}` });
      // The events and choices as plain column reads give them (the view reads them in one statement, as JSON).
      const events = await stack.dataSource.query(
        `SELECT id::text, version, action, actor_id::text, comment, from_state, to_state, detail, created_at
           FROM math_task_events WHERE task_id = $1 ORDER BY version DESC LIMIT 200`,
        [taskId],
      );
      expect(workflow.body.events).toEqual(events.map(presentEvent));
      const reviewers = await stack.dataSource.query(
        `SELECT id::text, display_name, enabled FROM members
          WHERE service = 'math' AND NOT primary_admin ORDER BY display_name, id`,
      );
      expect(workflow.body.reviewer_choices).toEqual(token === owner ? reviewers : []);
      const note = await http(stack, 'POST', `/api/math/tasks/${taskId}/notes`, {
        token,
        body: { version: version + 1, comment: `note ${version}` },
      });
      expect(note.status).toBe(200);
      expect(note.body).toEqual(
        (await http(stack, 'GET', `/api/math/tasks/${taskId}/workflow`, { token })).body,
      );
    }
  });

  it('hides tasks from a Reviewer they are not assigned to, and refuses operator actions', async () => {
    const hidden = await http(stack, 'GET', '/api/math/tasks/demo-q3-a', { token: reviewer });
    expect(hidden.status).toBe(404);
    const { version } = await taskRow(taskId);
    const archive = await http(stack, 'POST', `/api/math/tasks/${taskId}`, {
      token: reviewer,
      body: { version, action: 'archive' },
    });
    expect(archive.status).toBe(403);
    expect((await taskRow(taskId)).version).toBe(version);
  });

  it('answers a retry from its receipt once the task is hidden, and keeps no key for a hidden task', async () => {
    const other = 'demo-q2-b';
    const path = `/api/math/tasks/${other}`;
    const { version } = await taskRow(other);
    const feedback = {
      token: reviewer,
      headers: { 'idempotency-key': `hidden-later-${version}-abcdefghijklmnop` },
      body: { version, action: 'feedback', comment: 'before the unassign' },
    };
    const first = await http(stack, 'POST', path, feedback);
    expect(first.status).toBe(200);
    const unassigned = await http(stack, 'POST', path, {
      token: owner,
      body: { version: version + 1, action: 'assign', assignee_id: null },
    });
    expect(unassigned.status).toBe(200);
    // The receipt answers before the task is read as the Reviewer's (it is no longer theirs).
    const retried = await http(stack, 'POST', path, feedback);
    expect(retried.status).toBe(200);
    expect(retried.headers.get('idempotent-replayed')).toBe('true');
    expect(retried.body).toEqual(first.body);
    // A request refused by its read keeps nothing under its key: once the task is theirs again, it runs.
    const hidden = {
      token: reviewer,
      headers: { 'idempotency-key': `hidden-now-${version}-abcdefghijklmnop` },
      body: { version: version + 3, action: 'feedback', comment: 'after the reassign' },
    };
    expect((await http(stack, 'POST', path, hidden)).status).toBe(404);
    const reassigned = await http(stack, 'POST', path, {
      token: owner,
      body: { version: version + 2, action: 'assign', assignee_id: rui },
    });
    expect(reassigned.status).toBe(200);
    const ran = await http(stack, 'POST', path, hidden);
    expect(ran.status).toBe(200);
    expect(ran.headers.get('idempotent-replayed')).toBeNull();
    expect(ran.body.task.version).toBe(version + 4);
  });

  it('shows the task workflow to operators in Temporal with its search attributes and memo', async () => {
    const description = await stack.temporal.workflow.getHandle(mathTaskWorkflowId(taskId)).describe();
    expect(description.type).toBe('mathTaskWorkflow');
    expect(description.status.name).toBe('RUNNING');
    const attributes = Object.fromEntries(
      description.typedSearchAttributes.getAll().map((p) => [p.key.name, p.value]),
    );
    expect(attributes).toMatchObject({
      MathReviewState: 'IN_REVIEW',
      MathAssignee: rui,
      MathRun: 'demo-run-001',
      MathArchived: false,
    });
    expect(await description.memo).toMatchObject({ title: 'Count sums of two squares up to 100' });
  });
});

describe('bad input is a 4xx problem+json that changes nothing', () => {
  const taskId = 'demo-q2-a';
  const post = (body: unknown, headers: Record<string, string> = {}) =>
    http(stack, 'POST', `/api/math/tasks/${taskId}`, { token: owner, body, headers });

  it('names an unknown body field', async () => {
    const res = await post({ version: 0, action: 'start', surprise: true });
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toContain('application/problem+json');
    expect(res.body.errors).toEqual([expect.objectContaining({ path: 'body.surprise' })]);
  });

  it('rejects malformed JSON', async () => {
    const res = await post('{"version": 0, "action": ', { 'content-type': 'application/json' });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('malformed_json');
  });

  it('rejects an oversize body with 413', async () => {
    const res = await post(
      JSON.stringify({ version: 0, action: 'feedback', comment: 'x'.repeat(9 * 1024 * 1024) }),
      {
        'content-type': 'application/json',
      },
    );
    expect(res.status).toBe(413);
    expect(res.body.code).toBe('payload_too_large');
  });

  it('rejects a wrong content type with 415', async () => {
    const res = await post('version=0&action=start', { 'content-type': 'application/x-www-form-urlencoded' });
    expect(res.status).toBe(415);
  });

  it('rejects a blank comment and a missing version', async () => {
    expect((await post({ version: 0, action: 'feedback', comment: '   ' })).status).toBe(400);
    expect((await post({ action: 'start' })).body.errors).toEqual([
      expect.objectContaining({ path: 'body.version' }),
    ]);
  });

  it('answers unknown routes with 404 and wrong methods with 405', async () => {
    const missing = await http(stack, 'GET', '/api/math/nothing-here', { token: owner });
    expect(missing.status).toBe(404);
    expect(missing.body.code).toBe('route_not_found');
    const wrong = await http(stack, 'DELETE', `/api/math/tasks/${taskId}`, { token: owner });
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get('allow')).toContain('POST');
  });

  it('left the task untouched', async () => {
    expect(await taskRow(taskId)).toEqual({
      review_state: 'UNASSIGNED',
      decision: null,
      assignee_id: null,
      version: 0,
    });
    expect(await eventCount(taskId)).toBe(0);
  });
});

describe('health', () => {
  it('reports liveness and readiness of PostgreSQL, Temporal and S3', async () => {
    expect((await http(stack, 'GET', '/healthz')).status).toBe(200);
    const ready = await http(stack, 'GET', '/readyz');
    expect(ready.status).toBe(200);
    expect(ready.body.dependencies).toEqual({
      postgres: { status: 'up' },
      temporal: { status: 'up' },
      s3: { status: 'up' },
    });
  });
});
