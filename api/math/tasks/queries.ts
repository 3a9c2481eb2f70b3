import pg from 'pg';
import type { DataSource } from 'typeorm';
import type { Queryable } from '../../../entities/queryable';
import { MathClient } from '../../../entities/MathClient';
import type { MathReport } from '../../../entities/MathReport';
import { Member } from '../../../entities/Member';
import type { MathDecision, MathReviewState } from '../../../workflows/mathTask/state';
import type { MathTask } from '../../../entities/MathTask';
import type { MathTaskEvent } from '../../../entities/MathTaskEvent';
import type { RowOf, RowPick } from '../../../entities/rows';
import { isoTimestampSql } from '../../../entities/sqlJson';
import type { Principal } from '../../kernel/authenticate';
import type { SqlQuery } from '../../shared/sql';
import { problems } from '../../kernel/errors';
import { limitOffset, type PageQuery } from '../shared/pagination';
import { presentReviewStatus, type ReviewStatus, reviewStatusColumns } from '../shared/reviewStatus';
import { containsPattern } from '../shared/search';
import { visibleTasks } from '../visibility';

/** A task as the task queries select it: its own columns plus its report's ids and its latest event. */
export type TaskRow = RowPick<
  MathTask,
  | 'task_id'
  | 'run_id'
  | 'topic_id'
  | 'question_id'
  | 'title'
  | 'problem'
  | 'report_id'
  | 'review_state'
  | 'decision'
  | 'assignee_id'
  | 'client_id'
  | 'archived'
  | 'version'
  | 'created_at'
  | 'updated_at'
> & {
  report_artifact_id: RowOf<MathReport>['artifact_id'] | null;
  report_source_id: RowOf<MathReport>['source_id'];
  last_action: RowOf<MathTaskEvent>['action'] | null;
  last_action_at: RowOf<MathTaskEvent>['created_at'] | null;
  event_count: number;
};

export type EventRow = RowPick<
  MathTaskEvent,
  'id' | 'version' | 'action' | 'actor_id' | 'comment' | 'from_state' | 'to_state' | 'detail' | 'created_at'
>;

const TASK_COLUMNS = `
  t.task_id, t.run_id, t.topic_id, t.question_id, t.title, t.problem, t.report_id,
  r.artifact_id AS report_artifact_id, r.source_id AS report_source_id,
  t.review_state, t.decision, t.assignee_id::text, t.client_id::text, t.archived, t.version, t.created_at, t.updated_at,
  last_event.action AS last_action, last_event.created_at AS last_action_at,
  (SELECT count(*)::int FROM math_task_events c WHERE c.task_id = t.task_id) AS event_count`;

/** Joins that complete a task row (report mapping, last event) once the rows of `t` are chosen. */
const TASK_JOINS = `
  LEFT JOIN math_reports r ON r.report_id = t.report_id
  LEFT JOIN LATERAL (
    SELECT e.action, e.created_at FROM math_task_events e WHERE e.task_id = t.task_id ORDER BY e.version DESC LIMIT 1
  ) last_event ON TRUE`;

const TASK_FROM = `FROM math_tasks t ${TASK_JOINS}`;

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

export interface Choice {
  id: string;
  name: string;
  enabled: boolean;
}

/** A task's workflow view as stored: the task, its latest events (newest first) and the operator's choices. */
export interface TaskWorkflowRows {
  task: TaskRow;
  events: EventRow[];
  choices: { reviewers: Choice[]; clients: Choice[] };
}

/** How many of a task's latest events its workflow view lists. */
export const WORKFLOW_EVENTS = 200;

/** The driver's own parser of timestamptz text, so a time read through JSON is the Date a column would give. */
const parseTimestamptz = pg.types.getTypeParser(pg.types.builtins.TIMESTAMPTZ, 'text') as (
  text: string,
) => Date;

/**
 * The task if the caller may see it (else 404), as {@link findVisibleTask} reads it, with its latest events
 * (newest first) and, with `choices`, the members an operator may pick as reviewer (never the primary admin) and
 * the clients, in one statement: events and choices aggregated as JSON, each event's time as the column's text,
 * parsed as the driver parses a column.
 */
export async function findVisibleTaskWithWorkflow(
  dataSource: DataSource,
  principal: Principal,
  taskId: string,
  options: { choices: boolean },
): Promise<TaskWorkflowRows> {
  const params: unknown[] = [taskId, WORKFLOW_EVENTS, options.choices];
  const visible = visibleTasks(principal, 't', params);
  const rows: Array<
    TaskRow & {
      events: Array<Omit<EventRow, 'created_at'> & { created_at: string }>;
      reviewers: Choice[];
      clients: Choice[];
    }
  > = await dataSource.query(
    `SELECT ${TASK_COLUMNS},
       (SELECT COALESCE(json_agg(json_build_object(
                 'id', e.id::text, 'version', e.version, 'action', e.action, 'actor_id', e.actor_id::text,
                 'comment', e.comment, 'from_state', e.from_state, 'to_state', e.to_state, 'detail', e.detail,
                 'created_at', e.created_at::text) ORDER BY e.version DESC), '[]')
          FROM (SELECT * FROM math_task_events WHERE task_id = t.task_id ORDER BY version DESC LIMIT $2) e) AS events,
       CASE WHEN $3 THEN
         (SELECT COALESCE(json_agg(json_build_object('id', m.id::text, 'name', m.display_name, 'enabled', m.enabled)
                   ORDER BY m.display_name, m.id), '[]')
            FROM members m WHERE m.service = 'math' AND NOT m.primary_admin)
         ELSE '[]' END AS reviewers,
       CASE WHEN $3 THEN
         (SELECT COALESCE(json_agg(json_build_object('id', c.id::text, 'name', c.name, 'enabled', c.enabled)
                   ORDER BY lower(c.name), c.id), '[]')
            FROM math_clients c)
         ELSE '[]' END AS clients
     ${TASK_FROM} WHERE t.task_id = $1 AND ${visible}`,
    params,
  );
  if (!rows[0]) throw problems.notFound(`Task ${taskId}`);
  const { events, reviewers, clients, ...task } = rows[0];
  return {
    task,
    events: events.map((e) => ({ ...e, created_at: parseTimestamptz(e.created_at) })),
    choices: { reviewers, clients },
  };
}

export const TASK_SURFACES = ['all', 'archive', 'release', 'evaluations'] as const;
export type TaskSurface = (typeof TASK_SURFACES)[number];
export const TASK_SORTS = ['updated', 'oldest', 'topic'] as const;
export type TaskSort = (typeof TASK_SORTS)[number];

/** `unassigned` selects tasks without a reviewer (or without a client). */
export const UNASSIGNED = 'unassigned';

export interface TaskFilters {
  question_id?: string;
  run_id?: string;
  reviewer_id?: string;
  client_id?: string;
  review_state?: MathReviewState;
  decision?: MathDecision;
  q?: string;
  surface: TaskSurface;
}

/** What each surface keeps; docs/math-api-shapes.md says the same in prose. */
const SURFACE_CONDITION: Record<TaskSurface, string> = {
  all: 'TRUE',
  archive: 't.archived',
  release: `NOT t.archived AND t.review_state = 'COMPLETED' AND t.decision = 'ACCEPTED' AND t.report_id IS NOT NULL`,
  evaluations: 'NOT t.archived',
};

/** Newest update first; `oldest` is its exact reverse; task_id breaks every tie, so pages never overlap. */
const SORT_ORDER: Record<TaskSort, string> = {
  updated: 't.updated_at DESC, t.task_id DESC',
  oldest: 't.updated_at ASC, t.task_id ASC',
  topic: 't.topic_id ASC, t.task_id ASC',
};

/**
 * The WHERE clause of a task list for this caller: the visibility rule first, then each filter, each one
 * only narrowing. Pushes its values onto `params`.
 */
export function taskListWhere(principal: Principal, filters: TaskFilters, params: unknown[]): string {
  const conditions = [visibleTasks(principal, 't', params), SURFACE_CONDITION[filters.surface]];
  const equals = (column: string, value: unknown) => {
    params.push(value);
    conditions.push(`${column} = $${params.length}`);
  };
  if (filters.question_id !== undefined) equals('t.question_id', filters.question_id);
  if (filters.run_id !== undefined) equals('t.run_id', filters.run_id);
  if (filters.reviewer_id === UNASSIGNED) conditions.push('t.assignee_id IS NULL');
  else if (filters.reviewer_id !== undefined) equals('t.assignee_id', filters.reviewer_id);
  if (filters.client_id === UNASSIGNED) conditions.push('t.client_id IS NULL');
  else if (filters.client_id !== undefined) equals('t.client_id', filters.client_id);
  if (filters.review_state !== undefined) equals('t.review_state', filters.review_state);
  if (filters.decision !== undefined) equals('t.decision', filters.decision);
  if (filters.q !== undefined) {
    params.push(containsPattern(filters.q));
    const p = `$${params.length}`;
    conditions.push(`(t.task_id ILIKE ${p} OR t.title ILIKE ${p} OR t.problem ILIKE ${p})`);
  }
  return conditions.join(' AND ');
}

/** The SQL of one page of the caller's tasks in the chosen order (exported so the EXPLAIN script runs it). */
export function taskPageSql(
  principal: Principal,
  filters: TaskFilters,
  sort: TaskSort,
  page: PageQuery,
): SqlQuery {
  const params: unknown[] = [];
  const where = taskListWhere(principal, filters, params);
  params.push(...limitOffset(page));
  const sql = `SELECT ${TASK_COLUMNS}
       FROM (SELECT t.* FROM math_tasks t WHERE ${where}
              ORDER BY ${SORT_ORDER[sort]} LIMIT $${params.length - 1} OFFSET $${params.length}) t
       ${TASK_JOINS}
      ORDER BY ${SORT_ORDER[sort]}`;
  return { sql, params };
}

/**
 * The SQL of an export's snapshot (api/shared/exports): every row of the caller's list with these filters, in the
 * list's order, each presented as presenters.ts `presentTask` presents it (the export tests compare the two).
 */
export function taskSnapshotSql(principal: Principal, filters: TaskFilters, sort: TaskSort): SqlQuery {
  const params: unknown[] = [];
  const where = taskListWhere(principal, filters, params);
  const sql = `SELECT row_number() OVER (ORDER BY ${SORT_ORDER[sort]})::int AS ordinal, t.task_id AS task_key,
       t.version AS row_version,
       json_build_object(
         'task_id', t.task_id, 'run_id', t.run_id, 'topic_id', t.topic_id, 'question_id', t.question_id,
         'title', t.title, 'problem', t.problem,
         'report', CASE WHEN t.report_id IS NULL THEN NULL ELSE json_build_object(
           'report_id', t.report_id, 'artifact_id', r.artifact_id, 'source_id', r.source_id) END,
         'review_state', t.review_state, 'decision', t.decision, 'assignee_id', t.assignee_id::text,
         'client_id', t.client_id::text, 'archived', t.archived, 'version', t.version,
         'workflow', json_build_object(
           'version', t.version, 'review_state', t.review_state, 'decision', t.decision,
           'event_count', (SELECT count(*)::int FROM math_task_events c WHERE c.task_id = t.task_id),
           'last_action', last_event.action, 'last_action_at', ${isoTimestampSql('last_event.created_at')}),
         'created_at', ${isoTimestampSql('t.created_at')}, 'updated_at', ${isoTimestampSql('t.updated_at')}
       ) AS item
     FROM math_tasks t ${TASK_JOINS}
     WHERE ${where}`;
  return { sql, params };
}

/** The SQL of the review status (and total) of the whole filtered result. */
export function taskCountSql(principal: Principal, filters: TaskFilters): SqlQuery {
  const params: unknown[] = [];
  const where = taskListWhere(principal, filters, params);
  return { sql: `SELECT ${reviewStatusColumns('t')} FROM math_tasks t WHERE ${where}`, params };
}

/** One page of the caller's tasks, in the chosen order. */
export async function listTasks(
  dataSource: DataSource,
  principal: Principal,
  filters: TaskFilters,
  sort: TaskSort,
  page: PageQuery,
): Promise<TaskRow[]> {
  const { sql, params } = taskPageSql(principal, filters, sort, page);
  return dataSource.query(sql, params);
}

/** Review status of the whole filtered result (not only the page); its `total` is the list's total. */
export async function countTasks(
  dataSource: DataSource,
  principal: Principal,
  filters: TaskFilters,
): Promise<ReviewStatus> {
  const { sql, params } = taskCountSql(principal, filters);
  const [row] = await dataSource.query(sql, params);
  return presentReviewStatus(row);
}

/** A math member by id, with what decides whether they may be assigned. */
export function findMathMember(dataSource: DataSource, memberId: string) {
  return dataSource
    .getRepository(Member)
    .findOne({ select: { enabled: true, primaryAdmin: true }, where: { id: memberId, service: 'math' } });
}

export function findMathClient(dataSource: DataSource, clientId: string) {
  return dataSource.getRepository(MathClient).findOne({ select: { enabled: true }, where: { id: clientId } });
}

const STAMP_SQL = `SELECT last_value::text AS stamp,
       pg_try_advisory_xact_lock(hashtextextended('referee:math-task-change', 0)) AS quiet
  FROM math_task_change_stamp`;

/** The current change stamp of `math_tasks` and whether it was read quiet (see listCounts.ts). */
export async function readTaskChangeStamp(db: Queryable): Promise<{ stamp: string; quiet: boolean }> {
  const [row]: Array<{ stamp: string; quiet: boolean }> = await db.query(STAMP_SQL);
  return row;
}
