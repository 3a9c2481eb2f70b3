import type { DataSource } from 'typeorm';
import { topicProjection } from '../../activities/genomicsTransitionQueries';
import type { Queryable } from '../../entities/queryable';
import {
  type AssignmentStatus,
  deriveGenomicsLabels,
  type Disposition,
  type GenomicsLabels,
  type GenomicsTaskState,
  type TopicDecision,
} from '../../workflows/genomicsTask/state';

/*
 * reconcile's statements on genomics_topics and their latest assignment: the projection it pages through, and
 * its guarded rewrite.
 */

/** A topic's projected state and its latest assignment, as reconcile compares them. */
export interface GenomicsRow {
  id: string;
  uid: string;
  workflow_version: number;
  decision: TopicDecision;
  previous_decision: string | null;
  requires_re_review: boolean;
  decision_campaign_id: string | null;
  submission_campaign_id: string | null;
  campaign_id: string | null;
  disposition: Disposition;
  planned_reviewer_id: string | null;
  current_package_version_id: string | null;
  deliverable_selection_revision: string;
  workflow_status: GenomicsLabels['workflowStatus'];
  status: GenomicsLabels['status'];
  phase: GenomicsLabels['phase'];
  classification: GenomicsLabels['classification'];
  assignment_id: string | null;
  assignment_reviewer_id: string | null;
  assignment_status: AssignmentStatus | null;
  assignment_due_at: Date | null;
}

// The latest assignment is the only one that can be ACTIVE: the one the workflow's state carries.
const SELECT = `
  SELECT t.id::text, t.uid, t.workflow_version, t.decision, t.previous_decision, t.requires_re_review,
         t.decision_campaign_id::text, t.submission_campaign_id::text, t.campaign_id::text, t.disposition,
         t.planned_reviewer_id::text, t.current_package_version_id::text, t.deliverable_selection_revision::text,
         t.workflow_status, t.status, t.phase, t.classification,
         a.id::text AS assignment_id, a.reviewer_id::text AS assignment_reviewer_id,
         a.status AS assignment_status, a.due_at AS assignment_due_at
    FROM genomics_topics t
    LEFT JOIN LATERAL (
      SELECT id, reviewer_id, status, due_at FROM genomics_assignments
       WHERE topic_id = t.id ORDER BY id DESC LIMIT 1
    ) a ON true`;

export async function countGenomicsTopics(dataSource: DataSource): Promise<number> {
  const [{ n }]: Array<{ n: number }> = await dataSource.query(
    'SELECT count(*)::int AS n FROM genomics_topics',
  );
  return n;
}

/** The next `limit` topics in id order after `after` (from the first when null). */
export function genomicsTopicsAfter(
  dataSource: DataSource,
  after: string | null,
  limit: number,
): Promise<GenomicsRow[]> {
  return dataSource.query(`${SELECT} WHERE t.id > $1::bigint ORDER BY t.id LIMIT $2`, [after ?? '0', limit]);
}

/** The topic as it is now, or null when it was deleted. */
export async function genomicsTopicRow(dataSource: DataSource, id: string): Promise<GenomicsRow | null> {
  const [fresh]: GenomicsRow[] = await dataSource.query(`${SELECT} WHERE t.id = $1`, [id]);
  return fresh ?? null;
}

/**
 * The activity's own projection write, guarded by the version compared (never over a newer transition): false
 * when the topic moved on.
 */
export async function moveTopicAt(
  tx: Queryable,
  row: GenomicsRow,
  state: GenomicsTaskState,
): Promise<boolean> {
  const projection = topicProjection(row.id, state, deriveGenomicsLabels(state));
  const [{ n }]: Array<{ n: number }> = await tx.query(
    `WITH moved AS (${projection.sql} AND workflow_version = $17 RETURNING 1) SELECT count(*)::int AS n FROM moved`,
    [...projection.params, row.workflow_version],
  );
  return n === 1;
}

/** Sets the topic's assignment to the workflow's status and due date; false when no such assignment exists. */
export async function fixAssignment(
  tx: Queryable,
  topicId: string,
  assignment: NonNullable<GenomicsTaskState['assignment']>,
): Promise<boolean> {
  const [{ m }]: Array<{ m: number }> = await tx.query(
    `WITH fixed AS (
       UPDATE genomics_assignments SET status = $3, due_at = $4, updated_at = now()
        WHERE id = $1 AND topic_id = $2 RETURNING 1
     ) SELECT count(*)::int AS m FROM fixed`,
    [assignment.id, topicId, assignment.status, assignment.dueAt],
  );
  return m === 1;
}
