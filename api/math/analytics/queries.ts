import type { DataSource } from 'typeorm';
import type { Principal } from '../../kernel/authenticate';
import { presentReviewStatus, type ReviewStatus, reviewStatusColumns } from '../shared/reviewStatus';
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
