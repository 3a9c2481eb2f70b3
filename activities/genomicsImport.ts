import type { S3Client } from '@aws-sdk/client-s3';
import { ApplicationFailure } from '@temporalio/activity';
import type { DataSource, EntityManager } from 'typeorm';
import { genomicsTopicUid } from '../workflows/genomicsTask/ids';
import type { BundleProblem } from './bundles/common';
import {
  externalCampaigns,
  externalTopics,
  type GenomicsBundleCounts,
  type GenomicsBundleManifest,
  readGenomicsBundle,
  referencesTo,
  validateGenomicsBundle,
} from './bundles/genomicsBundle';
import {
  completeImport,
  type FileReceipt,
  finalTransaction,
  type FinishedImport,
  orInvalidBundleFailure,
  planImport,
  readReceipts,
  withHeartbeat,
} from './importCommon';
import {
  insertTopics,
  linkTopics,
  readMarkdown,
  topicIdsOf,
  upsertCampaignsAndClients,
  upsertMeasurements,
  upsertPublications,
  upsertReports,
  upsertRevision,
  writeImportEvents,
} from './genomicsImportUpserts';

export { EMPTY_SHA256 } from './genomicsImportUpserts';

export interface GenomicsImportPlan {
  importId: string;
  bundleId: string;
  batch: string;
  unchanged: boolean;
  filesTotal: number;
  chunkSize: number;
  counts: GenomicsBundleCounts;
}

export interface UpsertGenomicsBundleResult {
  bundleId: string;
  unchanged: boolean;
  topicsCreated: number;
  topicsTouched: number;
  measurements: number;
  reports: number;
  revisions: number;
  publications: number;
}

type Queryable = Pick<DataSource, 'query'> | Pick<EntityManager, 'query'>;

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
  const knownTopics = new Set<string>();
  const knownCampaigns = new Set<string>();
  if (topics.length > 0) {
    const rows: Array<{ topic: string }> = await db.query(
      'SELECT topic::text FROM genomics_topics WHERE batch = $1 AND topic = ANY($2::bigint[])',
      [batch, topics],
    );
    rows.forEach((r) => knownTopics.add(r.topic));
  }
  if (campaigns.length > 0) {
    const rows: Array<{ id: string }> = await db.query(
      'SELECT id FROM genomics_campaigns WHERE id = ANY($1::text[])',
      [campaigns],
    );
    rows.forEach((r) => knownCampaigns.add(r.id));
  }
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

/** Activities of the genomics import: plan (validate, hash, stage) and the final upsert. Uploads are shared. */
export function genomicsImportActivities(deps: { dataSource: DataSource; s3: S3Client; bucket: string }) {
  const { dataSource } = deps;

  return {
    /**
     * Validates the bundle (schema, references, files, topic markdown) and that every topic and campaign it
     * refers to without listing exists, then records the import and stages its files.
     */
    async planGenomicsImport(bundleDir: string): Promise<GenomicsImportPlan> {
      const bundle = await withHeartbeat(() =>
        orInvalidBundleFailure(() =>
          validateGenomicsBundle(bundleDir, (manifest) => unknownReferenceProblems(dataSource, manifest)),
        ),
      );
      const { bundle_id: bundleId, batch } = bundle.manifest.bundle;
      const [previous]: Array<{ bundle_sha256: string }> = await dataSource.query(
        'SELECT bundle_sha256 FROM genomics_imports WHERE bundle_id = $1',
        [bundleId],
      );
      const files = [...new Map(storedFiles(bundle.manifest).map((f) => [f.path, f])).values()];
      const plan = await planImport(dataSource, {
        service: 'genomics',
        subjectId: `${batch}/${bundleId}`,
        bundleDir,
        bundle,
        previousDigest: previous?.bundle_sha256,
        files: files.map((f) => ({
          key: f.path,
          path: f.path,
          mediaType: f.media_type,
          ...bundle.files.get(f.path)!,
        })),
      });
      return { ...plan, bundleId, batch, counts: bundle.counts };
    },

    /**
     * Upserts campaigns, clients, topics and their links, measurements, reports, revisions and publications
     * in one transaction, with one `imported` event per topic touched. Existing topics keep their brief and
     * their review state (those belong to the workspace and the task workflows); links are only added.
     */
    async upsertGenomicsBundle(input: { importId: string }): Promise<UpsertGenomicsBundleResult> {
      return finalTransaction(dataSource, input.importId, {
        // Read again (schema defaults applied); its files were checked when the import was planned.
        open: (bundleDir) => orInvalidBundleFailure(() => readGenomicsBundle(bundleDir)),
        recorded: recordedResult,
        async write(tx, running, { manifest }) {
          const { bundle_id: bundleId, batch } = manifest.bundle;
          const counts = {
            measurements: manifest.measurements.length,
            reports: manifest.reports.length,
            revisions: manifest.revisions.length,
            publications: manifest.publications.length,
          };
          const [previous]: Array<{ bundle_sha256: string }> = await tx.query(
            'SELECT bundle_sha256 FROM genomics_imports WHERE bundle_id = $1 FOR UPDATE',
            [bundleId],
          );
          if (previous?.bundle_sha256 === running.bundleSha256) {
            await completeImport(tx, input.importId, 'UNCHANGED', running.counts);
            return { bundleId, unchanged: true, topicsCreated: 0, topicsTouched: 0, ...counts };
          }
          const receipts = await readReceipts(tx, input.importId);
          const markdown = await readMarkdown(running.bundleDir, manifest);
          const fileOf = (path: string): FileReceipt => {
            const receipt = receipts.get(path);
            if (!receipt)
              throw ApplicationFailure.nonRetryable(`File ${path} was not stored`, 'files_not_stored');
            return receipt;
          };

          await upsertCampaignsAndClients(tx, manifest);
          const created = await insertTopics(tx, manifest, markdown);
          const topicIds = await topicIdsOf(tx, manifest);
          const idOf = (topic: number) => topicIds.get(topic) as string;
          await linkTopics(tx, manifest, idOf);
          await upsertMeasurements(tx, manifest, idOf, fileOf);
          await upsertReports(tx, manifest, idOf, fileOf);
          const revisionIds = new Map<string, string>();
          for (const r of manifest.revisions)
            revisionIds.set(r.revision_id, await upsertRevision(tx, idOf(r.topic), r, fileOf(r.file.path)));
          await upsertPublications(tx, manifest, idOf, fileOf, revisionIds);
          const touched = await writeImportEvents(tx, manifest, idOf, created);
          await tx.query(
            `INSERT INTO genomics_imports (bundle_id, batch, bundle_sha256) VALUES ($1, $2, $3)
             ON CONFLICT (bundle_id) DO UPDATE SET batch = EXCLUDED.batch, bundle_sha256 = EXCLUDED.bundle_sha256,
               imported_at = now()`,
            [bundleId, batch, running.bundleSha256],
          );
          await completeImport(tx, input.importId, 'SUCCEEDED', {
            ...running.counts,
            topics_created: created.size,
            topics_touched: touched,
          });
          return {
            bundleId,
            unchanged: false,
            topicsCreated: created.size,
            topicsTouched: touched,
            ...counts,
          };
        },
      });
    },
  };
}

/** The files a bundle stores in S3 (topic markdown is read into the topic instead). */
function storedFiles(m: GenomicsBundleManifest) {
  return [
    ...m.measurements.flatMap((x) => (x.evidence ? [x.evidence] : [])),
    ...m.reports.map((x) => x.file),
    ...m.revisions.map((x) => x.file),
    ...m.publications.map((x) => x.file),
  ];
}

function recordedResult(row: FinishedImport): UpsertGenomicsBundleResult {
  const c = row.counts;
  return {
    bundleId: row.subjectId.split('/')[1] ?? row.subjectId,
    unchanged: row.status === 'UNCHANGED',
    topicsCreated: c.topics_created ?? 0,
    topicsTouched: c.topics_touched ?? 0,
    measurements: c.measurements,
    reports: c.reports,
    revisions: c.revisions,
    publications: c.publications,
  };
}
