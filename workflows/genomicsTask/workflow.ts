import {
  ApplicationFailure,
  condition,
  proxyActivities,
  proxyLocalActivities,
  setHandler,
  setWorkflowOptions,
} from '@temporalio/workflow';
import type { createActivities } from '../../activities';
import { transitionSummary } from '../ids';
import { refusal, TaskEntity, UPDATE_ACTIVITY_OPTIONS } from '../taskEntity';
import { decideGenomicsAction } from './decisions';
import { genomicsSearchAttributes } from './ids';
import {
  applyGenomicsActionUpdate,
  type GenomicsActionReceipt,
  type GenomicsActionRequest,
  genomicsTaskStateQuery,
  type GenomicsTaskWorkflowInput,
} from './messages';
import {
  activeDeadline,
  type GenomicsAction,
  type GenomicsActor,
  type GenomicsDecisionResult,
  type GenomicsTaskState,
  type GenomicsTransition,
  NO_FACTS,
  resolvedRecordId,
  SYSTEM_ACTOR,
  withCreatedIds,
} from './state';

type Activities = ReturnType<typeof createActivities>;
const { findOpenGenomicsRevision } = proxyActivities<Activities>(UPDATE_ACTIVITY_OPTIONS);
// An update's transition commits inside the workflow task that accepts it, as a local activity (docs/decisions-system.md,
// "Transitions persisted in the update's workflow task").
const { persistGenomicsTransition } = proxyLocalActivities<Activities>(UPDATE_ACTIVITY_OPTIONS);
// An expiry has no caller waiting: a remote activity that retries until PostgreSQL takes it, rather than failing
// the workflow.
const { persistGenomicsTransition: persistExpiry } = proxyActivities<Activities>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '1 second', maximumInterval: '1 minute' },
});

/** What a refused client re-reads: the decision and disposition its expectations are checked against. */
const refused = (result: Extract<GenomicsDecisionResult, { ok: false }>, state: GenomicsTaskState) =>
  refusal(result.rejection, { decision: state.decision, disposition: state.disposition });

/**
 * The entity workflow of one genomics topic's task. It owns the review state: every change arrives as the
 * `applyGenomicsAction` update, is decided by the pure state machine and persisted by an activity before
 * the update returns. It also keeps a durable timer for the ACTIVE assignment's due date: when it passes
 * with no review submitted, the assignment expires (once) and the disposition becomes TIMED_OUT.
 * Lock, receipts, fences and continue-as-new are the shared TaskEntity.
 */
export async function genomicsTaskWorkflow(input: GenomicsTaskWorkflowInput): Promise<void> {
  const entity = new TaskEntity<GenomicsTaskState, GenomicsActionReceipt>(
    {
      state: input.state,
      subjectId: input.topicUid,
      searchAttributes: (state) => genomicsSearchAttributes(input.topicUid, state),
      movable: input,
    },
    input.recentReceipts,
  );

  const commit = async (
    transition: GenomicsTransition,
    change: { updateId: string; action: GenomicsAction; actor: GenomicsActor; by: 'update' | 'timer' },
  ): Promise<GenomicsActionReceipt> => {
    const persist = change.by === 'timer' ? persistExpiry : persistGenomicsTransition;
    const summary = transitionSummary(change.action.action, change.actor);
    const previousVersion = entity.state.version;
    const persisted = await entity.commit({
      persist: (fence) =>
        persist.executeWithOptions({ summary }, [
          { topicId: input.topicId, previousVersion, transition, updateId: change.updateId, fence },
        ]),
      next: (result) => withCreatedIds(transition.next, result.created),
    });
    const state = entity.state;
    return {
      updateId: change.updateId,
      topicUid: input.topicUid,
      action: change.action.action,
      version: state.version,
      eventId: persisted.eventId,
      eventKind: transition.event.kind,
      recordType: transition.record.type,
      recordId: resolvedRecordId(transition.record, persisted.created),
      assignmentStatus: state.assignment?.status ?? null,
    };
  };

  setHandler(genomicsTaskStateQuery, () => entity.state);

  setHandler(
    applyGenomicsActionUpdate,
    (request: GenomicsActionRequest): Promise<GenomicsActionReceipt> =>
      entity.handleUpdate(async (updateId) => {
        const action = request.action;
        const actor = request.actor;
        const facts =
          action.action === 'startRevision'
            ? {
                openRevisionId: await findOpenGenomicsRevision({
                  topicId: input.topicId,
                  campaignId: action.campaignId,
                }),
              }
            : NO_FACTS;
        const decided = decideGenomicsAction(entity.state, action, actor, facts);
        if (!decided.ok) throw refused(decided, entity.state);
        return commit(decided.transition, { updateId, action, actor, by: 'update' });
      }),
    {
      // A refusal here (stale expectedDecision/expectedDisposition, closed topic, wrong actor) is not written to
      // history. The handler decides again under the lock, from the then-current state and facts.
      validator: (request: GenomicsActionRequest) => {
        if (entity.isRepeatedUpdate()) return;
        // The system actor is the due-date timer's, never an update's; the machine refuses an expiry by anyone else.
        if (request.actor.role === 'SYSTEM') {
          throw ApplicationFailure.create({
            type: 'system_only',
            message: 'Only the due-date timer expires an assignment.',
            nonRetryable: true,
          });
        }
        const decided = decideGenomicsAction(entity.state, request.action, request.actor, NO_FACTS);
        if (!decided.ok) throw refused(decided, entity.state);
      },
    },
  );

  await entity.resumed();
  // The due-date timer: re-armed whenever the state changes (a new, removed or reopened assignment).
  while (!entity.shouldContinueAsNew()) {
    const deadline = activeDeadline(entity.state);
    const seenVersion = entity.state.version;
    const changed = () => entity.state.version !== seenVersion || entity.shouldContinueAsNew();
    if (!deadline) {
      await condition(changed);
      continue;
    }
    const remainingMs = Date.parse(deadline.dueAt) - Date.now();
    if (remainingMs > 0 && (await condition(changed, remainingMs))) continue;
    await entity.exclusive(async () => {
      const current = activeDeadline(entity.state);
      if (current?.assignmentId !== deadline.assignmentId || current.dueAt !== deadline.dueAt) return;
      const action = {
        action: 'expireAssignment' as const,
        assignmentId: deadline.assignmentId,
        at: new Date(Date.now()).toISOString(),
      };
      const decided = decideGenomicsAction(entity.state, action, SYSTEM_ACTOR, NO_FACTS);
      if (decided.ok) {
        const updateId = `timer:${deadline.assignmentId}`;
        await commit(decided.transition, { updateId, action, actor: SYSTEM_ACTOR, by: 'timer' });
      }
    });
  }

  await entity.continueAsNew<typeof genomicsTaskWorkflow>((carried) => ({
    topicUid: input.topicUid,
    topicId: input.topicId,
    ...carried,
  }));
}

// Pinned: a run finishes on the build that started it and moves at continue-as-new (workflows/versioning.ts).
setWorkflowOptions({ versioningBehavior: 'PINNED' }, genomicsTaskWorkflow);
