import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';
import {
  GetObjectCommand,
  NoSuchKey,
  paginateListObjectsV2,
  type S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import type { DataSource, QueryRunner } from 'typeorm';
import { forEachLimit } from '../../concurrency/limit';
import type { ServiceName } from '../../entities/types';
import { clearCheckpoint, readCheckpoint, saveCheckpoint } from './checkpointQueries';
import { type OperatorProgress, sleep } from './progress';

export interface VerifyStorageDeps {
  dataSource: DataSource;
  s3: S3Client;
  bucket: string;
  progress?: (progress: OperatorProgress) => void;
}

export interface VerifyStorageOptions {
  /** Read rate limit in MiB/s over all objects (default: none). */
  rateMiBPerSecond?: number;
  /** Objects read at once (default 4). */
  concurrency?: number;
  /** Ignore a checkpoint left by an interrupted run and start from the first object. */
  restart?: boolean;
  /**
   * An unnamed object younger than this is not called orphaned (default 15 minutes): an upload stores its
   * object before the row that names it commits.
   */
  orphanGraceMs?: number;
}

/** A row that names an object. */
export interface ObjectSubject {
  service: ServiceName;
  type: string;
  id: string;
}

export interface StorageFinding {
  kind: 'missing' | 'altered' | 'orphaned';
  key: string;
  expected: { sizeBytes: number; sha256: string } | null;
  actual: { sizeBytes: number; sha256: string | null } | null;
  /** The rows naming the object (the first 20), and how many there are. */
  subjects: ObjectSubject[];
  subjectCount: number;
}

export interface VerifyStorageReport {
  ok: boolean;
  /** Distinct objects named by the database, and how many this invocation read. */
  objectsNamed: number;
  objectsChecked: number;
  bytesRead: number;
  resumedAfter: string | null;
  /** Missing and altered objects found by the interrupted run(s) resumed (recorded in storage_audit then). */
  earlierFindings: number;
  findings: StorageFinding[];
  elapsedMs: number;
}

interface NamedObject {
  key: string;
  sizeBytes: number;
  sha256: string;
  /** The first rows naming it (at most SUBJECTS_KEPT), and how many there are. */
  subjects: ObjectSubject[];
  subjectCount: number;
}

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
const DROP_STAGED = 'DROP TABLE IF EXISTS verify_named_objects, verify_listed_objects';
const KEYS_PER_CHECKPOINT = 200;

/**
 * Reads every object the database names through SHA-256 (at most `rateMiBPerSecond`), compares size and
 * digest with the record, then lists the bucket for objects no row names. Missing, altered and orphaned
 * objects are reported and written to `storage_audit`. Resumable: the checkpoint `verify-storage` holds
 * the last object key verified (objects are read in key order).
 */
export async function verifyStorage(
  deps: VerifyStorageDeps,
  options: VerifyStorageOptions = {},
): Promise<VerifyStorageReport> {
  const started = Date.now();
  const { dataSource } = deps;
  const checkpointName = 'verify-storage';
  if (options.restart) await clearCheckpoint(dataSource, checkpointName);
  const checkpoint = await readCheckpoint(dataSource, checkpointName);
  // One session holds the named objects and the bucket's listing in temporary tables, so memory stays flat
  // however many objects there are: pages of 200 are read in key order, and orphans are found by one anti-join.
  const session = dataSource.createQueryRunner();
  await session.connect();
  try {
    const objectsNamed = await stageNamedObjects(session);
    const report: VerifyStorageReport = {
      ok: true,
      objectsNamed,
      objectsChecked: 0,
      bytesRead: 0,
      resumedAfter: checkpoint?.position ?? null,
      earlierFindings: checkpoint?.totals.findings ?? 0,
      findings: [],
      elapsedMs: 0,
    };
    const limiter = new ByteRateLimiter(options.rateMiBPerSecond);
    let done = checkpoint ? await namedUpTo(session, checkpoint.position) : 0;
    for (let after = checkpoint?.position ?? null; ;) {
      const chunk = await namedObjectsAfter(session, after, KEYS_PER_CHECKPOINT);
      if (chunk.length === 0) break;
      await forEachLimit(chunk, options.concurrency ?? 4, async (object) => {
        const finding = await verifyObject(deps, object, limiter, report);
        if (finding) {
          report.findings.push(finding);
          await recordFinding(dataSource, finding);
        }
      });
      report.objectsChecked += chunk.length;
      done += chunk.length;
      after = chunk[chunk.length - 1].key;
      await saveCheckpoint(dataSource, checkpointName, after, {
        findings: report.earlierFindings + report.findings.length,
      });
      deps.progress?.({ phase: 'verify objects', done, total: objectsNamed });
    }
    const orphanedBefore = started - (options.orphanGraceMs ?? 15 * 60_000);
    for (const orphan of await orphanedObjects(deps, session, orphanedBefore)) {
      report.findings.push(orphan);
      await recordFinding(dataSource, orphan);
    }
    await clearCheckpoint(dataSource, checkpointName);
    report.ok = report.findings.length === 0 && report.earlierFindings === 0;
    report.elapsedMs = Date.now() - started;
    return report;
  } finally {
    await session.query(DROP_STAGED).catch(() => undefined);
    await session.release();
  }
}

/**
 * Copies every named object into a temporary table of this session, one row per key: its recorded size and
 * SHA-256 (from the first row naming it), the first rows naming it and how many there are, and whether it can be
 * verified (a receipt's object is named but not verified). Keys compare byte by byte (COLLATE "C"), as S3 sorts
 * them. Returns how many can be verified.
 */
async function stageNamedObjects(session: QueryRunner): Promise<number> {
  await session.query(DROP_STAGED);
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
async function namedObjectsAfter(
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
async function namedUpTo(session: QueryRunner, position: string): Promise<number> {
  const [{ count }]: Array<{ count: number }> = await session.query(
    'SELECT count(*)::int AS count FROM verify_named_objects WHERE verifiable AND key <= $1::text COLLATE "C"',
    [position],
  );
  return count;
}

const subjectsOf = (object: NamedObject) => ({
  subjects: object.subjects,
  subjectCount: object.subjectCount,
});

/** Reads one object through SHA-256; a finding when it is missing or not what the database records. */
async function verifyObject(
  deps: VerifyStorageDeps,
  object: NamedObject,
  limiter: ByteRateLimiter,
  report: VerifyStorageReport,
): Promise<StorageFinding | null> {
  const expected = { sizeBytes: object.sizeBytes, sha256: object.sha256 };
  let body: Readable;
  try {
    const got = await deps.s3.send(new GetObjectCommand({ Bucket: deps.bucket, Key: object.key }));
    body = got.Body as Readable;
  } catch (error) {
    const notFound =
      error instanceof NoSuchKey ||
      (error instanceof S3ServiceException && error.$metadata.httpStatusCode === 404);
    if (!notFound) throw error;
    return { kind: 'missing', key: object.key, expected, actual: null, ...subjectsOf(object) };
  }
  const hash = createHash('sha256');
  let sizeBytes = 0;
  for await (const chunk of body as AsyncIterable<Buffer>) {
    hash.update(chunk);
    sizeBytes += chunk.length;
    report.bytesRead += chunk.length;
    await limiter.take(chunk.length);
  }
  const sha256 = hash.digest('hex');
  if (sizeBytes === object.sizeBytes && sha256 === object.sha256) return null;
  return { kind: 'altered', key: object.key, expected, actual: { sizeBytes, sha256 }, ...subjectsOf(object) };
}

/**
 * Objects in the bucket that no row names, last modified before `before` (ms since the epoch): the listing goes
 * page by page into a temporary table, and one anti-join against the named objects finds them.
 */
async function orphanedObjects(
  deps: VerifyStorageDeps,
  session: QueryRunner,
  before: number,
): Promise<StorageFinding[]> {
  await session.query(
    'CREATE TEMPORARY TABLE verify_listed_objects (key text COLLATE "C" NOT NULL, size_bytes bigint NOT NULL)',
  );
  for await (const page of paginateListObjectsV2(
    { client: deps.s3, pageSize: 1000 },
    { Bucket: deps.bucket },
  )) {
    const listed = (page.Contents ?? []).filter(
      (object) => object.Key && !(object.LastModified && object.LastModified.getTime() > before),
    );
    if (listed.length === 0) continue;
    await session.query(
      'INSERT INTO verify_listed_objects (key, size_bytes) SELECT * FROM unnest($1::text[], $2::bigint[])',
      [listed.map((object) => object.Key), listed.map((object) => object.Size ?? 0)],
    );
  }
  const orphans: Array<{ key: string; size_bytes: string }> = await session.query(
    `SELECT l.key, l.size_bytes FROM verify_listed_objects l
      WHERE NOT EXISTS (SELECT 1 FROM verify_named_objects n WHERE n.key = l.key)
      ORDER BY l.key`,
  );
  return orphans.map((orphan) => ({
    kind: 'orphaned',
    key: orphan.key,
    expected: null,
    actual: { sizeBytes: Number(orphan.size_bytes), sha256: null },
    subjects: [],
    subjectCount: 0,
  }));
}

const AUDIT_KIND = {
  missing: 'object_missing',
  altered: 'object_mismatch',
  orphaned: 'object_orphaned',
} as const;

async function recordFinding(dataSource: DataSource, finding: StorageFinding): Promise<void> {
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

/** Holds reads to an average rate: each chunk waits until the bytes read so far are due. */
class ByteRateLimiter {
  private readonly bytesPerMs: number | null;
  private readonly start = Date.now();
  private total = 0;

  constructor(miBPerSecond: number | undefined) {
    this.bytesPerMs = miBPerSecond ? (miBPerSecond * 1024 * 1024) / 1000 : null;
  }

  async take(bytes: number): Promise<void> {
    if (this.bytesPerMs === null) return;
    this.total += bytes;
    const wait = this.start + this.total / this.bytesPerMs - Date.now();
    if (wait > 0) await sleep(wait);
  }
}
