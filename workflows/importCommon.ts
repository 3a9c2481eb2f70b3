import {
  ActivityFailure,
  ApplicationFailure,
  CancellationScope,
  defineQuery,
  proxyActivities,
} from '@temporalio/workflow';
import type { createActivities } from '../activities';

/** What `ops import` shows while an import workflow runs (the same shape for both services). */
export interface ImportProgress {
  service: 'math' | 'genomics';
  phase: 'planning' | 'uploading' | 'upserting' | 'done' | 'failed';
  /** The math run id, or `<batch>/<bundle_id>`; null until the plan is made. */
  subject: string | null;
  filesTotal: number;
  filesStored: number;
  filesUploaded: number;
  bytesUploaded: number;
  /** Record counts of the bundle (tasks, topics, …). */
  records: Record<string, number>;
  error: string | null;
}

export const importProgressQuery = defineQuery<ImportProgress>('importProgress');

export const newProgress = (service: ImportProgress['service']): ImportProgress => ({
  service,
  phase: 'planning',
  subject: null,
  filesTotal: 0,
  filesStored: 0,
  filesUploaded: 0,
  bytesUploaded: 0,
  records: {},
  error: null,
});

type Activities = ReturnType<typeof createActivities>;

/** Planning hashes every file: it heartbeats, so a crashed worker's attempt is retried within a minute. */
export const planningActivities = proxyActivities<Activities>({
  startToCloseTimeout: '2 hours',
  heartbeatTimeout: '1 minute',
  retry: { maximumAttempts: 8, initialInterval: '1 second', maximumInterval: '30 seconds' },
});

/** One transaction per bundle; long for 100,000 tasks, so it heartbeats too. */
export const upsertActivities = proxyActivities<Activities>({
  startToCloseTimeout: '1 hour',
  heartbeatTimeout: '1 minute',
  retry: { maximumAttempts: 8, initialInterval: '1 second', maximumInterval: '30 seconds' },
});

const uploads = proxyActivities<Activities>({
  startToCloseTimeout: '2 hours',
  heartbeatTimeout: '20 seconds',
  retry: { maximumAttempts: 10, initialInterval: '1 second', maximumInterval: '30 seconds' },
});

/** Upload activities in flight at once per import; each uploads a few files at a time itself. */
export const PARALLEL_CHUNKS = 2;
/** Uploads in flight inside one upload activity (the workflow runs PARALLEL_CHUNKS such activities at once). */
export const UPLOADS_PER_CHUNK = 4;

/**
 * Uploads the import's staged files as chunk activities (ranges of the planned list, never the list itself),
 * updating the progress as each chunk completes.
 */
async function uploadInChunks(
  importId: string,
  filesTotal: number,
  chunkSize: number,
  progress: ImportProgress,
): Promise<void> {
  progress.phase = 'uploading';
  let next = 0;
  const uploader = async () => {
    while (next < filesTotal) {
      const from = next;
      next = Math.min(filesTotal, next + chunkSize);
      const chunk = await uploads.storeImportFiles({ importId, from, to: next });
      progress.filesStored += chunk.stored;
      progress.filesUploaded += chunk.uploaded;
      progress.bytesUploaded += chunk.bytesUploaded;
    }
  };
  await Promise.all(Array.from({ length: PARALLEL_CHUNKS }, uploader));
}

/** What both planning activities answer: counts and chunking, never the file list. */
export interface PlannedImport {
  importId: string;
  unchanged: boolean;
  filesTotal: number;
  chunkSize: number;
  counts: object;
}

/**
 * The steps after planning: nothing when the bundle is unchanged, else upload the staged files in chunks and
 * run the final `upsert`. A failure is recorded on the import (even when cancelled) and rethrown.
 */
export async function importAfterPlan<T>(
  progress: ImportProgress,
  subject: string,
  plan: PlannedImport,
  upsert: () => Promise<T>,
): Promise<T | null> {
  progress.subject = subject;
  progress.records = { ...(plan.counts as Record<string, number>) };
  progress.filesTotal = plan.filesTotal;
  if (plan.unchanged) {
    progress.phase = 'done';
    return null;
  }
  try {
    await uploadInChunks(plan.importId, plan.filesTotal, plan.chunkSize, progress);
    progress.phase = 'upserting';
    const result = await upsert();
    progress.phase = 'done';
    return result;
  } catch (error) {
    progress.phase = 'failed';
    progress.error = failureMessage(error);
    await CancellationScope.nonCancellable(() =>
      upsertActivities.failImport({ importId: plan.importId, error: progress.error ?? 'failed' }),
    );
    throw error;
  }
}

/** The message of the activity failure behind an error (what an operator needs: which file, why). */
function failureMessage(error: unknown): string {
  if (error instanceof ActivityFailure && error.cause instanceof ApplicationFailure)
    return error.cause.message;
  return error instanceof Error ? error.message : String(error);
}
