import {
  allHandlersFinished,
  ApplicationFailure,
  condition,
  continueAsNew,
  currentUpdateInfo,
  patched,
  proxyActivities,
  proxyLocalActivities,
  setHandler,
  upsertSearchAttributes,
  workflowInfo,
} from '@temporalio/workflow';
import type { createActivities } from '../../activities';
import {
  DURABLE_PERSISTENCE_PATCH,
  LOCAL_PERSISTENCE_PATCH,
  sameSearchAttributes,
} from '../localPersistence';
import { SerialLock } from '../serialLock';
import { mathSearchAttributes } from './ids';
import {
  applyMathActionUpdate,
  type MathActionReceipt,
  type MathActionRequest,
  mathTaskStateQuery,
  type MathTaskWorkflowInput,
} from './messages';
import { decideMathAction, type MathTaskState } from './state';

const persistOptions = {
  startToCloseTimeout: '30 seconds',
  retry: { maximumAttempts: 10, initialInterval: '200 milliseconds', maximumInterval: '5 seconds' },
} as const;
const { persistMathTransition } = proxyActivities<ReturnType<typeof createActivities>>(persistOptions);
const local = proxyLocalActivities<ReturnType<typeof createActivities>>(persistOptions);

/** Receipts kept for deduplication across continue-as-new. */
const RECENT_RECEIPTS = 200;
/** Updates per run before continuing as new; well below the server's 2,000 and the latency growth seen past a few hundred. */
const UPDATES_PER_RUN = 500;

/**
 * The entity workflow of one math task. It owns the review state; every change arrives as the
 * `applyMathAction` update, is decided by the pure state machine, and is persisted by an activity
 * before the update returns.
 */
export async function mathTaskWorkflow(input: MathTaskWorkflowInput): Promise<void> {
  let state: MathTaskState = input.state;
  const receipts: MathActionReceipt[] = [...(input.recentReceipts ?? [])];
  let updatesThisRun = 0;
  const lock = new SerialLock();

  const receiptFor = (updateId: string) => receipts.find((r) => r.updateId === updateId);

  setHandler(mathTaskStateQuery, () => state);

  setHandler(
    applyMathActionUpdate,
    async (request: MathActionRequest): Promise<MathActionReceipt> => {
      const updateId = currentUpdateInfo()?.id ?? '';
      return lock.run(async () => {
        const earlier = receiptFor(updateId);
        if (earlier) return earlier;
        const decided = decideMathAction(state, request.action, request.actor, request.expectedVersion);
        if (!decided.ok) {
          throw ApplicationFailure.create({
            type: decided.rejection.code,
            message: decided.rejection.message,
            nonRetryable: true,
            details: [{ version: state.version }],
          });
        }
        const durablePersistence = patched(DURABLE_PERSISTENCE_PATCH);
        const localPersistence = !durablePersistence && patched(LOCAL_PERSISTENCE_PATCH);
        const persist = localPersistence ? local.persistMathTransition : persistMathTransition;
        await persist({
          taskId: input.taskId,
          previousVersion: state.version,
          next: decided.transition.next,
          event: decided.transition.event,
          updateId,
        });
        const attributesBefore = mathSearchAttributes(state);
        state = decided.transition.next;
        updatesThisRun += 1;
        const attributes = mathSearchAttributes(state);
        if (!(localPersistence || durablePersistence) || !sameSearchAttributes(attributesBefore, attributes))
          upsertSearchAttributes(attributes);
        const receipt: MathActionReceipt = {
          updateId,
          taskId: input.taskId,
          version: state.version,
          action: request.action.action,
        };
        receipts.push(receipt);
        if (receipts.length > RECENT_RECEIPTS) receipts.splice(0, receipts.length - RECENT_RECEIPTS);
        return receipt;
      });
    },
    {
      // Cheap rejection of stale versions: a validator's refusal is not written to history.
      validator: (request: MathActionRequest) => {
        const updateId = currentUpdateInfo()?.id ?? '';
        if (receiptFor(updateId)) return;
        if (request.expectedVersion !== state.version) {
          throw ApplicationFailure.create({
            type: 'stale_version',
            message: `Task is at version ${state.version}, not ${request.expectedVersion}; re-read it and retry.`,
            nonRetryable: true,
            details: [{ version: state.version }],
          });
        }
      },
    },
  );

  await condition(() => updatesThisRun >= UPDATES_PER_RUN || workflowInfo().continueAsNewSuggested);
  await condition(allHandlersFinished);
  await continueAsNew<typeof mathTaskWorkflow>({
    taskId: input.taskId,
    runId: input.runId,
    state,
    recentReceipts: receipts,
  });
}
