import type { DataSource, EntityManager } from 'typeorm';
import type { GenomicsAssignment } from '../../../entities/GenomicsAssignment';
import type { GenomicsNote } from '../../../entities/GenomicsNote';
import { Member } from '../../../entities/Member';
import type { RowPick } from '../../../entities/rows';
import { fitsBigint, type PageQuery } from '../schemas';

type Queryable = Pick<DataSource | EntityManager, 'query'>;

export interface NoteRow {
  id: string;
  campaign_id: string | null;
  author_id: string;
  body: string;
  body_sha256: string;
  edit_count: number;
  created_at: Date;
  updated_at: Date;
}

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

export interface CampaignRow {
  id: string;
  name: string;
  status: string;
  created_at: Date;
  updated_at: Date;
}

export interface ClientRow {
  id: string;
  name: string;
  enabled: boolean;
  created_at: Date;
  updated_at: Date;
}

const NOTE_COLUMNS = `id::text, campaign_id, author_id::text, body, body_sha256, edit_count, created_at, updated_at`;
const ASSIGNMENT_COLUMNS = `id::text, reviewer_id::text, status, instructions, due_at, assigned_by::text, created_at,
  updated_at, submitted_at, closed_at`;
const REVIEW_COLUMNS = `id::text, assignment_id::text, reviewer_id::text, verdict, body, created_at`;
const REVISION_COLUMNS = `id::text, campaign_id, number, status, notes, started_by::text, source_id, object_key,
  size_bytes::text, sha256, media_type, created_at, completed_at`;

/**
 * Newest first, `before` an id (exclusive). A `before` beyond the bigint range is past every id, so it
 * pages from the newest record.
 */
async function page<T>(
  db: Queryable,
  columns: string,
  table: string,
  topicId: string,
  q: PageQuery,
): Promise<T[]> {
  const params: unknown[] = [topicId];
  let cursor = '';
  if (q.before && fitsBigint(q.before)) {
    params.push(q.before);
    cursor = `AND id < $${params.length}`;
  }
  params.push(q.limit);
  return db.query(
    `SELECT ${columns} FROM ${table} WHERE topic_id = $1 ${cursor} ORDER BY id DESC LIMIT $${params.length}`,
    params,
  );
}

export const listNotes = (db: Queryable, topicId: string, q: PageQuery) =>
  page<NoteRow>(db, NOTE_COLUMNS, 'genomics_notes', topicId, q);
export const listEvents = (db: Queryable, topicId: string, q: PageQuery) =>
  page<EventRow>(
    db,
    'id::text, kind, actor_id::text, workflow_version, detail, created_at',
    'genomics_events',
    topicId,
    q,
  );
export const listAssignments = (db: Queryable, topicId: string, q: PageQuery) =>
  page<AssignmentRow>(db, ASSIGNMENT_COLUMNS, 'genomics_assignments', topicId, q);
export const listRevisions = (db: Queryable, topicId: string, q: PageQuery) =>
  page<RevisionRow>(db, REVISION_COLUMNS, 'genomics_revisions', topicId, q);
export const listReports = (db: Queryable, topicId: string, q: PageQuery) =>
  page<StoredFileRow>(
    db,
    'id::text, source_id, title, media_type, object_key, size_bytes::text, sha256, reported_at AS at',
    'genomics_reports',
    topicId,
    q,
  );

async function one<T>(
  db: Queryable,
  columns: string,
  table: string,
  topicId: string,
  id: string,
): Promise<T | null> {
  if (!fitsBigint(id)) return null;
  const rows: T[] = await db.query(`SELECT ${columns} FROM ${table} WHERE id = $1 AND topic_id = $2`, [
    id,
    topicId,
  ]);
  return rows[0] ?? null;
}

export const findNote = (db: Queryable, topicId: string, id: string) =>
  one<NoteRow>(db, NOTE_COLUMNS, 'genomics_notes', topicId, id);
export const findAssignment = (db: Queryable, topicId: string, id: string) =>
  one<AssignmentRow>(db, ASSIGNMENT_COLUMNS, 'genomics_assignments', topicId, id);
export const findReview = (db: Queryable, topicId: string, id: string) =>
  one<ReviewRow>(db, REVIEW_COLUMNS, 'genomics_reviews', topicId, id);
export const findRevision = (db: Queryable, topicId: string, id: string) =>
  one<RevisionRow>(db, REVISION_COLUMNS, 'genomics_revisions', topicId, id);

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

/**
 * The campaigns a topic takes part in: linked by import, named by its campaign fields, or referenced by
 * its package revisions and campaign notes.
 */
export async function topicCampaigns(db: Queryable, topicId: string): Promise<CampaignRow[]> {
  return db.query(
    `SELECT c.id, c.name, c.status, c.created_at, c.updated_at FROM genomics_campaigns c
      WHERE c.id IN (
        SELECT campaign_id FROM genomics_topic_campaigns WHERE topic_id = $1
        UNION SELECT campaign_id FROM genomics_revisions WHERE topic_id = $1
        UNION SELECT campaign_id FROM genomics_notes WHERE topic_id = $1 AND campaign_id IS NOT NULL
        UNION SELECT unnest(ARRAY[t.campaign_id, t.decision_campaign_id, t.submission_campaign_id])
                FROM genomics_topics t WHERE t.id = $1)
      ORDER BY c.id`,
    [topicId],
  );
}

export async function topicClients(db: Queryable, topicId: string): Promise<ClientRow[]> {
  return db.query(
    `SELECT c.id::text, c.name, c.enabled, c.created_at, c.updated_at
       FROM genomics_clients c JOIN genomics_topic_clients tc ON tc.client_id = c.id
      WHERE tc.topic_id = $1 ORDER BY c.id`,
    [topicId],
  );
}

export async function campaignExists(db: Queryable, campaignId: string): Promise<boolean> {
  const rows: unknown[] = await db.query('SELECT 1 FROM genomics_campaigns WHERE id = $1', [campaignId]);
  return rows.length === 1;
}

/** A genomics member by id, with what decides whether they may be assigned. */
export async function findGenomicsMember(dataSource: DataSource, memberId: string) {
  return dataSource
    .getRepository(Member)
    .findOne({ select: { enabled: true, primaryAdmin: true }, where: { id: memberId, service: 'genomics' } });
}

export interface NewNote {
  topicId: string;
  campaignId: string | null;
  authorId: string;
  body: string;
  bodySha256: string;
}

export async function insertNote(tx: EntityManager, note: NewNote): Promise<{ id: string }> {
  const [row]: Array<{ id: string }> = await tx.query(
    `INSERT INTO genomics_notes (topic_id, campaign_id, author_id, body, body_sha256)
     VALUES ($1, $2, $3, $4, $5) RETURNING id::text`,
    [note.topicId, note.campaignId, note.authorId, note.body, note.bodySha256],
  );
  return row;
}

export interface NoteBodyEdit {
  noteId: string;
  topicId: string;
  body: string;
  bodySha256: string;
  /** The digest the editor saw: the edit applies only while the stored body still has it. */
  expectedBodySha256: string;
}

/** Compare-and-set of a note's body; false when the stored body no longer has the expected digest. */
export async function replaceNoteBody(tx: EntityManager, edit: NoteBodyEdit): Promise<boolean> {
  // TypeORM answers an UPDATE with [rows, affected count].
  const [, updated]: [unknown[], number] = await tx.query(
    `UPDATE genomics_notes SET body = $3, body_sha256 = $4, edit_count = edit_count + 1, updated_at = now()
      WHERE id = $1 AND topic_id = $2 AND body_sha256 = $5 RETURNING id::text`,
    [edit.noteId, edit.topicId, edit.body, edit.bodySha256, edit.expectedBodySha256],
  );
  return updated > 0;
}

export async function noteBodySha256(db: Queryable, noteId: string): Promise<string | null> {
  const [row]: Array<RowPick<GenomicsNote, 'body_sha256'>> = await db.query(
    'SELECT body_sha256 FROM genomics_notes WHERE id = $1',
    [noteId],
  );
  return row?.body_sha256 ?? null;
}

/** The topic's newest assignment with its review count: what a task workflow starts from. */
export async function latestAssignment(db: Queryable, topicId: string) {
  const [row]: Array<
    RowPick<GenomicsAssignment, 'id' | 'reviewer_id' | 'status' | 'due_at'> & { feedback_count: number }
  > = await db.query(
    `SELECT a.id::text, a.reviewer_id::text, a.status, a.due_at,
            (SELECT count(*)::int FROM genomics_reviews r WHERE r.assignment_id = a.id) AS feedback_count
       FROM genomics_assignments a WHERE a.topic_id = $1 ORDER BY a.id DESC LIMIT 1`,
    [topicId],
  );
  return row ?? null;
}
