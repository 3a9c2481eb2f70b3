import type { EntityManager } from 'typeorm';
import type { Principal } from '../../kernel/authenticate';
import type { SqlQuery } from '../../shared/sql';
import { problems } from '../../kernel/errors';
import { GenomicsTopic } from '../../../entities/GenomicsTopic';
import type { Queryable } from '../../../entities/queryable';
import type { Disposition, GenomicsLabels, GenomicsTaskState } from '../../../workflows/genomicsTask/state';
import { visibleGenomicsTasks } from '../visibility';

/** A topic row as lists and receipts read it (never the markdown, which may be 2,000,000 characters). */
export interface TopicRow {
  id: string;
  uid: string;
  batch: string;
  topic: string;
  title: string | null;
  category: string | null;
  workflow_status: string;
  decision: string;
  previous_decision: string | null;
  requires_re_review: boolean;
  decision_campaign_id: string | null;
  submission_campaign_id: string | null;
  disposition: Disposition;
  planned_reviewer_id: string | null;
  current_package_version_id: string | null;
  deliverable_selection_revision: string;
  client_ids: string[];
  campaign_id: string | null;
  status: string | null;
  phase: string | null;
  classification: string | null;
  tags: string[];
  workflow_version: number;
  created_at: Date;
  updated_at: Date;
}

const ITEM_COLUMNS = `
  t.id::text AS id, t.uid, t.batch, t.topic::text AS topic, t.title, t.category, t.workflow_status, t.decision,
  t.previous_decision, t.requires_re_review, t.decision_campaign_id, t.submission_campaign_id, t.disposition,
  t.planned_reviewer_id::text AS planned_reviewer_id,
  t.current_package_version_id::text AS current_package_version_id,
  t.deliverable_selection_revision::text AS deliverable_selection_revision,
  COALESCE(cl.client_ids, '{}') AS client_ids, t.campaign_id, t.status, t.phase, t.classification, t.tags,
  t.workflow_version, t.created_at, t.updated_at`;

const ITEM_FROM = `
  FROM genomics_topics t
  LEFT JOIN LATERAL (
    SELECT array_agg(tc.client_id::text ORDER BY tc.client_id) AS client_ids
      FROM genomics_topic_clients tc WHERE tc.topic_id = t.id
  ) cl ON TRUE`;

/** The topic with this uid, or 404. Topic endpoints are not narrowed for Reviewers; only /tasks is. */
export async function findTopic(db: Queryable, topicUid: string): Promise<TopicRow> {
  const rows: TopicRow[] = await db.query(`SELECT ${ITEM_COLUMNS} ${ITEM_FROM} WHERE t.uid = $1`, [topicUid]);
  if (!rows[0]) throw problems.notFound(`Topic ${topicUid}`);
  return rows[0];
}

export async function topicMarkdown(db: Queryable, topicId: string): Promise<string | null> {
  const [row]: Array<{ markdown: string | null }> = await db.query(
    'SELECT markdown FROM genomics_topics WHERE id = $1',
    [topicId],
  );
  return row?.markdown ?? null;
}

export interface TopicListFilter {
  limit: number;
  search?: string;
  disposition?: Disposition;
  after?: { batch: string; topic: number };
  /** Set for /tasks: applies the Reviewer rule. */
  visibleTo?: Principal;
}

/** `%`, `_` and `\` are literal in a search: escaped for ILIKE (whose escape character is `\`). */
export const likePattern = (search: string): string => `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * The SQL of one page in keyset order (batch, topic): rows after the cursor, and one row more than asked
 * (so the caller knows whether a next page exists). `listTopics` runs it; scripts/genomicsListExplain.ts
 * EXPLAINs it.
 */
export function topicListSql(filter: TopicListFilter): SqlQuery {
  const params: unknown[] = [];
  const where: string[] = [];
  if (filter.visibleTo) where.push(visibleGenomicsTasks(filter.visibleTo, 't', params));
  if (filter.disposition) {
    params.push(filter.disposition);
    where.push(`t.disposition = $${params.length}`);
  }
  if (filter.search) {
    params.push(likePattern(filter.search));
    const p = `$${params.length}`;
    where.push(`(t.uid ILIKE ${p} OR t.title ILIKE ${p} OR t.category ILIKE ${p})`);
  }
  if (filter.after) {
    params.push(filter.after.batch, filter.after.topic);
    where.push(`(t.batch, t.topic) > ($${params.length - 1}, $${params.length}::bigint)`);
  }
  params.push(filter.limit + 1);
  return {
    sql: `SELECT ${ITEM_COLUMNS} ${ITEM_FROM}
      ${where.length > 0 ? `WHERE ${where.join(' AND ')}` : ''}
      ORDER BY t.batch, t.topic LIMIT $${params.length}`,
    params,
  };
}

/**
 * One page in keyset order (batch, topic): rows after the cursor, so records added while a client pages
 * never shift a page (no duplicates, no gaps). Reads one row more than asked to know whether a next page exists.
 */
export async function listTopics(
  db: Queryable,
  filter: TopicListFilter,
): Promise<{ rows: TopicRow[]; next: { batch: string; topic: number } | null }> {
  const { sql, params } = topicListSql(filter);
  const rows: TopicRow[] = await db.query(sql, params);
  if (rows.length <= filter.limit) return { rows, next: null };
  const page = rows.slice(0, filter.limit);
  const last = page[page.length - 1];
  return { rows: page, next: { batch: last.batch, topic: Number(last.topic) } };
}

/**
 * The SQL of an export's snapshot (api/shared/exports): every row GET /api/v1/tasks returns for this caller and
 * these filters, in its order, each presented as presenters.ts `presentTopicItem` presents it; `row_version` is the
 * topic's last event at the snapshot.
 */
export function topicSnapshotSql(
  principal: Principal,
  filter: Pick<TopicListFilter, 'search' | 'disposition'>,
): SqlQuery {
  const params: unknown[] = [];
  const where = [visibleGenomicsTasks(principal, 't', params)];
  if (filter.disposition) {
    params.push(filter.disposition);
    where.push(`t.disposition = $${params.length}`);
  }
  if (filter.search) {
    params.push(likePattern(filter.search));
    const p = `$${params.length}`;
    where.push(`(t.uid ILIKE ${p} OR t.title ILIKE ${p} OR t.category ILIKE ${p})`);
  }
  const clientIds = `COALESCE(cl.client_ids, '{}')`;
  const sql = `SELECT row_number() OVER (ORDER BY t.batch, t.topic)::int AS ordinal, t.id::text AS task_key,
       COALESCE((SELECT max(e.id) FROM genomics_events e WHERE e.topic_id = t.id), 0) AS row_version,
       json_build_object(
         'uid', t.uid, 'batch', t.batch, 'topic', t.topic::text, 'title', t.title, 'category', t.category,
         'workflow_status', t.workflow_status, 'decision', t.decision, 'previous_decision', t.previous_decision,
         'requires_re_review', t.requires_re_review, 'decision_campaign_id', t.decision_campaign_id,
         'submission_campaign_id', t.submission_campaign_id, 'disposition', t.disposition,
         'planned_reviewer_id', t.planned_reviewer_id::text,
         'current_package_version_id', t.current_package_version_id::text,
         'deliverable_selection_revision', t.deliverable_selection_revision::text,
         'client_ids', ${clientIds},
         'exclusivity', CASE cardinality(${clientIds}) WHEN 0 THEN 'NONE' WHEN 1 THEN 'EXCLUSIVE' ELSE 'SHARED' END,
         'campaign_id', t.campaign_id, 'status', t.status, 'phase', t.phase, 'classification', t.classification,
         'tags', t.tags
       ) AS item
     ${ITEM_FROM}
     WHERE ${where.join(' AND ')}`;
  return { sql, params };
}

export interface NewApiTopic {
  uid: string;
  batch: string;
  topic: number;
  title: string;
  category: string;
  markdown: string;
  /** The task's initial review state and the labels derived from it. */
  state: Pick<GenomicsTaskState, 'decision' | 'disposition'>;
  labels: GenomicsLabels;
  createdBy: string;
}

/** Inserts a topic created through the API; null when its uid (or batch and topic) already exists. */
export async function insertApiTopic(tx: EntityManager, topic: NewApiTopic): Promise<string | null> {
  const inserted: Array<{ id: string }> = await tx.query(
    `INSERT INTO genomics_topics (uid, batch, topic, title, category, markdown, decision, disposition,
       workflow_status, status, phase, classification, origin, created_by)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, 'api', $13)
     ON CONFLICT DO NOTHING RETURNING id::text`,
    [
      topic.uid,
      topic.batch,
      topic.topic,
      topic.title,
      topic.category,
      topic.markdown,
      topic.state.decision,
      topic.state.disposition,
      topic.labels.workflowStatus,
      topic.labels.status,
      topic.labels.phase,
      topic.labels.classification,
      topic.createdBy,
    ],
  );
  return inserted[0]?.id ?? null;
}

/** The topic's brief, locked until the transaction ends so an edit and its event see the same "before". */
export async function lockTopicForEdit(tx: EntityManager, topicUid: string) {
  return tx.getRepository(GenomicsTopic).findOne({
    select: { id: true, title: true, category: true, tags: true },
    where: { uid: topicUid },
    lock: { mode: 'pessimistic_write' },
  });
}

export async function updateTopicBrief(
  tx: EntityManager,
  topicId: string,
  brief: Partial<Pick<GenomicsTopic, 'title' | 'category' | 'tags'>>,
): Promise<void> {
  await tx.getRepository(GenomicsTopic).update(topicId, { ...brief, updatedAt: () => 'now()' });
}

/** Appends one event to a topic's trail inside the caller's transaction (the API's direct writes). */
export async function writeTopicEvent(
  tx: Queryable,
  topicId: string,
  kind: string,
  actorId: string,
  detail: Record<string, unknown>,
): Promise<string> {
  const [row]: Array<{ id: string }> = await tx.query(
    `INSERT INTO genomics_events (topic_id, kind, actor_id, detail) VALUES ($1, $2, $3, $4) RETURNING id::text`,
    [topicId, kind, actorId, JSON.stringify(detail)],
  );
  return row.id;
}

export interface CampaignRow {
  id: string;
  name: string;
  status: string;
  created_at: Date;
  updated_at: Date;
}

export interface ClientRow {
  id: string;
  name: string;
  enabled: boolean;
  created_at: Date;
  updated_at: Date;
}

/**
 * The campaigns a topic takes part in: linked by import, named by its campaign fields, or referenced by
 * its package revisions and campaign notes.
 */
export async function topicCampaigns(db: Queryable, topicId: string): Promise<CampaignRow[]> {
  return db.query(
    `SELECT c.id, c.name, c.status, c.created_at, c.updated_at FROM genomics_campaigns c
      WHERE c.id IN (
        SELECT campaign_id FROM genomics_topic_campaigns WHERE topic_id = $1
        UNION SELECT campaign_id FROM genomics_revisions WHERE topic_id = $1
        UNION SELECT campaign_id FROM genomics_notes WHERE topic_id = $1 AND campaign_id IS NOT NULL
        UNION SELECT unnest(ARRAY[t.campaign_id, t.decision_campaign_id, t.submission_campaign_id])
                FROM genomics_topics t WHERE t.id = $1)
      ORDER BY c.id`,
    [topicId],
  );
}

export async function topicClients(db: Queryable, topicId: string): Promise<ClientRow[]> {
  return db.query(
    `SELECT c.id::text, c.name, c.enabled, c.created_at, c.updated_at
       FROM genomics_clients c JOIN genomics_topic_clients tc ON tc.client_id = c.id
      WHERE tc.topic_id = $1 ORDER BY c.id`,
    [topicId],
  );
}

export async function campaignExists(db: Queryable, campaignId: string): Promise<boolean> {
  const rows: unknown[] = await db.query('SELECT 1 FROM genomics_campaigns WHERE id = $1', [campaignId]);
  return rows.length === 1;
}
