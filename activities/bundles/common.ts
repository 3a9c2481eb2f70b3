import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { open, readFile, realpath, stat } from 'node:fs/promises';
import { isAbsolute, join, normalize, sep } from 'node:path';
import { createInterface } from 'node:readline';
import { digestFile } from '../../storage/objectStore';
import { forEachLimit } from '../../concurrency/limit';

/**
 * What every bundle check shares: its problems, reading the bundle's JSON and JSONL files and its format, checking
 * the files a manifest names, and the bundle's digest. Schemas are in schema.ts, record lists in records.ts,
 * duplicate keys in uniqueKeys.ts.
 */

/** One thing wrong with a bundle: the file, its JSON path (`$.tasks.3.report_id`), a line for JSONL files. */
export interface BundleProblem {
  file: string;
  path: string;
  message: string;
  /** 1-based line of a JSONL file; its `path` is then relative to that line's record. */
  line?: number;
}

export const describeProblem = (p: BundleProblem): string =>
  `${p.file}${p.line === undefined ? '' : `:${p.line}`} ${p.path}: ${p.message}`;

/** A bundle that cannot be imported, with every problem found (never only the first). */
export class InvalidBundleError extends Error {
  constructor(readonly problems: BundleProblem[]) {
    super(
      `Invalid bundle (${problems.length} problems):\n${problems.map((p) => `  ${describeProblem(p)}`).join('\n')}`,
    );
    this.name = 'InvalidBundleError';
  }
}

/** Collects problems; `at` is the one way validation code reports one. */
export class ProblemList {
  readonly items: BundleProblem[] = [];

  at(file: string, path: string, message: string, line?: number): void {
    this.items.push(line === undefined ? { file, path, message } : { file, path, message, line });
  }

  get empty(): boolean {
    return this.items.length === 0;
  }

  throwIfAny(): void {
    if (!this.empty) throw new InvalidBundleError(this.items);
  }
}

/** Reads and parses a JSON file of the bundle; a missing or malformed file is a problem, not a crash. */
export async function readBundleJson(
  bundleDir: string,
  file: string,
  problems: ProblemList,
): Promise<{ value: unknown; sha256: string } | null> {
  let raw: Buffer;
  try {
    raw = await readFile(join(bundleDir, file));
  } catch (error) {
    problems.at(file, '$', fileErrorMessage(error));
    return null;
  }
  const sha256 = createHash('sha256').update(raw).digest('hex');
  try {
    return { value: JSON.parse(raw.toString('utf8')), sha256 };
  } catch (error) {
    problems.at(file, '$', `is not valid JSON: ${(error as Error).message}`);
    return null;
  }
}

/** The records of a JSONL file, one per non-blank line, parsed; a line that is not JSON carries its error. */
export async function* jsonLines(
  path: string,
): AsyncGenerator<{ line: number; value?: unknown; error?: string }> {
  const lines = createInterface({ input: createReadStream(path), crlfDelay: Infinity });
  let line = 0;
  for await (const text of lines) {
    line += 1;
    if (text.trim() === '') continue;
    try {
      yield { line, value: JSON.parse(text) };
    } catch (error) {
      yield { line, error: `is not valid JSON: ${(error as Error).message}` };
    }
  }
}

const fileErrorMessage = (error: unknown) =>
  (error as NodeJS.ErrnoException).code === 'ENOENT'
    ? 'file not found'
    : `cannot be read: ${(error as Error).message}`;

/** Why a manifest path is not a relative path inside the bundle, or null when it is. */
export function bundlePathProblem(path: string): string | null {
  const normalized = normalize(path);
  if (isAbsolute(path) || path.includes('\\') || normalized === '..' || normalized.startsWith(`..${sep}`))
    return 'must be a relative path inside the bundle';
  return null;
}

/** A file the manifest names, with what it says about it and where it says it. */
export interface BundleFileRef {
  path: string;
  sha256?: string;
  sizeBytes?: number;
  /**
   * Where the bundle names it (`$.artifacts.3`, or `$` on a line of a JSONL file); problems point at `<at>.path`,
   * `.sha256`, `.size_bytes`.
   */
  at: { file: string; path: string; line?: number };
  /** The field holding the path, when not `path` (`markdown_path`). */
  pathField?: string;
}

export interface FileDigest {
  sha256: string;
  sizeBytes: number;
}

/**
 * Checks every file the manifest names: it exists inside the bundle (symbolic links included), is a regular
 * file, and has the size and SHA-256 the manifest gives. Each path is hashed once, paths already in `digests`
 * (from an earlier batch of the same bundle) not again; returns `digests` with the new ones added.
 */
export async function checkBundleFiles(
  bundleDir: string,
  refs: BundleFileRef[],
  problems: ProblemList,
  digests = new Map<string, FileDigest>(),
  concurrency = 8,
): Promise<Map<string, FileDigest>> {
  const root = await realpath(bundleDir);
  const byPath = new Map<string, BundleFileRef[]>();
  for (const ref of refs) byPath.set(ref.path, [...(byPath.get(ref.path) ?? []), ref]);
  const found = new Map<string, string>();
  const unhashed = [...byPath.keys()].filter((path) => !digests.has(path));
  await forEachLimit(unhashed, concurrency, async (path) => {
    const file = join(bundleDir, path);
    try {
      const resolved = await realpath(file);
      if (resolved !== root && !resolved.startsWith(`${root}${sep}`)) {
        found.set(path, 'resolves outside the bundle');
        return;
      }
      const info = await stat(resolved);
      if (!info.isFile()) {
        found.set(path, 'is not a regular file');
        return;
      }
      digests.set(path, await digestFile(resolved, info.size));
    } catch (error) {
      found.set(path, fileErrorMessage(error));
    }
  });
  for (const ref of refs) {
    const failure = found.get(ref.path);
    if (failure) {
      problems.at(
        ref.at.file,
        `${ref.at.path}.${ref.pathField ?? 'path'}`,
        `${ref.path}: ${failure}`,
        ref.at.line,
      );
      continue;
    }
    const digest = digests.get(ref.path);
    if (!digest) continue;
    const says = ref.at.line === undefined ? 'the manifest says' : 'its record says';
    if (ref.sizeBytes !== undefined && ref.sizeBytes !== digest.sizeBytes)
      problems.at(
        ref.at.file,
        `${ref.at.path}.size_bytes`,
        `${ref.path} has ${digest.sizeBytes} bytes, ${says} ${ref.sizeBytes}`,
        ref.at.line,
      );
    if (ref.sha256 !== undefined && ref.sha256 !== digest.sha256)
      problems.at(
        ref.at.file,
        `${ref.at.path}.sha256`,
        `${ref.path} has SHA-256 ${digest.sha256}, ${says} ${ref.sha256}`,
        ref.at.line,
      );
  }
  return digests;
}

/**
 * The bundle's identity: its record files' bytes and every file it names (`paths`, each with its digest in
 * `digests`), as hashed. An unchanged digest means nothing to import, even for files the manifest gives no
 * checksum for. Only the paths are copied to be sorted: at a million records, an object per file would be tens
 * of MiB more at the checks' peak.
 */
export function bundleDigest(
  recordsSha256: string,
  paths: Iterable<string>,
  digests: ReadonlyMap<string, FileDigest>,
): string {
  const hash = createHash('sha256').update(`records ${recordsSha256}\n`);
  for (const path of [...paths].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))) {
    const { sha256, sizeBytes } = digests.get(path) as FileDigest;
    hash.update(`${sha256} ${sizeBytes} ${path}\n`);
  }
  return hash.digest('hex');
}

/** SHA-256 over several record files' digests, in order (manifest.json first). */
export const combinedSha256 = (digests: string[]): string =>
  digests.length === 1 ? digests[0] : createHash('sha256').update(digests.join('\n')).digest('hex');

/** The `format` field of a bundle's manifest (how `ops import` tells the services' bundles apart). */
export async function readBundleFormat(bundleDir: string): Promise<string | null> {
  try {
    // Large inline manifests are read whole only when `format` is not near their start.
    const handle = await open(join(bundleDir, 'manifest.json'));
    const head = await handle.read(Buffer.alloc(65_536), 0, 65_536, 0).finally(() => handle.close());
    const match = /^\s*\{\s*"format"\s*:\s*("(?:[^"\\]|\\.)*")/.exec(
      head.buffer.toString('utf8', 0, head.bytesRead),
    );
    if (match) return JSON.parse(match[1]) as string;
    const manifest = JSON.parse(await readFile(join(bundleDir, 'manifest.json'), 'utf8')) as {
      format?: unknown;
    };
    return typeof manifest.format === 'string' ? manifest.format : null;
  } catch {
    return null;
  }
}
