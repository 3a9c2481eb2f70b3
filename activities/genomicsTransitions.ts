import { ApplicationFailure } from '@temporalio/activity';
import type { DataSource, EntityManager } from 'typeorm';
import {
  type CreatedIds,
  type GenomicsEffect,
  type GenomicsTransition,
  withCreatedIds,
} from '../workflows/genomicsTask/state';

export interface PersistGenomicsTransitionInput {
  topicId: string;
  previousVersion: number;
  transition: GenomicsTransition;
  /** The Temporal update id, or `timer:<assignmentId>` for a due-date expiry. */
  updateId: string;
}

export interface PersistedGenomicsTransition {
  eventId: string;
  created: CreatedIds;
}

/** Event detail keys holding the ids of inserted records, so a retry after a commit can answer with them. */
const CREATED_KEYS = {
  assignmentId: 'assignment_id',
  reviewId: 'review_id',
  revisionId: 'revision_id',
} as const;

/**
 * Writes what a genomics task workflow decided: the record changes, the topic projection and one event,
 * in one transaction. Guarded by the workflow version, and idempotent: a retry after a commit finds its
 * own event (by update id) and answers with the ids recorded there.
 */
export function genomicsTransitionActivities(dataSource: DataSource) {
  return {
    async persistGenomicsTransition(
      input: PersistGenomicsTransitionInput,
    ): Promise<PersistedGenomicsTransition> {
      // A transition without record changes (an override, a disposition, …) is one guarded statement.
      if (input.transition.effects.length === 0) {
        const projection = topicProjection(input.topicId, input.transition.next, input.transition.labels);
        const [row]: Array<{ id: string }> = await dataSource.query(
          `WITH moved AS (
             ${projection.sql} AND workflow_version = $${projection.params.length + 1} RETURNING id
           )
           INSERT INTO genomics_events (topic_id, kind, actor_id, workflow_version, update_id, detail)
           SELECT id, $${projection.params.length + 2}, $${projection.params.length + 3}, $16,
                  $${projection.params.length + 4}, $${projection.params.length + 5}
             FROM moved RETURNING id::text`,
          [
            ...projection.params,
            input.previousVersion,
            input.transition.event.kind,
            input.transition.event.actorId,
            input.updateId,
            JSON.stringify(input.transition.event.detail),
          ],
        );
        if (row)
          return { eventId: row.id, created: { assignmentId: null, reviewId: null, revisionId: null } };
        // Not at the previous version (a retry after its commit, or a missing topic): the general path tells.
      }
      return dataSource.transaction(async (tx) => {
        const [topic]: Array<{ workflow_version: number }> = await tx.query(
          'SELECT workflow_version FROM genomics_topics WHERE id = $1 FOR UPDATE',
          [input.topicId],
        );
        if (!topic)
          throw ApplicationFailure.nonRetryable(`No genomics topic ${input.topicId}`, 'topic_missing');
        if (topic.workflow_version !== input.previousVersion) return alreadyApplied(tx, input);

        const created: CreatedIds = { assignmentId: null, reviewId: null, revisionId: null };
        const actorId = input.transition.event.actorId;
        for (const effect of input.transition.effects) {
          await applyEffect(tx, input.topicId, actorId, effect, created);
        }

        const next = withCreatedIds(input.transition.next, created);
        const { event } = input.transition;
        const projection = topicProjection(input.topicId, next, input.transition.labels);
        await tx.query(projection.sql, projection.params);
        const detail: Record<string, unknown> = { ...event.detail };
        for (const [field, key] of Object.entries(CREATED_KEYS)) {
          const id = created[field as keyof CreatedIds];
          if (id) detail[key] = id;
        }
        const [row]: Array<{ id: string }> = await tx.query(
          `INSERT INTO genomics_events (topic_id, kind, actor_id, workflow_version, update_id, detail)
           VALUES ($1, $2, $3, $4, $5, $6) RETURNING id::text`,
          [input.topicId, event.kind, event.actorId, next.version, input.updateId, JSON.stringify(detail)],
        );
        return { eventId: row.id, created };
      });
    },

    /** The IN_PROGRESS package revision of a topic for a campaign: the fact a start-or-resume decides on. */
    async findOpenGenomicsRevision(input: { topicId: string; campaignId: string }): Promise<string | null> {
      const rows: Array<{ id: string }> = await dataSource.query(
        `SELECT id::text FROM genomics_revisions
          WHERE topic_id = $1 AND campaign_id = $2 AND status = 'IN_PROGRESS'`,
        [input.topicId, input.campaignId],
      );
      return rows[0]?.id ?? null;
    },
  };
}

async function alreadyApplied(
  tx: EntityManager,
  input: PersistGenomicsTransitionInput,
): Promise<PersistedGenomicsTransition> {
  const [event]: Array<{ id: string; detail: Record<string, unknown> }> = await tx.query(
    `SELECT id::text, detail FROM genomics_events
      WHERE topic_id = $1 AND update_id = $2 AND workflow_version = $3`,
    [input.topicId, input.updateId, input.transition.next.version],
  );
  if (!event) {
    throw ApplicationFailure.nonRetryable(
      `Projection of genomics topic ${input.topicId} is not at version ${input.previousVersion}`,
      'projection_diverged',
    );
  }
  const recorded = (key: string) =>
    typeof event.detail[key] === 'string' ? (event.detail[key] as string) : null;
  return {
    eventId: event.id,
    created: {
      assignmentId: recorded(CREATED_KEYS.assignmentId),
      reviewId: recorded(CREATED_KEYS.reviewId),
      revisionId: recorded(CREATED_KEYS.revisionId),
    },
  };
}

async function applyEffect(
  tx: EntityManager,
  topicId: string,
  actorId: string | null,
  effect: GenomicsEffect,
  created: CreatedIds,
): Promise<void> {
  switch (effect.kind) {
    case 'createAssignment': {
      const [row]: Array<{ id: string }> = await tx.query(
        `INSERT INTO genomics_assignments (topic_id, reviewer_id, status, instructions, due_at, assigned_by)
         VALUES ($1, $2, 'ACTIVE', $3, $4, $5) RETURNING id::text`,
        [topicId, effect.reviewerId, effect.instructions, effect.dueAt, actorId],
      );
      created.assignmentId = row.id;
      return;
    }
    case 'setAssignmentStatus':
      await tx.query(
        `UPDATE genomics_assignments
            SET status = $3, updated_at = now(),
                due_at = CASE WHEN $4 THEN NULL ELSE due_at END,
                submitted_at = CASE WHEN $3 = 'SUBMITTED' THEN now() ELSE submitted_at END,
                closed_at = CASE WHEN $3 IN ('CANCELLED', 'EXPIRED', 'SUBMITTED') THEN now() ELSE NULL END
          WHERE id = $1 AND topic_id = $2`,
        [effect.assignmentId, topicId, effect.status, effect.clearDueAt],
      );
      return;
    case 'createReview': {
      const [row]: Array<{ id: string }> = await tx.query(
        `INSERT INTO genomics_reviews (topic_id, assignment_id, reviewer_id, verdict, body)
         VALUES ($1, $2, $3, $4, $5) RETURNING id::text`,
        [topicId, effect.assignmentId, effect.reviewerId, effect.verdict, effect.body],
      );
      created.reviewId = row.id;
      return;
    }
    case 'createRevision': {
      const [row]: Array<{ id: string }> = await tx.query(
        `INSERT INTO genomics_revisions (topic_id, campaign_id, number, status, notes, started_by)
         VALUES ($1, $2, (SELECT COALESCE(max(number), 0) + 1 FROM genomics_revisions WHERE topic_id = $1),
                 'IN_PROGRESS', $3, $4)
         RETURNING id::text`,
        [topicId, effect.campaignId, effect.notes, actorId],
      );
      created.revisionId = row.id;
      return;
    }
  }
}

/**
 * The topic projection's UPDATE to a state and its labels (`$1` the topic, `$16` the new workflow version): what a
 * transition writes, and what `ops reconcile --repair` writes from the workflow's state.
 */
export function topicProjection(
  topicId: string,
  next: GenomicsTransition['next'],
  labels: GenomicsTransition['labels'],
): { sql: string; params: unknown[] } {
  return {
    sql: `UPDATE genomics_topics
             SET decision = $2, previous_decision = $3, requires_re_review = $4, decision_campaign_id = $5,
                 submission_campaign_id = $6, campaign_id = $7, disposition = $8, planned_reviewer_id = $9,
                 current_package_version_id = $10, deliverable_selection_revision = $11, workflow_status = $12,
                 status = $13, phase = $14, classification = $15, workflow_version = $16, updated_at = now()
           WHERE id = $1`,
    params: [
      topicId,
      next.decision,
      next.previousDecision,
      next.requiresReReview,
      next.decisionCampaignId,
      next.submissionCampaignId,
      next.campaignId,
      next.disposition,
      next.plannedReviewerId,
      next.currentPackageVersionId,
      next.deliverableSelectionRevision,
      labels.workflowStatus,
      labels.status,
      labels.phase,
      labels.classification,
      next.version,
    ],
  };
}
