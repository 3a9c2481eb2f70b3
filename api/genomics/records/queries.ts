import type { Queryable } from '../../../entities/queryable';
import type { PageQuery } from '../shared/pagination';
import { findTopicRecord, pageOfTopicRecords } from '../shared/topicRecordQueries';

export interface EventRow {
  id: string;
  kind: string;
  actor_id: string | null;
  workflow_version: number | null;
  detail: Record<string, unknown>;
  created_at: Date;
}

export interface AssignmentRow {
  id: string;
  reviewer_id: string;
  status: string;
  instructions: string;
  due_at: Date | null;
  assigned_by: string | null;
  created_at: Date;
  updated_at: Date;
  submitted_at: Date | null;
  closed_at: Date | null;
}

export interface ReviewRow {
  id: string;
  assignment_id: string;
  reviewer_id: string;
  verdict: string;
  body: string;
  created_at: Date;
}

export interface RevisionRow {
  id: string;
  campaign_id: string;
  number: number;
  status: string;
  notes: string;
  started_by: string | null;
  source_id: string | null;
  object_key: string | null;
  size_bytes: string | null;
  sha256: string | null;
  media_type: string | null;
  created_at: Date;
  completed_at: Date | null;
}

export interface StoredFileRow {
  id: string;
  source_id: string;
  title: string;
  media_type: string;
  object_key: string;
  size_bytes: string;
  sha256: string;
  at: Date | null;
  revision_id?: string | null;
}

export interface MeasurementRow {
  id: string;
  source_id: string;
  model_id: string;
  scope: string;
  status: 'MEASURED' | 'UNAVAILABLE';
  scientific_passes: number | null;
  completed: number | null;
  measured_at: Date;
  artifact_sha256: string;
  reason: string | null;
}

const ASSIGNMENT_COLUMNS = `id::text, reviewer_id::text, status, instructions, due_at, assigned_by::text, created_at,
  updated_at, submitted_at, closed_at`;
const REVIEW_COLUMNS = `id::text, assignment_id::text, reviewer_id::text, verdict, body, created_at`;
const REVISION_COLUMNS = `id::text, campaign_id, number, status, notes, started_by::text, source_id, object_key,
  size_bytes::text, sha256, media_type, created_at, completed_at`;

export const listEvents = (db: Queryable, topicId: string, q: PageQuery) =>
  pageOfTopicRecords<EventRow>(
    db,
    'id::text, kind, actor_id::text, workflow_version, detail, created_at',
    'genomics_events',
    topicId,
    q,
  );
export const listAssignments = (db: Queryable, topicId: string, q: PageQuery) =>
  pageOfTopicRecords<AssignmentRow>(db, ASSIGNMENT_COLUMNS, 'genomics_assignments', topicId, q);
export const listRevisions = (db: Queryable, topicId: string, q: PageQuery) =>
  pageOfTopicRecords<RevisionRow>(db, REVISION_COLUMNS, 'genomics_revisions', topicId, q);
export const listReports = (db: Queryable, topicId: string, q: PageQuery) =>
  pageOfTopicRecords<StoredFileRow>(
    db,
    'id::text, source_id, title, media_type, object_key, size_bytes::text, sha256, reported_at AS at',
    'genomics_reports',
    topicId,
    q,
  );

export const findAssignment = (db: Queryable, topicId: string, id: string) =>
  findTopicRecord<AssignmentRow>(db, ASSIGNMENT_COLUMNS, 'genomics_assignments', topicId, id);
export const findReview = (db: Queryable, topicId: string, id: string) =>
  findTopicRecord<ReviewRow>(db, REVIEW_COLUMNS, 'genomics_reviews', topicId, id);
export const findRevision = (db: Queryable, topicId: string, id: string) =>
  findTopicRecord<RevisionRow>(db, REVISION_COLUMNS, 'genomics_revisions', topicId, id);

/** Object-storage paths of a topic: every report, every completed revision and every publication. */
export async function topicPaths(db: Queryable, topicId: string) {
  const [reports, revisions, publications] = await Promise.all([
    db.query(
      `SELECT id::text, source_id, title, media_type, object_key, size_bytes::text, sha256, reported_at AS at
         FROM genomics_reports WHERE topic_id = $1 ORDER BY id`,
      [topicId],
    ) as Promise<StoredFileRow[]>,
    db.query(
      `SELECT ${REVISION_COLUMNS} FROM genomics_revisions WHERE topic_id = $1 AND status = 'COMPLETED' ORDER BY id`,
      [topicId],
    ) as Promise<RevisionRow[]>,
    db.query(
      `SELECT id::text, source_id, title, media_type, object_key, size_bytes::text, sha256, published_at AS at,
              revision_id::text
         FROM genomics_publications WHERE topic_id = $1 ORDER BY id`,
      [topicId],
    ) as Promise<StoredFileRow[]>,
  ]);
  return { reports, revisions, publications };
}

/** Measurements per scope and model; scopes are listed separately and never combined. */
export async function listMeasurements(db: Queryable, topicId: string): Promise<MeasurementRow[]> {
  return db.query(
    `SELECT id::text, source_id, model_id, scope, status, scientific_passes, completed, measured_at, artifact_sha256,
            reason
       FROM genomics_measurements WHERE topic_id = $1 ORDER BY scope, model_id, measured_at DESC, id`,
    [topicId],
  );
}
