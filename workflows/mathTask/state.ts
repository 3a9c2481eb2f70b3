/**
 * The math review state machine, as a pure function: (state, action, actor) → next state and event,
 * or a typed rejection. docs/math-state-machine.md is the same table in prose; keep them identical.
 * No I/O and no clock here: the workflow wraps it, activities persist what it decided.
 */

export const MATH_REVIEW_STATES = ['UNASSIGNED', 'ASSIGNED', 'IN_REVIEW', 'COMPLETED'] as const;
export type MathReviewState = (typeof MATH_REVIEW_STATES)[number];

/** ACCEPTED marks a current accepted report: `surface=release` lists exactly those. */
export const MATH_DECISIONS = ['ACCEPTED', 'NEEDS_REVISION', 'REJECTED'] as const;
export type MathDecision = (typeof MATH_DECISIONS)[number];

export const MATH_ACTIONS = [
  'assign',
  'start',
  'feedback',
  'verdict',
  'reopen',
  'client',
  'archive',
  'restore',
] as const;
export type MathActionName = (typeof MATH_ACTIONS)[number];

export type MathAction =
  | { action: 'assign'; assigneeId: string | null }
  | { action: 'start' }
  | { action: 'feedback'; comment: string }
  | { action: 'verdict'; decision: MathDecision; comment: string }
  | { action: 'reopen'; comment: string }
  | { action: 'client'; clientId: string | null }
  | { action: 'archive'; comment?: string | null }
  | { action: 'restore'; comment?: string | null };

export interface MathActor {
  memberId: string;
  role: 'REVIEWER' | 'OWNER' | 'ADMIN';
  /** For the Temporal UI's activity summary only; no rule reads it (older histories lack it). */
  displayName?: string;
}

/** The review part of a task: what the workflow owns and the database row projects. */
export interface MathTaskState {
  version: number;
  reviewState: MathReviewState;
  decision: MathDecision | null;
  assigneeId: string | null;
  clientId: string | null;
  archived: boolean;
}

/**
 * The state of an imported task, and so the state a task nobody has acted on starts its workflow from: the import
 * may name its client, nothing else.
 */
export function initialMathState(clientId: string | null = null): MathTaskState {
  return {
    version: 0,
    reviewState: 'UNASSIGNED',
    decision: null,
    assigneeId: null,
    clientId,
    archived: false,
  };
}

export interface MathTransition {
  next: MathTaskState;
  event: {
    version: number;
    action: MathActionName;
    actorId: string;
    comment: string | null;
    fromState: MathReviewState;
    toState: MathReviewState;
    detail: Record<string, string | boolean | null>;
  };
}

export type MathRejectionCode =
  | 'stale_version'
  | 'task_archived'
  | 'not_archived'
  | 'review_completed'
  | 'invalid_transition'
  | 'comment_required'
  | 'not_assigned_to_you'
  | 'operator_only';

export interface MathRejection {
  code: MathRejectionCode;
  message: string;
}

export type MathDecisionResult =
  { ok: true; transition: MathTransition } | { ok: false; rejection: MathRejection };

/** Actions a Reviewer may take, and only on a task currently assigned to them. */
const REVIEWER_ACTIONS: ReadonlySet<MathActionName> = new Set(['start', 'feedback', 'verdict']);

const reject = (code: MathRejectionCode, message: string): MathDecisionResult => ({
  ok: false,
  rejection: { code, message },
});

const isBlank = (text: string | null | undefined): boolean => !text || text.trim().length === 0;

/** An optional comment as the event keeps it: null when blank. */
const optionalComment = (text: string | null | undefined): string | null => (text?.trim() ? text : null);

/** Checks that apply to every action before its own rule. */
function checkCommon(
  state: MathTaskState,
  request: MathAction,
  actor: MathActor,
  expectedVersion: number,
): MathDecisionResult | null {
  if (expectedVersion !== state.version) {
    return reject(
      'stale_version',
      `Task is at version ${state.version}, not ${expectedVersion}; re-read it and retry.`,
    );
  }
  if (actor.role === 'REVIEWER') {
    if (!REVIEWER_ACTIONS.has(request.action)) {
      return reject('operator_only', `Only an Owner or Admin may ${request.action} a task.`);
    }
    if (state.assigneeId !== actor.memberId) {
      return reject('not_assigned_to_you', 'This task is not assigned to you.');
    }
  }
  if (state.archived && request.action !== 'restore') {
    return reject('task_archived', 'The task is archived; restore it before any other change.');
  }
  return null;
}

/** What every action's decision reads. */
interface DecisionContext {
  state: MathTaskState;
  actor: MathActor;
  action: MathActionName;
}

/** The transition of an accepted action: the next state (version + 1) and its event. */
function accept(
  { state, actor, action }: DecisionContext,
  changes: Partial<MathTaskState>,
  comment: string | null,
  detail: MathTransition['event']['detail'] = {},
): MathDecisionResult {
  const next: MathTaskState = { ...state, ...changes, version: state.version + 1 };
  return {
    ok: true,
    transition: {
      next,
      event: {
        version: next.version,
        action,
        actorId: actor.memberId,
        comment,
        fromState: state.reviewState,
        toState: next.reviewState,
        detail,
      },
    },
  };
}

type ActionOf<K extends MathActionName> = Extract<MathAction, { action: K }>;
type Decide<K extends MathActionName> = (context: DecisionContext, action: ActionOf<K>) => MathDecisionResult;

/** One decision per action, after the common checks; a new action fails the type check until it has one. */
const DECIDE: { [K in MathActionName]: Decide<K> } = {
  assign: (context, { assigneeId }) => {
    if (context.state.reviewState === 'COMPLETED') {
      return reject('review_completed', 'The review is completed; reopen it before reassigning.');
    }
    return accept(
      context,
      { assigneeId, reviewState: assigneeId === null ? 'UNASSIGNED' : 'ASSIGNED' },
      null,
      { previous_assignee_id: context.state.assigneeId, assignee_id: assigneeId },
    );
  },
  start: (context) => {
    const from = context.state.reviewState;
    if (from !== 'ASSIGNED') {
      return reject('invalid_transition', `A review can be started only from ASSIGNED, not ${from}.`);
    }
    return accept(context, { reviewState: 'IN_REVIEW' }, null);
  },
  feedback: (context, { comment }) => {
    if (isBlank(comment)) return reject('comment_required', 'feedback needs a nonblank comment.');
    const from = context.state.reviewState;
    return accept(context, { reviewState: from === 'ASSIGNED' ? 'IN_REVIEW' : from }, comment);
  },
  verdict: (context, { decision, comment }) => {
    if (isBlank(comment)) return reject('comment_required', 'verdict needs a nonblank comment.');
    const from = context.state.reviewState;
    if (from === 'COMPLETED') {
      return reject('review_completed', 'The review is completed; reopen it before another verdict.');
    }
    if (from !== 'IN_REVIEW' && from !== 'ASSIGNED') {
      return reject('invalid_transition', `A verdict needs an assigned task, not ${from}.`);
    }
    return accept(context, { reviewState: 'COMPLETED', decision }, comment, { decision });
  },
  reopen: (context, { comment }) => {
    if (isBlank(comment)) return reject('comment_required', 'reopen needs a nonblank comment.');
    if (context.state.reviewState !== 'COMPLETED')
      return reject('invalid_transition', 'Only a completed review can be reopened.');
    return accept(context, { reviewState: 'IN_REVIEW', decision: null }, comment, {
      previous_decision: context.state.decision,
    });
  },
  client: (context, { clientId }) =>
    accept(context, { clientId }, null, { previous_client_id: context.state.clientId, client_id: clientId }),
  archive: (context, { comment }) => accept(context, { archived: true }, optionalComment(comment)),
  restore: (context, { comment }) => {
    if (!context.state.archived) return reject('not_archived', 'The task is not archived.');
    return accept(context, { archived: false }, optionalComment(comment));
  },
};

/** Decides one workflow action. Pure: same inputs, same answer. */
export function decideMathAction(
  state: MathTaskState,
  request: MathAction,
  actor: MathActor,
  expectedVersion: number,
): MathDecisionResult {
  const refused = checkCommon(state, request, actor, expectedVersion);
  if (refused) return refused;
  // The table pairs each name with its own action type; indexing by a union loses that pairing.
  const decide = DECIDE[request.action] as Decide<MathActionName>;
  return decide({ state, actor, action: request.action }, request);
}

/** Representative requests used to ask the machine which actions an actor could take now. */
const PROBES: Record<MathActionName, MathAction> = {
  assign: { action: 'assign', assigneeId: null },
  start: { action: 'start' },
  feedback: { action: 'feedback', comment: 'probe' },
  verdict: { action: 'verdict', decision: 'ACCEPTED', comment: 'probe' },
  reopen: { action: 'reopen', comment: 'probe' },
  client: { action: 'client', clientId: null },
  archive: { action: 'archive' },
  restore: { action: 'restore' },
};

/** The actions the machine would accept from this actor in this state (for the workflow view). */
export function allowedMathActions(state: MathTaskState, actor: MathActor): MathActionName[] {
  return MATH_ACTIONS.filter((name) => decideMathAction(state, PROBES[name], actor, state.version).ok);
}
