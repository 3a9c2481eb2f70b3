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
import {
  createListedObjects,
  dropStaged,
  insertListedObjects,
  insertStorageAudit,
  listedUnnamed,
  type NamedObject,
  namedObjectsAfter,
  namedUpTo,
  stageNamedObjects,
} from './verifyStorageQueries';

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
          await insertStorageAudit(dataSource, finding);
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
      await insertStorageAudit(dataSource, orphan);
    }
    await clearCheckpoint(dataSource, checkpointName);
    report.ok = report.findings.length === 0 && report.earlierFindings === 0;
    report.elapsedMs = Date.now() - started;
    return report;
  } finally {
    await dropStaged(session).catch(() => undefined);
    await session.release();
  }
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
  await createListedObjects(session);
  for await (const page of paginateListObjectsV2(
    { client: deps.s3, pageSize: 1000 },
    { Bucket: deps.bucket },
  )) {
    const listed = (page.Contents ?? []).filter(
      (object) => object.Key && !(object.LastModified && object.LastModified.getTime() > before),
    );
    if (listed.length === 0) continue;
    await insertListedObjects(
      session,
      listed.map((object) => ({ key: object.Key!, sizeBytes: object.Size ?? 0 })),
    );
  }
  return (await listedUnnamed(session)).map((orphan) => ({
    kind: 'orphaned',
    key: orphan.key,
    expected: null,
    actual: { sizeBytes: orphan.sizeBytes, sha256: null },
    subjects: [],
    subjectCount: 0,
  }));
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
