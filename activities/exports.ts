import { createHash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  HeadObjectCommand,
  NoSuchUpload,
  PutObjectCommand,
  type S3Client,
  S3ServiceException,
  UploadPartCommand,
} from '@aws-sdk/client-s3';
import { ApplicationFailure, Context } from '@temporalio/activity';
import type { Logger } from 'pino';
import type { DataSource } from 'typeorm';
import { ResumableSha256 } from '../storage/resumableSha256';
import type { ExportInput, ExportResult } from '../workflows/export/messages';
import { formatExportLine, exportMediaType, csvHeader } from './exportFormat';
import { backgroundPauseMs, type ForegroundWork } from './foreground';
import { PartBuffer } from './partBuffer';
import {
  claimUploadId,
  deleteSnapshot,
  type ExportToWrite,
  finishExport,
  markExportExpired,
  markExportFailed,
  recordPart,
  selectExpiredExports,
  selectExportToWrite,
  selectLastPart,
  selectParts,
  selectSnapshotRows,
} from './exportQueries';

/** Snapshot rows read per statement while a part fills. */
const ROWS_PER_READ = 500;
/** Room past `partBytes` for the line that ends a part, so most parts fill their buffer without growing it. */
const LINE_HEADROOM_BYTES = 64 * 1024;

export interface ExportActivityDeps {
  dataSource: DataSource;
  s3: S3Client;
  bucket: string;
  /** Bytes per uploaded part (`EXPORT_PART_BYTES`). */
  partBytes: number;
  /** The worker's transitions, which an export gives way to. */
  foreground?: ForegroundWork;
  /** The export's share of the time while transitions run (`EXPORT_SHARE_UNDER_LOAD`); 1 gives no way. */
  shareUnderLoad?: number;
}

/** The longest pause between two reads, so that an export given way speeds up soon after transitions stop. */
const MAX_PAUSE_MS = 1000;

/**
 * Pauses after `busyMs` of the export's work while transitions ran lately (see ForegroundWork), heartbeating
 * first: a part filled at a small share can take longer than the heartbeat timeout.
 */
export async function giveWayToTransitions(
  deps: Pick<ExportActivityDeps, 'foreground' | 'shareUnderLoad'>,
  busyMs: number,
  heartbeat: () => void,
): Promise<void> {
  if (!deps.foreground) return;
  const pauseMs = Math.min(
    backgroundPauseMs(deps.foreground, busyMs, deps.shareUnderLoad ?? 1),
    MAX_PAUSE_MS,
  );
  if (pauseMs <= 0) return;
  heartbeat();
  await sleep(pauseMs);
}

/** The export is gone (deleted while it ran) or no longer running: nothing to retry. */
const exportGone = (exportId: string, state?: string) =>
  ApplicationFailure.nonRetryable(
    state ? `export ${exportId} is ${state}` : `export ${exportId} does not exist`,
    'export_gone',
  );

async function runningExport(deps: ExportActivityDeps, exportId: string): Promise<ExportToWrite> {
  const exp = await selectExportToWrite(deps.dataSource, exportId);
  // The API commits the export after it started the workflow: a first attempt may not see it yet (retried).
  if (!exp) throw ApplicationFailure.retryable(`export ${exportId} is not committed yet`, 'export_not_found');
  if (exp.state !== 'RUNNING') throw exportGone(exportId, exp.state);
  return exp;
}

/** The multipart upload of the export: the recorded one, or a new one recorded before its first part. */
async function uploadIdOf(deps: ExportActivityDeps, exp: ExportToWrite): Promise<string> {
  if (exp.upload_id) return exp.upload_id;
  const created = await deps.s3.send(
    new CreateMultipartUploadCommand({
      Bucket: deps.bucket,
      Key: exp.object_key,
      ContentType: exportMediaType(exp.format),
    }),
  );
  const held = await claimUploadId(deps.dataSource, exp.id, created.UploadId as string);
  if (held !== created.UploadId) {
    await deps.s3
      .send(
        new AbortMultipartUploadCommand({
          Bucket: deps.bucket,
          Key: exp.object_key,
          UploadId: created.UploadId,
        }),
      )
      .catch(() => undefined);
  }
  if (!held) throw exportGone(exp.id);
  return held;
}

/** A part read and formatted, with its digest and the file's SHA-256 state after it, not yet sent. */
interface FilledPart {
  partNumber: number;
  /** A view of the buffer it was filled into, valid until that buffer is filled again. */
  body: Buffer;
  sha256: Buffer;
  lastOrdinal: number;
  hashState: Buffer;
}

/**
 * Reads the snapshot rows after `from.cursor` into `into` until part `from.partNumber` holds `partBytes` (or the
 * snapshot ends), and goes on with the file's SHA-256 `from.hash`.
 */
async function fillPart(
  deps: ExportActivityDeps,
  exp: ExportToWrite,
  from: { partNumber: number; cursor: number; hash: ResumableSha256 },
  to: { into: PartBuffer; heartbeat: () => void },
): Promise<FilledPart> {
  const { into, heartbeat } = to;
  const { partNumber, hash } = from;
  let cursor = from.cursor;
  into.reset();
  if (partNumber === 1 && exp.format === 'csv') into.append(csvHeader(exp.columns));
  while (into.size < deps.partBytes && cursor < exp.rows_in_snapshot) {
    const started = performance.now();
    const rows = await selectSnapshotRows(deps.dataSource, exp, cursor, ROWS_PER_READ);
    if (rows.length === 0) throw new Error(`export ${exp.id}: snapshot rows after ${cursor} are missing`);
    for (const row of rows) {
      into.append(formatExportLine(exp, row));
      cursor = row.ordinal;
      if (into.size >= deps.partBytes) break;
    }
    await giveWayToTransitions(deps, performance.now() - started, heartbeat);
  }
  const body = into.bytes();
  hash.update(body);
  return {
    partNumber,
    body,
    sha256: createHash('sha256').update(body).digest(),
    lastOrdinal: cursor,
    hashState: hash.save(),
  };
}

/** Heartbeats whose details are the last part sent and recorded; `sent` moves them on and heartbeats. */
function partsHeartbeat(context: Context, recorded: { partNumber: number; rowsWritten: number }) {
  let last = recorded;
  const heartbeat = () => context.heartbeat(last);
  return {
    heartbeat,
    sent: (part: FilledPart) => {
      last = { partNumber: part.partNumber, rowsWritten: part.lastOrdinal };
      heartbeat();
    },
  };
}

/** Uploads a filled part, then records it (its ETag, last row and the file's SHA-256 state) with the progress. */
async function sendPart(deps: ExportActivityDeps, exp: ExportToWrite, uploadId: string, part: FilledPart) {
  const uploaded = await deps.s3.send(
    new UploadPartCommand({
      Bucket: deps.bucket,
      Key: exp.object_key,
      UploadId: uploadId,
      PartNumber: part.partNumber,
      Body: part.body,
      ContentLength: part.body.length,
      ContentMD5: createHash('md5').update(part.body).digest('base64'),
    }),
  );
  const recorded = await recordPart(deps.dataSource, exp.id, {
    part_number: part.partNumber,
    etag: uploaded.ETag as string,
    size_bytes: part.body.length,
    sha256: part.sha256.toString('hex'),
    last_ordinal: part.lastOrdinal,
    hash_state: part.hashState,
  });
  // Another attempt recorded this part first: its state is the one that holds; this attempt stops.
  if (!recorded)
    throw ApplicationFailure.retryable(`export ${exp.id}: part ${part.partNumber} recorded twice`);
}

export function exportActivities(deps: ExportActivityDeps) {
  return {
    /**
     * Writes every part not yet recorded: fills a buffer of `partBytes` from the snapshot rows after the last recorded
     * part, uploads it, then records the part (its ETag, last row and the file's SHA-256 state after it) and the
     * progress in one statement, filling the next part meanwhile. A worker killed anywhere resumes from the last
     * recorded part: a part uploaded but not recorded is uploaded again under the same number (S3 keeps the last),
     * so every row is in the file once.
     */
    async writeExportParts(input: ExportInput): Promise<{ parts: number; rowsWritten: number }> {
      const context = Context.current();
      const exp = await runningExport(deps, input.exportId);
      const last = await selectLastPart(deps.dataSource, exp.id);
      let partNumber = last?.part_number ?? 0;
      let cursor = last?.last_ordinal ?? 0;
      const hash = last ? ResumableSha256.restore(last.hash_state) : new ResumableSha256();
      // An empty JSON Lines file has no part (completeExport puts it whole); a CSV one has its header.
      if (exp.rows_in_snapshot === 0 && exp.format === 'jsonl') return { parts: 0, rowsWritten: 0 };
      if (partNumber > 0 && cursor >= exp.rows_in_snapshot) return { parts: partNumber, rowsWritten: cursor };
      const uploadId = await uploadIdOf(deps, exp);
      // While one part uploads and is recorded, the next is read and formatted, so S3's time and the snapshot's
      // reads overlap. Parts are still sent and recorded in order, each recorded only after S3 accepted it.
      // Two buffers, one filling while the other's part is sent: a buffer is filled again only after its part
      // was sent, since the part before it is awaited before the next one is sent.
      const buffers = [0, 1].map(() => new PartBuffer(deps.partBytes + LINE_HEADROOM_BYTES));
      const progress = partsHeartbeat(context, { partNumber, rowsWritten: cursor });
      let sending: Promise<void> = Promise.resolve();
      do {
        const to = { into: buffers[partNumber % 2], heartbeat: progress.heartbeat };
        const part = await fillPart(deps, exp, { partNumber: partNumber + 1, cursor, hash }, to);
        partNumber = part.partNumber;
        cursor = part.lastOrdinal;
        await sending;
        sending = sendPart(deps, exp, uploadId, part).then(() => progress.sent(part));
        // Its failure is thrown where it is awaited: before the next part is sent, or below.
        sending.catch(() => undefined);
      } while (cursor < exp.rows_in_snapshot);
      await sending;
      return { parts: partNumber, rowsWritten: cursor };
    },

    /**
     * Completes the multipart upload from the recorded parts (an empty file is put whole), checks that S3 holds the
     * recorded size, and records size and SHA-256. A retry after S3 completed the upload finds the object instead.
     */
    async completeExport(input: ExportInput): Promise<ExportResult> {
      const exp = await runningExport(deps, input.exportId);
      const parts = await selectParts(deps.dataSource, exp.id);
      const sizeBytes = parts.reduce((total, part) => total + part.size_bytes, 0);
      const sha256 = parts.length
        ? ResumableSha256.restore(parts[parts.length - 1].hash_state).hex()
        : new ResumableSha256().hex();
      if (parts.length === 0) {
        await deps.s3.send(
          new PutObjectCommand({
            Bucket: deps.bucket,
            Key: exp.object_key,
            Body: Buffer.alloc(0),
            ContentLength: 0,
            ContentType: exportMediaType(exp.format),
          }),
        );
      } else {
        try {
          await deps.s3.send(
            new CompleteMultipartUploadCommand({
              Bucket: deps.bucket,
              Key: exp.object_key,
              UploadId: exp.upload_id as string,
              MultipartUpload: { Parts: parts.map((p) => ({ PartNumber: p.part_number, ETag: p.etag })) },
            }),
          );
        } catch (error) {
          // Completed by an earlier attempt that died before recording it: the object is checked below.
          if (!(error instanceof NoSuchUpload || isS3Code(error, 'NoSuchUpload'))) throw error;
        }
      }
      const head = await deps.s3.send(new HeadObjectCommand({ Bucket: deps.bucket, Key: exp.object_key }));
      if (head.ContentLength !== sizeBytes) {
        throw ApplicationFailure.nonRetryable(
          `export ${exp.id}: S3 holds ${head.ContentLength} bytes, the recorded parts ${sizeBytes}`,
          'export_size_mismatch',
        );
      }
      await deps.dataSource.transaction((tx) => finishExport(tx, exp.id, { sizeBytes, sha256 }));
      return { exportId: exp.id, rowsWritten: exp.rows_in_snapshot, sizeBytes, sha256, parts: parts.length };
    },

    /** Records a failed (or cancelled) export and frees what it held: the unfinished upload and the snapshot. */
    async failExport(input: ExportInput & { error: string }): Promise<void> {
      const exp = await selectExportToWrite(deps.dataSource, input.exportId);
      if (!exp) return;
      if (exp.upload_id) await abortUpload(deps, exp.object_key, exp.upload_id);
      await deps.dataSource.transaction(async (tx) => {
        await markExportFailed(tx, exp.id, input.error);
        await deleteSnapshot(tx, exp.id);
      });
    },
  };
}

function isS3Code(error: unknown, code: string): boolean {
  return (
    error instanceof S3ServiceException && (error.name === code || (error as { Code?: string }).Code === code)
  );
}

async function abortUpload(deps: Pick<ExportActivityDeps, 's3' | 'bucket'>, key: string, uploadId: string) {
  try {
    await deps.s3.send(
      new AbortMultipartUploadCommand({ Bucket: deps.bucket, Key: key, UploadId: uploadId }),
    );
  } catch (error) {
    if (!(error instanceof NoSuchUpload || isS3Code(error, 'NoSuchUpload'))) throw error;
  }
}

/**
 * Removes expired exports' files (and any unfinished upload) and marks them EXPIRED; the row stays, so a download
 * of an expired export is told so (410) rather than not found. Returns how many it purged.
 */
export async function purgeExpiredExports(
  deps: Pick<ExportActivityDeps, 'dataSource' | 's3' | 'bucket'>,
  logger: Logger,
): Promise<number> {
  let purged = 0;
  for (;;) {
    const batch = await selectExpiredExports(deps.dataSource, 100);
    for (const exp of batch) {
      if (exp.upload_id) await abortUpload(deps, exp.object_key, exp.upload_id).catch(() => undefined);
      await deps.s3.send(new DeleteObjectCommand({ Bucket: deps.bucket, Key: exp.object_key }));
      await deps.dataSource.transaction((tx) => markExportExpired(tx, exp.id));
      purged += 1;
    }
    if (batch.length < 100) break;
  }
  if (purged > 0) logger.info({ purged }, 'expired exports purged');
  return purged;
}

/** Runs {@link purgeExpiredExports} at start and then every interval until stopped. */
export class ExportPurge {
  private timer: NodeJS.Timeout | null = null;
  private current: Promise<unknown> = Promise.resolve();
  private stopped = false;

  constructor(
    private readonly deps: Pick<ExportActivityDeps, 'dataSource' | 's3' | 'bucket'>,
    private readonly intervalMs: number,
    private readonly logger: Logger,
  ) {}

  start(): void {
    this.schedule(0);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.current;
  }

  private schedule(delayMs: number): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.current = purgeExpiredExports(this.deps, this.logger)
        .catch((error: unknown) =>
          this.logger.warn({ err: error }, 'export purge failed; retried next interval'),
        )
        .finally(() => this.schedule(this.intervalMs));
    }, delayMs);
    this.timer.unref();
  }
}
