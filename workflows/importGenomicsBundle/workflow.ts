import { proxyActivities, setHandler } from '@temporalio/workflow';
import type { createActivities } from '../../activities';
import type { StoredGenomicsFile } from '../../activities/genomicsImport';
import {
  type GenomicsImportProgress,
  genomicsImportProgressQuery,
  type ImportGenomicsBundleInput,
  type ImportGenomicsBundleResult,
} from './messages';

const activities = proxyActivities<ReturnType<typeof createActivities>>({
  startToCloseTimeout: '10 minutes',
  retry: { maximumAttempts: 8, initialInterval: '1 second', maximumInterval: '30 seconds' },
});

/** Files uploaded at once: enough to keep S3 busy without starving the worker's two cores. */
const UPLOAD_CONCURRENCY = 4;

/** Imports one genomics bundle: check it, upload its files content-addressed, upsert its records. */
export async function importGenomicsBundleWorkflow(
  input: ImportGenomicsBundleInput,
): Promise<ImportGenomicsBundleResult> {
  const progress: GenomicsImportProgress = {
    phase: 'planning',
    bundleId: null,
    filesTotal: 0,
    filesStored: 0,
    bytesUploaded: 0,
    topics: 0,
  };
  setHandler(genomicsImportProgressQuery, () => progress);

  const plan = await activities.planGenomicsImport(input.bundleDir);
  progress.bundleId = plan.bundleId;
  progress.filesTotal = plan.files.length;
  progress.topics = plan.topicCount;
  progress.phase = 'uploading';

  const stored: StoredGenomicsFile[] = [];
  let next = 0;
  const uploader = async () => {
    while (next < plan.files.length) {
      const file = plan.files[next++];
      const result = await activities.storeGenomicsFile({ bundleDir: input.bundleDir, ...file });
      stored.push(result);
      progress.filesStored += 1;
      if (result.uploaded) progress.bytesUploaded += result.sizeBytes;
    }
  };
  await Promise.all(Array.from({ length: UPLOAD_CONCURRENCY }, uploader));

  progress.phase = 'upserting';
  const upserted = await activities.upsertGenomicsBundle({ bundleDir: input.bundleDir, stored });
  progress.phase = 'done';
  return {
    ...progress,
    unchanged: upserted.unchanged,
    topicsCreated: upserted.topicsCreated,
    measurements: upserted.measurements,
    reports: upserted.reports,
    revisions: upserted.revisions,
    publications: upserted.publications,
  };
}
