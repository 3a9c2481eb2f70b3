import { startServer } from '../../server';
import { startWorker, type RunningWorker } from '../../worker';
import { genomicsTaskWorkflowId } from '../../workflows/genomicsTask/ids';
import {
  chars,
  createTopic,
  eventually,
  EXTRA_GENOMICS_MEMBERS,
  g,
  genomicsActors,
  type GenomicsActors,
  ik,
  importGenomicsBundle,
  inMs,
  topicPath,
  writeGenomicsBundle,
} from '../helpers/genomics';
import { seedMembers, startStack, type TestStack } from '../helpers/stack';
import { readTestEnv } from '../helpers/testEnv';

let stack: TestStack;
let a: GenomicsActors;
let restartedWorker: RunningWorker | null = null;
const CAMPAIGN = 'cmp-2026-spring';

beforeAll(async () => {
  stack = await startStack();
  await seedMembers(stack, EXTRA_GENOMICS_MEMBERS);
  a = await genomicsActors(stack);
  await importGenomicsBundle(stack);
});

afterAll(async () => {
  await restartedWorker?.shutdown();
  await stack?.stop();
});

const problem = (res: { status: number; body: any }, status: number, code?: string) => {
  expect({ status: res.status, code: code ? res.body.code : undefined }).toEqual({ status, code });
};

const topicOf = async (uid: string) => (await g(stack, 'GET', topicPath(uid), { token: a.owner })).body.topic;

const events = async (
  uid: string,
): Promise<Array<{ kind: string; detail: any; workflow_version: number | null }>> =>
  stack.dataSource.query(
    `SELECT e.kind, e.detail, e.workflow_version FROM genomics_events e JOIN genomics_topics t ON t.id = e.topic_id
      WHERE t.uid = $1 ORDER BY e.id`,
    [uid],
  );

const assignments = async (
  uid: string,
): Promise<Array<{ id: string; reviewer_id: string; status: string }>> =>
  stack.dataSource.query(
    `SELECT a.id::text, a.reviewer_id::text, a.status FROM genomics_assignments a
       JOIN genomics_topics t ON t.id = a.topic_id WHERE t.uid = $1 ORDER BY a.id`,
    [uid],
  );

const assign = (
  uid: string,
  reviewerId: string | null,
  over: Record<string, unknown> = {},
  token = a.owner,
) =>
  g(stack, 'PUT', topicPath(uid, '/reviewer'), {
    token,
    body: { reviewerId, instructions: 'Check the splice calls.', dueAt: null, ...over },
  });
const review = (
  uid: string,
  assignmentId: string,
  verdict: string,
  token = a.reviewer,
  body = 'Looks right.',
) => g(stack, 'POST', topicPath(uid, '/reviews'), { token, body: { assignmentId, verdict, body } });
const decide = (
  uid: string,
  expectedDecision: string,
  decision: string,
  over: Record<string, unknown> = {},
) =>
  g(stack, 'POST', topicPath(uid, '/decision'), {
    token: a.owner,
    body: { expectedDecision, decision, campaignId: CAMPAIGN, reason: 'Second opinion.', ...over },
  });
const reopen = (uid: string, expectedDecision: string, over: Record<string, unknown> = {}, token = a.owner) =>
  g(stack, 'POST', topicPath(uid, '/reopen'), {
    token,
    body: { expectedDecision, campaignId: CAMPAIGN, reason: 'New evidence.', ...over },
  });
const dispose = (
  uid: string,
  expectedDisposition: string,
  disposition: string,
  over: Record<string, unknown> = {},
) =>
  g(stack, 'PUT', topicPath(uid, '/disposition'), {
    token: a.owner,
    body: { expectedDisposition, disposition, reason: 'Triage.', ...over },
  });
const startRevision = (uid: string, over: Record<string, unknown> = {}, token = a.reviewer) =>
  g(stack, 'POST', topicPath(uid, '/revisions'), {
    token,
    body: { campaignId: CAMPAIGN, notes: 'v2', ...over },
  });

/** A topic with rui assigned; returns its uid and the assignment id. */
async function assignedTopic(
  over: Record<string, unknown> = {},
): Promise<{ uid: string; assignmentId: string }> {
  const uid = await createTopic(stack, a.owner);
  const res = await assign(uid, a.ruiId, over);
  expect(res.status).toBe(200);
  return { uid, assignmentId: res.body.assignmentId };
}

/** A topic whose review by rui decided `verdict`. */
async function reviewedTopic(verdict = 'MINOR_REPAIR'): Promise<{ uid: string; assignmentId: string }> {
  const topic = await assignedTopic();
  expect((await review(topic.uid, topic.assignmentId, verdict)).status).toBe(200);
  return topic;
}

describe('the state machine table, row by row, through the API', () => {
  it('walks a topic through assign, comment, review, revision, re-review, override, reopen and disposition', async () => {
    const uid = await createTopic(stack, a.owner);
    const expectTopic = async (fields: Record<string, unknown>) =>
      expect(await topicOf(uid)).toMatchObject(fields);
    await expectTopic({
      decision: 'PENDING',
      workflow_status: 'UNASSIGNED',
      status: 'OPEN',
      phase: 'REVIEW',
      classification: null,
    });

    const assigned = await assign(uid, a.ruiId);
    await expectTopic({ workflow_status: 'ASSIGNED', planned_reviewer_id: a.ruiId });

    const comment = await review(uid, assigned.body.assignmentId, 'COMMENT', a.reviewer, 'Exon 11 coverage?');
    expect(comment.body).toMatchObject({ assignmentStatus: 'ACTIVE', recordType: 'review' });
    await expectTopic({ workflow_status: 'IN_REVIEW', decision: 'PENDING' });

    const verdict = await review(uid, assigned.body.assignmentId, 'MINOR_REPAIR');
    expect(verdict.body.assignmentStatus).toBe('SUBMITTED');
    await expectTopic({
      decision: 'MINOR_REPAIR',
      previous_decision: 'PENDING',
      requires_re_review: false,
      workflow_status: 'REVIEWED',
      phase: 'REPAIR',
      classification: 'REPAIRABLE',
      submission_campaign_id: null,
      decision_campaign_id: null,
    });

    const revision = await startRevision(uid);
    expect(revision.status).toBe(201);
    await expectTopic({
      requires_re_review: true,
      phase: 'REVIEW',
      campaign_id: CAMPAIGN,
      current_package_version_id: revision.body.revisionId,
      deliverable_selection_revision: '1',
      decision: 'MINOR_REPAIR',
    });

    const reReview = await assign(uid, a.veraId);
    await expectTopic({
      workflow_status: 'ASSIGNED',
      planned_reviewer_id: a.veraId,
      decision: 'MINOR_REPAIR',
    });
    await review(uid, reReview.body.assignmentId, 'READY_AS_IS', a.otherReviewer);
    await expectTopic({
      decision: 'READY',
      previous_decision: 'MINOR_REPAIR',
      requires_re_review: false,
      workflow_status: 'REVIEWED',
      phase: 'DONE',
      classification: 'ACCEPTABLE',
      submission_campaign_id: CAMPAIGN,
      decision_campaign_id: CAMPAIGN,
    });

    await decide(uid, 'READY', 'REJECTED', { campaignId: CAMPAIGN });
    await expectTopic({ decision: 'REJECTED', previous_decision: 'READY', classification: 'UNACCEPTABLE' });

    await reopen(uid, 'REJECTED');
    await expectTopic({
      decision: 'PENDING',
      previous_decision: 'REJECTED',
      requires_re_review: true,
      workflow_status: 'IN_REVIEW',
      planned_reviewer_id: a.veraId,
      decision_campaign_id: null,
    });

    await dispose(uid, 'ACTIVE', 'DISCARDED');
    await expectTopic({
      disposition: 'DISCARDED',
      status: 'CLOSED',
      planned_reviewer_id: null,
      workflow_status: 'UNASSIGNED',
    });
    await dispose(uid, 'DISCARDED', 'ACTIVE');
    await expectTopic({ disposition: 'ACTIVE', status: 'OPEN' });

    expect((await events(uid)).map((e) => e.kind)).toEqual([
      'topic_created',
      'reviewer_assigned',
      'comment_added',
      'review_submitted',
      'revision_started',
      'reviewer_assigned',
      'review_submitted',
      'decision_overridden',
      'review_reopened',
      'disposition_changed',
      'disposition_changed',
    ]);
    expect((await events(uid)).slice(1).map((e) => e.workflow_version)).toEqual([
      1, 2, 3, 4, 5, 6, 7, 8, 9, 10,
    ]);
    expect((await assignments(uid)).map((x) => x.status)).toEqual(['SUBMITTED', 'CANCELLED']);
  });
});

describe('PUT /api/v1/topics/{topicUid}/reviewer', () => {
  it('assigns a reviewer: {topicUid, reviewerId, assignmentId} with the receipt; the task shows on their /tasks', async () => {
    const uid = await createTopic(stack, a.owner);
    const res = await assign(uid, a.ruiId, { dueAt: inMs(3_600_000), instructions: chars(10_000) });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      topicUid: uid,
      reviewerId: a.ruiId,
      assignmentId: expect.stringMatching(/^[1-9][0-9]*$/),
      recordType: 'assignment',
      record: { reviewer_id: a.ruiId, status: 'ACTIVE', assigned_by: a.olgaId },
    });
    const tasks = await g(stack, 'GET', '/api/v1/tasks?limit=100', { token: a.reviewer });
    expect(tasks.body.items.map((t: { uid: string }) => t.uid)).toContain(uid);
    const vera = await g(stack, 'GET', '/api/v1/tasks?limit=100', { token: a.otherReviewer });
    expect(vera.body.items.map((t: { uid: string }) => t.uid)).not.toContain(uid);
  });

  it('reassignment cancels the previous assignment; null removes the reviewer', async () => {
    const { uid, assignmentId } = await assignedTopic();
    const second = await assign(uid, a.veraId);
    expect(second.body.assignmentId).not.toBe(assignmentId);
    const removed = await assign(uid, null, { instructions: '' });
    expect(removed.body).toMatchObject({ reviewerId: null, assignmentId: null, recordType: 'assignment' });
    expect((await assignments(uid)).map((x) => x.status)).toEqual(['CANCELLED', 'CANCELLED']);
    expect((await topicOf(uid)).planned_reviewer_id).toBeNull();
    const listed = await g(stack, 'GET', topicPath(uid, '/assignments'), { token: a.reviewer });
    expect(listed.body.items.map((x: { id: string }) => x.id)).toEqual([
      second.body.assignmentId,
      assignmentId,
    ]);
  });

  it('is refused to a Reviewer (role) and to a key without write (scope)', async () => {
    const uid = await createTopic(stack, a.owner);
    problem(await assign(uid, a.ruiId, {}, a.reviewer), 403, 'insufficient_role');
    problem(await assign(uid, a.ruiId, {}, await a.limited('idp|olga', ['read'])), 403, 'insufficient_scope');
    expect((await assign(uid, a.ruiId, {}, a.admin)).status).toBe(200);
  });

  it('refuses bad input with a 4xx and changes nothing', async () => {
    const uid = await createTopic(stack, a.owner);
    problem(await assign(uid, '999999'), 400, 'unknown_member');
    problem(await assign(uid, '9999999999999999999'), 400, 'unknown_member');
    problem(await assign(uid, a.adaId), 400, 'unknown_member');
    for (const reviewerId of ['0', '01', 'rui', 7]) problem(await assign(uid, reviewerId as string), 400);
    problem(await assign(uid, a.ruiId, { instructions: chars(10_001) }), 400);
    problem(await assign(uid, a.ruiId, { dueAt: inMs(-60_000) }), 400);
    problem(await assign(uid, a.ruiId, { dueAt: '2030-01-01' }), 400);
    problem(await assign(uid, a.ruiId, { dueAt: 'tomorrow' }), 400);
    problem(await assign(uid, null, { dueAt: inMs(60_000) }), 400);
    problem(await assign(uid, a.ruiId, { priority: 'high' }), 400);
    problem(
      await g(stack, 'PUT', topicPath(uid, '/reviewer'), { token: a.owner, body: { reviewerId: a.ruiId } }),
      400,
    );
    problem(await assign('batch-999:1', a.ruiId), 404);
    expect(await assignments(uid)).toEqual([]);
    expect((await events(uid)).map((e) => e.kind)).toEqual(['topic_created']);
  });
});

describe('POST /api/v1/topics/{topicUid}/reviews', () => {
  it('a comment keeps the assignment ACTIVE; a verdict submits it and sets the decision', async () => {
    const { uid, assignmentId } = await assignedTopic();
    const comment = await review(uid, assignmentId, 'COMMENT', a.reviewer, chars(50_000));
    expect(comment.status).toBe(200);
    expect(comment.body).toMatchObject({ feedbackId: comment.body.recordId, assignmentStatus: 'ACTIVE' });
    const verdict = await review(uid, assignmentId, 'MAJOR_REPAIR');
    expect(verdict.body).toMatchObject({
      assignmentStatus: 'SUBMITTED',
      topic: { decision: 'MAJOR_REPAIR' },
    });
    expect(verdict.body.record).toMatchObject({ id: verdict.body.feedbackId, verdict: 'MAJOR_REPAIR' });
    problem(await review(uid, assignmentId, 'COMMENT'), 409, 'assignment_not_active');
  });

  it('only the assigned reviewer may review: another reviewer and the owner get 403; a key without write too', async () => {
    const { uid, assignmentId } = await assignedTopic();
    problem(await review(uid, assignmentId, 'READY_AS_IS', a.otherReviewer), 403, 'forbidden');
    problem(await review(uid, assignmentId, 'READY_AS_IS', a.owner), 403, 'forbidden');
    problem(
      await review(uid, assignmentId, 'READY_AS_IS', await a.limited('idp|rui', ['read'])),
      403,
      'insufficient_scope',
    );
    expect((await topicOf(uid)).decision).toBe('PENDING');
  });

  it('an assignment of another topic, an unknown one or a replaced one is refused', async () => {
    const first = await assignedTopic();
    const second = await assignedTopic();
    problem(await review(first.uid, second.assignmentId, 'READY_AS_IS'), 404, 'not_found');
    problem(await review(first.uid, '9999999999999999999', 'READY_AS_IS'), 404, 'not_found');
    await assign(first.uid, a.ruiId);
    problem(await review(first.uid, first.assignmentId, 'READY_AS_IS'), 409, 'assignment_not_active');
  });

  it('bounds: body 50,001 characters, unknown verdict, bad assignmentId, unknown field', async () => {
    const { uid, assignmentId } = await assignedTopic();
    problem(await review(uid, assignmentId, 'COMMENT', a.reviewer, chars(50_001)), 400);
    problem(await review(uid, assignmentId, 'READY'), 400);
    problem(await review(uid, '0', 'COMMENT'), 400);
    problem(await review(uid, assignmentId, 'COMMENT', a.reviewer, ''), 400);
    problem(
      await g(stack, 'POST', topicPath(uid, '/reviews'), {
        token: a.reviewer,
        body: { assignmentId, verdict: 'COMMENT', body: 'x', score: 5 },
      }),
      400,
    );
    expect((await events(uid)).map((e) => e.kind)).toEqual(['topic_created', 'reviewer_assigned']);
  });
});

describe('POST /api/v1/topics/{topicUid}/decision', () => {
  it('overrides when expectedDecision matches; a mismatch is 409 with the current decision and changes nothing', async () => {
    const { uid } = await reviewedTopic('MINOR_REPAIR');
    const before = await events(uid);
    const stale = await decide(uid, 'READY', 'REJECTED');
    problem(stale, 409, 'decision_conflict');
    expect(stale.body.current_decision).toBe('MINOR_REPAIR');
    expect(await events(uid)).toEqual(before);
    const ok = await decide(uid, 'MINOR_REPAIR', 'READY', { reason: chars(2000) });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({
      recordType: 'topic',
      recordId: uid,
      topic: { decision: 'READY', previous_decision: 'MINOR_REPAIR', decision_campaign_id: CAMPAIGN },
    });
  });

  it('a PENDING topic has no decision to override (409)', async () => {
    const uid = await createTopic(stack, a.owner);
    problem(await decide(uid, 'READY', 'REJECTED'), 409, 'decision_conflict');
  });

  it('exactly one of two concurrent overrides from the same decision wins', async () => {
    const { uid } = await reviewedTopic('MAJOR_REPAIR');
    const results = await Promise.all(['READY', 'REJECTED'].map((d) => decide(uid, 'MAJOR_REPAIR', d)));
    expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
    expect((await events(uid)).filter((e) => e.kind === 'decision_overridden')).toHaveLength(1);
  });

  it('is refused to a Reviewer and to a key without write; bad input is a 4xx', async () => {
    const { uid } = await reviewedTopic('MINOR_REPAIR');
    const body = { expectedDecision: 'MINOR_REPAIR', decision: 'READY', campaignId: CAMPAIGN, reason: 'r' };
    problem(
      await g(stack, 'POST', topicPath(uid, '/decision'), { token: a.reviewer, body }),
      403,
      'insufficient_role',
    );
    const readOnly = await a.limited('idp|olga', ['read']);
    problem(
      await g(stack, 'POST', topicPath(uid, '/decision'), { token: readOnly, body }),
      403,
      'insufficient_scope',
    );
    problem(await decide(uid, 'MINOR_REPAIR', 'READY', { reason: chars(2001) }), 400);
    problem(await decide(uid, 'MINOR_REPAIR', 'READY', { campaignId: chars(257) }), 400);
    problem(await decide(uid, 'MINOR_REPAIR', 'READY', { campaignId: chars(256) }), 400, 'unknown_campaign');
    problem(await decide(uid, 'MINOR_REPAIR', 'PENDING'), 400);
    problem(await decide(uid, 'PENDING', 'READY'), 400);
    problem(await decide(uid, 'MINOR_REPAIR', 'READY', { note: 'x' }), 400);
    expect((await topicOf(uid)).decision).toBe('MINOR_REPAIR');
  });
});

describe('POST /api/v1/topics/{topicUid}/reopen', () => {
  it('reopens the submitted review: decision PENDING, the assignment ACTIVE again', async () => {
    const { uid, assignmentId } = await reviewedTopic('REJECTED');
    const res = await reopen(uid, 'REJECTED', { reason: chars(2000) });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      recordType: 'assignment',
      recordId: assignmentId,
      record: { status: 'ACTIVE', due_at: null },
      topic: { decision: 'PENDING', previous_decision: 'REJECTED', requires_re_review: true },
    });
    expect((await review(uid, assignmentId, 'READY_AS_IS')).body.topic).toMatchObject({
      decision: 'READY',
      previous_decision: 'PENDING',
      requires_re_review: false,
    });
  });

  it('409 on a stale expectedDecision, and when there is no submitted review', async () => {
    const { uid } = await reviewedTopic('READY_AS_IS');
    const stale = await reopen(uid, 'REJECTED');
    problem(stale, 409, 'decision_conflict');
    expect(stale.body.current_decision).toBe('READY');
    const pending = await assignedTopic();
    problem(await reopen(pending.uid, 'PENDING'), 409, 'no_submitted_review');
    expect((await topicOf(uid)).decision).toBe('READY');
  });

  it('is refused to a Reviewer and to a key without write; bounds of expectedDecision and reason', async () => {
    const { uid } = await reviewedTopic('READY_AS_IS');
    problem(await reopen(uid, 'READY', {}, a.reviewer), 403, 'insufficient_role');
    problem(await reopen(uid, 'READY', {}, await a.limited('idp|olga', ['read'])), 403, 'insufficient_scope');
    problem(await reopen(uid, chars(30)), 409, 'decision_conflict');
    problem(await reopen(uid, chars(31)), 400);
    problem(await reopen(uid, 'READY', { reason: chars(2001) }), 400);
    problem(await reopen(uid, 'READY', { campaignId: 'nope' }), 400, 'unknown_campaign');
  });
});

describe('PUT /api/v1/topics/{topicUid}/disposition', () => {
  it('changes the disposition with expectedDisposition; a mismatch is 409 with nothing changed', async () => {
    const { uid } = await assignedTopic();
    const stale = await dispose(uid, 'TIMED_OUT', 'REJECTED');
    problem(stale, 409, 'disposition_conflict');
    expect(stale.body.current_disposition).toBe('ACTIVE');
    const res = await dispose(uid, 'ACTIVE', 'REJECTED', { reason: chars(2000) });
    expect(res.body).toMatchObject({
      recordType: 'topic',
      topic: { disposition: 'REJECTED', status: 'CLOSED' },
    });
    expect((await assignments(uid)).map((x) => x.status)).toEqual(['CANCELLED']);
    const filtered = await g(stack, 'GET', '/api/v1/topics?disposition=REJECTED&limit=100', {
      token: a.reviewer,
    });
    expect(filtered.body.items.map((t: { uid: string }) => t.uid)).toContain(uid);
  });

  it('a closed topic refuses review actions until it is ACTIVE again', async () => {
    const { uid } = await assignedTopic();
    await dispose(uid, 'ACTIVE', 'DISCARDED');
    problem(await assign(uid, a.ruiId), 409, 'topic_closed');
    problem(await startRevision(uid), 409, 'topic_closed');
    expect((await dispose(uid, 'DISCARDED', 'ACTIVE')).status).toBe(200);
    expect((await assign(uid, a.ruiId)).status).toBe(200);
  });

  it('is refused to a Reviewer and to a key without write; bad input is a 4xx', async () => {
    const uid = await createTopic(stack, a.owner);
    const body = { disposition: 'REJECTED', expectedDisposition: 'ACTIVE', reason: 'r' };
    problem(
      await g(stack, 'PUT', topicPath(uid, '/disposition'), { token: a.reviewer, body }),
      403,
      'insufficient_role',
    );
    const readOnly = await a.limited('idp|olga', ['read']);
    problem(
      await g(stack, 'PUT', topicPath(uid, '/disposition'), { token: readOnly, body }),
      403,
      'insufficient_scope',
    );
    problem(await dispose(uid, 'ACTIVE', 'CLOSED'), 400);
    problem(await dispose(uid, 'ACTIVE', 'REJECTED', { reason: chars(2001) }), 400);
    problem(
      await g(stack, 'PUT', topicPath(uid, '/disposition'), {
        token: a.owner,
        body: { disposition: 'REJECTED' },
      }),
      400,
    );
    expect((await topicOf(uid)).disposition).toBe('ACTIVE');
  });
});

describe('POST /api/v1/topics/{topicUid}/revisions', () => {
  it('starts a revision (201), resumes the unfinished one, and an import completes it with its file', async () => {
    const uid = await createTopic(stack, a.owner, { batch: 'batch-810', topic: 1 });
    const started = await startRevision(uid, { notes: chars(10_000) });
    expect(started.status).toBe(201);
    expect(started.body).toMatchObject({
      resumed: false,
      recordType: 'revision',
      record: { status: 'IN_PROGRESS', number: 1, campaign_id: CAMPAIGN, path: null },
      topic: { current_package_version_id: started.body.revisionId, deliverable_selection_revision: '1' },
    });
    const resumed = await startRevision(uid, { notes: 'still working' });
    expect(resumed.status).toBe(201);
    expect(resumed.body).toMatchObject({ resumed: true, revisionId: started.body.revisionId });
    expect((await topicOf(uid)).deliverable_selection_revision).toBe('1');

    const bundle = await writeGenomicsBundle(
      {
        format: 'referee.genomics/1',
        bundle: { bundle_id: 'pkg-810-1', batch: 'batch-810' },
        revisions: [
          {
            revision_id: 'pkg-810-1-v1',
            topic: 1,
            campaign_id: CAMPAIGN,
            file: { path: 'package.json', media_type: 'application/json' },
          },
        ],
      },
      { 'package.json': '{"package": 1}' },
    );
    await importGenomicsBundle(stack, bundle);
    const paths = await g(stack, 'GET', topicPath(uid, '/paths'), { token: a.reviewer });
    expect(paths.body.revisions).toEqual([
      expect.objectContaining({
        id: started.body.revisionId,
        status: 'COMPLETED',
        source_id: 'pkg-810-1-v1',
        size: 14,
      }),
    ]);
    const next = await startRevision(uid);
    expect(next.body).toMatchObject({ resumed: false, record: { number: 2 } });
    expect(next.body.revisionId).not.toBe(started.body.revisionId);
  });

  it('is refused to a key without write; bounds of notes and campaignId', async () => {
    const uid = await createTopic(stack, a.owner);
    problem(await startRevision(uid, {}, await a.limited('idp|rui', ['read'])), 403, 'insufficient_scope');
    problem(await startRevision(uid, { notes: chars(10_001) }), 400);
    problem(await startRevision(uid, { campaignId: chars(257) }), 400);
    problem(await startRevision(uid, { campaignId: 'cmp-unknown' }), 400, 'unknown_campaign');
    problem(await startRevision(uid, { extra: true }), 400);
    expect((await startRevision(uid, { notes: '' })).status).toBe(201);
  });
});

describe('idempotency of workflow mutations', () => {
  it('same key and request → the same receipt, applied once; another request → 409; missing or bad key → 400', async () => {
    const uid = await createTopic(stack, a.owner);
    const key = ik();
    const body = { reviewerId: a.ruiId, instructions: 'once', dueAt: null };
    const first = await g(stack, 'PUT', topicPath(uid, '/reviewer'), { token: a.owner, body, key });
    const second = await g(stack, 'PUT', topicPath(uid, '/reviewer'), { token: a.owner, body, key });
    expect(second.body).toEqual(first.body);
    expect(await assignments(uid)).toHaveLength(1);
    problem(
      await g(stack, 'PUT', topicPath(uid, '/reviewer'), {
        token: a.owner,
        body: { ...body, instructions: 'twice' },
        key,
      }),
      409,
      'idempotency_key_reused',
    );
    problem(
      await g(stack, 'PUT', topicPath(uid, '/reviewer'), { token: a.owner, body, key: null }),
      400,
      'idempotency_key_required',
    );
    problem(
      await g(stack, 'PUT', topicPath(uid, '/reviewer'), { token: a.owner, body, key: 'has space in it!!' }),
      400,
    );

    const restarted = await startServer(stack.config, { validateResponses: true });
    try {
      const response = await fetch(`${restarted.url}${topicPath(uid, '/reviewer')}`, {
        method: 'PUT',
        headers: {
          authorization: `Bearer ${a.owner}`,
          'content-type': 'application/json',
          'idempotency-key': key,
        },
        body: JSON.stringify(body),
      });
      expect(await response.json()).toEqual(first.body);
    } finally {
      await restarted.close();
    }
    expect(await assignments(uid)).toHaveLength(1);
  });

  it('a request refused by the reads before its update keeps nothing under its key; a replay answers before them', async () => {
    const { uid } = await reviewedTopic('MINOR_REPAIR');
    const key = ik();
    const override = (campaignId: string) =>
      g(stack, 'POST', topicPath(uid, '/decision'), {
        token: a.owner,
        body: { expectedDecision: 'MINOR_REPAIR', decision: 'READY', campaignId, reason: 'Recheck.' },
        key,
      });
    problem(await override('cmp-unknown'), 400, 'unknown_campaign');
    problem(
      await g(stack, 'POST', topicPath('no-such-topic', '/decision'), {
        token: a.owner,
        body: {
          expectedDecision: 'READY',
          decision: 'MINOR_REPAIR',
          campaignId: CAMPAIGN,
          reason: 'Recheck.',
        },
        key: ik(),
      }),
      404,
    );
    const first = await override(CAMPAIGN);
    expect(first.status).toBe(200);
    // Same key and request: the receipt, although the topic's decision no longer is the expected one.
    const again = await override(CAMPAIGN);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
    expect((await events(uid)).filter((e) => e.kind === 'decision_overridden')).toHaveLength(1);
  });

  it('the workflow answers a repeated update id with its first receipt (when the API lost its own)', async () => {
    const { uid, assignmentId } = await assignedTopic();
    const key = ik();
    const request = { token: a.reviewer, body: { assignmentId, verdict: 'COMMENT', body: 'once' }, key };
    const first = await g(stack, 'POST', topicPath(uid, '/reviews'), request);
    // As if the API had crashed after the update but before storing its receipt.
    await stack.dataSource.query('DELETE FROM idempotency_records WHERE idempotency_key = $1', [key]);
    const second = await g(stack, 'POST', topicPath(uid, '/reviews'), request);
    expect(second.body.feedbackId).toBe(first.body.feedbackId);
    expect((await events(uid)).filter((e) => e.kind === 'comment_added')).toHaveLength(1);
  });
});

describe('the due-date timer', () => {
  const expiries = async (uid: string) => (await events(uid)).filter((e) => e.kind === 'assignment_expired');

  it('expires the assignment exactly once when dueAt passes without a review; the topic is TIMED_OUT', async () => {
    const { uid, assignmentId } = await assignedTopic({ dueAt: inMs(2_000) });
    await review(uid, assignmentId, 'COMMENT'); // a comment is not a review
    expect(await eventually(async () => (await expiries(uid)).length === 1, 10_000)).toBe(true);
    expect(await topicOf(uid)).toMatchObject({
      disposition: 'TIMED_OUT',
      status: 'CLOSED',
      planned_reviewer_id: null,
      workflow_status: 'UNASSIGNED',
    });
    expect((await assignments(uid)).map((x) => x.status)).toEqual(['EXPIRED']);
    expect((await expiries(uid))[0].detail).toMatchObject({
      assignment_id: assignmentId,
      reviewer_id: a.ruiId,
    });
    problem(await review(uid, assignmentId, 'READY_AS_IS'), 409, 'topic_closed');
    const tasks = await g(stack, 'GET', '/api/v1/tasks?limit=100', { token: a.reviewer });
    expect(tasks.body.items.map((t: { uid: string }) => t.uid)).not.toContain(uid);
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(await expiries(uid)).toHaveLength(1);
    // The way back: reactivate, then assign again.
    expect((await dispose(uid, 'TIMED_OUT', 'ACTIVE')).status).toBe(200);
    expect((await assign(uid, a.ruiId)).status).toBe(200);
  });

  it('is cancelled when the reviewer changes and re-armed with the new dueAt', async () => {
    const cancelled = await assignedTopic({ dueAt: inMs(2_000) });
    await assign(cancelled.uid, a.veraId);
    const rearmed = await assignedTopic({ dueAt: inMs(3_600_000) });
    await assign(rearmed.uid, a.veraId, { dueAt: inMs(2_000) });
    expect(await eventually(async () => (await expiries(rearmed.uid)).length === 1, 10_000)).toBe(true);
    expect((await assignments(rearmed.uid)).map((x) => x.status)).toEqual(['CANCELLED', 'EXPIRED']);
    expect(await expiries(cancelled.uid)).toHaveLength(0);
    expect((await assignments(cancelled.uid)).map((x) => x.status)).toEqual(['CANCELLED', 'ACTIVE']);
    expect((await topicOf(cancelled.uid)).disposition).toBe('ACTIVE');
  });

  it('does not fire once a verdict is submitted', async () => {
    const { uid, assignmentId } = await assignedTopic({ dueAt: inMs(2_000) });
    await review(uid, assignmentId, 'READY_AS_IS');
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    expect(await expiries(uid)).toHaveLength(0);
    expect((await topicOf(uid)).disposition).toBe('ACTIVE');
  });

  it('survives a worker restart: a timer due while no worker runs fires once when one is back', async () => {
    const { uid } = await assignedTopic({ dueAt: inMs(2_000) });
    await stack.worker.shutdown();
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    expect(await expiries(uid)).toHaveLength(0);
    restartedWorker = await startWorker(stack.config, {
      workflowBundle: { codePath: readTestEnv().workflowBundlePath },
    });
    expect(await eventually(async () => (await expiries(uid)).length === 1, 15_000)).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(await expiries(uid)).toHaveLength(1);
  });
});

describe('the task workflow in Temporal', () => {
  it('is genomics-task/<topicUid>, with search attributes operators filter on and the title as memo', async () => {
    const { uid } = await reviewedTopic('MAJOR_REPAIR');
    const description = await stack.temporal.workflow.getHandle(genomicsTaskWorkflowId(uid)).describe();
    expect(description.type).toBe('genomicsTaskWorkflow');
    expect(description.status.name).toBe('RUNNING');
    const attributes = Object.fromEntries(
      description.typedSearchAttributes.getAll().map((p) => [p.key.name, p.value]),
    );
    expect(attributes).toMatchObject({
      GenomicsTopicUid: uid,
      GenomicsDecision: 'MAJOR_REPAIR',
      GenomicsDisposition: 'ACTIVE',
      GenomicsReviewer: a.ruiId,
    });
    expect(await description.memo).toMatchObject({ title: 'A topic' });

    const query =
      `GenomicsTopicUid = "${uid}" AND GenomicsDecision = "MAJOR_REPAIR" AND ` +
      `GenomicsDisposition = "ACTIVE" AND GenomicsReviewer = "${a.ruiId}"`;
    const found = await eventually(async () => {
      const ids: string[] = [];
      for await (const w of stack.temporal.workflow.list({ query })) ids.push(w.workflowId);
      return ids.length === 1 ? ids : null;
    });
    expect(found).toEqual([genomicsTaskWorkflowId(uid)]);
  });
});
