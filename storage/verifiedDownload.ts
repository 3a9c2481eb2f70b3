import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { Readable, Transform, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { GetObjectCommand, NoSuchKey, type S3Client, S3ServiceException } from '@aws-sdk/client-s3';
import { removeSpool, SPOOL_CHUNK_BYTES, spoolPath } from './spool';

/** An object as recorded at write time: where it is and what its bytes must be. */
export interface RecordedObject {
  key: string;
  sizeBytes: number;
  sha256: string;
}

/** The object is not in S3 although a record points at it. */
export class StoredObjectMissingError extends Error {
  constructor(readonly key: string) {
    super(`S3 holds no object ${key}`);
    this.name = 'StoredObjectMissingError';
  }
}

/** S3 holds other bytes than the recorded ones (another size, or another SHA-256). */
export class StoredObjectMismatchError extends Error {
  constructor(
    readonly key: string,
    readonly expected: { sizeBytes: number; sha256: string },
    /** What S3 returned: its size (null when it ran past the recorded size and was cut off) and SHA-256 (null when not read to the end). */
    readonly actual: { sizeBytes: number | null; sha256: string | null },
  ) {
    super(
      `S3 object ${key} is ${actual.sizeBytes ?? 'more than ' + expected.sizeBytes} bytes with SHA-256 ` +
        `${actual.sha256 ?? 'unknown'}; recorded ${expected.sizeBytes} bytes with SHA-256 ${expected.sha256}`,
    );
    this.name = 'StoredObjectMismatchError';
  }
}

/** Bytes that passed verification and have not been served yet. */
export interface VerifiedObject {
  readonly sizeBytes: number;
  readonly sha256: string;
  /** Where the verified bytes wait: in memory (small objects) or in a temporary file. */
  readonly spooledTo: 'memory' | 'file';
  /** The object's S3 ETag as read (null if S3 sent none): what a cached copy is later checked against. */
  readonly etag: string | null;
  /** The verified bytes for a cache to keep, before `open` (a file stays the caller's until it closes). */
  cacheSource(): { bytes: Buffer } | { file: string };
  /** The verified bytes; call once. The spool is freed when the stream closes (ended or destroyed). */
  open(): Readable;
  /** Frees the spool when `open` will not be called; harmless after `open` or twice. */
  dispose(): Promise<void>;
}

export interface VerifiedDownloadOptions {
  /** Objects up to this size are verified in memory, larger ones through a temporary file (default 1 MiB). */
  memoryLimitBytes?: number;
  /** Folder of temporary files (default `REFEREE_SPOOL_DIR` or the OS temporary folder). */
  spoolDir?: string;
  /** Aborts the S3 read, e.g. when the HTTP client went away. */
  signal?: AbortSignal;
  /** Bytes buffered per write and read of the temporary file (default 1 MiB; Node's own are 16 and 64 KiB). */
  spoolChunkBytes?: number;
}

/** Objects up to this size are verified in memory by default, larger ones through a temporary file. */
export const VERIFY_IN_MEMORY_BYTES = 1024 * 1024;

class RanPastRecordedSize extends Error {}

/**
 * Reads an object once from S3 through SHA-256 and keeps the bytes aside (in memory up to
 * `memoryLimitBytes`, else in a temporary file) until size and digest match the record. Nothing is
 * returned before that, so a caller never serves an unverified byte, and memory stays bounded whatever
 * the object's size. A read stops as soon as it runs past the recorded size.
 *
 * Throws {@link StoredObjectMissingError} or {@link StoredObjectMismatchError}; S3 and network
 * failures are rethrown as they are.
 */
export async function fetchVerifiedObject(
  s3: S3Client,
  bucket: string,
  recorded: RecordedObject,
  options: VerifiedDownloadOptions = {},
): Promise<VerifiedObject> {
  const expected = { sizeBytes: recorded.sizeBytes, sha256: recorded.sha256 };
  const object = await getObject(s3, bucket, recorded.key, options.signal);
  const body = object.Body as Readable | undefined;
  if (!body) throw new StoredObjectMissingError(recorded.key);
  if (object.ContentLength !== undefined && object.ContentLength !== recorded.sizeBytes) {
    body.destroy();
    throw new StoredObjectMismatchError(recorded.key, expected, {
      sizeBytes: object.ContentLength,
      sha256: null,
    });
  }

  const hash = createHash('sha256');
  let sizeBytes = 0;
  const meter = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      sizeBytes += chunk.length;
      if (sizeBytes > recorded.sizeBytes) return callback(new RanPastRecordedSize());
      hash.update(chunk);
      callback(null, chunk);
    },
  });

  const inMemory = recorded.sizeBytes <= (options.memoryLimitBytes ?? VERIFY_IN_MEMORY_BYTES);
  const chunks: Buffer[] = [];
  const path = inMemory ? null : spoolPath(options.spoolDir);
  const spoolChunk = options.spoolChunkBytes ?? SPOOL_CHUNK_BYTES;
  // The spool file exists before streaming starts, so removing it on a failure never races its creation.
  const sink = path
    ? (await openSpool(path, body)).createWriteStream({ highWaterMark: spoolChunk })
    : new Writable({
        write(chunk: Buffer, _encoding, callback) {
          chunks.push(chunk);
          callback();
        },
      });
  const freeSpool = async () => {
    chunks.length = 0;
    if (path) await removeSpool(path);
  };

  try {
    await pipeline(body, meter, sink, { signal: options.signal });
  } catch (error) {
    await freeSpool();
    if (error instanceof RanPastRecordedSize) {
      throw new StoredObjectMismatchError(recorded.key, expected, { sizeBytes: null, sha256: null });
    }
    throw error;
  }
  const sha256 = hash.digest('hex');
  if (sizeBytes !== recorded.sizeBytes || sha256 !== recorded.sha256) {
    await freeSpool();
    throw new StoredObjectMismatchError(recorded.key, expected, { sizeBytes, sha256 });
  }

  let opened = false;
  return {
    sizeBytes,
    sha256,
    spooledTo: path ? 'file' : 'memory',
    etag: object.ETag ?? null,
    cacheSource() {
      if (path) return { file: path };
      const bytes = Buffer.concat(chunks);
      chunks.length = 0;
      chunks.push(bytes);
      return { bytes };
    },
    open() {
      if (opened) throw new Error('A verified object is served once');
      opened = true;
      // The chunks as S3 sent them: joining them first would copy every byte once more.
      if (!path) return Readable.from(chunks.splice(0), { objectMode: false });
      const stream = createReadStream(path, { highWaterMark: spoolChunk });
      stream.once('close', () => void removeSpool(path).catch(() => undefined));
      return stream;
    },
    async dispose() {
      if (!opened) await freeSpool();
    },
  };
}

async function openSpool(path: string, body: Readable) {
  try {
    return await open(path, 'wx', 0o600);
  } catch (error) {
    body.destroy();
    throw error;
  }
}

async function getObject(s3: S3Client, bucket: string, key: string, signal: AbortSignal | undefined) {
  try {
    return await s3.send(new GetObjectCommand({ Bucket: bucket, Key: key }), { abortSignal: signal });
  } catch (error) {
    if (error instanceof NoSuchKey) throw new StoredObjectMissingError(key);
    if (error instanceof S3ServiceException && error.$metadata.httpStatusCode === 404) {
      throw new StoredObjectMissingError(key);
    }
    throw error;
  }
}
