import type { Queryable } from '../../../entities/queryable';
import type { ExportFormat, ExportState } from '../../../entities/Export';
import type { SqlQuery } from '../sql';

/** An export as the API reads it. */
export interface ExportRecord {
  id: string;
  service: 'math' | 'genomics';
  member_id: string;
  state: ExportState;
  format: ExportFormat;
  include_events: boolean;
  filters: Record<string, unknown>;
  rows_in_snapshot: number;
  rows_written: number;
  object_key: string;
  size_bytes: string | null;
  sha256: string | null;
  error: string | null;
  created_at: Date;
  finished_at: Date | null;
  expires_at: Date;
}

const COLUMNS = `id::text, service, member_id::text, state, format, include_events, filters, rows_in_snapshot,
  rows_written, object_key, size_bytes::text, sha256, error, created_at, finished_at, expires_at`;

export interface NewExport {
  service: 'math' | 'genomics';
  memberId: string;
  format: ExportFormat;
  includeEvents: boolean;
  filters: Record<string, unknown>;
  columns: string[];
  retentionMs: number;
}

/** How many exports run now: the member's and everyone's, under a lock that serialises starting one. */
export async function lockAndCountRunning(
  tx: Queryable,
  memberId: string,
): Promise<{ member: number; all: number }> {
  await tx.query(`SELECT pg_advisory_xact_lock(hashtextextended('referee:exports', 0))`);
  const [row]: Array<{ member: number; all: number }> = await tx.query(
    `SELECT count(*) FILTER (WHERE member_id = $1)::int AS member, count(*)::int AS all
       FROM exports WHERE state = 'RUNNING'`,
    [memberId],
  );
  return row;
}

/**
 * Creates the export and takes its snapshot: every row the list would return now, presented as the list presents
 * it, in the list's order, copied by one INSERT … SELECT (one MVCC snapshot, whatever commits meanwhile). The
 * snapshot query must select `ordinal`, `task_key`, `row_version` and `item`.
 */
export async function insertExportWithSnapshot(
  tx: Queryable,
  exp: NewExport,
  snapshot: SqlQuery,
): Promise<ExportRecord> {
  const [created]: Array<{ id: string }> = await tx.query(
    `INSERT INTO exports (service, member_id, state, format, include_events, filters, columns, rows_in_snapshot,
                          object_key, expires_at)
     VALUES ($1, $2, 'RUNNING', $3, $4, $5, $6, 0, '', now() + make_interval(secs => $7::double precision / 1000))
     RETURNING id::text`,
    [exp.service, exp.memberId, exp.format, exp.includeEvents, exp.filters, exp.columns, exp.retentionMs],
  );
  const exportParam = snapshot.params.length + 1;
  const [{ rows }]: Array<{ rows: number }> = await tx.query(
    `WITH copied AS (
       INSERT INTO export_rows (export_id, ordinal, task_key, row_version, item)
       SELECT $${exportParam}, s.ordinal, s.task_key, s.row_version, s.item FROM (${snapshot.sql}) s
       RETURNING 1)
     SELECT count(*)::int AS rows FROM copied`,
    [...snapshot.params, created.id],
  );
  const [record]: ExportRecord[] = await tx.query(
    // In a WITH, so the driver answers rows (TypeORM answers an UPDATE's RETURNING with [rows, count]).
    `WITH updated AS (UPDATE exports SET rows_in_snapshot = $2, object_key = $3 WHERE id = $1 RETURNING *)
     SELECT ${COLUMNS} FROM updated`,
    [created.id, rows, `exports/${exp.service}/${created.id}.${exp.format}`],
  );
  return record;
}

/** The caller's export of this service, or null (another member's is not theirs to see). */
export async function findOwnExport(
  db: Queryable,
  service: 'math' | 'genomics',
  memberId: string,
  exportId: string,
): Promise<ExportRecord | null> {
  const rows: ExportRecord[] = await db.query(
    `SELECT ${COLUMNS} FROM exports WHERE id = $1 AND service = $2 AND member_id = $3`,
    [exportId, service, memberId],
  );
  return rows[0] ?? null;
}

/** How many of the caller's exports the list shows, newest first. */
export const EXPORT_LIST_LIMIT = 100;

export async function listOwnExports(
  db: Queryable,
  service: 'math' | 'genomics',
  memberId: string,
): Promise<ExportRecord[]> {
  return db.query(
    `SELECT ${COLUMNS} FROM exports WHERE service = $1 AND member_id = $2 ORDER BY id DESC LIMIT $3`,
    [service, memberId, EXPORT_LIST_LIMIT],
  );
}

/** Deletes the export and what it holds in PostgreSQL; the caller removes its object (or upload) from S3. */
export async function deleteExport(
  tx: Queryable,
  exportId: string,
): Promise<{ object_key: string; upload_id: string | null } | null> {
  const rows: Array<{ object_key: string; upload_id: string | null }> = await tx.query(
    'WITH removed AS (DELETE FROM exports WHERE id = $1 RETURNING object_key, upload_id) SELECT * FROM removed',
    [exportId],
  );
  await tx.query('DELETE FROM export_rows WHERE export_id = $1', [exportId]);
  await tx.query('DELETE FROM export_parts WHERE export_id = $1', [exportId]);
  return rows[0] ?? null;
}
