import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';
import {
  GetObjectCommand,
  NoSuchKey,
  paginateListObjectsV2,
  type S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import type { DataSource } from 'typeorm';
import { forEachLimit } from '../../concurrency/limit';
import type { ServiceName } from '../../entities/types';
import { clearCheckpoint, type OperatorProgress, readCheckpoint, saveCheckpoint, sleep } from './checkpoint';

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
  subjects: ObjectSubject[];
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
  const { verifiable, allKeys } = await namedObjects(dataSource);
  const report: VerifyStorageReport = {
    ok: true,
    objectsNamed: verifiable.length,
    objectsChecked: 0,
    bytesRead: 0,
    resumedAfter: checkpoint?.position ?? null,
    earlierFindings: checkpoint?.totals.findings ?? 0,
    findings: [],
    elapsedMs: 0,
  };
  const limiter = new ByteRateLimiter(options.rateMiBPerSecond);
  const remaining = checkpoint ? verifiable.filter((o) => o.key > checkpoint.position) : verifiable;
  let done = verifiable.length - remaining.length;
  for (let i = 0; i < remaining.length; i += KEYS_PER_CHECKPOINT) {
    const chunk = remaining.slice(i, i + KEYS_PER_CHECKPOINT);
    await forEachLimit(chunk, options.concurrency ?? 4, async (object) => {
      const finding = await verifyObject(deps, object, limiter, report);
      if (finding) {
        report.findings.push(finding);
        await recordFinding(dataSource, finding);
      }
    });
    report.objectsChecked += chunk.length;
    done += chunk.length;
    await saveCheckpoint(dataSource, checkpointName, chunk[chunk.length - 1].key, {
      findings: report.earlierFindings + report.findings.length,
    });
    deps.progress?.({ phase: 'verify objects', done, total: verifiable.length });
  }
  const orphanedBefore = started - (options.orphanGraceMs ?? 15 * 60_000);
  for (const orphan of await orphanedObjects(deps, allKeys, orphanedBefore)) {
    report.findings.push(orphan);
    await recordFinding(dataSource, orphan);
  }
  await clearCheckpoint(dataSource, checkpointName);
  report.ok = report.findings.length === 0 && report.earlierFindings === 0;
  report.elapsedMs = Date.now() - started;
  return report;
}

async function namedObjects(dataSource: DataSource) {
  const rows: Array<{
    service: ServiceName | null;
    type: string;
    id: string;
    key: string;
    size: string | null;
    sha256: string | null;
  }> = await dataSource.query(NAMED_OBJECTS_SQL);
  const byKey = new Map<string, NamedObject>();
  const allKeys = new Set<string>();
  for (const row of rows) {
    allKeys.add(row.key);
    if (row.service === null || row.size === null || row.sha256 === null) continue;
    const named = byKey.get(row.key) ?? {
      key: row.key,
      sizeBytes: Number(row.size),
      sha256: row.sha256,
      subjects: [],
    };
    named.subjects.push({ service: row.service, type: row.type, id: row.id });
    byKey.set(row.key, named);
  }
  const verifiable = [...byKey.values()].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  return { verifiable, allKeys };
}

const subjectsOf = (object: NamedObject) => ({
  subjects: object.subjects.slice(0, SUBJECTS_KEPT),
  subjectCount: object.subjects.length,
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

/** Objects in the bucket that no row names, last modified before `before` (ms since the epoch). */
async function orphanedObjects(
  deps: VerifyStorageDeps,
  named: Set<string>,
  before: number,
): Promise<StorageFinding[]> {
  const orphans: StorageFinding[] = [];
  for await (const page of paginateListObjectsV2(
    { client: deps.s3, pageSize: 1000 },
    { Bucket: deps.bucket },
  )) {
    for (const object of page.Contents ?? []) {
      if (!object.Key || named.has(object.Key)) continue;
      if (object.LastModified && object.LastModified.getTime() > before) continue;
      orphans.push({
        kind: 'orphaned',
        key: object.Key,
        expected: null,
        actual: { sizeBytes: object.Size ?? 0, sha256: null },
        subjects: [],
        subjectCount: 0,
      });
    }
  }
  return orphans;
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
