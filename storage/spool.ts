import { randomUUID } from 'node:crypto';
import { unlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Bytes per write and read of a spool or cached file: fewer, larger system calls than Node's stream defaults
 * (16 KiB writes, 64 KiB reads), for the cold and warm downloads (docs/benchmark.md, "What bounds each miss").
 */
export const SPOOL_CHUNK_BYTES = 1024 * 1024;

/**
 * A fresh path for a temporary spool file (created by the caller with flags `wx`, mode 0600).
 * `REFEREE_SPOOL_DIR` moves spools off the default temporary folder.
 */
export function spoolPath(dir = process.env.REFEREE_SPOOL_DIR || tmpdir()): string {
  return join(dir, `referee-spool-${randomUUID()}`);
}

/** Removes a spool file; a file already gone is fine. */
export async function removeSpool(path: string): Promise<void> {
  await unlink(path).catch((error: NodeJS.ErrnoException) => {
    if (error.code !== 'ENOENT') throw error;
  });
}
