import type { DataSource } from 'typeorm';
import type { Principal } from '../../kernel/authenticate';
import { presentReviewStatus, type ReviewStatus, reviewStatusColumns } from '../shared/reviewStatus';
import {
  ageingSql,
  presentAgeingRow,
  type ReviewerFiguresRow,
  reviewerFiguresTail,
  turnaroundColumns,
  windowStartSql,
} from '../../shared/dashboard';
import { visibleTasks } from '../visibility';

export async function reviewStatusOfVisibleTasks(
  dataSource: DataSource,
  principal: Principal,
): Promise<ReviewStatus> {
  const params: unknown[] = [];
  const [row] = await dataSource.query(
    `SELECT ${reviewStatusColumns('t')} FROM math_tasks t WHERE ${visibleTasks(principal, 't', params)}`,
    params,
  );
  return presentReviewStatus(row);
}

export interface WorkloadRow {
  reviewer_id: string;
  display_name: string;
  enabled: boolean;
  assigned: number;
  in_review: number;
  completed: number;
  total: number;
}

/** Open (not archived) assigned tasks per reviewer, by review state. */
export async function workload(dataSource: DataSource, principal: Principal): Promise<WorkloadRow[]> {
  const params: unknown[] = [];
  return dataSource.query(
    `SELECT m.id::text AS reviewer_id, m.display_name, m.enabled,
            count(*) FILTER (WHERE t.review_state = 'ASSIGNED')::int AS assigned,
            count(*) FILTER (WHERE t.review_state = 'IN_REVIEW')::int AS in_review,
            count(*) FILTER (WHERE t.review_state = 'COMPLETED')::int AS completed,
            count(*)::int AS total
       FROM math_tasks t JOIN members m ON m.id = t.assignee_id
      WHERE NOT t.archived AND ${visibleTasks(principal, 't', params)}
      GROUP BY m.id, m.display_name, m.enabled
      ORDER BY m.display_name, m.id`,
    params,
  );
}

export interface TrendRow {
  date: string;
  actions: number;
  feedback: number;
  verdicts: number;
}

/** Workflow actions on visible tasks per UTC day, for the last `days` days including today (zeros kept). */
export async function actionTrend(
  dataSource: DataSource,
  principal: Principal,
  days: number,
): Promise<TrendRow[]> {
  const params: unknown[] = [days];
  const visible = visibleTasks(principal, 't', params);
  return dataSource.query(
    `WITH days AS (
       SELECT d::date AS day
         FROM generate_series((now() AT TIME ZONE 'UTC')::date - ($1::int - 1), (now() AT TIME ZONE 'UTC')::date,
                              interval '1 day') d
     ), events AS (
       SELECT (e.created_at AT TIME ZONE 'UTC')::date AS day, e.action
         FROM math_task_events e JOIN math_tasks t ON t.task_id = e.task_id
        WHERE e.created_at >= (((now() AT TIME ZONE 'UTC')::date - ($1::int - 1))::timestamp AT TIME ZONE 'UTC')
          AND ${visible}
     )
     SELECT to_char(days.day, 'YYYY-MM-DD') AS date, count(events.day)::int AS actions,
            count(events.day) FILTER (WHERE events.action = 'feedback')::int AS feedback,
            count(events.day) FILTER (WHERE events.action = 'verdict')::int AS verdicts
       FROM days LEFT JOIN events ON events.day = days.day
      GROUP BY days.day ORDER BY days.day`,
    params,
  );
}

export type ReviewerTurnaroundRow = ReviewerFiguresRow;

/**
 * A task's open assignment starts at its latest `assign` event; a task with none (a row written outside the task
 * workflow) counts from its last update. One probe of `math_task_events_assign` per task.
 */
const LATEST_ASSIGNMENT = `LEFT JOIN LATERAL (
         SELECT a.created_at FROM math_task_events a
          WHERE a.task_id = t.task_id AND a.action = 'assign' ORDER BY a.version DESC LIMIT 1
       ) la ON TRUE`;

/** The open (assigned or in review, not archived) visible tasks and when each was assigned. */
function openAssignments(principal: Principal, params: unknown[]): string {
  return `SELECT t.assignee_id, COALESCE(la.created_at, t.updated_at) AS assigned_at
       FROM math_tasks t ${LATEST_ASSIGNMENT}
      WHERE t.review_state IN ('ASSIGNED', 'IN_REVIEW') AND NOT t.archived
        AND ${visibleTasks(principal, 't', params)}`;
}

/**
 * Per reviewer: verdicts on visible tasks in the window, with the time from the assignment the verdict answered
 * (the task's latest `assign` event before it) to the verdict; and their open work and its oldest assignment.
 * A Reviewer's rows are their own. Reviewers with neither a verdict in the window nor open work are left out.
 */
export async function reviewerTurnaround(
  dataSource: DataSource,
  principal: Principal,
  days: number,
): Promise<ReviewerTurnaroundRow[]> {
  const params: unknown[] = [days];
  const verdictVisible = visibleTasks(principal, 't', params);
  const open = openAssignments(principal, params);
  // A verdict on a task now assigned to the Reviewer may answer someone else's earlier assignment: not theirs.
  let ownRows = '';
  if (principal.role === 'REVIEWER') {
    params.push(principal.member.id);
    ownRows = `AND reviewer_id = $${params.length}`;
  }
  return dataSource.query(
    `WITH answered AS (
       SELECT (a.detail->>'assignee_id')::bigint AS reviewer_id,
              extract(epoch FROM v.created_at - a.created_at) AS seconds
         FROM math_task_events v
         JOIN math_tasks t ON t.task_id = v.task_id
         JOIN LATERAL (
           SELECT p.created_at, p.detail FROM math_task_events p
            WHERE p.task_id = v.task_id AND p.action = 'assign' AND p.version < v.version
            ORDER BY p.version DESC LIMIT 1
         ) a ON TRUE
        WHERE v.action = 'verdict' AND v.created_at >= ${windowStartSql('$1')} AND ${verdictVisible}
     ), turnaround AS (
       SELECT reviewer_id, ${turnaroundColumns('seconds')} FROM answered
        WHERE reviewer_id IS NOT NULL ${ownRows} GROUP BY reviewer_id
     ), ${reviewerFiguresTail(open, 'assignee_id')}`,
    params,
  );
}

/** How long the visible open work has been assigned, in the shared ageing buckets. */
export async function assignedAgeing(dataSource: DataSource, principal: Principal) {
  const params: unknown[] = [];
  const [row] = await dataSource.query(ageingSql(openAssignments(principal, params)), params);
  return presentAgeingRow(row);
}
