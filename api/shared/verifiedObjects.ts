import type { Readable } from 'node:stream';

/** A verified object kept on local disk, and the S3 ETag it had when it was verified. */
export interface CachedObject {
  sha256: string;
  sizeBytes: number;
  etag: string;
  path: string;
}

/** What downloads need of the cache of verified objects (implemented by storage/verifiedCache.ts). */
export interface VerifiedObjects {
  lookup(sha256: string, sizeBytes: number): CachedObject | undefined;
  open(entry: CachedObject): Readable;
  evict(sha256: string): Promise<void>;
  admit(
    object: { sha256: string; sizeBytes: number; etag: string },
    source: { bytes: Buffer } | { file: string },
  ): Promise<void>;
}
