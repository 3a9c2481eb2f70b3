import type { DataSource, EntityManager } from 'typeorm';
import { topicProjection } from '../../activities/genomicsTransitionQueries';
import { genomicsTaskStateQuery } from '../../workflows/genomicsTask/messages';
import { genomicsTaskWorkflowId } from '../../workflows/genomicsTask/ids';
import {
  type AssignmentStatus,
  deriveGenomicsLabels,
  type Disposition,
  type GenomicsLabels,
  type GenomicsTaskState,
  initialGenomicsState,
  type TopicDecision,
} from '../../workflows/genomicsTask/state';
import { type Difference, differences, type ServiceReconciler, UnrepairableError } from './reconcileTypes';

interface GenomicsRow {
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

/** The compared part of a topic: the state the workflow owns (assignment without its feedback count) and labels. */
function comparable(state: GenomicsTaskState) {
  const { assignment, ...topic } = state;
  return {
    ...topic,
    ...deriveGenomicsLabels(state),
    assignment: assignment
      ? {
          id: assignment.id,
          reviewerId: assignment.reviewerId,
          status: assignment.status,
          dueAt: assignment.dueAt,
        }
      : null,
  };
}

function projected(row: GenomicsRow) {
  return {
    version: row.workflow_version,
    decision: row.decision,
    previousDecision: row.previous_decision,
    requiresReReview: row.requires_re_review,
    decisionCampaignId: row.decision_campaign_id,
    submissionCampaignId: row.submission_campaign_id,
    campaignId: row.campaign_id,
    disposition: row.disposition,
    plannedReviewerId: row.planned_reviewer_id,
    currentPackageVersionId: row.current_package_version_id,
    deliverableSelectionRevision: Number(row.deliverable_selection_revision),
    workflowStatus: row.workflow_status,
    status: row.status,
    phase: row.phase,
    classification: row.classification,
    assignment: row.assignment_id
      ? {
          id: row.assignment_id,
          reviewerId: row.assignment_reviewer_id,
          status: row.assignment_status,
          dueAt: row.assignment_due_at ? row.assignment_due_at.toISOString() : null,
        }
      : null,
  };
}

/** Genomics topics: `genomics_topics` (and the latest assignment) against `genomics-task/<uid>`'s query. */
export const genomicsReconciler: ServiceReconciler<GenomicsRow, GenomicsTaskState> = {
  service: 'genomics',
  workflowType: 'genomicsTaskWorkflow',
  workflowId: (row) => genomicsTaskWorkflowId(row.uid),
  subjectId: (row) => row.uid,
  cursor: (row) => row.id,
  version: (row) => row.workflow_version,
  stateVersion: (state) => state.version,
  stateQuery: genomicsTaskStateQuery,
  async count(dataSource: DataSource) {
    const [{ n }]: Array<{ n: number }> = await dataSource.query(
      'SELECT count(*)::int AS n FROM genomics_topics',
    );
    return n;
  },
  page(dataSource, after, limit) {
    return dataSource.query(`${SELECT} WHERE t.id > $1::bigint ORDER BY t.id LIMIT $2`, [
      after ?? '0',
      limit,
    ]);
  },
  async reread(dataSource, row) {
    const [fresh]: GenomicsRow[] = await dataSource.query(`${SELECT} WHERE t.id = $1`, [row.id]);
    return fresh ?? null;
  },
  // A topic no action reached has no workflow: it must be in the state its workflow would start from.
  compare: (row, state): Difference[] =>
    differences(projected(row), comparable(state ?? initialGenomicsState(row.campaign_id))),
  async repair(tx: EntityManager, row, state) {
    // The activity's own projection write, guarded by the version compared (never over a newer transition).
    const projection = topicProjection(row.id, state, deriveGenomicsLabels(state));
    const [{ n }]: Array<{ n: number }> = await tx.query(
      `WITH moved AS (${projection.sql} AND workflow_version = $17 RETURNING 1) SELECT count(*)::int AS n FROM moved`,
      [...projection.params, row.workflow_version],
    );
    if (n !== 1) return false;
    const { assignment } = state;
    if (assignment) {
      // The assignment the workflow names must exist: one lost with a restored backup cannot be recreated here.
      const [{ m }]: Array<{ m: number }> = await tx.query(
        `WITH fixed AS (
           UPDATE genomics_assignments SET status = $3, due_at = $4, updated_at = now()
            WHERE id = $1 AND topic_id = $2 RETURNING 1
         ) SELECT count(*)::int AS m FROM fixed`,
        [assignment.id, row.id, assignment.status, assignment.dueAt],
      );
      if (m !== 1) throw new UnrepairableError(`assignment ${assignment.id} of ${row.uid} is missing`);
    }
    return true;
  },
};
