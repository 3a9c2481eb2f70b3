import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import schema from '../../docs/bundles/genomics.schema.json';
import type { MeasurementScope } from '../../entities/GenomicsMeasurement';
import type { Queryable } from '../../entities/queryable';
import { genomicsTopicUid } from '../../workflows/genomicsTask/ids';
import {
  type BundleFileRef,
  type BundleProblem,
  bundleDigest,
  bundlePathProblem,
  checkBundleFiles,
  combinedSha256,
  type FileDigest,
  ProblemList,
  readBundleJson,
} from './common';
import { listBatches, listRecords, openValidatedBundle, type RecordPlace, type RecordsFile } from './records';
import { compileBundleSchema, schemaProblems } from './schema';
import { UniqueKeys } from './uniqueKeys';
import { knownCampaignIds, knownTopicNumbers } from './genomicsReferenceQueries';

/** Format tag of a genomics bundle's manifest; docs/bundles/genomics.md describes it. */
export const GENOMICS_BUNDLE_FORMAT = 'referee.genomics/1';
const MANIFEST = 'manifest.json';
/** The topic markdown bound of the API applies to imports too. */
export const MARKDOWN_MAX_CHARS = 2_000_000;

/*
 * The TypeScript view of docs/bundles/genomics.schema.json after its defaults are applied. A list given as a
 * JSONL file (`<list>_file`) is empty in the manifest: read lists with `recordBatches`.
 */

/** A file of the bundle: a relative path, its media type and optionally the size and SHA-256 it must have. */
export interface BundleFile {
  path: string;
  media_type: string;
  sha256?: string;
  size_bytes?: number;
}

export interface GenomicsBundleTopic {
  topic: number;
  title: string | null;
  category: string | null;
  markdown_path: string | null;
  tags: string[];
  campaign_id: string | null;
  campaign_ids: string[];
  client_ids: string[];
}
export interface GenomicsBundleMeasurement {
  measurement_id: string;
  topic: number;
  model_id: string;
  scope: MeasurementScope;
  measured_at: string;
  scientific_passes: number | null;
  completed: number | null;
  evidence: BundleFile | null;
  reason: string | null;
}
export interface GenomicsBundleReport {
  report_id: string;
  topic: number;
  title: string;
  file: BundleFile;
  reported_at: string | null;
}
export interface GenomicsBundleRevision {
  revision_id: string;
  topic: number;
  campaign_id: string;
  notes: string;
  file: BundleFile;
  completed_at: string | null;
}
export interface GenomicsBundlePublication {
  publication_id: string;
  topic: number;
  revision_id: string | null;
  title: string;
  file: BundleFile;
  published_at: string | null;
}

export interface GenomicsBundleManifest {
  format: typeof GENOMICS_BUNDLE_FORMAT;
  bundle: { bundle_id: string; batch: string; title?: string | null; exported_at: string | null };
  campaigns: Array<{ campaign_id: string; name: string; status: string }>;
  clients: Array<{ client_id: string; name: string; enabled: boolean }>;
  /** Each large list inline, or as a JSONL file beside the manifest (`<list>_file`; the list is then empty). */
  topics: GenomicsBundleTopic[];
  topics_file?: RecordsFile;
  measurements: GenomicsBundleMeasurement[];
  measurements_file?: RecordsFile;
  reports: GenomicsBundleReport[];
  reports_file?: RecordsFile;
  revisions: GenomicsBundleRevision[];
  revisions_file?: RecordsFile;
  publications: GenomicsBundlePublication[];
  publications_file?: RecordsFile;
}

export const GENOMICS_BATCH = /^batch-[0-9]{3,6}$/;

const schemas = compileBundleSchema(schema);

/** The lists a manifest may hold inline or name as a JSONL file (`<list>_file`), in the order they are hashed. */
const RECORD_LISTS = ['topics', 'measurements', 'reports', 'revisions', 'publications'] as const;
export type GenomicsRecordList = (typeof RECORD_LISTS)[number];
/** The schema `$defs` entry each list's records must match. */
const RECORD_DEFS: Record<GenomicsRecordList, string> = {
  topics: 'topic',
  measurements: 'measurement',
  reports: 'report',
  revisions: 'revision',
  publications: 'publication',
};

export interface GenomicsBundleCounts {
  campaigns: number;
  clients: number;
  topics: number;
  measurements: number;
  reports: number;
  revisions: number;
  publications: number;
}

/** A reference to a topic or campaign the bundle does not list; `place` is the field that holds it. */
export interface ExternalReference {
  kind: 'topic' | 'campaign';
  key: string;
  place: RecordPlace;
}

/**
 * What the bundle refers to without listing it: it must already exist in the workspace (the caller checks,
 * see `unknownReferenceProblems`). Only these references are kept, never the lists.
 */
export interface GenomicsReferences {
  /** The bundle's batch; null when `bundle` failed its check (that problem is listed). */
  batch: string | null;
  /** Topic numbers, ascending, each once. */
  topics: number[];
  /** Campaign ids, sorted, each once. */
  campaigns: string[];
  /** Every reference to one of them, in the order the bundle is read. */
  places: ExternalReference[];
}

export interface CheckedGenomicsBundle {
  manifest: GenomicsBundleManifest;
  /** SHA-256 of manifest.json, combined with the JSONL record files' when there are any. */
  sha256: string;
  counts: GenomicsBundleCounts;
  /** How many files the import stores (evidence, reports, revisions, publications), each path once. */
  storedFiles: number;
  references: GenomicsReferences;
}

export interface ValidatedGenomicsBundle extends CheckedGenomicsBundle {
  /** Every file the manifest names (topic markdown included), as hashed, by path. */
  files: Map<string, FileDigest>;
  /** The bundle's identity: records and files (see `bundleDigest`). */
  digest: string;
}

/**
 * Reads and checks a genomics bundle's manifest and records (schema, unique ids, references within it); every
 * problem is listed (InvalidBundleError), none is fixed silently. Files are not read: see `validateGenomicsBundle`.
 * Topics and campaigns it refers to without listing (`references`) are checked against the workspace by the caller.
 */
export async function readGenomicsBundle(bundleDir: string): Promise<CheckedGenomicsBundle> {
  const { checked, problems } = await inspect(bundleDir, false);
  problems.throwIfAny();
  return checked as CheckedGenomicsBundle;
}

/**
 * Every check of `readGenomicsBundle`, plus each file's presence, size and SHA-256 and the topic markdown,
 * plus `referenceCheck` (the caller's look-up of topics and campaigns outside the bundle) over the references of
 * well-formed records: all problems are listed together.
 */
export async function validateGenomicsBundle(
  bundleDir: string,
  referenceCheck: (references: GenomicsReferences) => Promise<BundleProblem[]> = async () => [],
): Promise<ValidatedGenomicsBundle> {
  const { checked, problems, files } = await inspect(bundleDir, true);
  if (!checked) problems.throwIfAny();
  const bundle = checked as CheckedGenomicsBundle;
  problems.items.push(...(await referenceCheck(bundle.references)));
  problems.throwIfAny();
  return { ...bundle, files, digest: bundleDigest(bundle.sha256, files.keys(), files) };
}

/** Why topic markdown bytes cannot be a topic's brief, or null. */
export function markdownProblem(bytes: Buffer): string | null {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return 'is not UTF-8 text';
  }
  if (text.includes('\u0000')) return 'must not contain a NUL character';
  if ([...text].length > MARKDOWN_MAX_CHARS) return `must be at most ${MARKDOWN_MAX_CHARS} characters`;
  return null;
}

/** Files are checked this many at a time while the records are read, so no list of them is held. */
const FILE_CHECK_BATCH = 1000;

async function inspect(bundleDir: string, checkFiles: boolean) {
  const problems = new ProblemList();
  const files = new Map<string, FileDigest>();
  const read = await readBundleJson(bundleDir, MANIFEST, problems);
  if (!read) return { checked: null, problems, files };
  const raw = read.value as Record<string, unknown>;
  // Defaults are applied while validating: an absent list is an empty one.
  if (!schemas.manifest(raw)) problems.items.push(...schemaProblems(schemas.manifest.errors, MANIFEST));
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw))
    return { checked: null, problems, files };
  const header = schemas.def('bundle')(raw.bundle) ? (raw.bundle as GenomicsBundleManifest['bundle']) : null;

  const at = (place: RecordPlace, suffix: string, message: string) =>
    problems.at(place.file, `${place.path}${suffix}`, message, place.line);
  const field = (place: RecordPlace, suffix: string): RecordPlace => ({
    ...place,
    path: `${place.path}${suffix}`,
  });
  // Ids of records that failed their own check: a reference to one is not also reported as unknown.
  const rejected = new Set<string>();
  const reject = (idField: string) => (value: unknown) => {
    const id = (value as Record<string, unknown> | null)?.[idField];
    if (typeof id === 'string') rejected.add(`${idField}:${id}`);
  };
  const keep = () => undefined;
  // Record files are hashed in the order they are read (RECORD_LISTS), as openGenomicsBundle does.
  const recordShas: string[] = [read.sha256];
  const list = (key: GenomicsRecordList, onRejected: (value: unknown) => void) =>
    listRecords(
      bundleDir,
      MANIFEST,
      raw,
      key,
      schemas.def(RECORD_DEFS[key]),
      problems,
      recordShas,
      onRejected,
    );
  // Campaigns and clients are small and only ever inline (a `<list>_file` for them is a schema problem).
  const inline = (key: 'campaigns' | 'clients', def: string, onRejected: (value: unknown) => void) =>
    listRecords(bundleDir, MANIFEST, { [key]: raw[key] }, key, schemas.def(def), problems, [], onRejected);

  const external = {
    topics: new Set<number>(),
    campaigns: new Set<string>(),
    places: [] as ExternalReference[],
  };
  const refersTo = (kind: 'topic' | 'campaign', key: string, listed: boolean, place: RecordPlace) => {
    if (listed) return;
    if (kind === 'topic') external.topics.add(Number(key));
    else external.campaigns.add(key);
    external.places.push({ kind, key, place });
  };

  // Every path the import stores, with the first SHA-256 a record gave for it (null until one does). A given
  // value equal to the file's digest is replaced by the digest's own string once the file is checked, so a
  // 100,000-topic bundle keeps one copy of each checksum, not two.
  const storedPaths = new Map<string, string | null>();

  // File problems (and markdown's) are listed after every record problem, as when the files were checked last.
  const fileProblems = new ProblemList();
  let unchecked: BundleFileRef[] = [];
  let markdown: Array<{ path: string; place: RecordPlace }> = [];
  const checkUnchecked = async () => {
    await checkBundleFiles(bundleDir, unchecked, fileProblems, files);
    for (const { path } of unchecked) {
      const digest = files.get(path)?.sha256;
      if (digest !== undefined && storedPaths.get(path) === digest) storedPaths.set(path, digest);
    }
    for (const { path, place } of markdown) {
      if (!files.has(path)) continue; // its problem is listed
      const problem = markdownProblem(await readFile(join(bundleDir, path)));
      if (problem)
        fileProblems.at(place.file, `${place.path}.markdown_path`, `${path} ${problem}`, place.line);
    }
    unchecked = [];
    markdown = [];
  };
  const checkFile = async (ref: BundleFileRef) => {
    if (!checkFiles) return;
    unchecked.push(ref);
    if (ref.pathField === 'markdown_path') markdown.push({ path: ref.path, place: ref.at });
    if (unchecked.length >= FILE_CHECK_BATCH) await checkUnchecked();
  };
  /** A file the import stores, named at `place` (`$.reports.0.file`). */
  const storedFile = async (file: BundleFile, place: RecordPlace) => {
    const problem = bundlePathProblem(file.path);
    if (problem) at(place, '.path', problem);
    const first = storedPaths.get(file.path);
    if (first && file.sha256 && first !== file.sha256)
      at(place, '.sha256', `file ${file.path} is given two different sha256 values`);
    if (!first) storedPaths.set(file.path, file.sha256 ?? null);
    if (!problem)
      await checkFile({ path: file.path, sha256: file.sha256, sizeBytes: file.size_bytes, at: place });
  };

  const campaigns = new UniqueKeys(problems, 'campaign_id');
  for await (const { value, place } of inline('campaigns', 'campaign', keep))
    campaigns.addAt((value as { campaign_id: string }).campaign_id, place, 'campaign_id');
  const clients = new UniqueKeys(problems, 'client_id');
  for await (const { value, place } of inline('clients', 'client', reject('client_id')))
    clients.addAt((value as { client_id: string }).client_id, place, 'client_id');

  const counts: GenomicsBundleCounts = {
    campaigns: Array.isArray(raw.campaigns) ? raw.campaigns.length : 0,
    clients: Array.isArray(raw.clients) ? raw.clients.length : 0,
    topics: 0,
    measurements: 0,
    reports: 0,
    revisions: 0,
    publications: 0,
  };
  const topics = new UniqueKeys(problems, 'topic');
  const refersToTopic = (topic: number, place: RecordPlace) =>
    refersTo('topic', String(topic), topics.has(String(topic)), field(place, '.topic'));
  for await (const { value, place } of list('topics', keep)) {
    counts.topics += 1;
    const t = value as GenomicsBundleTopic;
    topics.addAt(String(t.topic), place, 'topic');
    if (t.markdown_path) {
      const problem = bundlePathProblem(t.markdown_path);
      if (problem) at(place, '.markdown_path', problem);
      else await checkFile({ path: t.markdown_path, at: place, pathField: 'markdown_path' });
    }
    t.client_ids.forEach((c, j) => {
      if (!clients.has(c) && !rejected.has(`client_id:${c}`))
        at(place, `.client_ids.${j}`, `unknown client "${c}"`);
    });
    if (t.campaign_id)
      refersTo('campaign', t.campaign_id, campaigns.has(t.campaign_id), field(place, '.campaign_id'));
    t.campaign_ids.forEach((c, j) =>
      refersTo('campaign', c, campaigns.has(c), field(place, `.campaign_ids.${j}`)),
    );
  }

  const measurements = new UniqueKeys(problems, 'measurement_id');
  for await (const { value, place } of list('measurements', keep)) {
    counts.measurements += 1;
    const x = value as GenomicsBundleMeasurement;
    measurements.addAt(x.measurement_id, place, 'measurement_id');
    if (x.evidence) await storedFile(x.evidence, field(place, '.evidence'));
    if ((x.scientific_passes === null) !== (x.completed === null)) {
      at(place, '', 'scientific_passes and completed are given together or not at all');
    } else if (x.scientific_passes !== null && x.completed !== null && x.scientific_passes > x.completed) {
      at(place, '.scientific_passes', 'must not exceed completed');
    }
    refersToTopic(x.topic, place);
  }

  /** The records of a list that names a topic and a file to store, with the checks they share done. */
  async function* filedRecords<T extends { topic: number; file: BundleFile }>(
    key: 'reports' | 'revisions' | 'publications',
    idField: keyof T & string,
    onRejected: (value: unknown) => void,
  ) {
    const ids = new UniqueKeys(problems, idField);
    for await (const { value, place } of list(key, onRejected)) {
      counts[key] += 1;
      const record = value as T;
      const firstOfId = ids.addAt(record[idField] as string, place, idField);
      await storedFile(record.file, field(place, '.file'));
      refersToTopic(record.topic, place);
      yield { record, place, firstOfId };
    }
  }
  for await (const _ of filedRecords<GenomicsBundleReport>('reports', 'report_id', keep));
  // Only each revision's topic is kept: a publication's revision must belong to the publication's topic.
  const revisionTopics = new Map<string, number>();
  for await (const { record: x, place, firstOfId } of filedRecords<GenomicsBundleRevision>(
    'revisions',
    'revision_id',
    reject('revision_id'),
  )) {
    if (firstOfId) revisionTopics.set(x.revision_id, x.topic);
    refersTo('campaign', x.campaign_id, campaigns.has(x.campaign_id), field(place, '.campaign_id'));
  }
  for await (const { record: x, place } of filedRecords<GenomicsBundlePublication>(
    'publications',
    'publication_id',
    keep,
  )) {
    if (x.revision_id === null) continue;
    const revisionTopic = revisionTopics.get(x.revision_id);
    if (revisionTopic === undefined) {
      if (!rejected.has(`revision_id:${x.revision_id}`))
        at(place, '.revision_id', `unknown revision "${x.revision_id}"`);
    } else if (revisionTopic !== x.topic)
      at(place, '.revision_id', `revision "${x.revision_id}" belongs to another topic`);
  }
  if (checkFiles) await checkUnchecked();
  problems.items.push(...fileProblems.items);

  const checked: CheckedGenomicsBundle = {
    manifest: raw as unknown as GenomicsBundleManifest,
    sha256: combinedSha256(recordShas),
    counts,
    storedFiles: storedPaths.size,
    references: {
      batch: header?.batch ?? null,
      topics: [...external.topics].sort((a, b) => a - b),
      campaigns: [...external.campaigns].sort(),
      places: external.places,
    },
  };
  return { checked, problems, files };
}

/**
 * Reads a bundle that was validated before, without checking it again: the manifest (with the schema's defaults),
 * and the SHA-256 its validation recorded (the caller compares them, so a bundle changed since is refused).
 */
export const openGenomicsBundle = (bundleDir: string) =>
  // Validating applies the defaults the records were checked with; its outcome was known at validation.
  openValidatedBundle(bundleDir, RECORD_LISTS, (manifest) => void schemas.manifest(manifest)) as Promise<{
    manifest: GenomicsBundleManifest;
    sha256: string;
  }>;

/**
 * A list's records in batches of `size`, inline or streamed from its JSONL file, with the schema's defaults
 * (opened bundles only).
 */
export function recordBatches<T>(
  bundleDir: string,
  manifest: GenomicsBundleManifest,
  key: GenomicsRecordList,
  size: number,
): AsyncGenerator<T[]> {
  const applyDefaults = schemas.def(RECORD_DEFS[key]);
  return listBatches<T>(bundleDir, manifest, key, size, (value) => void applyDefaults(value));
}

/** Each file the bundle stores (evidence, reports, revisions, publications), in order, as its records name it. */
export async function* storedFileBatches(
  bundleDir: string,
  manifest: GenomicsBundleManifest,
  size: number,
): AsyncGenerator<BundleFile[]> {
  for await (const batch of recordBatches<GenomicsBundleMeasurement>(
    bundleDir,
    manifest,
    'measurements',
    size,
  ))
    yield batch.flatMap((x) => (x.evidence ? [x.evidence] : []));
  for (const key of ['reports', 'revisions', 'publications'] as const)
    for await (const batch of recordBatches<{ file: BundleFile }>(bundleDir, manifest, key, size))
      yield batch.map((x) => x.file);
}

/**
 * Problems of the topics and campaigns a bundle refers to without listing them that the workspace does
 * not have either; each points at the reference.
 */
export async function unknownReferenceProblems(
  db: Queryable,
  references: GenomicsReferences,
): Promise<BundleProblem[]> {
  const { batch, topics, campaigns } = references;
  if (batch === null) return []; // without a valid batch there is nothing to look up (its problem is listed)
  const knownTopics = new Set(topics.length > 0 ? await knownTopicNumbers(db, batch, topics) : []);
  const knownCampaigns = new Set(campaigns.length > 0 ? await knownCampaignIds(db, campaigns) : []);
  const problem = ({ file, path, line }: RecordPlace, message: string): BundleProblem =>
    line === undefined ? { file, path, message } : { file, path, message, line };
  return references.places.flatMap(({ kind, key, place }) => {
    if (kind === 'topic' && !knownTopics.has(key))
      return [
        problem(
          place,
          `topic ${genomicsTopicUid(batch, Number(key))} is neither in topics nor in the workspace`,
        ),
      ];
    if (kind === 'campaign' && !knownCampaigns.has(key))
      return [problem(place, `campaign "${key}" is neither in campaigns nor in the workspace`)];
    return [];
  });
}
