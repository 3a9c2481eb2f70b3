import { ApplicationFailure } from '@temporalio/activity';
import type { DataSource, EntityManager } from 'typeorm';
import { ForegroundWork } from './foreground';
import { faultPoint } from './testFaults';
import { withdrawWebhookEvents } from './webhookQueries';
import { auditReplaced } from './projectionRepairQueries';
import { assertSupersedes, projectionDiverged, type WrittenTransition } from './transitionFence';
import {
  alreadyApplied,
  lockTopicVersion,
  type PersistedGenomicsTransition,
  type PersistGenomicsTransitionInput,
  selectOpenRevision,
  selectTransitionsAbove,
  undoTransition,
  writeGenomicsTransition,
  writeTransitionWithoutEffects,
} from './genomicsTransitionQueries';

export type {
  PersistedGenomicsTransition,
  PersistGenomicsTransitionInput,
} from './genomicsTransitionQueries';

/**
 * Writes what a genomics task workflow decided: the record changes, the topic projection, one event and its webhook
 * event (when an endpoint subscribes), in one transaction, guarded by the workflow version. Idempotent: a retry after
 * a commit finds its own event (by update id) and answers with the ids recorded there. A transition the workflow
 * never recorded, written by an earlier workflow task that did not complete, is undone and replaced, and the
 * replacement audited (docs/decisions.md).
 */
export function genomicsTransitionActivities(dataSource: DataSource, foreground = new ForegroundWork()) {
  return {
    async persistGenomicsTransition(
      input: PersistGenomicsTransitionInput,
    ): Promise<PersistedGenomicsTransition> {
      foreground.mark();
      faultPoint('before-commit', input.updateId);
      // A transition without record changes (an override, a disposition, …) is one guarded statement.
      if (input.transition.effects.length === 0) {
        const eventId = await writeTransitionWithoutEffects(dataSource, input);
        if (eventId) {
          faultPoint('after-commit', input.updateId);
          return { eventId, created: { assignmentId: null, reviewId: null, revisionId: null } };
        }
        // Not at the previous version (a retry after its commit, an unacknowledged transition, or a missing
        // topic): the general path tells.
      }
      const persisted = await dataSource.transaction(async (tx) => {
        const version = await lockTopicVersion(tx, input.topicId);
        if (version === null)
          throw ApplicationFailure.nonRetryable(`No genomics topic ${input.topicId}`, 'topic_missing');
        if (version !== input.previousVersion) {
          const own = await alreadyApplied(tx, input);
          if (own) return { ...own, replay: true };
          if (version < input.previousVersion)
            throw projectionDiverged(`genomics topic ${input.topicId}`, input.previousVersion);
          await undoUnacknowledged(tx, input);
        }
        return { ...(await writeGenomicsTransition(tx, input)), replay: false };
      });
      if (!persisted.replay) faultPoint('after-commit', input.updateId);
      return { eventId: persisted.eventId, created: persisted.created };
    },

    /** The IN_PROGRESS package revision of a topic for a campaign: the fact a start-or-resume decides on. */
    async findOpenGenomicsRevision(input: { topicId: string; campaignId: string }): Promise<string | null> {
      return selectOpenRevision(dataSource, input.topicId, input.campaignId);
    },
  };
}

/**
 * Under the topic row's lock: the transitions above the workflow's version were never recorded by it. Unless a
 * newer workflow task wrote one, each is audited and undone, newest first (its record changes reversed, its event
 * removed, its webhook event withdrawn); the caller then writes this transition, which rewrites the whole topic projection from the workflow's
 * state.
 */
async function undoUnacknowledged(tx: EntityManager, input: PersistGenomicsTransitionInput): Promise<void> {
  const { fence } = input;
  const rows = await selectTransitionsAbove(tx, input.topicId, input.previousVersion);
  const written: WrittenTransition[] = rows.map((row) => ({
    version: row.workflow_version,
    updateId: row.update_id,
    workflowTaskTime: row.workflow_task_time,
    event: row.event,
  }));
  assertSupersedes(written, fence);
  await auditReplaced(tx, 'genomics', fence, input.previousVersion, input.updateId, written);
  for (const row of rows) await undoTransition(tx, input.topicId, row);
  // Their webhook events go with them, oldest first, before the replacement's own.
  await withdrawWebhookEvents(
    tx,
    'genomics',
    fence.subjectId,
    rows.map((row) => row.id),
  );
}
