import type { DataSource } from 'typeorm';
import type { MathDecision, MathReviewState } from '../../../workflows/mathTask/state';
import type { Principal } from '../../kernel/authenticate';
import { problems } from '../../kernel/errors';
import { visibleTasks } from '../visibility';

export interface TaskRow {
  task_id: string;
  run_id: string;
  topic_id: string;
  question_id: string;
  title: string;
  problem: string;
  report_id: string | null;
  report_artifact_id: string | null;
  report_source_id: string | null;
  review_state: MathReviewState;
  decision: MathDecision | null;
  assignee_id: string | null;
  client_id: string | null;
  archived: boolean;
  version: number;
  created_at: Date;
  updated_at: Date;
  last_action: string | null;
  last_action_at: Date | null;
  event_count: number;
}

export interface EventRow {
  id: string;
  version: number;
  action: string;
  actor_id: string | null;
  comment: string | null;
  from_state: string;
  to_state: string;
  detail: Record<string, unknown>;
  created_at: Date;
}

const TASK_COLUMNS = `
  t.task_id, t.run_id, t.topic_id, t.question_id, t.title, t.problem, t.report_id,
  r.artifact_id AS report_artifact_id, r.source_id AS report_source_id,
  t.review_state, t.decision, t.assignee_id::text, t.client_id::text, t.archived, t.version, t.created_at, t.updated_at,
  last_event.action AS last_action, last_event.created_at AS last_action_at,
  (SELECT count(*)::int FROM math_task_events c WHERE c.task_id = t.task_id) AS event_count`;

const TASK_FROM = `
  FROM math_tasks t
  LEFT JOIN math_reports r ON r.report_id = t.report_id
  LEFT JOIN LATERAL (
    SELECT e.action, e.created_at FROM math_task_events e WHERE e.task_id = t.task_id ORDER BY e.version DESC LIMIT 1
  ) last_event ON TRUE`;

/** The task if the caller may see it; otherwise 404, so existence is not revealed to a Reviewer. */
export async function findVisibleTask(
  dataSource: DataSource,
  principal: Principal,
  taskId: string,
): Promise<TaskRow> {
  const params: unknown[] = [taskId];
  const visible = visibleTasks(principal, 't', params);
  const rows: TaskRow[] = await dataSource.query(
    `SELECT ${TASK_COLUMNS} ${TASK_FROM} WHERE t.task_id = $1 AND ${visible}`,
    params,
  );
  if (!rows[0]) throw problems.notFound(`Task ${taskId}`);
  return rows[0];
}

/** Latest workflow events of a task, newest first. */
export async function latestEvents(dataSource: DataSource, taskId: string, limit = 200): Promise<EventRow[]> {
  return dataSource.query(
    `SELECT id::text, version, action, actor_id::text, comment, from_state, to_state, detail, created_at
       FROM math_task_events WHERE task_id = $1 ORDER BY version DESC LIMIT $2`,
    [taskId, limit],
  );
}

export interface Choice {
  id: string;
  name: string;
  enabled: boolean;
}

/** Members an operator may pick as reviewer (the primary admin is never offered), and clients. */
export async function workflowChoices(
  dataSource: DataSource,
): Promise<{ reviewers: Choice[]; clients: Choice[] }> {
  const [reviewers, clients] = await Promise.all([
    dataSource.query(
      `SELECT id::text, display_name AS name, enabled FROM members
        WHERE service = 'math' AND NOT primary_admin ORDER BY display_name, id`,
    ) as Promise<Choice[]>,
    dataSource.query(`SELECT id::text, name, enabled FROM math_clients ORDER BY lower(name), id`) as Promise<
      Choice[]
    >,
  ]);
  return { reviewers, clients };
}
