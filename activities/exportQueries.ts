import type { Queryable } from '../entities/queryable';
import type { ExportFormat, ExportState } from '../entities/Export';
import { isoTimestampSql } from '../entities/sqlJson';

/** What the worker reads of an export to write it. */
export interface ExportToWrite {
  id: string;
  service: 'math' | 'genomics';
  state: ExportState;
  format: ExportFormat;
  include_events: boolean;
  columns: string[];
  rows_in_snapshot: number;
  object_key: string;
  upload_id: string | null;
}

export async function selectExportToWrite(db: Queryable, exportId: string): Promise<ExportToWrite | null> {
  const rows: ExportToWrite[] = await db.query(
    `SELECT id::text, service, state, format, include_events, columns, rows_in_snapshot, object_key, upload_id
       FROM exports WHERE id = $1`,
    [exportId],
  );
  return rows[0] ?? null;
}

/** Records the multipart upload unless another attempt already did; returns the one that holds. */
export async function claimUploadId(
  db: Queryable,
  exportId: string,
  uploadId: string,
): Promise<string | null> {
  const rows: Array<{ upload_id: string }> = await db.query(
    `WITH claimed AS (UPDATE exports SET upload_id = COALESCE(upload_id, $2) WHERE id = $1 AND state = 'RUNNING'
                      RETURNING upload_id)
     SELECT upload_id FROM claimed`,
    [exportId, uploadId],
  );
  return rows[0]?.upload_id ?? null;
}

export interface RecordedPart {
  part_number: number;
  etag: string;
  size_bytes: number;
  last_ordinal: number;
  hash_state: Buffer;
}

export async function selectLastPart(db: Queryable, exportId: string): Promise<RecordedPart | null> {
  const rows: RecordedPart[] = await db.query(
    `SELECT part_number, etag, size_bytes, last_ordinal, hash_state FROM export_parts
      WHERE export_id = $1 ORDER BY part_number DESC LIMIT 1`,
    [exportId],
  );
  return rows[0] ?? null;
}

export async function selectParts(db: Queryable, exportId: string): Promise<RecordedPart[]> {
  return db.query(
    `SELECT part_number, etag, size_bytes, last_ordinal, hash_state FROM export_parts
      WHERE export_id = $1 ORDER BY part_number`,
    [exportId],
  );
}

/** One snapshot row to write: the presented item and, when asked, its events up to the snapshot. */
export interface SnapshotRow {
  ordinal: number;
  item: Record<string, unknown>;
  events: unknown[] | null;
}

/** A math task's events up to its version at the snapshot, oldest first, as the workflow view presents them. */
const MATH_EVENTS = `(SELECT COALESCE(json_agg(json_build_object(
    'id', e.id::text, 'version', e.version, 'action', e.action, 'actor_id', e.actor_id::text, 'comment', e.comment,
    'from_state', e.from_state, 'to_state', e.to_state, 'detail', e.detail,
    'created_at', ${isoTimestampSql('e.created_at')}) ORDER BY e.version), '[]')
  FROM math_task_events e WHERE e.task_id = x.task_key AND e.version <= x.row_version)`;

/** A genomics topic's events up to the last one at the snapshot, oldest first, as its events list presents them. */
const GENOMICS_EVENTS = `(SELECT COALESCE(json_agg(json_build_object(
    'id', e.id::text, 'kind', e.kind, 'actor_id', e.actor_id::text, 'workflow_version', e.workflow_version,
    'detail', e.detail, 'created_at', ${isoTimestampSql('e.created_at')}) ORDER BY e.id), '[]')
  FROM genomics_events e WHERE e.topic_id = x.task_key::bigint AND e.id <= x.row_version)`;

/** Up to `limit` snapshot rows after `afterOrdinal`, in order. */
export async function selectSnapshotRows(
  db: Queryable,
  exp: Pick<ExportToWrite, 'id' | 'service' | 'include_events'>,
  afterOrdinal: number,
  limit: number,
): Promise<SnapshotRow[]> {
  const events = exp.include_events ? (exp.service === 'math' ? MATH_EVENTS : GENOMICS_EVENTS) : 'NULL';
  return db.query(
    `SELECT x.ordinal, x.item, ${events} AS events FROM export_rows x
      WHERE x.export_id = $1 AND x.ordinal > $2 ORDER BY x.ordinal LIMIT $3`,
    [exp.id, afterOrdinal, limit],
  );
}

/**
 * Records a part S3 accepted and the export's progress in one transaction. False when the part was recorded already
 * (another attempt of the same activity got there first): the caller starts again from the database.
 */
export async function recordPart(
  db: Queryable,
  exportId: string,
  part: RecordedPart & { sha256: string },
): Promise<boolean> {
  const [row]: Array<{ recorded: boolean }> = await db.query(
    `WITH part AS (
       INSERT INTO export_parts (export_id, part_number, etag, size_bytes, sha256, last_ordinal, hash_state)
       SELECT $1, $2, $3, $4, $5, $6, $7
        WHERE EXISTS (SELECT 1 FROM exports WHERE id = $1 AND state = 'RUNNING')
       ON CONFLICT DO NOTHING RETURNING last_ordinal, size_bytes),
     progress AS (
       UPDATE exports SET rows_written = part.last_ordinal, bytes_written = bytes_written + part.size_bytes
         FROM part WHERE id = $1 RETURNING 1)
     SELECT EXISTS (SELECT 1 FROM progress) AS recorded`,
    [exportId, part.part_number, part.etag, part.size_bytes, part.sha256, part.last_ordinal, part.hash_state],
  );
  return row.recorded;
}

/** Marks the export written: its size and SHA-256, and drops its snapshot rows (the file is their record now). */
export async function finishExport(
  db: Queryable,
  exportId: string,
  file: { sizeBytes: number; sha256: string },
): Promise<void> {
  await db.query(
    `UPDATE exports SET state = 'SUCCEEDED', size_bytes = $2, sha256 = $3, finished_at = now(),
            rows_written = rows_in_snapshot
      WHERE id = $1 AND state = 'RUNNING'`,
    [exportId, file.sizeBytes, file.sha256],
  );
  await deleteSnapshot(db, exportId);
}

export async function deleteSnapshot(db: Queryable, exportId: string): Promise<void> {
  await db.query('DELETE FROM export_rows WHERE export_id = $1', [exportId]);
  await db.query('DELETE FROM export_parts WHERE export_id = $1', [exportId]);
}

export async function markExportFailed(db: Queryable, exportId: string, error: string): Promise<void> {
  await db.query(
    `UPDATE exports SET state = 'FAILED', error = $2, finished_at = now() WHERE id = $1 AND state = 'RUNNING'`,
    [exportId, error.slice(0, 2000)],
  );
}

/** Exports past their expiry whose file (or unfinished upload) is still to remove, oldest first. */
export async function selectExpiredExports(
  db: Queryable,
  limit: number,
): Promise<Array<{ id: string; object_key: string; upload_id: string | null; state: ExportState }>> {
  return db.query(
    `SELECT id::text, object_key, upload_id, state FROM exports
      WHERE state IN ('SUCCEEDED', 'FAILED') AND expires_at <= now() ORDER BY expires_at LIMIT $1`,
    [limit],
  );
}

export async function markExportExpired(db: Queryable, exportId: string): Promise<void> {
  await db.query(`UPDATE exports SET state = 'EXPIRED' WHERE id = $1 AND state IN ('SUCCEEDED', 'FAILED')`, [
    exportId,
  ]);
  await deleteSnapshot(db, exportId);
}
