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
  compileBundleSchema,
  type FileDigest,
  ProblemList,
  readBundleJson,
  schemaProblems,
  UniqueKeys,
} from './common';
import { knownCampaignIds, knownTopicNumbers } from './genomicsReferenceQueries';

export { readBundleFormat } from './common';

/** Format tag of a genomics bundle's manifest; docs/bundles/genomics.md describes it. */
export const GENOMICS_BUNDLE_FORMAT = 'referee.genomics/1';
const MANIFEST = 'manifest.json';
/** The topic markdown bound of the API applies to imports too. */
export const MARKDOWN_MAX_CHARS = 2_000_000;

/* The TypeScript view of docs/bundles/genomics.schema.json after its defaults are applied. */

/** A file of the bundle: a relative path, its media type and optionally the size and SHA-256 it must have. */
export interface BundleFile {
  path: string;
  media_type: string;
  sha256?: string;
  size_bytes?: number;
}

export interface GenomicsBundleManifest {
  format: typeof GENOMICS_BUNDLE_FORMAT;
  bundle: { bundle_id: string; batch: string; title?: string | null; exported_at: string | null };
  campaigns: Array<{ campaign_id: string; name: string; status: string }>;
  clients: Array<{ client_id: string; name: string; enabled: boolean }>;
  topics: Array<{
    topic: number;
    title: string | null;
    category: string | null;
    markdown_path: string | null;
    tags: string[];
    campaign_id: string | null;
    campaign_ids: string[];
    client_ids: string[];
  }>;
  measurements: Array<{
    measurement_id: string;
    topic: number;
    model_id: string;
    scope: MeasurementScope;
    measured_at: string;
    scientific_passes: number | null;
    completed: number | null;
    evidence: BundleFile | null;
    reason: string | null;
  }>;
  reports: Array<{
    report_id: string;
    topic: number;
    title: string;
    file: BundleFile;
    reported_at: string | null;
  }>;
  revisions: Array<{
    revision_id: string;
    topic: number;
    campaign_id: string;
    notes: string;
    file: BundleFile;
    completed_at: string | null;
  }>;
  publications: Array<{
    publication_id: string;
    topic: number;
    revision_id: string | null;
    title: string;
    file: BundleFile;
    published_at: string | null;
  }>;
}

export const GENOMICS_BATCH = /^batch-[0-9]{3,6}$/;

const schemas = compileBundleSchema(schema);

export interface GenomicsBundleCounts {
  campaigns: number;
  clients: number;
  topics: number;
  measurements: number;
  reports: number;
  revisions: number;
  publications: number;
}

export interface CheckedGenomicsBundle {
  manifest: GenomicsBundleManifest;
  /** SHA-256 of manifest.json. */
  sha256: string;
  counts: GenomicsBundleCounts;
}

export interface ValidatedGenomicsBundle extends CheckedGenomicsBundle {
  /** Every file the manifest names (topic markdown included), as hashed, by path. */
  files: Map<string, FileDigest>;
  /** The bundle's identity: manifest and files (see `bundleDigest`). */
  digest: string;
}

/** Every file a manifest names to store (evidence, reports, revisions, publications; not topic markdown). */
export function bundleFiles(m: GenomicsBundleManifest): BundleFile[] {
  const byPath = new Map<string, BundleFile>();
  for (const { file } of fileRefs(m)) if (!byPath.has(file.path)) byPath.set(file.path, file);
  return [...byPath.values()];
}

/** Each file reference of the manifest with where it stands (`$.reports.0.file`). */
function fileRefs(m: GenomicsBundleManifest): Array<{ file: BundleFile; path: string }> {
  // A null entry is a record that failed the schema (see `inspect`): it names no file.
  const files = (list: 'reports' | 'revisions' | 'publications') =>
    m[list].flatMap((x, i) => (x ? [{ file: x.file, path: `$.${list}.${i}.file` }] : []));
  return [
    ...m.measurements.flatMap((x, i) =>
      x?.evidence ? [{ file: x.evidence, path: `$.measurements.${i}.evidence` }] : [],
    ),
    ...files('reports'),
    ...files('revisions'),
    ...files('publications'),
  ];
}

/**
 * Topic numbers the manifest refers to without listing them: they must already exist in the workspace.
 * (Null entries, records that failed the schema, are skipped here and below.)
 */
export function externalTopics(m: GenomicsBundleManifest): number[] {
  const listed = new Set(m.topics.filter(Boolean).map((t) => t.topic));
  const referenced = [...m.measurements, ...m.reports, ...m.revisions, ...m.publications]
    .filter(Boolean)
    .map((x) => x.topic);
  return [...new Set(referenced.filter((t) => !listed.has(t)))].sort((a, b) => a - b);
}

/** Campaign ids the manifest refers to without listing them: they must already exist in the workspace. */
export function externalCampaigns(m: GenomicsBundleManifest): string[] {
  const listed = new Set(m.campaigns.filter(Boolean).map((c) => c.campaign_id));
  const referenced = [
    ...m.topics
      .filter(Boolean)
      .flatMap((t) => [...t.campaign_ids, ...(t.campaign_id ? [t.campaign_id] : [])]),
    ...m.revisions.filter(Boolean).map((r) => r.campaign_id),
  ];
  return [...new Set(referenced.filter((c) => !listed.has(c)))].sort();
}

/** Where each external topic or campaign is referred to, for problems that point at the reference. */
export function referencesTo(
  m: GenomicsBundleManifest,
): Array<{ kind: 'topic' | 'campaign'; key: string; path: string }> {
  const refs: Array<{ kind: 'topic' | 'campaign'; key: string; path: string }> = [];
  const lists = ['measurements', 'reports', 'revisions', 'publications'] as const;
  // Null entries are records that failed the schema (see `inspect`).
  for (const list of lists)
    m[list].forEach(
      (x, i) => x && refs.push({ kind: 'topic', key: String(x.topic), path: `$.${list}.${i}.topic` }),
    );
  m.topics.forEach((t, i) => {
    if (t?.campaign_id)
      refs.push({ kind: 'campaign', key: t.campaign_id, path: `$.topics.${i}.campaign_id` });
    t?.campaign_ids.forEach((c, j) =>
      refs.push({ kind: 'campaign', key: c, path: `$.topics.${i}.campaign_ids.${j}` }),
    );
  });
  m.revisions.forEach(
    (r, i) => r && refs.push({ kind: 'campaign', key: r.campaign_id, path: `$.revisions.${i}.campaign_id` }),
  );
  return refs;
}

/**
 * Reads and checks a genomics bundle's manifest (schema, unique ids, references within it); every problem
 * is listed (InvalidBundleError), none is fixed silently. Files are not read: see `validateGenomicsBundle`.
 * Topics and campaigns it refers to without listing are checked against the workspace by the caller.
 */
export async function readGenomicsBundle(bundleDir: string): Promise<CheckedGenomicsBundle> {
  const { checked, problems } = await inspect(bundleDir);
  problems.throwIfAny();
  return checked as CheckedGenomicsBundle;
}

/**
 * Every check of `readGenomicsBundle`, plus each file's presence, size and SHA-256 and the topic markdown,
 * plus `referenceCheck` (the caller's look-up of topics and campaigns outside the bundle) over the well-formed
 * records: all problems are listed together.
 */
export async function validateGenomicsBundle(
  bundleDir: string,
  referenceCheck: (wellFormed: GenomicsBundleManifest) => Promise<BundleProblem[]> = async () => [],
): Promise<ValidatedGenomicsBundle> {
  const { checked, problems, wellFormed: m } = await inspect(bundleDir);
  if (!checked || !m) problems.throwIfAny();
  const bundle = checked as CheckedGenomicsBundle;
  const refs: BundleFileRef[] = [];
  const at = (path: string) => ({ file: MANIFEST, path });
  // Files are checked for well-formed records whose path is inside the bundle (the others are reported).
  for (const { file, path } of fileRefs(m!))
    if (!bundlePathProblem(file.path))
      refs.push({ path: file.path, sha256: file.sha256, sizeBytes: file.size_bytes, at: at(path) });
  m!.topics.forEach((t, i) => {
    if (t?.markdown_path && !bundlePathProblem(t.markdown_path))
      refs.push({ path: t.markdown_path, at: at(`$.topics.${i}`), pathField: 'markdown_path' });
  });
  const files = await checkBundleFiles(bundleDir, refs, problems);
  for (const [i, t] of m!.topics.entries()) {
    if (!t?.markdown_path || !files.has(t.markdown_path)) continue;
    const problem = markdownProblem(await readFile(join(bundleDir, t.markdown_path)));
    if (problem) problems.at(MANIFEST, `$.topics.${i}.markdown_path`, `${t.markdown_path} ${problem}`);
  }
  problems.items.push(...(await referenceCheck(m!)));
  problems.throwIfAny();
  const named = [...files].map(([path, digest]) => ({ path, ...digest }));
  return { ...bundle, files, digest: bundleDigest(bundle.sha256, named) };
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

async function inspect(bundleDir: string) {
  const problems = new ProblemList();
  const read = await readBundleJson(bundleDir, MANIFEST, problems);
  if (!read) return { checked: null, problems, wellFormed: null };
  const raw = read.value as Record<string, unknown>;
  // Defaults are applied while validating: an absent list is an empty one.
  if (!schemas.manifest(raw)) problems.items.push(...schemaProblems(schemas.manifest.errors, MANIFEST));
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw))
    return { checked: null, problems, wellFormed: null };
  // Ids of records that failed their own check: a reference to one is not also reported as unknown.
  const rejected = new Set<string>();
  const valid = <T>(key: string, def: string, idField?: string): T[] => {
    const validate = schemas.def(def);
    return (Array.isArray(raw[key]) ? (raw[key] as unknown[]) : []).map((v) => {
      if (validate(v)) return v as T;
      const id = idField ? (v as Record<string, unknown> | null)?.[idField] : undefined;
      if (typeof id === 'string') rejected.add(`${idField}:${id}`);
      return null;
    }) as T[];
  };
  // Invalid records (already reported) are kept as null so indexes in problem paths stay right.
  const m = {
    bundle: schemas.def('bundle')(raw.bundle) ? raw.bundle : null,
    campaigns: valid('campaigns', 'campaign'),
    clients: valid('clients', 'client', 'client_id'),
    topics: valid('topics', 'topic'),
    measurements: valid('measurements', 'measurement'),
    reports: valid('reports', 'report'),
    revisions: valid('revisions', 'revision', 'revision_id'),
    publications: valid('publications', 'publication'),
  } as unknown as GenomicsBundleManifest;
  crossReferenceProblems(m, problems, rejected);
  const manifest = raw as unknown as GenomicsBundleManifest;
  const checked: CheckedGenomicsBundle = {
    manifest,
    sha256: read.sha256,
    counts: {
      campaigns: manifest.campaigns?.length ?? 0,
      clients: manifest.clients?.length ?? 0,
      topics: manifest.topics?.length ?? 0,
      measurements: manifest.measurements?.length ?? 0,
      reports: manifest.reports?.length ?? 0,
      revisions: manifest.revisions?.length ?? 0,
      publications: manifest.publications?.length ?? 0,
    },
  };
  return { checked, problems, wellFormed: m };
}

/** Cross-checks of well-formed records (null entries are records that failed the schema). */
function crossReferenceProblems(
  m: GenomicsBundleManifest,
  problems: ProblemList,
  rejected: ReadonlySet<string>,
): void {
  const at = (path: string, message: string) => problems.at(MANIFEST, path, message);
  const insideBundle = (path: string, where: string) => {
    const problem = bundlePathProblem(path);
    if (problem) at(where, problem);
  };
  const each = <T>(list: Array<T | null>, visit: (item: T, i: number) => void) =>
    list.forEach((item, i) => item !== null && visit(item, i));
  const unique = (what: string) => new UniqueKeys(problems, what);

  const campaigns = unique('campaign_id');
  each(m.campaigns, (c, i) => campaigns.add(c.campaign_id, MANIFEST, `$.campaigns.${i}.campaign_id`));
  const clients = unique('client_id');
  each(m.clients, (c, i) => clients.add(c.client_id, MANIFEST, `$.clients.${i}.client_id`));
  const topics = unique('topic');
  each(m.topics, (t, i) => {
    topics.add(String(t.topic), MANIFEST, `$.topics.${i}.topic`);
    if (t.markdown_path) insideBundle(t.markdown_path, `$.topics.${i}.markdown_path`);
    t.client_ids.forEach((c, j) => {
      if (!clients.has(c) && !rejected.has(`client_id:${c}`))
        at(`$.topics.${i}.client_ids.${j}`, `unknown client "${c}"`);
    });
  });
  const measurements = unique('measurement_id');
  each(m.measurements, (x, i) => {
    measurements.add(x.measurement_id, MANIFEST, `$.measurements.${i}.measurement_id`);
    if (x.evidence) insideBundle(x.evidence.path, `$.measurements.${i}.evidence.path`);
    if ((x.scientific_passes === null) !== (x.completed === null)) {
      at(`$.measurements.${i}`, 'scientific_passes and completed are given together or not at all');
    } else if (x.scientific_passes !== null && x.completed !== null && x.scientific_passes > x.completed) {
      at(`$.measurements.${i}.scientific_passes`, 'must not exceed completed');
    }
  });
  const reports = unique('report_id');
  each(m.reports, (x, i) => {
    reports.add(x.report_id, MANIFEST, `$.reports.${i}.report_id`);
    insideBundle(x.file.path, `$.reports.${i}.file.path`);
  });
  const revisionIds = unique('revision_id');
  const revisions = new Map<string, GenomicsBundleManifest['revisions'][number]>();
  each(m.revisions, (x, i) => {
    if (revisionIds.add(x.revision_id, MANIFEST, `$.revisions.${i}.revision_id`))
      revisions.set(x.revision_id, x);
    insideBundle(x.file.path, `$.revisions.${i}.file.path`);
  });
  const publications = unique('publication_id');
  each(m.publications, (x, i) => {
    publications.add(x.publication_id, MANIFEST, `$.publications.${i}.publication_id`);
    insideBundle(x.file.path, `$.publications.${i}.file.path`);
    if (x.revision_id === null) return;
    const revision = revisions.get(x.revision_id);
    if (!revision) {
      if (!rejected.has(`revision_id:${x.revision_id}`))
        at(`$.publications.${i}.revision_id`, `unknown revision "${x.revision_id}"`);
    } else if (revision.topic !== x.topic)
      at(`$.publications.${i}.revision_id`, `revision "${x.revision_id}" belongs to another topic`);
  });
  const sha = new Map<string, string>();
  for (const { file, path } of fileRefs(m)) {
    const first = sha.get(file.path);
    if (first && file.sha256 && first !== file.sha256)
      at(`${path}.sha256`, `file ${file.path} is given two different sha256 values`);
    if (!first && file.sha256) sha.set(file.path, file.sha256);
  }
}

/**
 * Problems of the topics and campaigns a bundle refers to without listing them that the workspace does
 * not have either; each points at the reference.
 */
export async function unknownReferenceProblems(
  db: Queryable,
  m: GenomicsBundleManifest,
): Promise<BundleProblem[]> {
  if (!m.bundle) return []; // without a valid batch there is nothing to look up (its problem is listed)
  const batch = m.bundle.batch;
  const topics = externalTopics(m);
  const campaigns = externalCampaigns(m);
  const knownTopics = new Set(topics.length > 0 ? await knownTopicNumbers(db, batch, topics) : []);
  const knownCampaigns = new Set(campaigns.length > 0 ? await knownCampaignIds(db, campaigns) : []);
  const listedTopics = new Set(m.topics.flatMap((t) => (t ? [String(t.topic)] : [])));
  const listedCampaigns = new Set(m.campaigns.flatMap((c) => (c ? [c.campaign_id] : [])));
  return referencesTo(m).flatMap(({ kind, key, path }) => {
    if (kind === 'topic' && !listedTopics.has(key) && !knownTopics.has(key)) {
      const uid = genomicsTopicUid(batch, Number(key));
      return [
        { file: 'manifest.json', path, message: `topic ${uid} is neither in topics nor in the workspace` },
      ];
    }
    if (kind === 'campaign' && !listedCampaigns.has(key) && !knownCampaigns.has(key))
      return [
        {
          file: 'manifest.json',
          path,
          message: `campaign "${key}" is neither in campaigns nor in the workspace`,
        },
      ];
    return [];
  });
}
