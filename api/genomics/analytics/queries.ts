import type { DataSource } from 'typeorm';
import type { Principal } from '../../kernel/authenticate';
import {
  ageingSql,
  presentAgeingRow,
  type ReviewerFiguresRow,
  reviewerFiguresTail,
  turnaroundColumns,
  windowStartSql,
} from '../../shared/dashboard';
import { DISPOSITIONS, GENOMICS_DECISIONS, WORKFLOW_STATUSES } from '../../../workflows/genomicsTask/state';
import { visibleGenomicsTasks } from '../visibility';

/** Every value the counts name, from the state machine's constants (never from input). */
export const SUMMARY_DECISIONS = ['PENDING', ...GENOMICS_DECISIONS] as const;
const column = (prefix: string, value: string) => `${prefix}_${value.toLowerCase()}`;

export interface TopicCounts {
  total: number;
  requires_re_review: number;
  workflow_statuses: Record<string, number>;
  decisions: Record<string, number>;
  dispositions: Record<string, number>;
}

/** Counts of the caller's visible topics (the rule of `GET /api/v1/tasks`) by status, decision and disposition. */
export async function topicCounts(dataSource: DataSource, principal: Principal): Promise<TopicCounts> {
  const params: unknown[] = [];
  const filters = [
    ...WORKFLOW_STATUSES.map(
      (s) => `count(*) FILTER (WHERE t.workflow_status = '${s}')::int AS ${column('ws', s)}`,
    ),
    ...SUMMARY_DECISIONS.map((d) => `count(*) FILTER (WHERE t.decision = '${d}')::int AS ${column('dc', d)}`),
    ...DISPOSITIONS.map((d) => `count(*) FILTER (WHERE t.disposition = '${d}')::int AS ${column('dp', d)}`),
  ];
  const [row] = await dataSource.query(
    `SELECT count(*)::int AS total, count(*) FILTER (WHERE t.requires_re_review)::int AS requires_re_review,
            ${filters.join(', ')}
       FROM genomics_topics t WHERE ${visibleGenomicsTasks(principal, 't', params)}`,
    params,
  );
  const counts = (prefix: string, values: readonly string[]) =>
    Object.fromEntries(values.map((v) => [v, Number(row[column(prefix, v)])]));
  return {
    total: row.total,
    requires_re_review: row.requires_re_review,
    workflow_statuses: counts('ws', WORKFLOW_STATUSES),
    decisions: counts('dc', SUMMARY_DECISIONS),
    dispositions: counts('dp', DISPOSITIONS),
  };
}

export interface GenomicsTrendRow {
  date: string;
  events: number;
  reviews: number;
  comments: number;
}

/** Events of visible topics per UTC day over the last `days` days including today (zeros kept). */
export async function eventTrend(
  dataSource: DataSource,
  principal: Principal,
  days: number,
): Promise<GenomicsTrendRow[]> {
  const params: unknown[] = [days];
  const visible = visibleGenomicsTasks(principal, 't', params);
  return dataSource.query(
    `WITH days AS (
       SELECT d::date AS day
         FROM generate_series((now() AT TIME ZONE 'UTC')::date - ($1::int - 1), (now() AT TIME ZONE 'UTC')::date,
                              interval '1 day') d
     ), events AS (
       SELECT (e.created_at AT TIME ZONE 'UTC')::date AS day, e.kind
         FROM genomics_events e JOIN genomics_topics t ON t.id = e.topic_id
        WHERE e.created_at >= ${windowStartSql('$1')} AND ${visible}
     )
     SELECT to_char(days.day, 'YYYY-MM-DD') AS date, count(events.day)::int AS events,
            count(events.day) FILTER (WHERE events.kind = 'review_submitted')::int AS reviews,
            count(events.day) FILTER (WHERE events.kind = 'comment_added')::int AS comments
       FROM days LEFT JOIN events ON events.day = days.day
      GROUP BY days.day ORDER BY days.day`,
    params,
  );
}

/** A Reviewer's per-reviewer figures are their own; an operator's cover every reviewer. */
function ownAssignments(principal: Principal, assignmentAlias: string, params: unknown[]): string {
  if (principal.role !== 'REVIEWER') return 'TRUE';
  params.push(principal.member.id);
  return `${assignmentAlias}.reviewer_id = $${params.length}`;
}

/** The ACTIVE assignments of visible topics (at most one per topic) and when each started. */
function activeAssignments(principal: Principal, params: unknown[]): string {
  const visible = visibleGenomicsTasks(principal, 't', params);
  return `SELECT a.reviewer_id, a.created_at AS assigned_at
       FROM genomics_assignments a JOIN genomics_topics t ON t.id = a.topic_id
      WHERE a.status = 'ACTIVE' AND ${visible} AND ${ownAssignments(principal, 'a', params)}`;
}

export type GenomicsReviewerRow = ReviewerFiguresRow;

/**
 * Per reviewer: assignments submitted in the window (a verdict) with the time from the assignment's creation to
 * its submission, and their ACTIVE assignments (open work) with the oldest one's start.
 */
export async function reviewerFigures(
  dataSource: DataSource,
  principal: Principal,
  days: number,
): Promise<GenomicsReviewerRow[]> {
  const params: unknown[] = [days];
  const visible = visibleGenomicsTasks(principal, 't', params);
  const own = ownAssignments(principal, 'a', params);
  const open = activeAssignments(principal, params);
  return dataSource.query(
    `WITH turnaround AS (
       SELECT a.reviewer_id, ${turnaroundColumns('extract(epoch FROM a.submitted_at - a.created_at)')}
         FROM genomics_assignments a JOIN genomics_topics t ON t.id = a.topic_id
        WHERE a.submitted_at >= ${windowStartSql('$1')} AND ${visible} AND ${own}
        GROUP BY a.reviewer_id
     ), ${reviewerFiguresTail(open, 'reviewer_id')}`,
    params,
  );
}

/** How long the visible ACTIVE assignments have been open, in the shared ageing buckets. */
export async function activeAgeing(dataSource: DataSource, principal: Principal) {
  const params: unknown[] = [];
  const [row] = await dataSource.query(ageingSql(activeAssignments(principal, params)), params);
  return presentAgeingRow(row);
}

export interface GenomicsFreshnessRow {
  latest_topic_created_at: Date | null;
  latest_topic_updated_at: Date | null;
  latest_import_finished_at: Date | null;
  latest_import_status: 'SUCCEEDED' | 'UNCHANGED' | 'FAILED' | null;
}

/**
 * The newest visible topic and change, and the newest finished genomics import; a Reviewer's imports are those of
 * a batch holding a topic they see (an import's subject is `<batch>/<bundle id>`).
 */
export async function genomicsFreshness(
  dataSource: DataSource,
  principal: Principal,
): Promise<GenomicsFreshnessRow> {
  const params: unknown[] = [];
  const topicsVisible = visibleGenomicsTasks(principal, 't', params);
  const importVisible =
    principal.role === 'REVIEWER'
      ? `EXISTS (SELECT 1 FROM genomics_topics vt WHERE vt.batch = split_part(i.subject_id, '/', 1)
                 AND ${visibleGenomicsTasks(principal, 'vt', params)})`
      : 'TRUE';
  const [row] = await dataSource.query(
    `SELECT topics.latest_topic_created_at, topics.latest_topic_updated_at,
            latest.finished_at AS latest_import_finished_at, latest.status AS latest_import_status
       FROM (SELECT max(t.created_at) AS latest_topic_created_at, max(t.updated_at) AS latest_topic_updated_at
               FROM genomics_topics t WHERE ${topicsVisible}) topics
       LEFT JOIN LATERAL (
         SELECT i.finished_at, i.status FROM import_runs i
          WHERE i.service = 'genomics' AND i.finished_at IS NOT NULL AND ${importVisible}
          ORDER BY i.finished_at DESC LIMIT 1
       ) latest ON TRUE`,
    params,
  );
  return row as GenomicsFreshnessRow;
}
