import { iso } from '../../shared/schemas';
import type {
  AssignmentRow,
  EventRow,
  MeasurementRow,
  ReviewRow,
  RevisionRow,
  StoredFileRow,
} from './queries';

/** The object-storage path of a stored object: `s3://<bucket>/<content-addressed key>`. */
export const objectPath = (bucket: string, key: string): string => `s3://${bucket}/${key}`;

export const presentEvent = (e: EventRow) => ({
  id: e.id,
  kind: e.kind,
  actor_id: e.actor_id,
  workflow_version: e.workflow_version,
  detail: e.detail,
  created_at: e.created_at.toISOString(),
});

export const presentAssignment = (a: AssignmentRow) => ({
  id: a.id,
  reviewer_id: a.reviewer_id,
  status: a.status,
  instructions: a.instructions,
  due_at: iso(a.due_at),
  assigned_by: a.assigned_by,
  created_at: a.created_at.toISOString(),
  updated_at: a.updated_at.toISOString(),
  submitted_at: iso(a.submitted_at),
  closed_at: iso(a.closed_at),
});

export const presentReview = (r: ReviewRow) => ({
  id: r.id,
  assignment_id: r.assignment_id,
  reviewer_id: r.reviewer_id,
  verdict: r.verdict,
  body: r.body,
  created_at: r.created_at.toISOString(),
});

export const presentRevision = (bucket: string, r: RevisionRow) => ({
  id: r.id,
  campaign_id: r.campaign_id,
  number: r.number,
  status: r.status,
  notes: r.notes,
  started_by: r.started_by,
  source_id: r.source_id,
  path: r.object_key ? objectPath(bucket, r.object_key) : null,
  size: r.size_bytes === null ? null : Number(r.size_bytes),
  sha256: r.sha256,
  media_type: r.media_type,
  created_at: r.created_at.toISOString(),
  completed_at: iso(r.completed_at),
});

export const presentReport = (bucket: string, r: StoredFileRow) => ({
  id: r.id,
  source_id: r.source_id,
  title: r.title,
  media_type: r.media_type,
  path: objectPath(bucket, r.object_key),
  size: Number(r.size_bytes),
  sha256: r.sha256,
  reported_at: iso(r.at),
});

export const presentPublication = (bucket: string, p: StoredFileRow) => ({
  id: p.id,
  source_id: p.source_id,
  revision_id: p.revision_id ?? null,
  title: p.title,
  media_type: p.media_type,
  path: objectPath(bucket, p.object_key),
  size: Number(p.size_bytes),
  sha256: p.sha256,
  published_at: iso(p.at),
});

/** pass_rate = passes / completed, only when measured; missing evidence stays null, never 0. */
export const presentMeasurement = (m: MeasurementRow) => ({
  id: m.id,
  source_id: m.source_id,
  model_id: m.model_id,
  scope: m.scope,
  status: m.status,
  scientific_passes: m.status === 'MEASURED' ? m.scientific_passes : null,
  completed: m.status === 'MEASURED' ? m.completed : null,
  pass_rate:
    m.status === 'MEASURED' && m.completed && m.scientific_passes !== null
      ? m.scientific_passes / m.completed
      : null,
  measured_at: m.measured_at.toISOString(),
  artifact_sha256: m.artifact_sha256,
  reason: m.reason,
});
