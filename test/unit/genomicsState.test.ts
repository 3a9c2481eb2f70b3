import { decideGenomicsAction } from '../../workflows/genomicsTask/decisions';
import {
  activeDeadline,
  deriveGenomicsLabels,
  type GenomicsAction,
  type GenomicsActor,
  type GenomicsFacts,
  type GenomicsTaskState,
  initialGenomicsState,
  NEW_ASSIGNMENT_ID,
  NEW_REVIEW_ID,
  NEW_REVISION_ID,
  NO_FACTS,
  resolvedRecordId,
  SYSTEM_ACTOR,
  withCreatedIds,
} from '../../workflows/genomicsTask/state';

const owner: GenomicsActor = { memberId: '1', role: 'OWNER' };
const admin: GenomicsActor = { memberId: '2', role: 'ADMIN' };
const rui: GenomicsActor = { memberId: '7', role: 'REVIEWER' };
const vera: GenomicsActor = { memberId: '8', role: 'REVIEWER' };

const state = (over: Partial<GenomicsTaskState> = {}): GenomicsTaskState => ({
  ...initialGenomicsState(),
  version: 4,
  campaignId: 'cmp-a',
  ...over,
});
const assigned = (over: Partial<GenomicsTaskState> = {}) =>
  state({
    plannedReviewerId: '7',
    assignment: { id: '30', reviewerId: '7', status: 'ACTIVE', dueAt: null, feedbackCount: 0 },
    ...over,
  });
const reviewed = (decision: GenomicsTaskState['decision'] = 'MINOR_REPAIR') =>
  state({
    decision,
    previousDecision: 'PENDING',
    plannedReviewerId: '7',
    decisionCampaignId: 'cmp-a',
    submissionCampaignId: 'cmp-a',
    assignment: { id: '30', reviewerId: '7', status: 'SUBMITTED', dueAt: null, feedbackCount: 1 },
  });

function accepted(
  s: GenomicsTaskState,
  action: GenomicsAction,
  actor = owner,
  facts: GenomicsFacts = NO_FACTS,
) {
  const result = decideGenomicsAction(s, action, actor, facts);
  if (!result.ok) throw new Error(`expected acceptance, got ${result.rejection.code}`);
  return result.transition;
}
const refusal = (s: GenomicsTaskState, action: GenomicsAction, actor = owner) => {
  const result = decideGenomicsAction(s, action, actor);
  return result.ok ? 'accepted' : result.rejection.code;
};

const assign = (reviewerId = '7', dueAt: string | null = null): GenomicsAction => ({
  action: 'assignReviewer',
  reviewerId,
  instructions: 'check the splice calls',
  dueAt,
});
const review = (
  verdict: 'COMMENT' | 'READY_AS_IS' | 'MINOR_REPAIR' | 'MAJOR_REPAIR' | 'REJECTED',
  id = '30',
) => ({ action: 'submitReview', assignmentId: id, verdict, body: 'text' }) as const;

describe('checks before every action (in order)', () => {
  it('1: operator actions are refused to a Reviewer; the timer action to everyone but the workflow', () => {
    expect(refusal(state(), assign(), rui)).toBe('operator_only');
    expect(refusal(state(), { action: 'removeReviewer', instructions: '' }, rui)).toBe('operator_only');
    expect(
      refusal(
        reviewed(),
        {
          action: 'overrideDecision',
          expectedDecision: 'MINOR_REPAIR',
          decision: 'READY',
          campaignId: 'c',
          reason: 'r',
        },
        rui,
      ),
    ).toBe('operator_only');
    expect(
      refusal(
        reviewed(),
        { action: 'reopenReview', expectedDecision: 'MINOR_REPAIR', campaignId: 'c', reason: 'r' },
        rui,
      ),
    ).toBe('operator_only');
    expect(
      refusal(
        state(),
        { action: 'setDisposition', expectedDisposition: 'ACTIVE', disposition: 'REJECTED', reason: 'r' },
        rui,
      ),
    ).toBe('operator_only');
    expect(
      refusal(
        assigned(),
        { action: 'expireAssignment', assignmentId: '30', at: '2030-01-01T00:00:00Z' },
        admin,
      ),
    ).toBe('system_only');
    expect(refusal(state(), assign(), SYSTEM_ACTOR)).toBe('operator_only');
    expect(accepted(state(), assign(), admin).next.plannedReviewerId).toBe('7');
  });

  it('2: override and reopen need the current decision as expectedDecision', () => {
    const s = reviewed('MINOR_REPAIR');
    expect(
      refusal(s, {
        action: 'overrideDecision',
        expectedDecision: 'READY',
        decision: 'REJECTED',
        campaignId: 'c',
        reason: 'r',
      }),
    ).toBe('decision_conflict');
    expect(
      refusal(s, { action: 'reopenReview', expectedDecision: 'PENDING', campaignId: 'c', reason: 'r' }),
    ).toBe('decision_conflict');
    expect(
      refusal(state(), {
        action: 'overrideDecision',
        expectedDecision: 'READY',
        decision: 'READY',
        campaignId: 'c',
        reason: 'r',
      }),
    ).toBe('decision_conflict');
  });

  it('3: a disposition change needs the current disposition as expectedDisposition', () => {
    expect(
      refusal(state(), {
        action: 'setDisposition',
        expectedDisposition: 'TIMED_OUT',
        disposition: 'REJECTED',
        reason: 'r',
      }),
    ).toBe('disposition_conflict');
  });

  it('4: a closed topic accepts only a disposition change', () => {
    for (const disposition of ['REJECTED', 'DISCARDED', 'TIMED_OUT'] as const) {
      const closed = reviewed('READY');
      closed.disposition = disposition;
      expect(refusal(closed, assign())).toBe('topic_closed');
      expect(refusal(closed, { action: 'removeReviewer', instructions: '' })).toBe('topic_closed');
      expect(refusal(closed, review('COMMENT'), rui)).toBe('topic_closed');
      expect(
        refusal(closed, {
          action: 'overrideDecision',
          expectedDecision: 'READY',
          decision: 'REJECTED',
          campaignId: 'c',
          reason: 'r',
        }),
      ).toBe('topic_closed');
      expect(
        refusal(closed, { action: 'reopenReview', expectedDecision: 'READY', campaignId: 'c', reason: 'r' }),
      ).toBe('topic_closed');
      expect(refusal(closed, { action: 'startRevision', campaignId: 'c', notes: '' }, rui)).toBe(
        'topic_closed',
      );
      const reopened = accepted(closed, {
        action: 'setDisposition',
        expectedDisposition: disposition,
        disposition: 'ACTIVE',
        reason: 'back to work',
      });
      expect(reopened.next.disposition).toBe('ACTIVE');
      expect(reopened.labels.status).toBe('OPEN');
    }
  });
});

describe('actions (one test per row of the table)', () => {
  it('assign reviewer: cancels the active assignment, creates a new ACTIVE one, sets the planned reviewer', () => {
    const t = accepted(assigned(), assign('8', '2030-01-01T00:00:00.000Z'));
    expect(t.effects).toEqual([
      { kind: 'setAssignmentStatus', assignmentId: '30', status: 'CANCELLED', clearDueAt: false },
      {
        kind: 'createAssignment',
        reviewerId: '8',
        instructions: 'check the splice calls',
        dueAt: '2030-01-01T00:00:00.000Z',
      },
    ]);
    expect(t.next).toMatchObject({
      version: 5,
      plannedReviewerId: '8',
      decision: 'PENDING',
      requiresReReview: false,
      assignment: {
        id: NEW_ASSIGNMENT_ID,
        reviewerId: '8',
        status: 'ACTIVE',
        dueAt: '2030-01-01T00:00:00.000Z',
        feedbackCount: 0,
      },
    });
    expect(t.labels.workflowStatus).toBe('ASSIGNED');
    expect(t.event).toMatchObject({ kind: 'reviewer_assigned', actorId: '1' });
    expect(t.event.detail).toMatchObject({
      reviewer_id: '8',
      previous_reviewer_id: '7',
      cancelled_assignment_id: '30',
    });
    expect(t.record).toEqual({ type: 'assignment', id: NEW_ASSIGNMENT_ID });
  });

  it('assign reviewer on a reviewed topic starts a re-review and keeps the decision', () => {
    const t = accepted(reviewed('READY'), assign('8'));
    expect(t.effects).toHaveLength(1);
    expect(t.next).toMatchObject({ decision: 'READY', previousDecision: 'PENDING' });
    expect(t.labels).toEqual({
      workflowStatus: 'ASSIGNED',
      status: 'OPEN',
      phase: 'DONE',
      classification: 'ACCEPTABLE',
    });
  });

  it('remove reviewer: cancels the active assignment and clears the planned reviewer', () => {
    const t = accepted(assigned(), { action: 'removeReviewer', instructions: 'reassigning later' });
    expect(t.effects).toEqual([
      { kind: 'setAssignmentStatus', assignmentId: '30', status: 'CANCELLED', clearDueAt: false },
    ]);
    expect(t.next.plannedReviewerId).toBeNull();
    expect(t.next.assignment?.status).toBe('CANCELLED');
    expect(t.labels.workflowStatus).toBe('UNASSIGNED');
    expect(t.record).toEqual({ type: 'assignment', id: '30' });
    const none = accepted(state(), { action: 'removeReviewer', instructions: '' });
    expect(none.effects).toEqual([]);
    expect(none.record).toEqual({ type: 'topic', id: null });
    expect(accepted(reviewed(), { action: 'removeReviewer', instructions: '' }).labels.workflowStatus).toBe(
      'REVIEWED',
    );
  });

  it('comment: records feedback, keeps the assignment ACTIVE and the decision, moves ASSIGNED to IN_REVIEW', () => {
    const t = accepted(assigned(), review('COMMENT'), rui);
    expect(t.effects).toEqual([
      { kind: 'createReview', assignmentId: '30', reviewerId: '7', verdict: 'COMMENT', body: 'text' },
    ]);
    expect(t.next.assignment).toMatchObject({ status: 'ACTIVE', feedbackCount: 1 });
    expect(t.next.decision).toBe('PENDING');
    expect(t.labels.workflowStatus).toBe('IN_REVIEW');
    expect(t.event.kind).toBe('comment_added');
    expect(t.record).toEqual({ type: 'review', id: NEW_REVIEW_ID });
  });

  it.each([
    ['READY_AS_IS', 'READY', 'DONE', 'ACCEPTABLE'],
    ['MINOR_REPAIR', 'MINOR_REPAIR', 'REPAIR', 'REPAIRABLE'],
    ['MAJOR_REPAIR', 'MAJOR_REPAIR', 'REPAIR', 'REPAIRABLE'],
    ['REJECTED', 'REJECTED', 'DONE', 'UNACCEPTABLE'],
  ] as const)(
    'review %s: decision %s, assignment SUBMITTED, re-review cleared',
    (verdict, decision, phase, classification) => {
      const t = accepted(assigned({ requiresReReview: true, decision: 'PENDING' }), review(verdict), rui);
      expect(t.next).toMatchObject({
        decision,
        previousDecision: 'PENDING',
        requiresReReview: false,
        submissionCampaignId: 'cmp-a',
        decisionCampaignId: 'cmp-a',
        assignment: { status: 'SUBMITTED', feedbackCount: 1 },
      });
      expect(t.effects.map((e) => e.kind)).toEqual(['createReview', 'setAssignmentStatus']);
      expect(t.labels).toEqual({ workflowStatus: 'REVIEWED', status: 'OPEN', phase, classification });
      expect(t.event).toMatchObject({ kind: 'review_submitted', detail: { verdict, decision } });
    },
  );

  it('a re-review with the same verdict keeps previous_decision', () => {
    const s = assigned({
      decision: 'MINOR_REPAIR',
      previousDecision: 'MAJOR_REPAIR',
      requiresReReview: true,
    });
    const t = accepted(s, review('MINOR_REPAIR'), rui);
    expect(t.next).toMatchObject({
      decision: 'MINOR_REPAIR',
      previousDecision: 'MAJOR_REPAIR',
      requiresReReview: false,
    });
  });

  it('review: only the current ACTIVE assignment, only by its reviewer', () => {
    expect(refusal(state(), review('READY_AS_IS'), rui)).toBe('assignment_not_active');
    expect(refusal(assigned(), review('READY_AS_IS', '29'), rui)).toBe('assignment_not_active');
    expect(refusal(reviewed(), review('COMMENT'), rui)).toBe('assignment_not_active');
    expect(refusal(assigned(), review('READY_AS_IS'), vera)).toBe('not_your_assignment');
    expect(refusal(assigned(), review('READY_AS_IS'), owner)).toBe('not_your_assignment');
  });

  it('override decision: sets the decision and decision campaign, remembers the previous decision', () => {
    const t = accepted(reviewed('MINOR_REPAIR'), {
      action: 'overrideDecision',
      expectedDecision: 'MINOR_REPAIR',
      decision: 'READY',
      campaignId: 'cmp-b',
      reason: 'repair verified offline',
    });
    expect(t.next).toMatchObject({
      decision: 'READY',
      previousDecision: 'MINOR_REPAIR',
      decisionCampaignId: 'cmp-b',
      requiresReReview: false,
    });
    expect(t.next.assignment?.status).toBe('SUBMITTED');
    expect(t.effects).toEqual([]);
    expect(t.event).toMatchObject({
      kind: 'decision_overridden',
      detail: { from: 'MINOR_REPAIR', to: 'READY', campaign_id: 'cmp-b' },
    });
    const same = accepted(reviewed('READY'), {
      action: 'overrideDecision',
      expectedDecision: 'READY',
      decision: 'READY',
      campaignId: 'cmp-b',
      reason: 'confirmed',
    });
    expect(same.next.previousDecision).toBe('PENDING');
  });

  it('reopen: decision back to PENDING, the submitted assignment ACTIVE again without a due date', () => {
    const s = reviewed('REJECTED');
    s.assignment = { ...s.assignment!, dueAt: '2020-01-01T00:00:00.000Z' };
    const t = accepted(s, {
      action: 'reopenReview',
      expectedDecision: 'REJECTED',
      campaignId: 'cmp-a',
      reason: 'new evidence',
    });
    expect(t.next).toMatchObject({
      decision: 'PENDING',
      previousDecision: 'REJECTED',
      requiresReReview: true,
      decisionCampaignId: null,
      plannedReviewerId: '7',
      assignment: { id: '30', status: 'ACTIVE', dueAt: null },
    });
    expect(t.effects).toEqual([
      { kind: 'setAssignmentStatus', assignmentId: '30', status: 'ACTIVE', clearDueAt: true },
    ]);
    expect(t.labels).toEqual({
      workflowStatus: 'IN_REVIEW',
      status: 'OPEN',
      phase: 'REVIEW',
      classification: null,
    });
    expect(
      refusal(assigned({ decision: 'READY' }), {
        action: 'reopenReview',
        expectedDecision: 'READY',
        campaignId: 'c',
        reason: 'r',
      }),
    ).toBe('no_submitted_review');
  });

  it('start revision: new package revision, selection revision + 1, campaign set, re-review when decided', () => {
    const undecided = accepted(state(), { action: 'startRevision', campaignId: 'cmp-b', notes: 'v2' }, rui);
    expect(undecided.next).toMatchObject({
      currentPackageVersionId: NEW_REVISION_ID,
      deliverableSelectionRevision: 1,
      campaignId: 'cmp-b',
      requiresReReview: false,
    });
    expect(undecided.effects).toEqual([{ kind: 'createRevision', campaignId: 'cmp-b', notes: 'v2' }]);
    const decided = accepted(
      reviewed('MINOR_REPAIR'),
      { action: 'startRevision', campaignId: 'cmp-a', notes: 'repaired' },
      rui,
    );
    expect(decided.next.requiresReReview).toBe(true);
    expect(decided.labels.phase).toBe('REVIEW');
    expect(decided.event.kind).toBe('revision_started');
  });

  it('resume revision: nothing changes but the version; the receipt names the open revision', () => {
    const s = state({ currentPackageVersionId: '11', deliverableSelectionRevision: 3 });
    const t = accepted(s, { action: 'startRevision', campaignId: 'cmp-a', notes: 'again' }, rui, {
      openRevisionId: '11',
    });
    expect(t.next).toEqual({ ...s, version: s.version + 1 });
    expect(t.effects).toEqual([]);
    expect(t.record).toEqual({ type: 'revision', id: '11' });
    expect(t.event.kind).toBe('revision_resumed');
  });

  it('disposition: closing cancels the active assignment and clears the planned reviewer', () => {
    const t = accepted(assigned(), {
      action: 'setDisposition',
      expectedDisposition: 'ACTIVE',
      disposition: 'DISCARDED',
      reason: 'duplicate',
    });
    expect(t.next).toMatchObject({
      disposition: 'DISCARDED',
      plannedReviewerId: null,
      assignment: { status: 'CANCELLED' },
    });
    expect(t.effects).toEqual([
      { kind: 'setAssignmentStatus', assignmentId: '30', status: 'CANCELLED', clearDueAt: false },
    ]);
    expect(t.labels.status).toBe('CLOSED');
    expect(t.event.detail).toMatchObject({ from: 'ACTIVE', to: 'DISCARDED', cancelled_assignment_id: '30' });
    const same = accepted(state(), {
      action: 'setDisposition',
      expectedDisposition: 'ACTIVE',
      disposition: 'ACTIVE',
      reason: 'noted',
    });
    expect(same.next.disposition).toBe('ACTIVE');
    const keepsSubmitted = accepted(reviewed(), {
      action: 'setDisposition',
      expectedDisposition: 'ACTIVE',
      disposition: 'REJECTED',
      reason: 'r',
    });
    expect(keepsSubmitted.next.assignment?.status).toBe('SUBMITTED');
    expect(keepsSubmitted.next.plannedReviewerId).toBe('7');
  });

  it('due date passes: the ACTIVE assignment expires once, the disposition becomes TIMED_OUT', () => {
    const s = assigned({
      assignment: {
        id: '30',
        reviewerId: '7',
        status: 'ACTIVE',
        dueAt: '2030-01-01T00:00:00.000Z',
        feedbackCount: 1,
      },
    });
    expect(activeDeadline(s)).toEqual({ assignmentId: '30', dueAt: '2030-01-01T00:00:00.000Z' });
    const early = { action: 'expireAssignment', assignmentId: '30', at: '2029-12-31T23:59:59.999Z' } as const;
    expect(decideGenomicsAction(s, early, SYSTEM_ACTOR).ok).toBe(false);
    const t = accepted(
      s,
      { action: 'expireAssignment', assignmentId: '30', at: '2030-01-01T00:00:00.000Z' },
      SYSTEM_ACTOR,
    );
    expect(t.next).toMatchObject({
      disposition: 'TIMED_OUT',
      plannedReviewerId: null,
      assignment: { status: 'EXPIRED' },
    });
    expect(t.event).toMatchObject({ kind: 'assignment_expired', actorId: null });
    expect(t.labels).toMatchObject({ workflowStatus: 'UNASSIGNED', status: 'CLOSED' });
    // Exactly once: the expired assignment has no deadline any more, and a second expiry is refused.
    expect(activeDeadline(t.next)).toBeNull();
    const again = decideGenomicsAction(
      t.next,
      { action: 'expireAssignment', assignmentId: '30', at: '2030-01-02T00:00:00Z' },
      SYSTEM_ACTOR,
    );
    expect(again.ok ? 'accepted' : again.rejection.code).toBe('not_due');
    // A replaced assignment's timer is void.
    const replaced = accepted(s, assign('8')).next;
    expect(activeDeadline(replaced)).toBeNull();
  });
});

describe('derived fields', () => {
  it('a new topic is UNASSIGNED, OPEN, REVIEW, unclassified', () => {
    expect(deriveGenomicsLabels(initialGenomicsState())).toEqual({
      workflowStatus: 'UNASSIGNED',
      status: 'OPEN',
      phase: 'REVIEW',
      classification: null,
    });
  });

  it('fills the database ids of inserted records into the state and the receipt', () => {
    const t = accepted(state(), { action: 'startRevision', campaignId: 'c', notes: '' }, rui);
    const created = { assignmentId: null, reviewId: null, revisionId: '77' };
    expect(withCreatedIds(t.next, created).currentPackageVersionId).toBe('77');
    expect(resolvedRecordId(t.record, created)).toBe('77');
    const a = accepted(state(), assign());
    expect(
      withCreatedIds(a.next, { assignmentId: '31', reviewId: null, revisionId: null }).assignment?.id,
    ).toBe('31');
  });
});
