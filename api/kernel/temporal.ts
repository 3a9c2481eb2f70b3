import { randomUUID } from 'node:crypto';
import {
  type Client,
  isGrpcServiceError,
  WithStartWorkflowOperation,
  WorkflowUpdateFailedError,
  WorkflowUpdateRPCTimeoutOrCancelledError,
} from '@temporalio/client';
import {
  ApplicationFailure,
  WorkflowNotFoundError,
  type SearchAttributePair,
  type Workflow,
} from '@temporalio/common';
import type { UpdateDefinition } from '@temporalio/common';
import { google, temporal as proto } from '@temporalio/proto';
import type { TemporalCallKind, TemporalCallOutcome } from '../../observability/apiMetrics';
import type { Principal } from './authenticate';
import type { AppDeps } from './deps';
import { ApiError, problems } from './errors';

/** gRPC status codes that mean "Temporal is not reachable or too slow right now". */
const UNAVAILABLE_CODES = new Set([4 /* DEADLINE_EXCEEDED */, 14 /* UNAVAILABLE */, 1 /* CANCELLED */]);

export interface TaskUpdateCall<Ret, Args extends [unknown, ...unknown[]], W extends Workflow> {
  update: UpdateDefinition<Ret, Args>;
  args: Args;
  /**
   * The update's id, derived from the caller's Idempotency-Key (so a retry is the same update and the workflow
   * answers it with the first receipt); null without a key, and the call is then its own update (a random id).
   */
  updateId: string | null;
  /** The workflow's registered name; the API never imports workflow code. */
  workflowType: string;
  workflowId: string;
  /**
   * The projection shows a transition the workflow recorded, so it exists: a plain Update is sent, and
   * update-with-start only if the server answers that the workflow is not found (or no longer running).
   */
  knownToExist: boolean;
  /** What starts the workflow when it does not exist yet; built only then. */
  start: () => Promise<TaskWorkflowStart<W>>;
  /** Turns a rejection the workflow raised (an ApplicationFailure type) into the API's error. */
  rejection: (type: string, message: string, details: unknown[]) => ApiError;
}

export interface TaskWorkflowStart<W extends Workflow> {
  args: Parameters<W>;
  searchAttributes: SearchAttributePair[];
  memo?: Record<string, unknown>;
  /** One line the Temporal UI shows in the workflow list (user metadata of the start); set at start only. */
  staticSummary?: string;
}

/** Who acts, as both task workflows' state machines read it: the member and the role of their credential. */
export const actorOf = (principal: Principal) => ({ memberId: principal.member.id, role: principal.role });

/** The actor as sent to a task workflow: with the display name the Temporal UI shows on its persistence activity. */
export const workflowActorOf = (principal: Principal) => ({
  ...actorOf(principal),
  displayName: principal.member.displayName,
});

/** How the API calls Temporal for a task update: its client, the workers' task queue and the call's deadline. */
interface TaskWorkflowClient {
  client: Client;
  taskQueue: string;
  timeoutMs: number;
  /** Told how long each call took and how it ended (the API's metrics). */
  observe: (call: TemporalCallKind, outcome: TemporalCallOutcome, seconds: number) => void;
}

const taskWorkflowClient = (deps: Pick<AppDeps, 'temporal' | 'config' | 'metrics'>): TaskWorkflowClient => ({
  client: deps.temporal.client,
  taskQueue: deps.config.temporal.taskQueue,
  timeoutMs: deps.config.temporal.callTimeoutMs,
  observe: (call, outcome, seconds) => deps.metrics.temporalCall(call, outcome, seconds),
});

/**
 * Sends a Workflow Update to a task workflow under a deadline: with no worker polling the call would
 * otherwise wait forever. A workflow known to exist gets a plain Update (the server does less than for
 * update-with-start); otherwise, or when it turns out not to exist, it is started lazily with
 * update-with-start. Timeouts and an unreachable server become 503 with Retry-After; the workflow's typed
 * rejections become the caller's 4xx. Both services send every review mutation through here.
 */
export async function updateTaskWorkflow<Ret, Args extends [unknown, ...unknown[]], W extends Workflow>(
  deps: Pick<AppDeps, 'temporal' | 'config' | 'metrics'>,
  call: TaskUpdateCall<Ret, Args, W>,
): Promise<Ret> {
  const temporal = taskWorkflowClient(deps);
  const started = performance.now();
  let kind: TemporalCallKind = 'update';
  const observe = (outcome: TemporalCallOutcome) =>
    temporal.observe(kind, outcome, (performance.now() - started) / 1000);
  try {
    const result = await sendTaskUpdate(temporal, call, () => (kind = 'update_with_start'));
    observe('ok');
    return result;
  } catch (error) {
    const mapped = mapTemporalError(error, call.rejection);
    observe(outcomeOf(error, mapped));
    throw mapped;
  }
}

function outcomeOf(error: unknown, mapped: unknown): TemporalCallOutcome {
  if (error instanceof WorkflowUpdateFailedError && mapped instanceof ApiError && mapped.status < 500)
    return 'rejected';
  if (mapped instanceof ApiError && mapped.status === 503) return 'unavailable';
  return 'error';
}

async function sendTaskUpdate<Ret, Args extends [unknown, ...unknown[]], W extends Workflow>(
  temporal: TaskWorkflowClient,
  call: TaskUpdateCall<Ret, Args, W>,
  withStart: () => void,
): Promise<Ret> {
  const deadline = Date.now() + temporal.timeoutMs;
  const updateId = call.updateId ?? randomUUID();
  if (call.knownToExist) {
    try {
      return await temporal.client.withDeadline(deadline, () =>
        temporal.client.workflow
          .getHandle(call.workflowId)
          .executeUpdate(call.update, { args: call.args, updateId }),
      );
    } catch (error) {
      if (!(error instanceof WorkflowNotFoundError)) throw error;
    }
  }
  withStart();
  const start = await call.start();
  // The SDK's conditional args type cannot be checked against a generic W; start.args is typed by the caller.
  const startWorkflowOperation = new WithStartWorkflowOperation<W>(call.workflowType, {
    workflowId: call.workflowId,
    taskQueue: temporal.taskQueue,
    args: start.args,
    workflowIdConflictPolicy: 'USE_EXISTING',
    typedSearchAttributes: start.searchAttributes,
    memo: start.memo,
    staticSummary: start.staticSummary,
  } as unknown as ConstructorParameters<typeof WithStartWorkflowOperation<W>>[1]);
  return await temporal.client.withDeadline(deadline, () =>
    temporal.client.workflow.executeUpdateWithStart(call.update, {
      args: call.args,
      updateId,
      startWorkflowOperation,
    }),
  );
}

/** The HTTP error for each rejection code a workflow raises; a `Record`, so a new code fails the type check. */
export type RejectionMap<Code extends string> = Record<
  Code,
  (message: string, details: unknown[]) => ApiError
>;

/** A `TaskUpdateCall.rejection` from an exhaustive map; a failure type outside the union is an internal error. */
export function rejectionFrom<Code extends string>(
  map: RejectionMap<Code>,
): (type: string, message: string, details: unknown[]) => ApiError {
  return (type, message, details) =>
    Object.hasOwn(map, type) ? map[type as Code](message, details) : problems.internal();
}

export function mapTemporalError(
  error: unknown,
  rejection: (type: string, message: string, details: unknown[]) => ApiError,
): ApiError | unknown {
  if (error instanceof WorkflowUpdateFailedError) {
    const failure = applicationFailureIn(error);
    if (failure?.type) return rejection(failure.type, failure.message, (failure.details ?? []) as unknown[]);
    return problems.internal();
  }
  if (error instanceof WorkflowUpdateRPCTimeoutOrCancelledError) return problems.unavailable('temporal');
  if (isGrpcServiceError(error) && UNAVAILABLE_CODES.has(error.code)) return problems.unavailable('temporal');
  if (isWorkflowNotReady(error)) return problems.unavailable('temporal');
  const cause = (error as { cause?: unknown })?.cause;
  if (isGrpcServiceError(cause) && UNAVAILABLE_CODES.has(cause.code)) return problems.unavailable('temporal');
  if ((error as { name?: string })?.name === 'ServiceError') return problems.unavailable('temporal');
  return error;
}

const FAILED_PRECONDITION = 9;
const WORKFLOW_NOT_READY = 'temporal.api.errordetails.v1.WorkflowNotReadyFailure';
const MULTI_OPERATION_FAILURE = 'temporal.api.errordetails.v1.MultiOperationExecutionFailure';

/**
 * Temporal refuses a new update while the workflow's task keeps failing (from its third attempt on, until a worker
 * completes it): FAILED_PRECONDITION with WorkflowNotReadyFailure. A plain update gets it wrapped in a ServiceError;
 * update-with-start gets the gRPC error itself, the failure among its operations' statuses.
 */
export function isWorkflowNotReady(error: unknown): boolean {
  if (!isGrpcServiceError(error) || error.code !== FAILED_PRECONDITION) return false;
  const encoded = error.metadata?.get('grpc-status-details-bin')?.[0];
  if (!Buffer.isBuffer(encoded)) return false;
  const detailType = (any: google.protobuf.IAny) => any.type_url?.split('/').pop();
  try {
    return google.rpc.Status.decode(encoded).details.some((detail) => {
      if (detailType(detail) === WORKFLOW_NOT_READY) return true;
      if (detailType(detail) !== MULTI_OPERATION_FAILURE || !detail.value) return false;
      return proto.api.errordetails.v1.MultiOperationExecutionFailure.decode(detail.value).statuses.some(
        (status) => status.details?.some((inner) => detailType(inner) === WORKFLOW_NOT_READY),
      );
    });
  } catch {
    return false; // details that do not decode name no refusal this code knows
  }
}

function applicationFailureIn(error: unknown): ApplicationFailure | null {
  let current: unknown = error;
  while (current) {
    if (current instanceof ApplicationFailure) return current;
    current = (current as { cause?: unknown }).cause;
  }
  return null;
}
