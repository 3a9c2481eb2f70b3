import type { Readable } from 'node:stream';

/** A verified object kept on local disk, and the S3 ETag it had when it was verified. */
export interface CachedObject {
  sha256: string;
  sizeBytes: number;
  etag: string;
  path: string;
  /** When S3 last showed the object with that ETag and size (monotonic clock, ms). */
  checkedAt: number;
}

/** What downloads need of the cache of verified objects (implemented by storage/verifiedCache.ts). */
export interface VerifiedObjects {
  lookup(sha256: string, sizeBytes: number): CachedObject | undefined;
  needsRecheck(entry: CachedObject): boolean;
  markChecked(entry: CachedObject): void;
  open(entry: CachedObject): Readable;
  evict(sha256: string): Promise<void>;
  admit(
    object: { sha256: string; sizeBytes: number; etag: string },
    source: { bytes: Buffer } | { file: string },
  ): Promise<void>;
}
