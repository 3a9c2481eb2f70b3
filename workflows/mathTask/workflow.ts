import {
  ApplicationFailure,
  condition,
  proxyActivities,
  proxyLocalActivities,
  setHandler,
} from '@temporalio/workflow';
import type { createActivities } from '../../activities';
import { transitionSummary } from '../ids';
import { TaskEntity } from '../taskEntity';
import { mathRunSearchAttribute, mathSearchAttributes } from './ids';
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

const staleVersion = (state: MathTaskState, expectedVersion: number) =>
  ApplicationFailure.create({
    type: 'stale_version',
    message: `Task is at version ${state.version}, not ${expectedVersion}; re-read it and retry.`,
    nonRetryable: true,
    details: [{ version: state.version }],
  });

/**
 * The entity workflow of one math task. It owns the review state; every change arrives as the
 * `applyMathAction` update, is decided by the pure state machine, and is persisted by an activity
 * before the update returns. Lock, receipts, patches and continue-as-new are the shared TaskEntity.
 */
export async function mathTaskWorkflow(input: MathTaskWorkflowInput): Promise<void> {
  const entity = new TaskEntity<MathTaskState, MathActionReceipt>(
    {
      state: input.state,
      searchAttributes: (state) => mathSearchAttributes(state),
      fixedSearchAttributes: [mathRunSearchAttribute(input.runId)],
    },
    input.recentReceipts,
  );

  setHandler(mathTaskStateQuery, () => entity.state);

  setHandler(
    applyMathActionUpdate,
    (request: MathActionRequest): Promise<MathActionReceipt> =>
      entity.handleUpdate(async (updateId) => {
        const decided = decideMathAction(
          entity.state,
          request.action,
          request.actor,
          request.expectedVersion,
        );
        if (!decided.ok) {
          throw ApplicationFailure.create({
            type: decided.rejection.code,
            message: decided.rejection.message,
            nonRetryable: true,
            details: [{ version: entity.state.version }],
          });
        }
        const path = entity.persistencePath();
        const inWorkflowTask = path === 'local' || path === 'fenced';
        const persist = inWorkflowTask ? local.persistMathTransition : persistMathTransition;
        const { next, event } = decided.transition;
        const fence = path === 'fenced' ? { fence: entity.fence(input.taskId) } : {};
        await entity.commit({
          persist: () =>
            persist.executeWithOptions({ summary: transitionSummary(request.action.action, request.actor) }, [
              {
                taskId: input.taskId,
                previousVersion: entity.state.version,
                next,
                event,
                updateId,
                ...fence,
              },
            ]),
          next: () => next,
          upsert: path === 'original' ? 'always' : 'on-change',
        });
        return {
          updateId,
          taskId: input.taskId,
          version: entity.state.version,
          action: request.action.action,
        };
      }),
    {
      // Cheap rejection of stale versions: a validator's refusal is not written to history.
      validator: (request: MathActionRequest) => {
        if (entity.isRepeatedUpdate()) return;
        if (request.expectedVersion !== entity.state.version)
          throw staleVersion(entity.state, request.expectedVersion);
      },
    },
  );

  await condition(() => entity.shouldContinueAsNew());
  await entity.continueAsNew<typeof mathTaskWorkflow>((carried) => ({
    taskId: input.taskId,
    runId: input.runId,
    ...carried,
  }));
}
