import { join } from 'node:path';
import type { ValidateFunction } from 'ajv/dist/2020';
import { digestFile } from '../../storage/objectStore';
import {
  type BundleFileRef,
  bundlePathProblem,
  checkBundleFiles,
  combinedSha256,
  jsonLines,
  ProblemList,
  readBundleJson,
} from './common';
import { schemaProblems } from './schema';

/** A bundle's record lists, inline in manifest.json or in JSONL files beside it: validated, listed, digested. */

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
