import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { S3Client } from '@aws-sdk/client-s3';
import { ApplicationFailure } from '@temporalio/activity';
import type { DataSource } from 'typeorm';
import {
  type GenomicsBundleCounts,
  type GenomicsBundleManifest,
  markdownProblem,
  readGenomicsBundle,
  unknownReferenceProblems,
  validateGenomicsBundle,
} from './bundles/genomicsBundle';
import {
  finalTransaction,
  orInvalidBundleFailure,
  planImport,
  plannedFiles,
  readReceipts,
  withHeartbeat,
} from './importCommon';
import { completeImport, type FileReceipt, type FinishedImport } from './importQueries';
import {
  insertTopics,
  linkTopics,
  previousBundleDigest,
  recordBundleImport,
  topicIdsOf,
  upsertCampaignsAndClients,
  upsertMeasurements,
  upsertPublications,
  upsertReports,
  upsertRevision,
  writeImportEvents,
} from './genomicsImportQueries';

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

/**
 * The markdown of some topics, in their order (null for a topic without), each checked as validation checks it.
 * The final upsert reads it one batch of topics at a time, so no bundle's markdown is held whole.
 */
export async function readMarkdown(
  bundleDir: string,
  topics: GenomicsBundleManifest['topics'],
): Promise<Array<string | null>> {
  const markdown: Array<string | null> = [];
  for (const t of topics) {
    if (!t.markdown_path) {
      markdown.push(null);
      continue;
    }
    const bytes = await readFile(join(bundleDir, t.markdown_path));
    const problem = markdownProblem(bytes);
    if (problem) throw ApplicationFailure.nonRetryable(`${t.markdown_path} ${problem}`, 'invalid_bundle');
    markdown.push(bytes.toString('utf8'));
  }
  return markdown;
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
      const files = [...new Map(storedFiles(bundle.manifest).map((f) => [f.path, f])).values()];
      const plan = await planImport(dataSource, {
        service: 'genomics',
        subjectId: `${batch}/${bundleId}`,
        bundleDir,
        bundle,
        previousDigest: await previousBundleDigest(dataSource, bundleId),
        files: plannedFiles(files, (f) => ({
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
          if ((await previousBundleDigest(tx, bundleId, true)) === running.bundleSha256) {
            await completeImport(tx, input.importId, 'UNCHANGED', running.counts);
            return { bundleId, unchanged: true, topicsCreated: 0, topicsTouched: 0, ...counts };
          }
          const receipts = await readReceipts(tx, input.importId);
          const fileOf = (path: string): FileReceipt => {
            const receipt = receipts.get(path);
            if (!receipt)
              throw ApplicationFailure.nonRetryable(`File ${path} was not stored`, 'files_not_stored');
            return receipt;
          };

          await upsertCampaignsAndClients(tx, manifest);
          const created = await insertTopics(tx, manifest, (topics) =>
            readMarkdown(running.bundleDir, topics),
          );
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
          await recordBundleImport(tx, { bundleId, batch, sha256: running.bundleSha256 });
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
