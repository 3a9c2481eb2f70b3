import {
  ActivityFailure,
  ApplicationFailure,
  CancellationScope,
  isCancellation,
  proxyActivities,
  setWorkflowOptions,
} from '@temporalio/workflow';
import type { createActivities } from '../../activities';
import type { ExportInput, ExportResult } from './messages';

type Activities = ReturnType<typeof createActivities>;

/**
 * Writing parts heartbeats after each part and before each pause that gives way to transitions: a killed worker's
 * attempt is retried within the heartbeat timeout and goes on from the last part recorded in PostgreSQL
 * (activities/exports.ts).
 */
const writing = proxyActivities<Activities>({
  startToCloseTimeout: '6 hours',
  heartbeatTimeout: '30 seconds',
  retry: { maximumAttempts: 20, initialInterval: '1 second', maximumInterval: '30 seconds' },
});

const finishing = proxyActivities<Activities>({
  startToCloseTimeout: '10 minutes',
  retry: { maximumAttempts: 10, initialInterval: '1 second', maximumInterval: '30 seconds' },
});

/**
 * Writes one export's file: every part of the snapshot taken when the export was created, then completes the
 * multipart upload and records size and SHA-256. Only counts cross the history; rows stay in PostgreSQL.
 */
export async function exportWorkflow(input: ExportInput): Promise<ExportResult> {
  try {
    await writing.writeExportParts(input);
    return await finishing.completeExport(input);
  } catch (error) {
    const message = isCancellation(error) ? 'cancelled' : failureMessage(error);
    await CancellationScope.nonCancellable(() => finishing.failExport({ ...input, error: message }));
    throw error;
  }
}

function failureMessage(error: unknown): string {
  if (error instanceof ActivityFailure && error.cause instanceof ApplicationFailure)
    return error.cause.message;
  return error instanceof Error ? error.message : String(error);
}

// Pinned: an export finishes on the code that started it; it never moves (docs/workflow-evolution.md).
setWorkflowOptions({ versioningBehavior: 'PINNED' }, exportWorkflow);
