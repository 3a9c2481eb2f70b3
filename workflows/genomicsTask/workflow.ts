import {
  allHandlersFinished,
  ApplicationFailure,
  condition,
  makeContinueAsNewFunc,
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
  decideGenomicsAction,
  type GenomicsActionKind,
  type GenomicsDecisionResult,
  type GenomicsTaskState,
  type GenomicsTransition,
  NO_FACTS,
  resolvedRecordId,
  SYSTEM_ACTOR,
  withCreatedIds,
} from './state';

const persistOptions = {
  startToCloseTimeout: '30 seconds',
  retry: { maximumAttempts: 10, initialInterval: '200 milliseconds', maximumInterval: '5 seconds' },
} as const;
const { persistGenomicsTransition, findOpenGenomicsRevision } =
  proxyActivities<ReturnType<typeof createActivities>>(persistOptions);
const local = proxyLocalActivities<ReturnType<typeof createActivities>>(persistOptions);
// An expiry has no caller waiting: it retries until PostgreSQL takes it, rather than failing the workflow.
const { persistGenomicsTransition: persistExpiry } = proxyActivities<ReturnType<typeof createActivities>>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '1 second', maximumInterval: '1 minute' },
});

/** Receipts kept for deduplication across continue-as-new. */
const RECENT_RECEIPTS = 200;
/** Transitions per run before continuing as new; well below the server's 2,000 updates per run. */
const TRANSITIONS_PER_RUN = 500;

const rejectionFailure = (result: Extract<GenomicsDecisionResult, { ok: false }>, state: GenomicsTaskState) =>
  ApplicationFailure.create({
    type: result.rejection.code,
    message: result.rejection.message,
    nonRetryable: true,
    details: [{ decision: state.decision, disposition: state.disposition }],
  });

/**
 * The entity workflow of one genomics topic's task. It owns the review state: every change arrives as the
 * `applyGenomicsAction` update, is decided by the pure state machine and persisted by an activity before
 * the update returns. It also keeps a durable timer for the ACTIVE assignment's due date: when it passes
 * with no review submitted, the assignment expires (once) and the disposition becomes TIMED_OUT.
 */
export async function genomicsTaskWorkflow(input: GenomicsTaskWorkflowInput): Promise<void> {
  let state: GenomicsTaskState = input.state;
  const receipts: GenomicsActionReceipt[] = [...(input.recentReceipts ?? [])];
  let transitionsThisRun = 0;
  const lock = new SerialLock();

  const receiptFor = (updateId: string) => receipts.find((r) => r.updateId === updateId);

  const commit = async (
    transition: GenomicsTransition,
    updateId: string,
    kind: GenomicsActionKind,
    persist = persistGenomicsTransition,
    upsertOnlyOnChange = false,
  ) => {
    const persisted = await persist({
      topicId: input.topicId,
      previousVersion: state.version,
      transition,
      updateId,
    });
    const attributesBefore = genomicsSearchAttributes(input.topicUid, state);
    state = withCreatedIds(transition.next, persisted.created);
    transitionsThisRun += 1;
    const attributes = genomicsSearchAttributes(input.topicUid, state);
    if (!upsertOnlyOnChange || !sameSearchAttributes(attributesBefore, attributes))
      upsertSearchAttributes(attributes);
    const receipt: GenomicsActionReceipt = {
      updateId,
      topicUid: input.topicUid,
      action: kind,
      version: state.version,
      eventId: persisted.eventId,
      eventKind: transition.event.kind,
      recordType: transition.record.type,
      recordId: resolvedRecordId(transition.record, persisted.created),
      assignmentStatus: state.assignment?.status ?? null,
    };
    return receipt;
  };

  setHandler(genomicsTaskStateQuery, () => state);

  setHandler(
    applyGenomicsActionUpdate,
    async (request: GenomicsActionRequest): Promise<GenomicsActionReceipt> => {
      const updateId = currentUpdateInfo()?.id ?? '';
      return lock.run(async () => {
        const earlier = receiptFor(updateId);
        if (earlier) return earlier;
        const { action } = request;
        const facts =
          action.kind === 'startRevision'
            ? {
                openRevisionId: await findOpenGenomicsRevision({
                  topicId: input.topicId,
                  campaignId: action.campaignId,
                }),
              }
            : NO_FACTS;
        const decided = decideGenomicsAction(state, action, request.actor, facts);
        if (!decided.ok) throw rejectionFailure(decided, state);
        const durablePersistence = patched(DURABLE_PERSISTENCE_PATCH);
        const localPersistence = !durablePersistence && patched(LOCAL_PERSISTENCE_PATCH);
        const receipt = await commit(
          decided.transition,
          updateId,
          action.kind,
          localPersistence ? local.persistGenomicsTransition : persistGenomicsTransition,
          localPersistence || durablePersistence,
        );
        receipts.push(receipt);
        if (receipts.length > RECENT_RECEIPTS) receipts.splice(0, receipts.length - RECENT_RECEIPTS);
        return receipt;
      });
    },
    {
      // Cheap refusals (stale expectedDecision/expectedDisposition, closed topic, wrong actor) are not
      // written to history. The handler decides again under the lock, from the then-current state.
      validator: (request: GenomicsActionRequest) => {
        if (receiptFor(currentUpdateInfo()?.id ?? '')) return;
        if (request.action.kind === 'expireAssignment' || request.actor.role === 'SYSTEM') {
          throw ApplicationFailure.create({
            type: 'system_only',
            message: 'Only the due-date timer expires an assignment.',
            nonRetryable: true,
          });
        }
        const decided = decideGenomicsAction(state, request.action, request.actor, NO_FACTS);
        if (!decided.ok) throw rejectionFailure(decided, state);
      },
    },
  );

  const shouldContinueAsNew = () =>
    transitionsThisRun >= TRANSITIONS_PER_RUN || workflowInfo().continueAsNewSuggested;

  // The due-date timer: re-armed whenever the state changes (a new, removed or reopened assignment).
  while (!shouldContinueAsNew()) {
    const deadline = activeDeadline(state);
    const seenVersion = state.version;
    const changed = () => state.version !== seenVersion || shouldContinueAsNew();
    if (!deadline) {
      await condition(changed);
      continue;
    }
    const remainingMs = Date.parse(deadline.dueAt) - Date.now();
    if (remainingMs > 0 && (await condition(changed, remainingMs))) continue;
    await lock.run(async () => {
      const current = activeDeadline(state);
      if (current?.assignmentId !== deadline.assignmentId || current.dueAt !== deadline.dueAt) return;
      const action = {
        kind: 'expireAssignment' as const,
        assignmentId: deadline.assignmentId,
        at: new Date(Date.now()).toISOString(),
      };
      const decided = decideGenomicsAction(state, action, SYSTEM_ACTOR, NO_FACTS);
      if (decided.ok) {
        await commit(decided.transition, `timer:${deadline.assignmentId}`, action.kind, persistExpiry);
      }
    });
  }

  await condition(allHandlersFinished);
  const continueAsNew = makeContinueAsNewFunc<typeof genomicsTaskWorkflow>({
    typedSearchAttributes: genomicsSearchAttributes(input.topicUid, state),
    memo: workflowInfo().memo,
  });
  await continueAsNew({
    topicUid: input.topicUid,
    topicId: input.topicId,
    state,
    recentReceipts: receipts,
  });
}
