import {
  allowedMathActions,
  decideMathAction,
  type MathAction,
  type MathActor,
  type MathTaskState,
} from '../../workflows/mathTask/state';

const owner: MathActor = { memberId: '1', role: 'OWNER' };
const reviewer: MathActor = { memberId: '7', role: 'REVIEWER' };
const otherReviewer: MathActor = { memberId: '8', role: 'REVIEWER' };

const state = (over: Partial<MathTaskState> = {}): MathTaskState => ({
  version: 3,
  reviewState: 'ASSIGNED',
  decision: null,
  assigneeId: '7',
  clientId: null,
  archived: false,
  ...over,
});

function accepted(s: MathTaskState, action: MathAction, actor: MathActor = owner) {
  const result = decideMathAction(s, action, actor, s.version);
  if (!result.ok) throw new Error(`expected acceptance, got ${result.rejection.code}`);
  return result.transition;
}

function rejectedCode(s: MathTaskState, action: MathAction, actor: MathActor = owner, version = s.version) {
  const result = decideMathAction(s, action, actor, version);
  return result.ok ? 'accepted' : result.rejection.code;
}

describe('math review state machine', () => {
  it('moves ASSIGNED to IN_REVIEW on nonblank feedback and bumps the version', () => {
    const t = accepted(state(), { action: 'feedback', comment: 'Looks plausible' }, reviewer);
    expect(t.next).toMatchObject({ reviewState: 'IN_REVIEW', version: 4 });
    expect(t.event).toMatchObject({
      action: 'feedback',
      fromState: 'ASSIGNED',
      toState: 'IN_REVIEW',
      version: 4,
      actorId: '7',
    });
  });

  it.each(['feedback', 'verdict', 'reopen'] as const)('refuses %s with a blank comment', (name) => {
    const s =
      name === 'reopen'
        ? state({ reviewState: 'COMPLETED', decision: 'ACCEPTED' })
        : state({ reviewState: 'IN_REVIEW' });
    const action = (
      name === 'verdict'
        ? { action: name, decision: 'ACCEPTED', comment: '  \n ' }
        : { action: name, comment: '   ' }
    ) as MathAction;
    expect(rejectedCode(s, action)).toBe('comment_required');
  });

  it('refuses a stale version whatever the action', () => {
    expect(rejectedCode(state(), { action: 'start' }, owner, 2)).toBe('stale_version');
    expect(rejectedCode(state(), { action: 'restore' }, owner, 4)).toBe('stale_version');
  });

  it('requires an archived task to be restored before any other change', () => {
    const archived = state({ archived: true });
    for (const action of [
      { action: 'start' },
      { action: 'feedback', comment: 'x' },
      { action: 'assign', assigneeId: '8' },
      { action: 'client', clientId: '2' },
      { action: 'archive' },
    ] as MathAction[]) {
      expect(rejectedCode(archived, action)).toBe('task_archived');
    }
    expect(accepted(archived, { action: 'restore' }).next.archived).toBe(false);
    expect(rejectedCode(state(), { action: 'restore' })).toBe('not_archived');
  });

  it('requires a completed review to be reopened before reassignment or another verdict', () => {
    const done = state({ reviewState: 'COMPLETED', decision: 'NEEDS_REVISION' });
    expect(rejectedCode(done, { action: 'assign', assigneeId: '8' })).toBe('review_completed');
    expect(rejectedCode(done, { action: 'assign', assigneeId: null })).toBe('review_completed');
    expect(rejectedCode(done, { action: 'verdict', decision: 'ACCEPTED', comment: 'again' })).toBe(
      'review_completed',
    );
    const reopened = accepted(done, { action: 'reopen', comment: 'needs another look' });
    expect(reopened.next).toMatchObject({ reviewState: 'IN_REVIEW', decision: null });
    expect(reopened.event.detail).toEqual({ previous_decision: 'NEEDS_REVISION' });
  });

  it('lets a Reviewer start, give feedback and submit a verdict only on tasks assigned to them', () => {
    expect(accepted(state(), { action: 'start' }, reviewer).next.reviewState).toBe('IN_REVIEW');
    const verdict = accepted(
      state({ reviewState: 'IN_REVIEW' }),
      { action: 'verdict', decision: 'ACCEPTED', comment: 'ok' },
      reviewer,
    );
    expect(verdict.next).toMatchObject({ reviewState: 'COMPLETED', decision: 'ACCEPTED' });
    expect(rejectedCode(state(), { action: 'start' }, otherReviewer)).toBe('not_assigned_to_you');
    expect(rejectedCode(state(), { action: 'feedback', comment: 'x' }, otherReviewer)).toBe(
      'not_assigned_to_you',
    );
  });

  it('keeps every other action for Owners and Admins', () => {
    for (const action of [
      { action: 'assign', assigneeId: '8' },
      { action: 'client', clientId: '2' },
      { action: 'archive' },
      { action: 'reopen', comment: 'x' },
    ] as MathAction[]) {
      expect(rejectedCode(state({ reviewState: 'COMPLETED' }), action, reviewer)).toBe('operator_only');
    }
  });

  it('assigns, reassigns and clears the assignment', () => {
    const unassigned = state({ reviewState: 'UNASSIGNED', assigneeId: null });
    expect(accepted(unassigned, { action: 'assign', assigneeId: '7' }).next).toMatchObject({
      reviewState: 'ASSIGNED',
      assigneeId: '7',
    });
    const reassigned = accepted(state({ reviewState: 'IN_REVIEW' }), { action: 'assign', assigneeId: '8' });
    expect(reassigned.next).toMatchObject({ reviewState: 'ASSIGNED', assigneeId: '8' });
    expect(reassigned.event.detail).toEqual({ previous_assignee_id: '7', assignee_id: '8' });
    expect(accepted(state(), { action: 'assign', assigneeId: null }).next).toMatchObject({
      reviewState: 'UNASSIGNED',
      assigneeId: null,
    });
  });

  it('starts only from ASSIGNED', () => {
    expect(rejectedCode(state({ reviewState: 'IN_REVIEW' }), { action: 'start' })).toBe('invalid_transition');
    expect(rejectedCode(state({ reviewState: 'UNASSIGNED', assigneeId: null }), { action: 'start' })).toBe(
      'invalid_transition',
    );
  });

  it('needs an assigned task for a verdict and only a completed one for reopen', () => {
    const unassigned = state({ reviewState: 'UNASSIGNED', assigneeId: null });
    expect(rejectedCode(unassigned, { action: 'verdict', decision: 'REJECTED', comment: 'no' })).toBe(
      'invalid_transition',
    );
    expect(rejectedCode(state(), { action: 'reopen', comment: 'x' })).toBe('invalid_transition');
  });

  it('links and clears a client without touching the review state', () => {
    const linked = accepted(state({ reviewState: 'IN_REVIEW' }), { action: 'client', clientId: '5' });
    expect(linked.next).toMatchObject({ clientId: '5', reviewState: 'IN_REVIEW' });
    expect(accepted(linked.next, { action: 'client', clientId: null }).next.clientId).toBeNull();
  });

  it('lists the actions a caller may take now', () => {
    expect(allowedMathActions(state(), reviewer)).toEqual(['start', 'feedback', 'verdict']);
    expect(allowedMathActions(state(), otherReviewer)).toEqual([]);
    expect(allowedMathActions(state({ archived: true }), owner)).toEqual(['restore']);
    expect(allowedMathActions(state({ reviewState: 'COMPLETED', decision: 'ACCEPTED' }), owner)).toEqual([
      'feedback',
      'reopen',
      'client',
      'archive',
    ]);
  });
});
