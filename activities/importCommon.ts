import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { S3Client } from '@aws-sdk/client-s3';
import { ApplicationFailure, Context } from '@temporalio/activity';
import type { DataSource, EntityManager } from 'typeorm';
import { ContentChangedError, putFileContentAddressed } from '../storage/objectStore';
import { describeProblem, InvalidBundleError } from './bundles/common';
import { forEachUntilError } from '../concurrency/limit';
import { UPLOADS_PER_CHUNK } from '../workflows/importCommon';
import {
  deleteReceipts,
  emitImportCompleted,
  failImportRun,
  type FileReceipt,
  finishedImport,
  type FinishedImport,
  type ImportService,
  lockImportRow,
  type PlannedFile,
  recordStored,
  selectImportToStore,
  selectReceipts,
  selectUnstoredFiles,
  stageFiles,
  type StoredChunk,
  summarizeChunk,
  upsertImportRun,
  UPSERT_BATCH,
} from './importQueries';

/** Files per upload activity: a chunk is a range of the planned list, so progress moves in these steps. */
export const UPLOAD_CHUNK_SIZE = 250;
/** Receipts written per statement while a chunk uploads. */
const RECEIPT_FLUSH = 50;
/** Problems carried in an `invalid_bundle` failure: a Temporal payload is at most 2 MB. */
const PROBLEMS_IN_FAILURE = 200;

/** The `invalid_bundle` failure of a planning activity: the problems (capped to fit a payload) and their count. */
export function invalidBundleFailure(error: InvalidBundleError): ApplicationFailure {
  const shown = error.problems.slice(0, PROBLEMS_IN_FAILURE);
  const more = error.problems.length - shown.length;
  return ApplicationFailure.create({
    type: 'invalid_bundle',
    message: `Invalid bundle (${error.problems.length} problems):\n${shown.map((p) => `  ${describeProblem(p)}`).join('\n')}${more > 0 ? `\n  … and ${more} more` : ''}`,
    nonRetryable: true,
    details: [{ problems: shown, total: error.problems.length }],
  });
}

/** Runs `work`, turning an InvalidBundleError into the non-retryable `invalid_bundle` failure. */
export async function orInvalidBundleFailure<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof InvalidBundleError) throw invalidBundleFailure(error);
    throw error;
  }
}

/** Heartbeats every two seconds while `work` runs, so a crashed worker's activity is retried promptly. */
export async function withHeartbeat<T>(
  work: () => Promise<T>,
  details: () => unknown = () => undefined,
): Promise<T> {
  const context = Context.current();
  const timer = setInterval(() => context.heartbeat(details()), 2000);
  try {
    return await work();
  } finally {
    clearInterval(timer);
  }
}

export interface BeginImportInput {
  service: ImportService;
  subjectId: string;
  bundleDir: string;
  recordsSha256: string;
  bundleSha256: string;
  counts: Record<string, number>;
  /** Nothing to import: the row is recorded as finished UNCHANGED and no file is staged. */
  unchanged: boolean;
  files: PlannedFiles;
}

/**
 * The files to stage, in order, made one batch at a time: a large bundle's list is never built whole. `batches`
 * may read the bundle again (a JSONL file), so it must yield exactly `count` files, the ones validation checked.
 */
export interface PlannedFiles {
  count: number;
  batches(size: number): AsyncIterable<PlannedFile[]>;
}

/** Planned files from a list of records and how one becomes a planned file. */
export const plannedFiles = <T>(records: T[], plan: (record: T) => PlannedFile): PlannedFiles => ({
  count: records.length,
  async *batches(size) {
    for (let start = 0; start < records.length; start += size)
      yield records.slice(start, start + size).map(plan);
  },
});

/**
 * Records the import of this workflow execution and stages its files, in one transaction. A retried plan (its
 * first attempt committed, its result lost) finds its row and stages again: no upload starts before the
 * workflow has the plan's result.
 */
export async function beginImport(dataSource: DataSource, input: BeginImportInput): Promise<string> {
  const execution = Context.current().info.workflowExecution;
  if (!execution) throw new Error('beginImport runs in an import workflow');
  const { workflowId, runId } = execution;
  return dataSource.transaction(async (tx) => {
    const row = await upsertImportRun(tx, {
      ...input,
      workflowId,
      runId,
      filesTotal: input.unchanged ? 0 : input.files.count,
    });
    if (!row.inserted) await deleteReceipts(tx, row.id);
    if (input.unchanged) {
      // Finished at its plan: this is its completion (a retried plan found its row, and its event, already).
      if (row.inserted) await emitImportCompleted(tx, row.id);
      return row.id;
    }
    let staged = 0;
    for await (const batch of input.files.batches(UPSERT_BATCH)) {
      await stageFiles(tx, row.id, staged, batch);
      staged += batch.length;
    }
    if (staged !== input.files.count) throw bundleChanged(input.bundleDir);
    return row.id;
  });
}

/**
 * Stores the staged files of one chunk (`from` ≤ ordinal < `to`) in S3 under their content address, a few at a
 * time; S3 checks each against the SHA-256 the plan measured (and the manifest gave). A file stored by an earlier
 * attempt (receipt present) is skipped. When the subject was imported before, a file already in S3 with its size
 * is not sent again (one HEAD each); a first import sends its files without asking.
 */
export async function storeStagedChunk(
  deps: { dataSource: DataSource; s3: S3Client; bucket: string },
  input: { importId: string; from: number; to: number },
): Promise<StoredChunk> {
  const { dataSource, s3, bucket } = deps;
  const run = await selectImportToStore(dataSource, input.importId);
  if (!run || run.status !== 'RUNNING')
    throw ApplicationFailure.nonRetryable(`Import ${input.importId} is not running`, 'import_not_running');
  const pending = await selectUnstoredFiles(dataSource, input.importId, input.from, input.to);
  const done: Array<{ ordinal: number; key: string; uploaded: boolean }> = [];
  const inFlight = new Map<string, Promise<{ key: string; uploaded: boolean }>>();
  let stored = 0;
  const flush = async () => {
    const batch = done.splice(0, done.length);
    if (batch.length === 0) return;
    await recordStored(dataSource, input.importId, batch);
  };
  await withHeartbeat(
    () =>
      forEachUntilError(pending, UPLOADS_PER_CHUNK, async (file) => {
        const size = Number(file.size_bytes);
        const path = join(run.bundle_dir, file.path);
        const changed = (now: string) =>
          ApplicationFailure.nonRetryable(
            `${file.path} changed during the import: it now has ${now}, but ${size} bytes and SHA-256 ` +
              `${file.sha256} were checked (against the manifest) when the import was planned`,
            'checksum_mismatch',
          );
        // A changed size is caught here; changed bytes of the same size are refused by S3 (declared SHA-256).
        const sizeNow = (await stat(path)).size;
        if (sizeNow !== size) throw changed(`${sizeNow} bytes`);
        const digest = { sha256: file.sha256, sizeBytes: size };
        // Files with the same bytes in one chunk are sent once; the others wait for it.
        const sending = inFlight.get(digest.sha256);
        let key: string;
        let uploaded = false;
        if (sending) key = (await sending).key;
        else {
          const put = putFileContentAddressed(s3, bucket, {
            path,
            digest,
            contentType: file.media_type,
            skipIfStored: run.seen_before,
          }).catch((error: unknown) => {
            throw error instanceof ContentChangedError ? changed('other bytes of the same size') : error;
          });
          inFlight.set(digest.sha256, put);
          ({ key, uploaded } = await put);
        }
        done.push({ ordinal: file.ordinal, key, uploaded });
        stored += 1;
        if (done.length >= RECEIPT_FLUSH) await flush();
      }),
    () => ({ stored }),
  );
  await flush();
  return summarizeChunk(dataSource, input.importId, input.from, input.to);
}

/** The receipts of an import, by key; every staged file must have one. */
export async function readReceipts(tx: EntityManager, importId: string): Promise<Map<string, FileReceipt>> {
  const rows = await selectReceipts(tx, importId);
  const missing = rows.filter((r) => r.object_key === null);
  if (missing.length > 0) {
    throw ApplicationFailure.nonRetryable(
      `${missing.length} files of import ${importId} were not stored (first: ${missing[0].artifact_key})`,
      'files_not_stored',
    );
  }
  return new Map(
    rows.map((r) => [
      r.artifact_key,
      { objectKey: r.object_key!, sha256: r.sha256, sizeBytes: Number(r.size_bytes) },
    ]),
  );
}

/** The import row the final upsert works for, locked; null when it already finished (a retried activity). */
export async function lockRunningImport(
  tx: EntityManager,
  importId: string,
): Promise<{
  bundleDir: string;
  recordsSha256: string;
  bundleSha256: string;
  counts: Record<string, number>;
} | null> {
  const row = await lockImportRow(tx, importId);
  if (!row) throw ApplicationFailure.nonRetryable(`No import ${importId}`, 'import_not_found');
  if (row.status === 'FAILED')
    throw ApplicationFailure.nonRetryable(`Import ${importId} failed already`, 'import_not_running');
  if (row.status !== 'RUNNING') return null;
  return {
    bundleDir: row.bundle_dir,
    recordsSha256: row.records_sha256,
    bundleSha256: row.bundle_sha256,
    counts: row.counts,
  };
}

/** Refuses a bundle whose record files changed since they were validated. */
export function assertSameRecords(recorded: string, current: string, bundleDir: string): void {
  if (recorded !== current) throw bundleChanged(bundleDir);
}

/** The failure of an import whose manifest or record files differ from what its plan validated. */
export const bundleChanged = (bundleDir: string): ApplicationFailure =>
  ApplicationFailure.nonRetryable(
    `The bundle at ${bundleDir} changed during the import (its manifest or record files differ from what was validated); import it again`,
    'bundle_changed',
  );

/** What a validated bundle tells its plan. */
export interface PlannableBundle {
  /** SHA-256 of its record files. */
  sha256: string;
  /** Its identity: records and every file (see `bundleDigest`). */
  digest: string;
  counts: object;
}

/**
 * Plans the import of a validated bundle: `unchanged` when its digest is the one the subject's last import
 * recorded (nothing is staged, the import is recorded as UNCHANGED), else the import is recorded and its files
 * staged. Returns what the workflow needs: counts and chunking, never the file list.
 */
export async function planImport(
  dataSource: DataSource,
  input: {
    service: ImportService;
    subjectId: string;
    bundleDir: string;
    bundle: PlannableBundle;
    /** The digest the subject's last successful import recorded, if any. */
    previousDigest: string | undefined;
    files: PlannedFiles;
  },
): Promise<{ importId: string; unchanged: boolean; filesTotal: number; chunkSize: number }> {
  const unchanged = input.previousDigest === input.bundle.digest;
  const importId = await beginImport(dataSource, {
    service: input.service,
    subjectId: input.subjectId,
    bundleDir: input.bundleDir,
    recordsSha256: input.bundle.sha256,
    bundleSha256: input.bundle.digest,
    counts: { ...(input.bundle.counts as Record<string, number>) },
    unchanged,
    files: input.files,
  });
  return {
    importId,
    unchanged,
    filesTotal: unchanged ? 0 : input.files.count,
    chunkSize: UPLOAD_CHUNK_SIZE,
  };
}

/** An import the final transaction works for (its row locked). */
export type RunningImport = NonNullable<Awaited<ReturnType<typeof lockRunningImport>>>;

/**
 * The final upsert's frame, shared by both services: one transaction that heartbeats, locks the import, answers
 * a retry after commit from the import record (`recorded`), re-opens the bundle and refuses it when its record
 * files changed since validation, then lets `write` do the service's part.
 */
export async function finalTransaction<B extends { sha256: string }, R>(
  dataSource: DataSource,
  importId: string,
  steps: {
    open: (bundleDir: string) => Promise<B>;
    recorded: (row: FinishedImport) => R;
    write: (tx: EntityManager, running: RunningImport, bundle: B) => Promise<R>;
  },
): Promise<R> {
  return withHeartbeat(() =>
    dataSource.transaction(async (tx) => {
      const running = await lockRunningImport(tx, importId);
      if (!running) return steps.recorded(await finishedImport(tx, importId));
      const bundle = await steps.open(running.bundleDir);
      assertSameRecords(running.recordsSha256, bundle.sha256, running.bundleDir);
      return steps.write(tx, running, bundle);
    }),
  );
}

/** Activities shared by both import workflows: upload a chunk of staged files, record a failed import. */
export function importCommonActivities(deps: { dataSource: DataSource; s3: S3Client; bucket: string }) {
  return {
    /** Uploads one chunk of an import's staged files; see `storeStagedChunk`. */
    async storeImportFiles(input: { importId: string; from: number; to: number }): Promise<StoredChunk> {
      return storeStagedChunk(deps, input);
    },

    /** Records a failed import (its error, when) and drops its staged receipts. */
    async failImport(input: { importId: string; error: string }): Promise<void> {
      await deps.dataSource.transaction((tx) => failImportRun(tx, input.importId, input.error));
    },
  };
}
