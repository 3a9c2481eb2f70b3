import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { isAbsolute, join, normalize } from 'node:path';
import Joi from 'joi';
import { MEASUREMENT_SCOPES, type MeasurementScope } from '../../entities/GenomicsMeasurement';
import { type BundleProblem, InvalidBundleError } from './mathBundle';

/** Format tag of a genomics bundle's manifest; docs/bundles/genomics.md describes it. */
export const GENOMICS_BUNDLE_FORMAT = 'referee.genomics/1';

/** A file of the bundle: a relative path, its media type and optionally the SHA-256 it must have. */
export interface BundleFile {
  path: string;
  media_type: string;
  sha256?: string;
}

export interface GenomicsBundleManifest {
  format: typeof GENOMICS_BUNDLE_FORMAT;
  bundle: { bundle_id: string; batch: string; title?: string | null; exported_at?: string | null };
  campaigns: Array<{ campaign_id: string; name: string; status?: string }>;
  clients: Array<{ client_id: string; name: string; enabled?: boolean }>;
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
const BUSINESS_ID = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$/;
const id = () => Joi.string().pattern(BUSINESS_ID);
/** Campaign ids are free text (the API allows any 256 characters); control characters are refused. */
const withoutControlCharacters = (value: string, helpers: Joi.CustomHelpers) =>
  [...value].some((c) => c.charCodeAt(0) < 0x20) ? helpers.error('string.controlCharacters') : value;
const campaignId = () =>
  Joi.string()
    .max(256)
    .custom(withoutControlCharacters)
    .messages({ 'string.controlCharacters': '{{#label}} must not contain control characters' });
const topicNumber = () => Joi.number().integer().min(1).max(2_147_483_647);
const when = () => Joi.string().isoDate().allow(null).default(null);
const file = () =>
  Joi.object<BundleFile>({
    path: Joi.string().max(1024).required(),
    media_type: Joi.string().max(200).required(),
    sha256: Joi.string().pattern(/^[0-9a-f]{64}$/),
  });

const manifestSchema = Joi.object<GenomicsBundleManifest>({
  format: Joi.string().valid(GENOMICS_BUNDLE_FORMAT).required(),
  bundle: Joi.object({
    bundle_id: id().required(),
    batch: Joi.string().pattern(GENOMICS_BATCH).required(),
    title: Joi.string().max(500).allow(null),
    exported_at: Joi.string().isoDate().allow(null),
  }).required(),
  campaigns: Joi.array()
    .items(
      Joi.object({
        campaign_id: campaignId().required(),
        name: Joi.string().max(500).required(),
        status: Joi.string().max(30).default('OPEN'),
      }),
    )
    .unique('campaign_id')
    .default([]),
  clients: Joi.array()
    .items(
      Joi.object({
        client_id: id().required(),
        name: Joi.string().max(500).required(),
        enabled: Joi.boolean().default(true),
      }),
    )
    .unique('client_id')
    .default([]),
  topics: Joi.array()
    .items(
      Joi.object({
        topic: topicNumber().required(),
        title: Joi.string().max(500).allow(null).default(null),
        category: Joi.string().max(200).allow(null).default(null),
        markdown_path: Joi.string().max(1024).allow(null).default(null),
        tags: Joi.array().items(Joi.string().min(1).max(64)).max(50).unique().default([]),
        campaign_id: campaignId().allow(null).default(null),
        campaign_ids: Joi.array().items(campaignId()).unique().default([]),
        client_ids: Joi.array().items(id()).unique().default([]),
      }),
    )
    .unique('topic')
    .default([]),
  measurements: Joi.array()
    .items(
      Joi.object({
        measurement_id: id().required(),
        topic: topicNumber().required(),
        model_id: Joi.string().max(200).required(),
        scope: Joi.string()
          .valid(...MEASUREMENT_SCOPES)
          .required(),
        measured_at: Joi.string().isoDate().required(),
        scientific_passes: Joi.number().integer().min(0).max(2_147_483_647).allow(null).default(null),
        completed: Joi.number().integer().min(0).max(2_147_483_647).allow(null).default(null),
        evidence: file().allow(null).default(null),
        reason: Joi.string().max(2000).allow(null).default(null),
      }),
    )
    .unique('measurement_id')
    .default([]),
  reports: Joi.array()
    .items(
      Joi.object({
        report_id: id().required(),
        topic: topicNumber().required(),
        title: Joi.string().max(500).required(),
        file: file().required(),
        reported_at: when(),
      }),
    )
    .unique('report_id')
    .default([]),
  revisions: Joi.array()
    .items(
      Joi.object({
        revision_id: id().required(),
        topic: topicNumber().required(),
        campaign_id: campaignId().required(),
        notes: Joi.string().max(10_000).allow('').default(''),
        file: file().required(),
        completed_at: when(),
      }),
    )
    .unique('revision_id')
    .default([]),
  publications: Joi.array()
    .items(
      Joi.object({
        publication_id: id().required(),
        topic: topicNumber().required(),
        revision_id: id().allow(null).default(null),
        title: Joi.string().max(500).required(),
        file: file().required(),
        published_at: when(),
      }),
    )
    .unique('publication_id')
    .default([]),
});

/** Every file a manifest names (evidence, reports, revisions, publications, topic markdown excluded). */
export function bundleFiles(m: GenomicsBundleManifest): BundleFile[] {
  const byPath = new Map<string, BundleFile>();
  const add = (f: BundleFile | null) => {
    if (f && !byPath.has(f.path)) byPath.set(f.path, f);
  };
  m.measurements.forEach((x) => add(x.evidence));
  m.reports.forEach((x) => add(x.file));
  m.revisions.forEach((x) => add(x.file));
  m.publications.forEach((x) => add(x.file));
  return [...byPath.values()];
}

/** Topic numbers the manifest refers to without listing them: they must already exist in the workspace. */
export function externalTopics(m: GenomicsBundleManifest): number[] {
  const listed = new Set(m.topics.map((t) => t.topic));
  const referenced = [...m.measurements, ...m.reports, ...m.revisions, ...m.publications].map((x) => x.topic);
  return [...new Set(referenced.filter((t) => !listed.has(t)))].sort((a, b) => a - b);
}

/** Campaign ids the manifest refers to without listing them: they must already exist in the workspace. */
export function externalCampaigns(m: GenomicsBundleManifest): string[] {
  const listed = new Set(m.campaigns.map((c) => c.campaign_id));
  const referenced = [
    ...m.topics.flatMap((t) => [...t.campaign_ids, ...(t.campaign_id ? [t.campaign_id] : [])]),
    ...m.revisions.map((r) => r.campaign_id),
  ];
  return [...new Set(referenced.filter((c) => !listed.has(c)))].sort();
}

/** Reads and checks a genomics bundle's manifest; every problem is listed, none is fixed silently. */
export async function readGenomicsBundle(
  bundleDir: string,
): Promise<{ manifest: GenomicsBundleManifest; sha256: string }> {
  const raw = await readFile(join(bundleDir, 'manifest.json'));
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw.toString('utf8'));
  } catch (error) {
    throw new InvalidBundleError([{ file: 'manifest.json', path: '$', message: (error as Error).message }]);
  }
  const { value, error } = manifestSchema.validate(parsed, { abortEarly: false });
  const problems: BundleProblem[] = (error?.details ?? []).map((d) => ({
    file: 'manifest.json',
    path: ['$', ...d.path].join('.'),
    message: d.message,
  }));
  if (!error) problems.push(...crossReferenceProblems(value));
  if (problems.length > 0) throw new InvalidBundleError(problems);
  return { manifest: value, sha256: createHash('sha256').update(raw).digest('hex') };
}

function crossReferenceProblems(m: GenomicsBundleManifest): BundleProblem[] {
  const problems: BundleProblem[] = [];
  const at = (path: string, message: string) => problems.push({ file: 'manifest.json', path, message });
  const insideBundle = (path: string, where: string) => {
    const p = normalize(path);
    if (isAbsolute(p) || p.startsWith('..')) at(where, 'must be a relative path inside the bundle');
  };
  const clients = new Set(m.clients.map((c) => c.client_id));
  m.topics.forEach((t, i) => {
    if (t.markdown_path) insideBundle(t.markdown_path, `$.topics.${i}.markdown_path`);
    t.client_ids.forEach((c, j) => {
      if (!clients.has(c)) at(`$.topics.${i}.client_ids.${j}`, `unknown client "${c}"`);
    });
  });
  m.measurements.forEach((x, i) => {
    if (x.evidence) insideBundle(x.evidence.path, `$.measurements.${i}.evidence.path`);
    if ((x.scientific_passes === null) !== (x.completed === null)) {
      at(`$.measurements.${i}`, 'scientific_passes and completed are given together or not at all');
    } else if (x.scientific_passes !== null && x.completed !== null && x.scientific_passes > x.completed) {
      at(`$.measurements.${i}.scientific_passes`, 'must not exceed completed');
    }
  });
  m.reports.forEach((x, i) => insideBundle(x.file.path, `$.reports.${i}.file.path`));
  m.revisions.forEach((x, i) => insideBundle(x.file.path, `$.revisions.${i}.file.path`));
  const revisions = new Map(m.revisions.map((r) => [r.revision_id, r]));
  m.publications.forEach((x, i) => {
    insideBundle(x.file.path, `$.publications.${i}.file.path`);
    if (x.revision_id === null) return;
    const revision = revisions.get(x.revision_id);
    if (!revision) at(`$.publications.${i}.revision_id`, `unknown revision "${x.revision_id}"`);
    else if (revision.topic !== x.topic)
      at(`$.publications.${i}.revision_id`, `revision "${x.revision_id}" belongs to another topic`);
  });
  const sha = new Map<string, string | undefined>();
  for (const f of [
    ...m.measurements.flatMap((x) => (x.evidence ? [x.evidence] : [])),
    ...m.reports.map((x) => x.file),
    ...m.revisions.map((x) => x.file),
    ...m.publications.map((x) => x.file),
  ]) {
    if (sha.has(f.path) && f.sha256 && sha.get(f.path) && sha.get(f.path) !== f.sha256)
      at('$', `file ${f.path} is given two different sha256 values`);
    if (!sha.get(f.path)) sha.set(f.path, f.sha256);
  }
  return problems;
}

/** The `format` field of a bundle's manifest (how `ops import` tells a genomics bundle from a math run). */
export async function readBundleFormat(bundleDir: string): Promise<string | null> {
  try {
    const manifest = JSON.parse(await readFile(join(bundleDir, 'manifest.json'), 'utf8')) as {
      format?: unknown;
    };
    return typeof manifest.format === 'string' ? manifest.format : null;
  } catch {
    return null;
  }
}
