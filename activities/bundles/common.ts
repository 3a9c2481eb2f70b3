import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { open, readFile, realpath, stat } from 'node:fs/promises';
import { isAbsolute, join, normalize, sep } from 'node:path';
import { createInterface } from 'node:readline';
import Ajv2020, { type ErrorObject, type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { digestFile } from '../../storage/objectStore';
import { forEachLimit } from '../../concurrency/limit';
import { StringOrdinals } from './stringOrdinals';

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

let ajv: Ajv2020 | undefined;

/** The one Ajv instance for bundle schemas (JSON Schema 2020-12, every error, formats checked). */
function bundleAjv(): Ajv2020 {
  if (!ajv) {
    // useDefaults: absent optional fields take the schema's `default`, so the schema alone says what absence means.
    ajv = new Ajv2020({
      allErrors: true,
      strict: true,
      strictRequired: false,
      verbose: true,
      useDefaults: true,
    });
    addFormats(ajv, ['date-time']);
  }
  return ajv;
}

/** A compiled bundle schema: the whole manifest, and any of its `$defs` (for records read line by line). */
export interface BundleSchema {
  manifest: ValidateFunction;
  def(name: string): ValidateFunction;
}

/** Compiles a bundle's JSON Schema (by its `$id`, once per process). */
export function compileBundleSchema(schema: { $id: string }): BundleSchema {
  const instance = bundleAjv();
  if (!instance.getSchema(schema.$id)) instance.addSchema(schema);
  const get = (ref: string) => {
    const validate = instance.getSchema(ref);
    if (!validate) throw new Error(`no schema ${ref}`);
    return validate;
  };
  return { manifest: get(schema.$id), def: (name) => get(`${schema.$id}#/$defs/${name}`) };
}

/** `/tasks/3/report_id` → `$.tasks.3.report_id` (the path style of every problem). */
const dotted = (base: string, pointer: string) =>
  pointer === ''
    ? base
    : `${base}${pointer
        .split('/')
        .slice(1)
        .map((s) => `.${s.replace(/~1/g, '/').replace(/~0/g, '~')}`)
        .join('')}`;

const describedBy = (e: ErrorObject) =>
  typeof e.parentSchema?.description === 'string' ? e.parentSchema.description : null;

function messageOf(e: ErrorObject): { suffix: string; message: string } {
  const params = e.params as Record<string, unknown>;
  switch (e.keyword) {
    case 'required':
      return { suffix: `.${String(params.missingProperty)}`, message: 'is required' };
    case 'additionalProperties':
      return { suffix: `.${String(params.additionalProperty)}`, message: 'is not allowed' };
    case 'const':
      return { suffix: '', message: `must be ${JSON.stringify(params.allowedValue)}` };
    case 'enum':
      return { suffix: '', message: `must be one of ${(params.allowedValues as unknown[]).join(', ')}` };
    case 'type':
      return { suffix: '', message: `must be ${String(params.type).split(',').join(' or ')}` };
    case 'format':
      return {
        suffix: '',
        message: `must be a ${String(params.format)}${params.format === 'date-time' ? ' with a time zone (RFC 3339)' : ''}`,
      };
    case 'pattern':
    case 'oneOf':
    case 'anyOf':
    case 'not':
      return {
        suffix: '',
        message: describedBy(e) ? `must be ${describedBy(e)}` : (e.message ?? 'is invalid'),
      };
    default:
      return { suffix: '', message: e.message ?? 'is invalid' };
  }
}

/**
 * Ajv's errors as problems. Errors inside a failed `oneOf`/`anyOf`/`not` are folded into it (its
 * `description` says what was expected), so one mistake reads as one problem.
 */
export function schemaProblems(
  errors: ErrorObject[] | null | undefined,
  file: string,
  base = '$',
  line?: number,
): BundleProblem[] {
  const all = errors ?? [];
  const combinators = all.filter((e) => ['oneOf', 'anyOf', 'not'].includes(e.keyword));
  const folded = all.filter(
    (e) => !combinators.some((c) => c !== e && e.schemaPath.startsWith(`${c.schemaPath}/`)),
  );
  return folded.map((e) => {
    const { suffix, message } = messageOf(e);
    const path = `${dotted(base, e.instancePath)}${suffix}`;
    return line === undefined ? { file, path, message } : { file, path, message, line };
  });
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
 * Where each of a set of numbered things (a list's records by ordinal, say) was first seen; reports each repeat.
 * Places are a line in `linesOf`, the JSONL file most records come from (a number, so a million records cost no
 * million strings), or `<file> <path>` / `<file>:<line>` otherwise.
 */
export class FirstPlaces {
  private readonly places: Array<number | string | undefined> = [];
  private linesOf: string | undefined;

  constructor(
    private readonly problems: ProblemList,
    private readonly what: string,
  ) {}

  /** Records where `index` (shown as `shown`) was seen; false, with the repeat reported, when it was before. */
  add(index: number, shown: string, file: string, path: string, line?: number): boolean {
    const first = this.places[index];
    if (first !== undefined) {
      const where = typeof first === 'number' ? `${this.linesOf}:${first}` : first;
      this.problems.at(file, path, `duplicate ${this.what} "${shown}" (first at ${where})`, line);
      return false;
    }
    // Filled up to the index rather than assigned past the end, which would turn the array into a dictionary.
    while (this.places.length < index) this.places.push(undefined);
    this.places[index] =
      line !== undefined && (this.linesOf ??= file) === file
        ? line
        : line === undefined
          ? `${file} ${path}`
          : `${file}:${line}`;
    return true;
  }
}

/**
 * Reports each repeated key after its first occurrence, and numbers the keys in the order first seen, so what a
 * check keeps per key can be an array by ordinal rather than another map of a million strings.
 */
export class UniqueKeys {
  private readonly ordinals = new StringOrdinals();
  private readonly firstPlaces: FirstPlaces;

  constructor(problems: ProblemList, what: string) {
    this.firstPlaces = new FirstPlaces(problems, what);
  }

  /** Records `key` (as `shown` in messages); false when it was seen before. */
  add(key: string, file: string, path: string, shown = key, line?: number): boolean {
    // A repeated key gets its first number back, whose place FirstPlaces has: the repeat is reported there.
    return this.firstPlaces.add(this.ordinals.add(key), shown, file, path, line);
  }

  /** `add` for the record at `place`, whose `field` holds the key. */
  addAt(key: string, place: RecordPlace, field: string, shown = key): boolean {
    return this.add(key, place.file, `${place.path}.${field}`, shown, place.line);
  }

  has(key: string): boolean {
    return this.ordinals.has(key);
  }

  /** The key's place in the order keys were first seen (0, 1, …); undefined for a key never added. */
  ordinalOf(key: string): number | undefined {
    return this.ordinals.get(key);
  }
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

/** A JSONL file of records beside manifest.json (one JSON object per line), named by a list's `<list>_file`. */
export interface RecordsFile {
  path: string;
  sha256?: string;
}

/** Where a record sits: inline in manifest.json (`$.topics.3`), or on a line of a JSONL file (`$`). */
export interface RecordPlace {
  file: string;
  path: string;
  line?: number;
}

/**
 * The valid records of a manifest's list, inline or from its JSONL file (`<key>_file`, preferred when given);
 * schema problems of JSONL lines are reported here (inline ones come with the manifest's). Adds the JSONL file's
 * SHA-256 to `shas`; `onRejected` sees each record that failed `validate`.
 */
export async function* listRecords(
  bundleDir: string,
  manifestFile: string,
  m: Record<string, unknown>,
  key: string,
  validate: ValidateFunction,
  problems: ProblemList,
  shas: string[],
  onRejected: (value: unknown) => void,
): AsyncGenerator<{ value: unknown; place: RecordPlace }> {
  const file = m[`${key}_file`] as RecordsFile | undefined;
  if (!file || typeof file !== 'object' || typeof file.path !== 'string') {
    const list = Array.isArray(m[key]) ? (m[key] as unknown[]) : [];
    for (let i = 0; i < list.length; i++) {
      if (validate(list[i])) yield { value: list[i], place: { file: manifestFile, path: `$.${key}.${i}` } };
      else onRejected(list[i]);
    }
    return;
  }
  const pathProblem = bundlePathProblem(file.path);
  if (pathProblem) {
    problems.at(manifestFile, `$.${key}_file.path`, pathProblem);
    return;
  }
  const refs: BundleFileRef[] = [
    { path: file.path, sha256: file.sha256, at: { file: manifestFile, path: `$.${key}_file` } },
  ];
  const digest = (await checkBundleFiles(bundleDir, refs, problems)).get(file.path);
  if (!digest) return;
  shas.push(digest.sha256);
  for await (const { line, value, error } of jsonLines(join(bundleDir, file.path))) {
    if (error) {
      problems.at(file.path, '$', error, line);
    } else if (!validate(value)) {
      problems.items.push(...schemaProblems(validate.errors, file.path, '$', line));
      onRejected(value);
    } else {
      yield { value, place: { file: file.path, path: '$', line } };
    }
  }
}

/**
 * A list's records in batches of `size`, inline or streamed from its JSONL file, for bundles validated before
 * (their digest is checked, so no record is checked again). `prepare` sees each JSONL record first (genomics
 * applies its schema defaults there, as validating the manifest does for inline records).
 */
export async function* listBatches<T>(
  bundleDir: string,
  manifest: object,
  key: string,
  size: number,
  prepare: (value: unknown) => void = () => undefined,
): AsyncGenerator<T[]> {
  const m = manifest as Record<string, unknown>;
  const file = m[`${key}_file`] as RecordsFile | undefined;
  if (!file) {
    const list = (m[key] ?? []) as T[];
    for (let i = 0; i < list.length; i += size) yield list.slice(i, i + size);
    return;
  }
  let batch: T[] = [];
  for await (const { value } of jsonLines(join(bundleDir, file.path))) {
    prepare(value);
    batch.push(value as T);
    if (batch.length === size) {
      yield batch;
      batch = [];
    }
  }
  if (batch.length > 0) yield batch;
}

/**
 * The SHA-256 a validated bundle's records had: manifest.json's, combined with each JSONL record file's in the
 * order of `lists`, each only when the manifest names it (so bundles without record files keep their digest).
 */
export async function recordsSha256(
  bundleDir: string,
  manifestSha256: string,
  manifest: object,
  lists: readonly string[],
): Promise<string> {
  const shas = [manifestSha256];
  for (const key of lists) {
    const file = (manifest as Record<string, unknown>)[`${key}_file`] as RecordsFile | undefined;
    if (file) shas.push((await digestFile(join(bundleDir, file.path))).sha256);
  }
  return combinedSha256(shas);
}

/**
 * Reads a bundle that was validated before, without checking it again: its manifest (`prepare` may apply the
 * schema's defaults) and the SHA-256 its validation recorded (see `recordsSha256`); the caller compares them, so a
 * bundle changed since is refused.
 */
export async function openValidatedBundle(
  bundleDir: string,
  lists: readonly string[],
  prepare: (manifest: unknown) => void = () => undefined,
): Promise<{ manifest: unknown; sha256: string }> {
  const problems = new ProblemList();
  const read = await readBundleJson(bundleDir, 'manifest.json', problems);
  problems.throwIfAny();
  const { value: manifest, sha256 } = read!;
  prepare(manifest);
  return { manifest, sha256: await recordsSha256(bundleDir, sha256, manifest as object, lists) };
}
