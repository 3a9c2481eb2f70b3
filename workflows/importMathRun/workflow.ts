import { proxyActivities, setHandler } from '@temporalio/workflow';
import type { createActivities } from '../../activities';
import type { StoredArtifact } from '../../activities/mathImport';
import {
  type ImportMathRunInput,
  type ImportMathRunResult,
  type ImportProgress,
  importProgressQuery,
} from './messages';

const activities = proxyActivities<ReturnType<typeof createActivities>>({
  startToCloseTimeout: '10 minutes',
  retry: { maximumAttempts: 8, initialInterval: '1 second', maximumInterval: '30 seconds' },
});

/** Artifacts uploaded at once: enough to keep S3 busy without starving the worker's two cores. */
const UPLOAD_CONCURRENCY = 4;

/** Imports one math run bundle: plan, upload artifacts content-addressed, upsert records. */
export async function importMathRunWorkflow(input: ImportMathRunInput): Promise<ImportMathRunResult> {
  const progress: ImportProgress = {
    phase: 'planning',
    runId: null,
    artifactsTotal: 0,
    artifactsStored: 0,
    bytesUploaded: 0,
    tasks: 0,
  };
  setHandler(importProgressQuery, () => progress);

  const plan = await activities.planMathImport(input.bundleDir);
  progress.runId = plan.runId;
  progress.artifactsTotal = plan.artifacts.length;
  progress.tasks = plan.taskCount;
  progress.phase = 'uploading';

  const stored: StoredArtifact[] = [];
  let next = 0;
  const uploader = async () => {
    while (next < plan.artifacts.length) {
      const artifact = plan.artifacts[next++];
      const result = await activities.storeMathArtifact({ bundleDir: input.bundleDir, ...artifact });
      stored.push(result);
      progress.artifactsStored += 1;
      if (result.uploaded) progress.bytesUploaded += result.sizeBytes;
    }
  };
  await Promise.all(Array.from({ length: UPLOAD_CONCURRENCY }, uploader));

  progress.phase = 'upserting';
  const upserted = await activities.upsertMathRun({ bundleDir: input.bundleDir, stored });
  progress.phase = 'done';
  return { ...progress, unchanged: upserted.unchanged };
}
