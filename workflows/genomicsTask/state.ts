/**
 * The genomics review state machine, as a pure function: (state, action, actor, facts) → next state,
 * record changes and one event, or a typed rejection. docs/genomics-state-machine.md is the same rules
 * as tables; keep them identical. No I/O and no clock here: the workflow wraps it (and passes the time of
 * a due-date timer in the action), activities persist what it decided.
 */

export const GENOMICS_DECISIONS = ['READY', 'MINOR_REPAIR', 'MAJOR_REPAIR', 'REJECTED'] as const;
export type GenomicsDecision = (typeof GENOMICS_DECISIONS)[number];
/** A topic's decision: PENDING until a review (or a reopen) sets one of the four. */
export type TopicDecision = GenomicsDecision | 'PENDING';

export const DISPOSITIONS = ['ACTIVE', 'REJECTED', 'DISCARDED', 'TIMED_OUT'] as const;
export type Disposition = (typeof DISPOSITIONS)[number];

export const REVIEW_VERDICTS = [
  'COMMENT',
  'READY_AS_IS',
  'MINOR_REPAIR',
  'MAJOR_REPAIR',
  'REJECTED',
] as const;
export type ReviewVerdict = (typeof REVIEW_VERDICTS)[number];

/** The decision a verdict sets; COMMENT sets none. */
export const VERDICT_DECISION: Record<Exclude<ReviewVerdict, 'COMMENT'>, GenomicsDecision> = {
  READY_AS_IS: 'READY',
  MINOR_REPAIR: 'MINOR_REPAIR',
  MAJOR_REPAIR: 'MAJOR_REPAIR',
  REJECTED: 'REJECTED',
};

export const ASSIGNMENT_STATUSES = ['ACTIVE', 'SUBMITTED', 'CANCELLED', 'EXPIRED'] as const;
export type AssignmentStatus = (typeof ASSIGNMENT_STATUSES)[number];

export const WORKFLOW_STATUSES = ['UNASSIGNED', 'ASSIGNED', 'IN_REVIEW', 'REVIEWED'] as const;
export type WorkflowStatus = (typeof WORKFLOW_STATUSES)[number];

export type TopicStatus = 'OPEN' | 'CLOSED';
export type TopicPhase = 'REVIEW' | 'REPAIR' | 'DONE';
export type TopicClassification = 'ACCEPTABLE' | 'REPAIRABLE' | 'UNACCEPTABLE';

/** Placeholders for ids the database assigns when the persisting activity inserts the record. */
export const NEW_ASSIGNMENT_ID = 'new-assignment';
export const NEW_REVISION_ID = 'new-revision';
export const NEW_REVIEW_ID = 'new-review';

/** The latest assignment of the topic (the only one that can be ACTIVE). */
export interface CurrentAssignment {
  id: string;
  reviewerId: string;
  status: AssignmentStatus;
  /** ISO date-time, or null for no deadline. */
  dueAt: string | null;
  /** Comments and verdicts recorded on it; any makes an ACTIVE assignment IN_REVIEW. */
  feedbackCount: number;
}

/** The review part of a topic: what the workflow owns and the database row projects. */
export interface GenomicsTaskState {
  version: number;
  decision: TopicDecision;
  previousDecision: string | null;
  requiresReReview: boolean;
  decisionCampaignId: string | null;
  submissionCampaignId: string | null;
  campaignId: string | null;
  disposition: Disposition;
  plannedReviewerId: string | null;
  currentPackageVersionId: string | null;
  deliverableSelectionRevision: number;
  assignment: CurrentAssignment | null;
}

/** Columns derived from the state; persisted with it so lists can filter and show them. */
export interface GenomicsLabels {
  workflowStatus: WorkflowStatus;
  status: TopicStatus;
  phase: TopicPhase;
  classification: TopicClassification | null;
}

export type GenomicsAction =
  | { action: 'assignReviewer'; reviewerId: string; instructions: string; dueAt: string | null }
  | { action: 'removeReviewer'; instructions: string }
  | { action: 'submitReview'; assignmentId: string; verdict: ReviewVerdict; body: string }
  | {
      action: 'overrideDecision';
      expectedDecision: GenomicsDecision;
      decision: GenomicsDecision;
      campaignId: string;
      reason: string;
    }
  | { action: 'reopenReview'; expectedDecision: string; campaignId: string; reason: string }
  | { action: 'setDisposition'; expectedDisposition: Disposition; disposition: Disposition; reason: string }
  | { action: 'startRevision'; campaignId: string; notes: string }
  /** Sent by the workflow's due-date timer only; `at` is the workflow time it fired. */
  | { action: 'expireAssignment'; assignmentId: string; at: string };

export type GenomicsActionKind = GenomicsAction['action'];

export interface GenomicsActor {
  /** null for the workflow itself (a due-date timer). */
  memberId: string | null;
  role: 'REVIEWER' | 'OWNER' | 'ADMIN' | 'SYSTEM';
  /** For the Temporal UI's activity summary only; no rule reads it (older histories lack it). */
  displayName?: string;
}

export const SYSTEM_ACTOR: GenomicsActor = { memberId: null, role: 'SYSTEM' };

/** What the workflow looks up (through an activity) before deciding; the machine never does I/O. */
export interface GenomicsFacts {
  /** The IN_PROGRESS package revision of the topic for the action's campaign, if any. */
  openRevisionId: string | null;
}

export const NO_FACTS: GenomicsFacts = { openRevisionId: null };

/** Record writes the persisting activity performs, in order, in the transaction of the transition. */
export type GenomicsEffect =
  | { kind: 'createAssignment'; reviewerId: string; instructions: string; dueAt: string | null }
  | { kind: 'setAssignmentStatus'; assignmentId: string; status: AssignmentStatus; clearDueAt: boolean }
  | { kind: 'createReview'; assignmentId: string; reviewerId: string; verdict: ReviewVerdict; body: string }
  | { kind: 'createRevision'; campaignId: string; notes: string };

export type GenomicsEventKind =
  | 'reviewer_assigned'
  | 'reviewer_removed'
  | 'comment_added'
  | 'review_submitted'
  | 'decision_overridden'
  | 'review_reopened'
  | 'disposition_changed'
  | 'revision_started'
  | 'revision_resumed'
  | 'assignment_expired';

type JsonScalar = string | number | boolean | null;

export interface GenomicsTransition {
  next: GenomicsTaskState;
  labels: GenomicsLabels;
  effects: GenomicsEffect[];
  event: { kind: GenomicsEventKind; actorId: string | null; detail: Record<string, JsonScalar> };
  /** The record the action is about (what the receipt names); a NEW_* placeholder for an inserted one. */
  record: { type: 'topic' | 'assignment' | 'review' | 'revision'; id: string | null };
}

export type GenomicsRejectionCode =
  | 'operator_only'
  | 'system_only'
  | 'decision_conflict'
  | 'disposition_conflict'
  | 'topic_closed'
  | 'assignment_not_active'
  | 'not_your_assignment'
  | 'no_submitted_review'
  | 'not_due';

export interface GenomicsRejection {
  code: GenomicsRejectionCode;
  message: string;
}

export type GenomicsDecisionResult =
  { ok: true; transition: GenomicsTransition } | { ok: false; rejection: GenomicsRejection };

/**
 * The state of a new topic (created through the API or imported), and so the state a topic nobody has acted on
 * starts its workflow from: an import may name the topic's campaign, nothing else.
 */
export function initialGenomicsState(campaignId: string | null = null): GenomicsTaskState {
  return {
    version: 0,
    decision: 'PENDING',
    previousDecision: null,
    requiresReReview: false,
    decisionCampaignId: null,
    submissionCampaignId: null,
    campaignId,
    disposition: 'ACTIVE',
    plannedReviewerId: null,
    currentPackageVersionId: null,
    deliverableSelectionRevision: 0,
    assignment: null,
  };
}

/** workflow_status, status, phase and classification: pure functions of the state (see the doc's table). */
export function deriveGenomicsLabels(state: GenomicsTaskState): GenomicsLabels {
  const active = state.assignment?.status === 'ACTIVE' ? state.assignment : null;
  const workflowStatus: WorkflowStatus = active
    ? active.feedbackCount > 0
      ? 'IN_REVIEW'
      : 'ASSIGNED'
    : state.decision === 'PENDING'
      ? 'UNASSIGNED'
      : 'REVIEWED';
  const phase: TopicPhase =
    state.decision === 'PENDING' || state.requiresReReview
      ? 'REVIEW'
      : state.decision === 'MINOR_REPAIR' || state.decision === 'MAJOR_REPAIR'
        ? 'REPAIR'
        : 'DONE';
  const classification: TopicClassification | null =
    state.decision === 'PENDING'
      ? null
      : state.decision === 'READY'
        ? 'ACCEPTABLE'
        : state.decision === 'REJECTED'
          ? 'UNACCEPTABLE'
          : 'REPAIRABLE';
  return {
    workflowStatus,
    status: state.disposition === 'ACTIVE' ? 'OPEN' : 'CLOSED',
    phase,
    classification,
  };
}

/** Ids the persisting activity got from the database for the records it inserted. */
export interface CreatedIds {
  assignmentId: string | null;
  reviewId: string | null;
  revisionId: string | null;
}

/** Replaces the NEW_* placeholders of a decided state with the ids the database assigned. */
export function withCreatedIds(state: GenomicsTaskState, created: CreatedIds): GenomicsTaskState {
  const assignment =
    state.assignment?.id === NEW_ASSIGNMENT_ID && created.assignmentId
      ? { ...state.assignment, id: created.assignmentId }
      : state.assignment;
  const currentPackageVersionId =
    state.currentPackageVersionId === NEW_REVISION_ID ? created.revisionId : state.currentPackageVersionId;
  return { ...state, assignment, currentPackageVersionId };
}

/** The record id a transition names, with placeholders resolved. */
export function resolvedRecordId(record: GenomicsTransition['record'], created: CreatedIds): string | null {
  switch (record.id) {
    case NEW_ASSIGNMENT_ID:
      return created.assignmentId;
    case NEW_REVIEW_ID:
      return created.reviewId;
    case NEW_REVISION_ID:
      return created.revisionId;
    default:
      return record.id;
  }
}

/** The ACTIVE assignment's deadline, which the workflow keeps a durable timer for. */
export function activeDeadline(state: GenomicsTaskState): { assignmentId: string; dueAt: string } | null {
  const a = state.assignment;
  return a && a.status === 'ACTIVE' && a.dueAt ? { assignmentId: a.id, dueAt: a.dueAt } : null;
}
