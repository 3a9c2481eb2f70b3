import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { S3Client } from '@aws-sdk/client-s3';
import { ApplicationFailure } from '@temporalio/activity';
import type { DataSource } from 'typeorm';
import {
  type GenomicsBundleCounts,
  type GenomicsBundleRevision,
  type GenomicsBundleTopic,
  markdownProblem,
  openGenomicsBundle,
  recordBatches,
  storedFileBatches,
  unknownReferenceProblems,
  type ValidatedGenomicsBundle,
  validateGenomicsBundle,
} from './bundles/genomicsBundle';
import {
  bundleChanged,
  finalTransaction,
  orInvalidBundleFailure,
  planImport,
  type PlannedFiles,
  readReceipts,
  withHeartbeat,
} from './importCommon';
import {
  completeImport,
  type FileReceipt,
  type FinishedImport,
  type PlannedFile,
  UPSERT_BATCH,
} from './importQueries';
import {
  insertTopics,
  linkTopics,
  previousBundleDigest,
  recordBundleImport,
  recordsPerTopic,
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
  topics: GenomicsBundleTopic[],
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
          validateGenomicsBundle(bundleDir, (references) => unknownReferenceProblems(dataSource, references)),
        ),
      );
      const { bundle_id: bundleId, batch } = bundle.manifest.bundle;
      const plan = await planImport(dataSource, {
        service: 'genomics',
        subjectId: `${batch}/${bundleId}`,
        bundleDir,
        bundle,
        previousDigest: await previousBundleDigest(dataSource, bundleId),
        files: filesToStage(bundleDir, bundle),
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
        // Checked when the import was planned; its records are read again in batches (their digest is compared).
        open: openGenomicsBundle,
        recorded: recordedResult,
        async write(tx, running, { manifest }) {
          const { bundle_id: bundleId, batch } = manifest.bundle;
          const bundle = { dir: running.bundleDir, manifest };
          const counts = {
            measurements: running.counts.measurements,
            reports: running.counts.reports,
            revisions: running.counts.revisions,
            publications: running.counts.publications,
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
          const created = await insertTopics(tx, bundle, (topics) => readMarkdown(running.bundleDir, topics));
          const perTopic = await recordsPerTopic(bundle);
          const topicIds = await topicIdsOf(tx, batch, [...perTopic.keys()]);
          const idOf = (topic: number) => topicIds.get(topic) as string;
          await linkTopics(tx, bundle, idOf);
          await upsertMeasurements(tx, bundle, idOf, fileOf);
          await upsertReports(tx, bundle, idOf, fileOf);
          const revisionIds = new Map<string, string>();
          for await (const chunk of recordBatches<GenomicsBundleRevision>(
            bundle.dir,
            manifest,
            'revisions',
            UPSERT_BATCH,
          ))
            for (const r of chunk)
              revisionIds.set(r.revision_id, await upsertRevision(tx, idOf(r.topic), r, fileOf(r.file.path)));
          await upsertPublications(tx, bundle, idOf, fileOf, revisionIds);
          const touched = await writeImportEvents(tx, bundleId, perTopic, idOf, created);
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

/**
 * The files a bundle stores in S3, each path once, read again in order (a large bundle's records are JSONL files,
 * never held whole) with the digests validation measured; topic markdown is read into the topic instead. A file
 * validation did not see means the bundle changed since.
 */
const filesToStage = (bundleDir: string, bundle: ValidatedGenomicsBundle): PlannedFiles => ({
  count: bundle.storedFiles,
  async *batches(size) {
    const seen = new Set<string>();
    let batch: PlannedFile[] = [];
    for await (const files of storedFileBatches(bundleDir, bundle.manifest, size)) {
      for (const f of files) {
        if (seen.has(f.path)) continue;
        seen.add(f.path);
        const digest = bundle.files.get(f.path);
        if (!digest) throw bundleChanged(bundleDir);
        batch.push({ key: f.path, path: f.path, mediaType: f.media_type, ...digest });
        if (batch.length === size) {
          yield batch;
          batch = [];
        }
      }
    }
    if (batch.length > 0) yield batch;
  },
});

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
