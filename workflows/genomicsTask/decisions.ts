/**
 * How the genomics state machine decides each action: the checks every action passes, then one function per
 * action. Pure: same inputs, same answer (docs/genomics-state-machine.md is the same rules as a table).
 */
import {
  type CurrentAssignment,
  deriveGenomicsLabels,
  type GenomicsAction,
  type GenomicsActionKind,
  type GenomicsActor,
  type GenomicsDecisionResult,
  type GenomicsEffect,
  type GenomicsEventKind,
  type GenomicsFacts,
  type GenomicsRejectionCode,
  type GenomicsTaskState,
  type GenomicsTransition,
  NEW_ASSIGNMENT_ID,
  NEW_REVIEW_ID,
  NEW_REVISION_ID,
  NO_FACTS,
  type TopicDecision,
  VERDICT_DECISION,
} from './state';

/** Actions only an Owner or Admin may take. */
const OPERATOR_ACTIONS: ReadonlySet<GenomicsActionKind> = new Set([
  'assignReviewer',
  'removeReviewer',
  'overrideDecision',
  'reopenReview',
  'setDisposition',
]);

/** Actions refused while the disposition is not ACTIVE (setDisposition is how a topic is reactivated). */
const NEEDS_ACTIVE_TOPIC: ReadonlySet<GenomicsActionKind> = new Set([
  'assignReviewer',
  'removeReviewer',
  'submitReview',
  'overrideDecision',
  'reopenReview',
  'startRevision',
]);

const reject = (code: GenomicsRejectionCode, message: string): GenomicsDecisionResult => ({
  ok: false,
  rejection: { code, message },
});

/** previous_decision moves only when the decision actually changes. */
const withDecision = (state: GenomicsTaskState, decision: TopicDecision) =>
  decision === state.decision
    ? { decision }
    : { decision, previousDecision: state.decision as string | null };

type JsonScalar = string | number | boolean | null;

/** What an accepted action changes, writes and records. */
interface Acceptance {
  changes: Partial<GenomicsTaskState>;
  effects: GenomicsEffect[];
  event: GenomicsEventKind;
  detail: Record<string, JsonScalar>;
  record: GenomicsTransition['record'];
}

/** What every action's decision reads. */
interface DecisionContext {
  state: GenomicsTaskState;
  actor: GenomicsActor;
  facts: GenomicsFacts;
  /** The current assignment while it is ACTIVE. */
  active: CurrentAssignment | null;
}

/** The transition of an accepted action: the next state (version + 1), its labels, effects and event. */
function accept({ state, actor }: DecisionContext, acceptance: Acceptance): GenomicsDecisionResult {
  const next: GenomicsTaskState = { ...state, ...acceptance.changes, version: state.version + 1 };
  return {
    ok: true,
    transition: {
      next,
      labels: deriveGenomicsLabels(next),
      effects: acceptance.effects,
      event: { kind: acceptance.event, actorId: actor.memberId, detail: acceptance.detail },
      record: acceptance.record,
    },
  };
}

/** Cancelling the ACTIVE assignment, if there is one. */
const cancelActive = ({ active }: DecisionContext): GenomicsEffect[] =>
  active
    ? [{ kind: 'setAssignmentStatus', assignmentId: active.id, status: 'CANCELLED', clearDueAt: false }]
    : [];

type ActionOf<K extends GenomicsActionKind> = Extract<GenomicsAction, { action: K }>;
type Decide<K extends GenomicsActionKind> = (
  context: DecisionContext,
  action: ActionOf<K>,
) => GenomicsDecisionResult;

/** The checks every action passes first, in order (the table's "before every action"). */
function checkCommon(
  state: GenomicsTaskState,
  action: GenomicsAction,
  actor: GenomicsActor,
): GenomicsDecisionResult | null {
  if (action.action === 'expireAssignment') {
    return actor.role === 'SYSTEM'
      ? null
      : reject('system_only', 'Only the due-date timer expires an assignment.');
  }
  if (actor.role === 'SYSTEM')
    return reject('operator_only', 'The workflow itself only expires assignments.');
  if (OPERATOR_ACTIONS.has(action.action) && actor.role === 'REVIEWER') {
    return reject('operator_only', `Only an Owner or Admin may ${action.action} a topic.`);
  }
  if (
    (action.action === 'overrideDecision' || action.action === 'reopenReview') &&
    action.expectedDecision !== state.decision
  ) {
    return reject(
      'decision_conflict',
      `The decision is ${state.decision}, not ${action.expectedDecision}; re-read the topic and retry.`,
    );
  }
  if (action.action === 'setDisposition' && action.expectedDisposition !== state.disposition) {
    return reject(
      'disposition_conflict',
      `The disposition is ${state.disposition}, not ${action.expectedDisposition}; re-read the topic and retry.`,
    );
  }
  if (NEEDS_ACTIVE_TOPIC.has(action.action) && state.disposition !== 'ACTIVE') {
    return reject(
      'topic_closed',
      `The topic's disposition is ${state.disposition}; set it to ACTIVE before ${action.action}.`,
    );
  }
  return null;
}

const assignReviewer: Decide<'assignReviewer'> = (context, action) =>
  accept(context, {
    changes: {
      plannedReviewerId: action.reviewerId,
      assignment: {
        id: NEW_ASSIGNMENT_ID,
        reviewerId: action.reviewerId,
        status: 'ACTIVE',
        dueAt: action.dueAt,
        feedbackCount: 0,
      },
    },
    effects: [
      ...cancelActive(context),
      {
        kind: 'createAssignment',
        reviewerId: action.reviewerId,
        instructions: action.instructions,
        dueAt: action.dueAt,
      },
    ],
    event: 'reviewer_assigned',
    detail: {
      reviewer_id: action.reviewerId,
      previous_reviewer_id: context.state.plannedReviewerId,
      cancelled_assignment_id: context.active?.id ?? null,
      due_at: action.dueAt,
      instructions: action.instructions,
    },
    record: { type: 'assignment', id: NEW_ASSIGNMENT_ID },
  });

const removeReviewer: Decide<'removeReviewer'> = (context, action) => {
  const { state, active } = context;
  return accept(context, {
    changes: {
      plannedReviewerId: null,
      assignment: active ? { ...active, status: 'CANCELLED' } : state.assignment,
    },
    effects: cancelActive(context),
    event: 'reviewer_removed',
    detail: {
      previous_reviewer_id: state.plannedReviewerId,
      cancelled_assignment_id: active?.id ?? null,
      instructions: action.instructions,
    },
    record: active ? { type: 'assignment', id: active.id } : { type: 'topic', id: null },
  });
};

const submitReview: Decide<'submitReview'> = (context, action) => {
  const { state, actor } = context;
  const current = state.assignment;
  if (!current || current.id !== action.assignmentId) {
    return reject(
      'assignment_not_active',
      `Assignment ${action.assignmentId} is not the topic's current assignment.`,
    );
  }
  if (current.status !== 'ACTIVE') {
    return reject('assignment_not_active', `Assignment ${current.id} is ${current.status}, not ACTIVE.`);
  }
  if (current.reviewerId !== actor.memberId) {
    return reject('not_your_assignment', 'Only the assigned reviewer may review on this assignment.');
  }
  const review: GenomicsEffect = {
    kind: 'createReview',
    assignmentId: current.id,
    reviewerId: current.reviewerId,
    verdict: action.verdict,
    body: action.body,
  };
  const counted = { ...current, feedbackCount: current.feedbackCount + 1 };
  if (action.verdict === 'COMMENT') {
    return accept(context, {
      changes: { assignment: counted },
      effects: [review],
      event: 'comment_added',
      detail: { assignment_id: current.id, verdict: 'COMMENT' },
      record: { type: 'review', id: NEW_REVIEW_ID },
    });
  }
  const decision = VERDICT_DECISION[action.verdict];
  return accept(context, {
    changes: {
      ...withDecision(state, decision),
      requiresReReview: false,
      submissionCampaignId: state.campaignId,
      decisionCampaignId: state.campaignId,
      assignment: { ...counted, status: 'SUBMITTED' },
    },
    effects: [
      review,
      { kind: 'setAssignmentStatus', assignmentId: current.id, status: 'SUBMITTED', clearDueAt: false },
    ],
    event: 'review_submitted',
    detail: {
      assignment_id: current.id,
      verdict: action.verdict,
      decision,
      previous_decision: state.decision,
      campaign_id: state.campaignId,
    },
    record: { type: 'review', id: NEW_REVIEW_ID },
  });
};

const overrideDecision: Decide<'overrideDecision'> = (context, action) =>
  accept(context, {
    changes: { ...withDecision(context.state, action.decision), decisionCampaignId: action.campaignId },
    effects: [],
    event: 'decision_overridden',
    detail: {
      from: context.state.decision,
      to: action.decision,
      campaign_id: action.campaignId,
      reason: action.reason,
    },
    record: { type: 'topic', id: null },
  });

const reopenReview: Decide<'reopenReview'> = (context, action) => {
  const { state } = context;
  const submitted = state.assignment?.status === 'SUBMITTED' ? state.assignment : null;
  if (!submitted) {
    return reject('no_submitted_review', "The topic's current assignment has no submitted review to reopen.");
  }
  return accept(context, {
    changes: {
      decision: 'PENDING',
      previousDecision: state.decision,
      requiresReReview: true,
      decisionCampaignId: null,
      plannedReviewerId: submitted.reviewerId,
      assignment: { ...submitted, status: 'ACTIVE', dueAt: null },
    },
    effects: [
      { kind: 'setAssignmentStatus', assignmentId: submitted.id, status: 'ACTIVE', clearDueAt: true },
    ],
    event: 'review_reopened',
    detail: {
      assignment_id: submitted.id,
      previous_decision: state.decision,
      campaign_id: action.campaignId,
      reason: action.reason,
    },
    record: { type: 'assignment', id: submitted.id },
  });
};

const setDisposition: Decide<'setDisposition'> = (context, action) => {
  const { state, active } = context;
  const closing = action.disposition !== 'ACTIVE' && active !== null;
  return accept(context, {
    changes: {
      disposition: action.disposition,
      ...(closing
        ? { plannedReviewerId: null, assignment: { ...active, status: 'CANCELLED' as const } }
        : {}),
    },
    effects: closing ? cancelActive(context) : [],
    event: 'disposition_changed',
    detail: {
      from: state.disposition,
      to: action.disposition,
      reason: action.reason,
      cancelled_assignment_id: closing ? active.id : null,
    },
    record: { type: 'topic', id: null },
  });
};

const startRevision: Decide<'startRevision'> = (context, action) => {
  const { state, facts } = context;
  if (facts.openRevisionId) {
    return accept(context, {
      changes: {},
      effects: [],
      event: 'revision_resumed',
      detail: { revision_id: facts.openRevisionId, campaign_id: action.campaignId, notes: action.notes },
      record: { type: 'revision', id: facts.openRevisionId },
    });
  }
  return accept(context, {
    changes: {
      currentPackageVersionId: NEW_REVISION_ID,
      deliverableSelectionRevision: state.deliverableSelectionRevision + 1,
      campaignId: action.campaignId,
      requiresReReview: state.decision === 'PENDING' ? state.requiresReReview : true,
    },
    effects: [{ kind: 'createRevision', campaignId: action.campaignId, notes: action.notes }],
    event: 'revision_started',
    detail: {
      campaign_id: action.campaignId,
      previous_package_version_id: state.currentPackageVersionId,
      notes: action.notes,
    },
    record: { type: 'revision', id: NEW_REVISION_ID },
  });
};

const expireAssignment: Decide<'expireAssignment'> = (context, action) => {
  const { state, active } = context;
  if (
    !active ||
    active.id !== action.assignmentId ||
    active.dueAt === null ||
    Date.parse(action.at) < Date.parse(active.dueAt)
  ) {
    return reject(
      'not_due',
      `Assignment ${action.assignmentId} is not an ACTIVE assignment past its due date.`,
    );
  }
  return accept(context, {
    changes: {
      plannedReviewerId: null,
      disposition: 'TIMED_OUT',
      assignment: { ...active, status: 'EXPIRED' },
    },
    effects: [{ kind: 'setAssignmentStatus', assignmentId: active.id, status: 'EXPIRED', clearDueAt: false }],
    event: 'assignment_expired',
    detail: {
      assignment_id: active.id,
      reviewer_id: active.reviewerId,
      due_at: active.dueAt,
      from: state.disposition,
      to: 'TIMED_OUT',
    },
    record: { type: 'assignment', id: active.id },
  });
};

/** One decision per action; a new action kind fails the type check until it has one. */
const DECIDE: { [K in GenomicsActionKind]: Decide<K> } = {
  assignReviewer,
  removeReviewer,
  submitReview,
  overrideDecision,
  reopenReview,
  setDisposition,
  startRevision,
  expireAssignment,
};

/** Decides one action. Pure: same inputs, same answer. */
export function decideGenomicsAction(
  state: GenomicsTaskState,
  action: GenomicsAction,
  actor: GenomicsActor,
  facts: GenomicsFacts = NO_FACTS,
): GenomicsDecisionResult {
  const refused = checkCommon(state, action, actor);
  if (refused) return refused;
  const active = state.assignment?.status === 'ACTIVE' ? state.assignment : null;
  // The map pairs each kind with its own action type; indexing by a union loses that pairing.
  const decide = DECIDE[action.action] as Decide<GenomicsActionKind>;
  return decide({ state, actor, facts, active }, action);
}
