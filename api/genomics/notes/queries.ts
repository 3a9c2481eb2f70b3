import type { EntityManager } from 'typeorm';
import type { GenomicsNote } from '../../../entities/GenomicsNote';
import type { Queryable } from '../../../entities/queryable';
import type { RowPick } from '../../../entities/rows';
import type { PageQuery } from '../shared/pagination';
import { findTopicRecord, pageOfTopicRecords } from '../shared/topicRecordQueries';

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

const NOTE_COLUMNS = `id::text, campaign_id, author_id::text, body, body_sha256, edit_count, created_at, updated_at`;

export const listNotes = (db: Queryable, topicId: string, q: PageQuery) =>
  pageOfTopicRecords<NoteRow>(db, NOTE_COLUMNS, 'genomics_notes', topicId, q);

export const findNote = (db: Queryable, topicId: string, id: string) =>
  findTopicRecord<NoteRow>(db, NOTE_COLUMNS, 'genomics_notes', topicId, id);

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
