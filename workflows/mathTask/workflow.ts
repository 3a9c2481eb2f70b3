import { condition, proxyLocalActivities, setHandler, setWorkflowOptions } from '@temporalio/workflow';
import type { createActivities } from '../../activities';
import { transitionSummary } from '../ids';
import { refusal, TaskEntity, UPDATE_ACTIVITY_OPTIONS } from '../taskEntity';
import { mathRunSearchAttribute, mathSearchAttributes } from './ids';
import {
  applyMathActionUpdate,
  type MathActionReceipt,
  type MathActionRequest,
  mathTaskStateQuery,
  type MathTaskWorkflowInput,
} from './messages';
import { decideMathAction, type MathTaskState } from './state';

// A local activity: the transition commits inside the workflow task that accepts the update (docs/decisions-system.md,
// "Transitions persisted in the update's workflow task").
const { persistMathTransition } =
  proxyLocalActivities<ReturnType<typeof createActivities>>(UPDATE_ACTIVITY_OPTIONS);

/**
 * The entity workflow of one math task. It owns the review state; every change arrives as the
 * `applyMathAction` update, is decided by the pure state machine, and is persisted by an activity
 * before the update returns. Lock, receipts, fences and continue-as-new are the shared TaskEntity.
 */
export async function mathTaskWorkflow(input: MathTaskWorkflowInput): Promise<void> {
  const entity = new TaskEntity<MathTaskState, MathActionReceipt>(
    {
      state: input.state,
      subjectId: input.taskId,
      searchAttributes: (state) => mathSearchAttributes(state),
      fixedSearchAttributes: [mathRunSearchAttribute(input.runId)],
      movable: input,
    },
    input.recentReceipts,
  );
  const decide = (request: MathActionRequest) =>
    decideMathAction(entity.state, request.action, request.actor, request.expectedVersion);

  setHandler(mathTaskStateQuery, () => entity.state);

  setHandler(
    applyMathActionUpdate,
    (request: MathActionRequest): Promise<MathActionReceipt> =>
      entity.handleUpdate(async (updateId) => {
        const decided = decide(request);
        if (!decided.ok) throw refusal(decided.rejection, { version: entity.state.version });
        const { next, event } = decided.transition;
        const summary = transitionSummary(request.action.action, request.actor);
        const previousVersion = entity.state.version;
        await entity.commit({
          persist: (fence) =>
            persistMathTransition.executeWithOptions({ summary }, [
              { taskId: input.taskId, previousVersion, next, event, updateId, fence },
            ]),
          next: () => next,
        });
        return { updateId, taskId: input.taskId, version: next.version, action: request.action.action };
      }),
    {
      // A refusal here is not written to history. The handler decides again under the lock, from the then-current
      // state (an update admitted with another before it finished may be refused there).
      validator: (request: MathActionRequest) => {
        if (entity.isRepeatedUpdate()) return;
        const decided = decide(request);
        if (!decided.ok) throw refusal(decided.rejection, { version: entity.state.version });
      },
    },
  );

  await entity.resumed();
  await condition(() => entity.shouldContinueAsNew());
  await entity.continueAsNew<typeof mathTaskWorkflow>((carried) => ({
    taskId: input.taskId,
    runId: input.runId,
    ...carried,
  }));
}

// Pinned: a run finishes on the build that started it and moves at continue-as-new (workflows/versioning.ts).
setWorkflowOptions({ versioningBehavior: 'PINNED' }, mathTaskWorkflow);
