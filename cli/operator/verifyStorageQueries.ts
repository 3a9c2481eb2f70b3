import type { QueryRunner } from 'typeorm';
import type { Queryable } from '../../entities/queryable';
import type { ObjectSubject, StorageFinding } from './verifyStorage';

/*
 * verify-storage's statements: the objects the database names, staged with the bucket's listing in temporary
 * tables of one session (its QueryRunner), and the findings it records in storage_audit.
 */

/**
 * Every table that names an object: key, recorded size and SHA-256, and the row. Import staging receipts
 * name objects of an import in flight: never orphans, but not verified (their upload may be under way).
 */
const NAMED_OBJECTS_SQL = `
  SELECT 'math' AS service, 'artifact' AS type, artifact_id AS id, object_key AS key, size_bytes::text AS size, sha256
    FROM math_artifacts
  UNION ALL SELECT 'math', 'attachment', id::text, object_key, size_bytes::text, sha256 FROM math_attachments
  UNION ALL SELECT 'math', 'bug_report_picture', id::text, picture_object_key, picture_size_bytes::text, picture_sha256
    FROM math_bug_reports WHERE picture_object_key IS NOT NULL
  UNION ALL SELECT 'genomics', 'revision', id::text, object_key, size_bytes::text, sha256
    FROM genomics_revisions WHERE object_key IS NOT NULL
  UNION ALL SELECT 'genomics', 'report', id::text, object_key, size_bytes::text, sha256 FROM genomics_reports
  UNION ALL SELECT 'genomics', 'publication', id::text, object_key, size_bytes::text, sha256 FROM genomics_publications
  UNION ALL SELECT 'genomics', 'measurement_evidence', id::text, evidence_object_key, evidence_size_bytes::text,
                   artifact_sha256
    FROM genomics_measurements WHERE evidence_object_key IS NOT NULL
  UNION ALL SELECT NULL, 'import_receipt', import_run_id::text || '/' || ordinal, object_key, NULL, NULL
    FROM import_artifact_receipts WHERE object_key IS NOT NULL`;

const SUBJECTS_KEPT = 20;

/** An object the database names, as verify-storage reads it. */
export interface NamedObject {
  key: string;
  sizeBytes: number;
  sha256: string;
  /** The first rows naming it (at most SUBJECTS_KEPT), and how many there are. */
  subjects: ObjectSubject[];
  subjectCount: number;
}

export async function dropStaged(session: QueryRunner): Promise<void> {
  await session.query('DROP TABLE IF EXISTS verify_named_objects, verify_listed_objects');
}

/**
 * Copies every named object into a temporary table of this session, one row per key: its recorded size and
 * SHA-256 (from the first row naming it), the first rows naming it and how many there are, and whether it can be
 * verified (a receipt's object is named but not verified). Keys compare byte by byte (COLLATE "C"), as S3 sorts
 * them. Returns how many can be verified.
 */
export async function stageNamedObjects(session: QueryRunner): Promise<number> {
  await dropStaged(session);
  await session.query(
    `CREATE TEMPORARY TABLE verify_named_objects AS
       SELECT key COLLATE "C" AS key,
              (array_agg(size ORDER BY service, type, id) FILTER (WHERE verifiable))[1] AS size,
              (array_agg(sha256 ORDER BY service, type, id) FILTER (WHERE verifiable))[1] AS sha256,
              coalesce((array_agg(json_build_object('service', service, 'type', type, 'id', id) ORDER BY service, type, id)
                FILTER (WHERE verifiable))[1:${SUBJECTS_KEPT}], '{}') AS subjects,
              count(*) FILTER (WHERE verifiable)::int AS subject_count,
              bool_or(verifiable) AS verifiable
         FROM (SELECT n.*, n.service IS NOT NULL AND n.size IS NOT NULL AND n.sha256 IS NOT NULL AS verifiable
                 FROM (${NAMED_OBJECTS_SQL}) n) named
        GROUP BY key`,
  );
  await session.query('CREATE UNIQUE INDEX ON verify_named_objects (key)');
  await session.query('ANALYZE verify_named_objects');
  const [{ count }]: Array<{ count: number }> = await session.query(
    'SELECT count(*)::int AS count FROM verify_named_objects WHERE verifiable',
  );
  return count;
}

/** The next verifiable objects in key order after `after` (from the first when null). */
export async function namedObjectsAfter(
  session: QueryRunner,
  after: string | null,
  limit: number,
): Promise<NamedObject[]> {
  const rows: Array<{
    key: string;
    size: string;
    sha256: string;
    subjects: ObjectSubject[];
    subject_count: number;
  }> = await session.query(
    `SELECT key, size, sha256, array_to_json(subjects) AS subjects, subject_count FROM verify_named_objects
        WHERE verifiable AND ($1::text IS NULL OR key > $1::text COLLATE "C")
        ORDER BY key LIMIT $2`,
    [after, limit],
  );
  return rows.map((row) => ({
    key: row.key,
    sizeBytes: Number(row.size),
    sha256: row.sha256,
    subjects: row.subjects,
    subjectCount: row.subject_count,
  }));
}

/** Verifiable objects at or before `position` in key order: what a resumed run has already read. */
export async function namedUpTo(session: QueryRunner, position: string): Promise<number> {
  const [{ count }]: Array<{ count: number }> = await session.query(
    'SELECT count(*)::int AS count FROM verify_named_objects WHERE verifiable AND key <= $1::text COLLATE "C"',
    [position],
  );
  return count;
}

/** The session's table of the bucket's listing, filled page by page. */
export async function createListedObjects(session: QueryRunner): Promise<void> {
  await session.query(
    'CREATE TEMPORARY TABLE verify_listed_objects (key text COLLATE "C" NOT NULL, size_bytes bigint NOT NULL)',
  );
}

export async function insertListedObjects(
  session: QueryRunner,
  listed: Array<{ key: string; sizeBytes: number }>,
): Promise<void> {
  await session.query(
    'INSERT INTO verify_listed_objects (key, size_bytes) SELECT * FROM unnest($1::text[], $2::bigint[])',
    [listed.map((object) => object.key), listed.map((object) => object.sizeBytes)],
  );
}

/** The listed objects no row names, in key order. */
export async function listedUnnamed(
  session: QueryRunner,
): Promise<Array<{ key: string; sizeBytes: number }>> {
  const orphans: Array<{ key: string; size_bytes: string }> = await session.query(
    `SELECT l.key, l.size_bytes FROM verify_listed_objects l
      WHERE NOT EXISTS (SELECT 1 FROM verify_named_objects n WHERE n.key = l.key)
      ORDER BY l.key`,
  );
  return orphans.map((orphan) => ({ key: orphan.key, sizeBytes: Number(orphan.size_bytes) }));
}

const AUDIT_KIND = {
  missing: 'object_missing',
  altered: 'object_mismatch',
  orphaned: 'object_orphaned',
} as const;

/** Records a finding in storage_audit, naming the first row that names its object. */
export async function insertStorageAudit(dataSource: Queryable, finding: StorageFinding): Promise<void> {
  const [first] = finding.subjects;
  await dataSource.query(
    `INSERT INTO storage_audit (service, kind, subject_type, subject_id, object_key, expected_size_bytes,
       expected_sha256, actual_size_bytes, actual_sha256, detail)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
    [
      first?.service ?? null,
      AUDIT_KIND[finding.kind],
      first?.type ?? 'object',
      first?.id ?? finding.key,
      finding.key,
      finding.expected?.sizeBytes ?? null,
      finding.expected?.sha256 ?? null,
      finding.actual?.sizeBytes ?? null,
      finding.actual?.sha256 ?? null,
      JSON.stringify({
        found_by: 'verify-storage',
        subjects: finding.subjects,
        subject_count: finding.subjectCount,
      }),
    ],
  );
}
