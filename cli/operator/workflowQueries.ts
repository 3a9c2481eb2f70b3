import {
  type Client,
  isGrpcServiceError,
  type QueryDefinition,
  ServiceError,
  type WorkflowHandle,
  WorkflowNotFoundError,
} from '@temporalio/client';
import { type ImportProgress, importProgressQuery } from '../../workflows/importCommon';
import { sleep } from './progress';

// What the CLI asks running workflows (Temporal queries, not SQL), kept apart from the commands as their SQL is.

/**
 * Attempts per workflow query when the failure is transient (see {@link isTransientQueryFailure}): with the 30 s
 * deadline and the pauses between them, longer than a killed worker takes to be restarted and polling again on a
 * loaded machine (docs/chaos.md, "Reading the tables": a restart is most of a worker's time to recover).
 */
const QUERY_ATTEMPTS = 5;
/**
 * gRPC status codes that say "not now" rather than "no": DEADLINE_EXCEEDED, RESOURCE_EXHAUSTED, UNAVAILABLE, and
 * FAILED_PRECONDITION, which Temporal's server answers when no worker has polled the task queue recently ("worker
 * may be down") or while the workflow's task is failing.
 */
const TRANSIENT_GRPC_CODES = new Set([4, 8, 9, 14]);

/**
 * A query that timed out, found the server unavailable or found no worker polling: a worker that died holding the
 * workflow (its sticky queue is waited on first), a restarting server or worker. Another attempt reaches a live
 * worker.
 */
export function isTransientQueryFailure(error: unknown): boolean {
  const cause = error instanceof ServiceError ? error.cause : error;
  return isGrpcServiceError(cause) && TRANSIENT_GRPC_CODES.has(cause.code);
}

/**
 * A workflow's state by `query` within `timeoutMs` per attempt, retried while the failure is transient; null when
 * the workflow does not exist.
 */
export async function queryWorkflowState<State>(
  temporal: Client,
  workflowId: string,
  query: QueryDefinition<State>,
  timeoutMs: number,
): Promise<State | null> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await temporal.withDeadline(Date.now() + timeoutMs, () =>
        temporal.workflow.getHandle(workflowId).query(query),
      );
    } catch (error) {
      if (error instanceof WorkflowNotFoundError) return null;
      if (attempt >= QUERY_ATTEMPTS || !isTransientQueryFailure(error)) throw error;
      await sleep(1000 * attempt);
    }
  }
}

/** An import workflow's progress so far. */
export const queryImportProgress = (handle: WorkflowHandle): Promise<ImportProgress> =>
  handle.query(importProgressQuery);
