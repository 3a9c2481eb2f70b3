import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { readFile } from 'node:fs/promises';
import {
  HeadObjectCommand,
  NotFound,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';

/** Where and how to reach S3; endpoint and keys fall back to the SDK's defaults when absent. */
export interface S3Connection {
  endpoint?: string;
  region: string;
  accessKeyId?: string;
  secretAccessKey?: string;
  /** Default true: S3-compatible servers on one host have no per-bucket DNS names. */
  forcePathStyle?: boolean;
  /** Deadline to open a connection, and longest silence of a request's connection (default: the SDK's, none). */
  connectTimeoutMs?: number;
  requestTimeoutMs?: number;
}

/**
 * The one place S3 clients are built. Path-style for S3-compatible servers; the SDK's own CRC
 * checksums and streaming trailers are turned off because not every S3 server speaks them (versitygw
 * refuses small streamed chunks with them), and the service verifies SHA-256 itself.
 */
export function createS3Client(conn: S3Connection): S3Client {
  return new S3Client({
    endpoint: conn.endpoint,
    region: conn.region,
    forcePathStyle: conn.forcePathStyle ?? true,
    credentials:
      conn.accessKeyId && conn.secretAccessKey
        ? { accessKeyId: conn.accessKeyId, secretAccessKey: conn.secretAccessKey }
        : undefined,
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    requestHandler: { connectionTimeout: conn.connectTimeoutMs, requestTimeout: conn.requestTimeoutMs },
  });
}

export interface ContentDigest {
  sha256: string;
  sizeBytes: number;
}

/** Objects are content-addressed: the same bytes are stored once, whatever imported them. */
export const objectKeyFor = (sha256: string): string => `sha256/${sha256.slice(0, 2)}/${sha256}`;

/** Files up to this size are hashed from one read. */
const WHOLE_READ_MAX_BYTES = 1024 * 1024;

/** A file's SHA-256 and size; a large one (or one of unknown size) is streamed, never held in memory. */
export async function digestFile(path: string, knownSizeBytes?: number): Promise<ContentDigest> {
  // A small file is read whole: one read instead of a stream's machinery (a bundle holds thousands of them).
  if (knownSizeBytes !== undefined && knownSizeBytes <= WHOLE_READ_MAX_BYTES) {
    const bytes = await readFile(path);
    return { sha256: createHash('sha256').update(bytes).digest('hex'), sizeBytes: bytes.length };
  }
  const hash = createHash('sha256');
  let sizeBytes = 0;
  for await (const chunk of createReadStream(path)) {
    hash.update(chunk as Buffer);
    sizeBytes += (chunk as Buffer).length;
  }
  return { sha256: hash.digest('hex'), sizeBytes };
}

/** Size of an object, or null when it does not exist. */
export async function headObjectSize(s3: S3Client, bucket: string, key: string): Promise<number | null> {
  try {
    const head = await s3.send(new HeadObjectCommand({ Bucket: bucket, Key: key }));
    return head.ContentLength ?? null;
  } catch (error) {
    if (error instanceof NotFound) return null;
    if (error instanceof S3ServiceException && error.$metadata.httpStatusCode === 404) return null;
    throw error;
  }
}

/** The bytes S3 received are not the ones the digest describes (the file changed since it was hashed). */
export class ContentChangedError extends Error {
  constructor(readonly key: string) {
    super(`S3 refused ${key}: the bytes sent do not have the SHA-256 the upload declared`);
    this.name = 'ContentChangedError';
  }
}

/**
 * Uploads a local file under its content address. S3 checks the declared SHA-256 (`x-amz-checksum-sha256`)
 * before it stores anything, so no object under a content address ever holds other bytes, and the file is
 * read once. With `skipIfStored` an object of the same size already there is kept (one HEAD first); an
 * import of a run seen before asks for that, a first import does not (its files are almost all new).
 * Returns whether bytes were sent.
 */
export interface ContentAddressedFile {
  /** The local file to send. */
  path: string;
  /** Its size and SHA-256, computed beforehand; the SHA-256 is the object's address. */
  digest: ContentDigest;
  contentType: string;
  /** Keep an object of the same size already stored under the address (one HEAD first). */
  skipIfStored: boolean;
}

export async function putFileContentAddressed(
  s3: S3Client,
  bucket: string,
  file: ContentAddressedFile,
): Promise<{ key: string; uploaded: boolean }> {
  const { path, digest, contentType } = file;
  const key = objectKeyFor(digest.sha256);
  if (file.skipIfStored && (await headObjectSize(s3, bucket, key)) === digest.sizeBytes)
    return { key, uploaded: false };
  try {
    await s3.send(
      new PutObjectCommand({
        Bucket: bucket,
        Key: key,
        Body: createReadStream(path),
        ContentLength: digest.sizeBytes,
        ContentType: contentType,
        ChecksumSHA256: Buffer.from(digest.sha256, 'hex').toString('base64'),
        Metadata: { sha256: digest.sha256 },
      }),
    );
  } catch (error) {
    if (error instanceof S3ServiceException && error.name === 'BadDigest') throw new ContentChangedError(key);
    throw error;
  }
  return { key, uploaded: true };
}
