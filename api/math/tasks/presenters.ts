import { allowedMathActions, type MathActor } from '../../../workflows/mathTask/state';
import { iso } from '../../shared/schemas';
import type { Choice, EventRow, TaskRow } from './queries';

/** A task as the API shows it: every field listed here, nothing more. */
export function presentTask(t: TaskRow) {
  return {
    task_id: t.task_id,
    run_id: t.run_id,
    topic_id: t.topic_id,
    question_id: t.question_id,
    title: t.title,
    problem: t.problem,
    report: t.report_id
      ? { report_id: t.report_id, artifact_id: t.report_artifact_id, source_id: t.report_source_id }
      : null,
    review_state: t.review_state,
    decision: t.decision,
    assignee_id: t.assignee_id,
    client_id: t.client_id,
    archived: t.archived,
    version: t.version,
    workflow: {
      version: t.version,
      review_state: t.review_state,
      decision: t.decision,
      event_count: t.event_count,
      last_action: t.last_action,
      last_action_at: iso(t.last_action_at),
    },
    created_at: t.created_at.toISOString(),
    updated_at: t.updated_at.toISOString(),
  };
}

export function presentEvent(e: EventRow) {
  return {
    id: e.id,
    version: e.version,
    action: e.action,
    actor_id: e.actor_id,
    comment: e.comment,
    from_state: e.from_state,
    to_state: e.to_state,
    detail: e.detail,
    created_at: e.created_at.toISOString(),
  };
}

/** The task's workflow view: version, assignment, decision, what the caller may do next, latest events. */
export function presentWorkflow(
  t: TaskRow,
  events: EventRow[],
  actor: MathActor,
  choices: { reviewers: Choice[]; clients: Choice[] },
) {
  const state = {
    version: t.version,
    reviewState: t.review_state,
    decision: t.decision,
    assigneeId: t.assignee_id,
    clientId: t.client_id,
    archived: t.archived,
  };
  const operator = actor.role !== 'REVIEWER';
  return {
    task_id: t.task_id,
    version: t.version,
    review_state: t.review_state,
    decision: t.decision,
    assignee_id: t.assignee_id,
    client_id: t.client_id,
    archived: t.archived,
    allowed_actions: allowedMathActions(state, actor),
    reviewer_choices: operator
      ? choices.reviewers.map((c) => ({ id: c.id, display_name: c.name, enabled: c.enabled }))
      : [],
    client_choices: operator
      ? choices.clients.map((c) => ({ id: c.id, name: c.name, enabled: c.enabled }))
      : [],
    events: events.map(presentEvent),
  };
}
