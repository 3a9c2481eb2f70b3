import type { EntityManager } from 'typeorm';
import { emitWebhookSql, isoUtcSql } from '../webhooks/events';

/**
 * The statements of both imports' bookkeeping: the import row (import_runs), its staged files and their receipts
 * (import_artifact_receipts) and the webhook event an import's end emits.
 */

type Db = Pick<EntityManager, 'query'>;

/** Rows per set-based statement of the final upserts. */
export const UPSERT_BATCH = 5000;

export type ImportService = 'math' | 'genomics';

/** What an upload activity did to its chunk (files stored by an earlier, interrupted attempt included). */
export interface StoredChunk {
  stored: number;
  uploaded: number;
  bytesUploaded: number;
}

/** A stored file as the final upsert reads it from the staging table. */
export interface FileReceipt {
  objectKey: string;
  sha256: string;
  sizeBytes: number;
}

/** Chunks of `items` of at most `size`. */
export function* batches<T>(items: T[], size = UPSERT_BATCH): Generator<T[]> {
  for (let i = 0; i < items.length; i += size) yield items.slice(i, i + size);
}

/** The import row of a workflow execution, inserted or (a retried plan) updated; `inserted` tells which. */
export async function upsertImportRun(
  tx: Db,
  run: {
    service: ImportService;
    workflowId: string;
    runId: string;
    subjectId: string;
    bundleDir: string;
    recordsSha256: string;
    bundleSha256: string;
    unchanged: boolean;
    filesTotal: number;
    counts: Record<string, number>;
  },
): Promise<{ id: string; inserted: boolean }> {
  const [row]: Array<{ id: string; inserted: boolean }> = await tx.query(
    `INSERT INTO import_runs (service, workflow_id, workflow_run_id, subject_id, bundle_dir, records_sha256,
       bundle_sha256, status, files_total, counts, finished_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, CASE WHEN $8 = 'UNCHANGED' THEN clock_timestamp() END)
     ON CONFLICT (workflow_id, workflow_run_id) DO UPDATE SET subject_id = EXCLUDED.subject_id,
       bundle_dir = EXCLUDED.bundle_dir, records_sha256 = EXCLUDED.records_sha256,
       bundle_sha256 = EXCLUDED.bundle_sha256, status = EXCLUDED.status, files_total = EXCLUDED.files_total,
       counts = EXCLUDED.counts, finished_at = EXCLUDED.finished_at
     RETURNING id::text, (xmax = 0) AS inserted`,
    [
      run.service,
      run.workflowId,
      run.runId,
      run.subjectId,
      run.bundleDir,
      run.recordsSha256,
      run.bundleSha256,
      run.unchanged ? 'UNCHANGED' : 'RUNNING',
      run.filesTotal,
      JSON.stringify(run.counts),
    ],
  );
  return row;
}

/** Drops an import's staged files and receipts. */
export async function deleteReceipts(tx: Db, importId: string): Promise<void> {
  await tx.query('DELETE FROM import_artifact_receipts WHERE import_run_id = $1', [importId]);
}

/** Emits the `.import.completed` webhook event of an import recorded as finished at its plan. */
export async function emitImportCompleted(tx: Db, importId: string): Promise<void> {
  await tx.query(
    `WITH finished AS (SELECT * FROM import_runs WHERE id = $1), emitted AS (${importWebhookSql('completed')})
     SELECT count(*) AS emitted FROM emitted`,
    [importId],
  );
}

/** A file the plan hashed and stages for upload; `key` is the artifact id (math) or the path (genomics). */
export interface PlannedFile {
  key: string;
  path: string;
  mediaType: string;
  sha256: string;
  sizeBytes: number;
}

/** Stages `files` as ordinals `start`, `start + 1`, … of the import. */
export async function stageFiles(
  tx: Db,
  importId: string,
  start: number,
  files: PlannedFile[],
): Promise<void> {
  await tx.query(
    `INSERT INTO import_artifact_receipts (import_run_id, ordinal, artifact_key, path, media_type, sha256, size_bytes)
     SELECT $1, f.ordinal, f.key, f.path, f.media_type, f.sha256, f.size_bytes
       FROM unnest($2::int[], $3::text[], $4::text[], $5::text[], $6::text[], $7::bigint[])
         AS f(ordinal, key, path, media_type, sha256, size_bytes)`,
    [
      importId,
      files.map((_, i) => start + i),
      files.map((f) => f.key),
      files.map((f) => f.path),
      files.map((f) => f.mediaType),
      files.map((f) => f.sha256),
      files.map((f) => f.sizeBytes),
    ],
  );
}

/** The import an upload chunk works for: its bundle, status, and whether its subject was imported before. */
export async function selectImportToStore(
  db: Db,
  importId: string,
): Promise<{ bundle_dir: string; status: string; seen_before: boolean } | undefined> {
  const [run]: Array<{ bundle_dir: string; status: string; seen_before: boolean }> = await db.query(
    `SELECT r.bundle_dir, r.status,
            EXISTS (SELECT 1 FROM import_runs p
                     WHERE p.service = r.service AND p.subject_id = r.subject_id AND p.id <> r.id
                       AND p.status IN ('SUCCEEDED', 'UNCHANGED')) AS seen_before
       FROM import_runs r WHERE r.id = $1`,
    [importId],
  );
  return run;
}

export interface StagedFile {
  ordinal: number;
  path: string;
  media_type: string;
  sha256: string;
  size_bytes: string;
}

/** The staged files of a chunk (`from` ≤ ordinal < `to`) not stored yet. */
export async function selectUnstoredFiles(
  db: Db,
  importId: string,
  from: number,
  to: number,
): Promise<StagedFile[]> {
  return db.query(
    `SELECT ordinal, path, media_type, sha256, size_bytes::text FROM import_artifact_receipts
      WHERE import_run_id = $1 AND ordinal >= $2 AND ordinal < $3 AND stored_at IS NULL ORDER BY ordinal`,
    [importId, from, to],
  );
}

/** Records the receipts of stored files: their object key, and whether this import sent the bytes. */
export async function recordStored(
  db: Db,
  importId: string,
  stored: Array<{ ordinal: number; key: string; uploaded: boolean }>,
): Promise<void> {
  await db.query(
    `UPDATE import_artifact_receipts r SET object_key = u.key, uploaded = u.uploaded, stored_at = now()
       FROM unnest($2::int[], $3::text[], $4::boolean[]) AS u(ordinal, key, uploaded)
      WHERE r.import_run_id = $1 AND r.ordinal = u.ordinal AND r.stored_at IS NULL`,
    [importId, stored.map((d) => d.ordinal), stored.map((d) => d.key), stored.map((d) => d.uploaded)],
  );
}

/** What the receipts of a chunk say: files stored, sent by this import, and their bytes. */
export async function summarizeChunk(
  db: Db,
  importId: string,
  from: number,
  to: number,
): Promise<StoredChunk> {
  const [summary]: Array<StoredChunk> = await db.query(
    `SELECT count(*) FILTER (WHERE stored_at IS NOT NULL)::int AS stored,
            count(*) FILTER (WHERE uploaded)::int AS uploaded,
            COALESCE(sum(size_bytes) FILTER (WHERE uploaded), 0)::float8 AS "bytesUploaded"
       FROM import_artifact_receipts WHERE import_run_id = $1 AND ordinal >= $2 AND ordinal < $3`,
    [importId, from, to],
  );
  return summary;
}

/** An import's receipts; `object_key` is null for a file not stored. */
export async function selectReceipts(
  tx: Db,
  importId: string,
): Promise<Array<{ artifact_key: string; object_key: string | null; sha256: string; size_bytes: string }>> {
  return tx.query(
    'SELECT artifact_key, object_key, sha256, size_bytes::text FROM import_artifact_receipts WHERE import_run_id = $1',
    [importId],
  );
}

/** The import row, locked for the final transaction. */
export async function lockImportRow(
  tx: Db,
  importId: string,
): Promise<
  | {
      status: string;
      bundle_dir: string;
      records_sha256: string;
      bundle_sha256: string;
      counts: Record<string, number>;
    }
  | undefined
> {
  const [row] = await tx.query(
    'SELECT status, bundle_dir, records_sha256, bundle_sha256, counts FROM import_runs WHERE id = $1 FOR UPDATE',
    [importId],
  );
  return row;
}

export interface FinishedImport {
  status: string;
  subjectId: string;
  counts: Record<string, number>;
  filesUploaded: number;
  bytesUploaded: number;
}

/** What a finished import recorded (the answer of a final activity retried after its commit). */
export async function finishedImport(tx: Db, importId: string): Promise<FinishedImport> {
  const [row]: FinishedImport[] = await tx.query(
    `SELECT status, subject_id AS "subjectId", counts, files_uploaded AS "filesUploaded",
            bytes_uploaded::float8 AS "bytesUploaded"
       FROM import_runs WHERE id = $1`,
    [importId],
  );
  return row;
}

/**
 * The SELECT that emits `<service>.import.completed|failed` for the import row a CTE `finished` just updated. The
 * payload names the import and its counts, never the bundle's folder or the failure's text (an operator reads
 * those with `referee import`/`status`).
 */
const importWebhookSql = (outcome: 'completed' | 'failed') =>
  `SELECT ${emitWebhookSql({
    service: 'service',
    type: `service || '.import.${outcome}'`,
    subject: "'import:' || id",
    data: `jsonb_build_object('import_id', id::text, 'subject_id', subject_id, 'status', status,
             'counts', counts, 'files_uploaded', files_uploaded, 'bytes_uploaded', bytes_uploaded,
             'started_at', ${isoUtcSql('started_at')}, 'finished_at', ${isoUtcSql('finished_at')})`,
  })} FROM finished`;

/** Marks the import finished (in the upsert's transaction), emits its webhook event, drops its staged receipts. */
export async function completeImport(
  tx: Db,
  importId: string,
  status: 'SUCCEEDED' | 'UNCHANGED',
  counts: Record<string, number>,
): Promise<{ filesUploaded: number; bytesUploaded: number }> {
  const [row]: Array<{ files_uploaded: number; bytes_uploaded: number }> = await tx.query(
    `WITH receipts AS (
       SELECT count(*) FILTER (WHERE uploaded)::int AS files, COALESCE(sum(size_bytes) FILTER (WHERE uploaded), 0) AS bytes
         FROM import_artifact_receipts WHERE import_run_id = $1
     ), finished AS (
       UPDATE import_runs SET status = $2, counts = $3, finished_at = clock_timestamp(),
              files_uploaded = receipts.files, bytes_uploaded = receipts.bytes
         FROM receipts WHERE id = $1
       RETURNING id, service, subject_id, status, counts, started_at, finished_at, files_uploaded, bytes_uploaded
     ), emitted AS (${importWebhookSql('completed')})
     -- A SELECT on top: TypeORM returns [rows, count] for a statement whose command tag is UPDATE.
     SELECT files_uploaded, bytes_uploaded::float8, (SELECT count(*) FROM emitted) AS emitted FROM finished`,
    [importId, status, JSON.stringify(counts)],
  );
  await deleteReceipts(tx, importId);
  return { filesUploaded: row.files_uploaded, bytesUploaded: row.bytes_uploaded };
}

/** Records a failed import (its error, when), emits its webhook event and drops its staged receipts. */
export async function failImportRun(tx: Db, importId: string, error: string): Promise<void> {
  await tx.query(
    `WITH finished AS (
       UPDATE import_runs SET status = 'FAILED', error = $2, finished_at = clock_timestamp()
        WHERE id = $1 AND status = 'RUNNING'
       RETURNING id, service, subject_id, status, counts, started_at, finished_at, files_uploaded,
                 bytes_uploaded
     ), emitted AS (${importWebhookSql('failed')})
     SELECT (SELECT count(*) FROM emitted) AS emitted`,
    [importId, error.slice(0, 4000)],
  );
  await deleteReceipts(tx, importId);
}
