import type { EntityManager } from 'typeorm';
import { emitWebhookSql, type GenomicsWebhookEventType, isoUtcSql } from '../webhooks/events';
import {
  type CreatedIds,
  type GenomicsEffect,
  type GenomicsTransition,
  withCreatedIds,
} from '../workflows/genomicsTask/state';
import type { TransitionFence } from './transitionFence';

/**
 * The statements of a genomics topic transition: what the task workflow's persisting activity writes
 * (genomicsTransitions.ts) and the projection `referee reconcile --repair` writes from a workflow's state.
 */

type Db = Pick<EntityManager, 'query'>;

export interface PersistGenomicsTransitionInput {
  topicId: string;
  previousVersion: number;
  transition: GenomicsTransition;
  /** The Temporal update id, or `timer:<assignmentId>` for a due-date expiry. */
  updateId: string;
  /** Which workflow task decided the transition (docs/decisions.md). */
  fence: TransitionFence;
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

/** One step that undoes a record change of a transition, applied in reverse order of the changes. */
type UndoStep =
  | { delete: 'genomics_assignments' | 'genomics_reviews' | 'genomics_revisions'; id: string }
  | { restoreAssignment: Record<string, unknown> };

/** The webhook event type of a topic event kind (docs/webhooks.md). */
export const genomicsWebhookEventType = (
  kind: GenomicsTransition['event']['kind'],
): GenomicsWebhookEventType => `genomics.topic.${kind}`;

/** The webhook payload's data of a topic transition, before the event's id, time and final detail. */
export function genomicsTransitionWebhookData(
  transition: GenomicsTransition,
  next: GenomicsTransition['next'],
) {
  return {
    kind: transition.event.kind,
    workflow_version: next.version,
    decision: next.decision,
    previous_decision: next.previousDecision,
    requires_re_review: next.requiresReReview,
    disposition: next.disposition,
    campaign_id: next.campaignId,
    planned_reviewer_id: next.plannedReviewerId,
    workflow_status: transition.labels.workflowStatus,
    status: transition.labels.status,
    phase: transition.labels.phase,
    actor_id: transition.event.actorId,
  };
}

/**
 * The SELECT that emits the webhook event of a topic event row just inserted (CTE `recorded`: id, topic_id,
 * created_at, detail), with the data of `$type` and `$data`.
 */
const emitTopicWebhookSql = (type: string, data: string) =>
  `SELECT ${emitWebhookSql({
    service: "'genomics'",
    type,
    subject: 't.uid',
    data: `(${data}::jsonb || jsonb_build_object('topic_uid', t.uid, 'event_id', r.id::text,
              'occurred_at', ${isoUtcSql('r.created_at')}, 'detail', r.detail))`,
  })} FROM recorded r JOIN genomics_topics t ON t.id = r.topic_id`;

/**
 * A transition without record changes (an override, a disposition, …) in one guarded statement: the projection at
 * `previousVersion` moves, its event and webhook event are recorded. Null when the topic was not at that version.
 */
export async function writeTransitionWithoutEffects(
  db: Db,
  input: PersistGenomicsTransitionInput,
): Promise<string | null> {
  const projection = topicProjection(input.topicId, input.transition.next, input.transition.labels);
  const n = projection.params.length;
  const [row]: Array<{ id: string }> = await db.query(
    `WITH moved AS (${projection.sql} AND workflow_version = $${n + 1} RETURNING id), recorded AS (
       INSERT INTO genomics_events (topic_id, kind, actor_id, workflow_version, update_id, detail, workflow_task_time)
       SELECT id, $${n + 2}, $${n + 3}, $16, $${n + 4}, $${n + 5}, $${n + 6} FROM moved
       RETURNING id, topic_id, created_at, detail
     ), emitted AS (${emitTopicWebhookSql(`$${n + 7}`, `$${n + 8}`)})
     SELECT id::text, (SELECT count(*) FROM emitted) AS emitted FROM recorded`,
    [
      ...projection.params,
      input.previousVersion,
      input.transition.event.kind,
      input.transition.event.actorId,
      input.updateId,
      JSON.stringify(input.transition.event.detail),
      input.fence.workflowTaskTime,
      genomicsWebhookEventType(input.transition.event.kind),
      JSON.stringify(genomicsTransitionWebhookData(input.transition, input.transition.next)),
    ],
  );
  return row?.id ?? null;
}

/** The topic's workflow version, its row locked; null when there is no such topic. */
export async function lockTopicVersion(tx: Db, topicId: string): Promise<number | null> {
  const [topic]: Array<{ workflow_version: number }> = await tx.query(
    'SELECT workflow_version FROM genomics_topics WHERE id = $1 FOR UPDATE',
    [topicId],
  );
  return topic ? topic.workflow_version : null;
}

/** The IN_PROGRESS package revision of a topic for a campaign. */
export async function selectOpenRevision(
  db: Db,
  topicId: string,
  campaignId: string,
): Promise<string | null> {
  const rows: Array<{ id: string }> = await db.query(
    `SELECT id::text FROM genomics_revisions
      WHERE topic_id = $1 AND campaign_id = $2 AND status = 'IN_PROGRESS'`,
    [topicId, campaignId],
  );
  return rows[0]?.id ?? null;
}

/**
 * The transition, with its record changes, the topic projection and its event: every transition with record
 * changes is written here, on the first try and when it replaces an unacknowledged one.
 */
export async function writeGenomicsTransition(
  tx: Db,
  input: PersistGenomicsTransitionInput,
): Promise<PersistedGenomicsTransition> {
  const created: CreatedIds = { assignmentId: null, reviewId: null, revisionId: null };
  const undo: UndoStep[] = [];
  const actorId = input.transition.event.actorId;
  for (const effect of input.transition.effects) {
    await applyEffect(tx, input.topicId, actorId, effect, created, undo);
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
    `WITH recorded AS (
       INSERT INTO genomics_events
         (topic_id, kind, actor_id, workflow_version, update_id, detail, workflow_task_time, undo)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING id, topic_id, created_at, detail
     ), emitted AS (${emitTopicWebhookSql('$9', '$10')})
     SELECT id::text, (SELECT count(*) FROM emitted) AS emitted FROM recorded`,
    [
      input.topicId,
      event.kind,
      event.actorId,
      next.version,
      input.updateId,
      JSON.stringify(detail),
      input.fence.workflowTaskTime,
      undo.length > 0 ? JSON.stringify(undo) : null,
      genomicsWebhookEventType(event.kind),
      JSON.stringify(genomicsTransitionWebhookData(input.transition, next)),
    ],
  );
  return { eventId: row.id, created };
}

/** This update's own transition, if it was committed already (a retry after its commit). */
export async function alreadyApplied(
  tx: Db,
  input: PersistGenomicsTransitionInput,
): Promise<PersistedGenomicsTransition | null> {
  const [event]: Array<{ id: string; detail: Record<string, unknown> }> = await tx.query(
    `SELECT id::text, detail FROM genomics_events
      WHERE topic_id = $1 AND update_id = $2 AND workflow_version = $3`,
    [input.topicId, input.updateId, input.transition.next.version],
  );
  if (!event) return null;
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

/** An event above the workflow's version, with what undoes its record changes. */
export interface UnrecordedTransition {
  id: string;
  workflow_version: number;
  update_id: string;
  workflow_task_time: Date | null;
  undo: UndoStep[] | null;
  event: Record<string, unknown>;
}

/** The topic's events above `previousVersion`, newest first. */
export async function selectTransitionsAbove(
  tx: Db,
  topicId: string,
  previousVersion: number,
): Promise<UnrecordedTransition[]> {
  return tx.query(
    `SELECT id::text, workflow_version, update_id, workflow_task_time, undo, to_jsonb(e) - 'id' - 'undo' AS event
       FROM genomics_events e
      WHERE topic_id = $1 AND workflow_version > $2
      ORDER BY workflow_version DESC`,
    [topicId, previousVersion],
  );
}

/** Reverses an event's record changes, newest first, and removes the event. */
export async function undoTransition(tx: Db, topicId: string, row: UnrecordedTransition): Promise<void> {
  for (const step of [...(row.undo ?? [])].reverse()) await undoStep(tx, topicId, step);
  await tx.query('DELETE FROM genomics_events WHERE id = $1', [row.id]);
}

async function undoStep(tx: Db, topicId: string, step: UndoStep): Promise<void> {
  if ('restoreAssignment' in step) {
    await tx.query(
      `UPDATE genomics_assignments a
          SET status = b.status, due_at = b.due_at, submitted_at = b.submitted_at, closed_at = b.closed_at,
              updated_at = b.updated_at
         FROM jsonb_populate_record(NULL::genomics_assignments, $1) b
        WHERE a.id = b.id`,
      [JSON.stringify(step.restoreAssignment)],
    );
    return;
  }
  // The topic row is rewritten from the workflow's state right after; until then it must not name the revision.
  if (step.delete === 'genomics_revisions') {
    await tx.query(
      'UPDATE genomics_topics SET current_package_version_id = NULL WHERE id = $1 AND current_package_version_id = $2',
      [topicId, step.id],
    );
  }
  await tx.query(`DELETE FROM ${step.delete} WHERE id = $1`, [step.id]);
}

async function applyEffect(
  tx: Db,
  topicId: string,
  actorId: string | null,
  effect: GenomicsEffect,
  created: CreatedIds,
  undo: UndoStep[],
): Promise<void> {
  switch (effect.kind) {
    case 'createAssignment': {
      const [row]: Array<{ id: string }> = await tx.query(
        `INSERT INTO genomics_assignments (topic_id, reviewer_id, status, instructions, due_at, assigned_by)
         VALUES ($1, $2, 'ACTIVE', $3, $4, $5) RETURNING id::text`,
        [topicId, effect.reviewerId, effect.instructions, effect.dueAt, actorId],
      );
      created.assignmentId = row.id;
      undo.push({ delete: 'genomics_assignments', id: row.id });
      return;
    }
    case 'setAssignmentStatus': {
      // The columns it overwrites, as they were, so an unacknowledged transition can be undone.
      const rows: Array<{ before: Record<string, unknown> }> = await tx.query(
        // A CTE, so the driver answers with the rows (a bare UPDATE answers [rows, count]).
        `WITH changed AS (
           UPDATE genomics_assignments a
              SET status = $3, updated_at = now(),
                  due_at = CASE WHEN $4 THEN NULL ELSE a.due_at END,
                  submitted_at = CASE WHEN $3 = 'SUBMITTED' THEN now() ELSE a.submitted_at END,
                  closed_at = CASE WHEN $3 IN ('CANCELLED', 'EXPIRED', 'SUBMITTED') THEN now() ELSE NULL END
             FROM (SELECT id, status, due_at, submitted_at, closed_at, updated_at FROM genomics_assignments
                    WHERE id = $1 AND topic_id = $2 FOR UPDATE) before
            WHERE a.id = before.id
            RETURNING to_jsonb(before) AS before
         )
         SELECT before FROM changed`,
        [effect.assignmentId, topicId, effect.status, effect.clearDueAt],
      );
      for (const { before } of rows) undo.push({ restoreAssignment: before });
      return;
    }
    case 'createReview': {
      const [row]: Array<{ id: string }> = await tx.query(
        `INSERT INTO genomics_reviews (topic_id, assignment_id, reviewer_id, verdict, body)
         VALUES ($1, $2, $3, $4, $5) RETURNING id::text`,
        [topicId, effect.assignmentId, effect.reviewerId, effect.verdict, effect.body],
      );
      created.reviewId = row.id;
      undo.push({ delete: 'genomics_reviews', id: row.id });
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
      undo.push({ delete: 'genomics_revisions', id: row.id });
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
