import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { HeadObjectCommand, PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { removeSpool, spoolPath } from './spool';

/** The body ran past the allowed size; what was read so far has been thrown away. */
export class UploadTooLargeError extends Error {
  constructor(readonly limitBytes: number) {
    super(`The upload exceeds ${limitBytes} bytes`);
    this.name = 'UploadTooLargeError';
  }
}

/** The sender stopped (connection closed or stream failed) before the body ended. */
export class UploadIncompleteError extends Error {
  constructor(cause?: unknown) {
    super('The upload ended before its last byte', { cause });
    this.name = 'UploadIncompleteError';
  }
}

/** Bytes received in full, measured, waiting in a temporary file. */
export interface SpooledUpload {
  path: string;
  sizeBytes: number;
  sha256: string;
  /** Base64 MD5, sent as Content-MD5 so S3 itself refuses bytes damaged on the way. */
  md5Base64: string;
  /** The first bytes (up to `headBytes`), for judging a file by its magic number. */
  head: Buffer;
  /** Deletes the temporary file; harmless twice. */
  dispose(): Promise<void>;
}

export interface SpoolOptions {
  /** Largest body accepted; one byte more rejects with {@link UploadTooLargeError}. */
  maxBytes: number;
  /** How many leading bytes to keep in `head` (default 32). */
  headBytes?: number;
  /** Folder of temporary files (default `REFEREE_SPOOL_DIR` or the OS temporary folder). */
  spoolDir?: string;
  /**
   * After a refusal the rest of the body is read and thrown away so the sender can read the answer; past
   * this many further bytes the source is destroyed instead (default 64 MiB).
   */
  discardLimitBytes?: number;
}

/**
 * Streams a body into a temporary file while hashing (SHA-256 and MD5) and counting it, so nothing is
 * held in memory and nothing reaches S3 before the whole body is known to be acceptable. The source is
 * never destroyed on a refusal (an HTTP request stays answerable); its remaining bytes are discarded.
 */
export async function spoolWithDigest(source: Readable, options: SpoolOptions): Promise<SpooledUpload> {
  const path = spoolPath(options.spoolDir);
  // Created before the first byte arrives, so removing it on a refusal never races its creation.
  const handle = await open(path, 'wx', 0o600);
  const headLimit = options.headBytes ?? 32;
  const sha256 = createHash('sha256');
  const md5 = createHash('md5');
  const head: Buffer[] = [];
  let headLength = 0;
  let sizeBytes = 0;

  return new Promise((resolve, reject) => {
    const file = handle.createWriteStream();
    let settled = false;

    const detach = () => {
      source.off('data', onData);
      source.off('end', onEnd);
      source.off('error', onSourceError);
      source.off('close', onSourceClose);
    };
    const fail = (error: Error) => {
      if (settled) return;
      settled = true;
      detach();
      file.destroy();
      discardRest(source, options.discardLimitBytes);
      // Settled once the spool file is gone, so a refused upload never leaves a file behind its answer.
      void removeSpool(path)
        .catch(() => undefined)
        .then(() => reject(error));
    };
    const onData = (chunk: Buffer) => {
      sizeBytes += chunk.length;
      if (sizeBytes > options.maxBytes) return fail(new UploadTooLargeError(options.maxBytes));
      sha256.update(chunk);
      md5.update(chunk);
      if (headLength < headLimit) {
        const piece = chunk.subarray(0, headLimit - headLength);
        head.push(piece);
        headLength += piece.length;
      }
      if (!file.write(chunk)) {
        source.pause();
        file.once('drain', () => source.resume());
      }
    };
    const onEnd = () => {
      if (settled) return;
      detach();
      file.end(() => {
        if (settled) return;
        settled = true;
        resolve({
          path,
          sizeBytes,
          sha256: sha256.digest('hex'),
          md5Base64: md5.digest('base64'),
          head: Buffer.concat(head),
          dispose: () => removeSpool(path),
        });
      });
    };
    const onSourceError = (error: Error) => fail(new UploadIncompleteError(error));
    const onSourceClose = () => {
      if (!source.readableEnded) fail(new UploadIncompleteError());
    };

    file.once('error', (error) => fail(error));
    source.on('data', onData);
    source.once('end', onEnd);
    source.once('error', onSourceError);
    source.once('close', onSourceClose);
    // The sender may have gone while the spool file was being opened.
    if (source.destroyed && !source.readableEnded) return fail(new UploadIncompleteError());
    source.resume();
  });
}

/**
 * Reads and drops what a source still sends, so an HTTP sender gets to read a refusal instead of a reset;
 * a source sending more than `limitBytes` is destroyed.
 */
export function discardRest(source: Readable, limitBytes = 64 * 1024 * 1024): void {
  if (source.readableEnded || source.destroyed) return;
  let discarded = 0;
  source.on('data', (chunk: Buffer) => {
    discarded += chunk.length;
    if (discarded > limitBytes) source.destroy();
  });
  source.on('error', () => undefined);
  source.resume();
}

/** Uploads and attachments live apart from imported artifacts, content-addressed under their own prefix. */
export const uploadObjectKeyFor = (sha256: string): string =>
  `uploads/sha256/${sha256.slice(0, 2)}/${sha256}`;

/**
 * Stores a spooled upload under `key` (always written, so a damaged older copy is replaced by the
 * verified bytes), with Content-MD5 so S3 refuses bytes damaged on the way, then checks the stored size.
 */
export async function putSpooledObject(
  s3: S3Client,
  bucket: string,
  spooled: SpooledUpload,
  target: { key: string; contentType: string },
): Promise<void> {
  await s3.send(
    new PutObjectCommand({
      Bucket: bucket,
      Key: target.key,
      Body: createReadStream(spooled.path),
      ContentLength: spooled.sizeBytes,
      ContentMD5: spooled.md5Base64,
      ContentType: target.contentType,
      Metadata: { sha256: spooled.sha256 },
    }),
  );
  const head = await s3.send(new HeadObjectCommand({ Bucket: bucket, Key: target.key }));
  if (head.ContentLength !== spooled.sizeBytes) {
    throw new Error(
      `S3 holds ${head.ContentLength ?? 'no'} bytes for ${target.key}, expected ${spooled.sizeBytes}`,
    );
  }
}
