import type { Readable } from 'node:stream';
import type { CachedObject } from '../../storage/verifiedCache';

export type { CachedObject };

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
