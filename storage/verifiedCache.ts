import { randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { copyFile, link, mkdir, mkdtemp, rename, rm, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { SPOOL_CHUNK_BYTES } from './spool';

/** A verified object kept on local disk, and the S3 ETag it had when it was verified. */
export interface CachedObject {
  sha256: string;
  sizeBytes: number;
  etag: string;
  path: string;
  /** When S3 last showed the object with that ETag and size (the process's monotonic clock, ms). */
  checkedAt: number;
}

export interface VerifiedCacheOptions {
  /** The folder that holds each cache's own owner-only folder (default: the OS temporary folder). */
  parentDir?: string;
  /** Bytes kept at most; the least recently served objects are removed first. */
  maxBytes: number;
  /**
   * How long after S3 last showed an object unchanged its copy is served without asking S3 again (ms); 0 asks
   * before every serve. The bytes served are the verified ones either way: this bounds how late an object
   * altered or deleted in S3 is noticed, refused and audited.
   */
  recheckAfterMs: number;
  /** The clock `checkedAt` is read from (default `performance.now`). */
  now?: () => number;
  onError?: (error: unknown) => void;
}

/**
 * Objects that passed verification (size and SHA-256 against their record), kept on local disk so the next
 * download of the same content is served from a file instead of S3. Content-addressed and immutable: a
 * file is named by its SHA-256 and never rewritten. Bounded by `maxBytes` (least recently served evicted
 * first), in a folder only this process's user can read (0700, files 0600), created empty at start and
 * removed at close. Each process keeps its own folder, so no process evicts a file another one serves.
 */
export class VerifiedObjectCache {
  private readonly entries = new Map<string, CachedObject>();
  private totalBytes = 0;
  private dir: string | null = null;
  private readonly onError: (error: unknown) => void;
  private readonly now: () => number;

  constructor(private readonly options: VerifiedCacheOptions) {
    this.onError = options.onError ?? (() => undefined);
    this.now = options.now ?? (() => performance.now());
  }

  async start(): Promise<void> {
    const parent = this.options.parentDir ?? tmpdir();
    await mkdir(parent, { recursive: true });
    this.dir = await mkdtemp(join(parent, 'referee-verified-'));
  }

  get usedBytes(): number {
    return this.totalBytes;
  }

  /** The cached copy of these bytes, if any; marks it most recently used. */
  lookup(sha256: string, sizeBytes: number): CachedObject | undefined {
    const entry = this.entries.get(sha256);
    if (!entry || entry.sizeBytes !== sizeBytes) return undefined;
    this.entries.delete(sha256);
    this.entries.set(sha256, entry);
    return entry;
  }

  /** Whether S3 must be asked again (same ETag and size) before this copy is served. */
  needsRecheck(entry: CachedObject): boolean {
    return this.now() - entry.checkedAt >= this.options.recheckAfterMs;
  }

  /** S3 has just shown the object unchanged. */
  markChecked(entry: CachedObject): void {
    entry.checkedAt = this.now();
  }

  open(entry: CachedObject): Readable {
    return createReadStream(entry.path, { highWaterMark: SPOOL_CHUNK_BYTES });
  }

  /** Forgets an object (S3 no longer holds what was verified); a stream already open keeps reading. */
  async evict(sha256: string): Promise<void> {
    const entry = this.entries.get(sha256);
    if (!entry) return;
    this.entries.delete(sha256);
    this.totalBytes -= entry.sizeBytes;
    await unlink(entry.path).catch(() => undefined);
  }

  /**
   * Keeps verified bytes, given as a buffer or as a verified temporary file (linked, else copied; the
   * caller still owns and removes it). Never throws: a failure only means the next read goes to S3.
   */
  async admit(
    object: { sha256: string; sizeBytes: number; etag: string },
    source: { bytes: Buffer } | { file: string },
  ): Promise<void> {
    if (!this.dir || object.sizeBytes > this.options.maxBytes || this.entries.has(object.sha256)) return;
    const path = join(this.dir, object.sha256);
    const partial = join(this.dir, `.${object.sha256}.${randomUUID()}`);
    try {
      if ('bytes' in source) await writeFile(partial, source.bytes, { mode: 0o600, flag: 'wx' });
      else await link(source.file, partial).catch(() => copyFile(source.file, partial));
      await rename(partial, path);
    } catch (error) {
      await unlink(partial).catch(() => undefined);
      this.onError(error);
      return;
    }
    if (this.entries.has(object.sha256)) return;
    this.entries.set(object.sha256, { ...object, path, checkedAt: this.now() });
    this.totalBytes += object.sizeBytes;
    while (this.totalBytes > this.options.maxBytes) {
      const oldest = this.entries.keys().next().value as string;
      await this.evict(oldest);
    }
  }

  async close(): Promise<void> {
    const dir = this.dir;
    this.dir = null;
    this.entries.clear();
    this.totalBytes = 0;
    if (dir) await rm(dir, { recursive: true, force: true });
  }
}
