import type { DataSource } from 'typeorm';
import type { Principal } from '../../kernel/authenticate';
import { limitOffset, type PageQuery } from '../shared/pagination';
import { visibleClients, visibleTasks } from '../visibility';

export const ACTIVITY_KINDS = ['task', 'client'] as const;
export type ActivityKind = (typeof ACTIVITY_KINDS)[number];

export interface ActivityRow {
  kind: ActivityKind;
  id: string;
  created_at: Date;
  action: string;
  actor_id: string | null;
  task_id: string | null;
  client_id: string | null;
  version: number | null;
  comment: string | null;
  from_state: string | null;
  to_state: string | null;
  detail: Record<string, unknown>;
}

/** The branches of the activity union this caller may see: task workflow events and client audit events. */
function activitySources(principal: Principal, kind: ActivityKind | undefined, params: unknown[]) {
  const sources: Array<{ alias: string; select: string; from: string }> = [];
  if (kind !== 'client') {
    sources.push({
      alias: 'e',
      select: `SELECT 'task'::text AS kind, e.id, e.created_at, e.action, e.actor_id::text AS actor_id, e.task_id,
                      NULL::text AS client_id, e.version, e.comment, e.from_state, e.to_state, e.detail`,
      from: `FROM math_task_events e JOIN math_tasks t ON t.task_id = e.task_id
             WHERE ${visibleTasks(principal, 't', params)}`,
    });
  }
  if (kind !== 'task') {
    sources.push({
      alias: 'ce',
      select: `SELECT 'client'::text AS kind, ce.id, ce.created_at, ce.kind AS action, ce.actor_id::text AS actor_id,
                      NULL::text AS task_id, ce.client_id::text AS client_id, NULL::int AS version, NULL::text AS comment,
                      NULL::text AS from_state, NULL::text AS to_state, ce.detail`,
      from: `FROM math_client_events ce WHERE ${visibleClients(principal, 'ce.client_id', params)}`,
    });
  }
  return sources;
}

/**
 * Visible activity, newest first (ties: task events before client events, then newer id first). Each
 * branch is cut to the rows the page can need before the merge, so a deep history is never sorted whole.
 */
export async function listActivity(
  dataSource: DataSource,
  principal: Principal,
  kind: ActivityKind | undefined,
  page: PageQuery,
): Promise<ActivityRow[]> {
  const params: unknown[] = [];
  const sources = activitySources(principal, kind, params);
  const [limit, offset] = limitOffset(page);
  params.push(limit + offset, limit, offset);
  const cut = `$${params.length - 2}`;
  const union = sources
    .map(
      (s) => `(${s.select} ${s.from} ORDER BY ${s.alias}.created_at DESC, ${s.alias}.id DESC LIMIT ${cut})`,
    )
    .join(' UNION ALL ');
  return dataSource.query(
    `SELECT kind, id::text, created_at, action, actor_id, task_id, client_id, version, comment, from_state, to_state,
            detail
       FROM (${union}) a
      ORDER BY created_at DESC, kind DESC, id DESC LIMIT $${params.length - 1} OFFSET $${params.length}`,
    params,
  );
}

export async function countActivity(
  dataSource: DataSource,
  principal: Principal,
  kind: ActivityKind | undefined,
): Promise<number> {
  const params: unknown[] = [];
  const counts = activitySources(principal, kind, params).map((s) => `(SELECT count(*) ${s.from})`);
  const [row] = await dataSource.query(`SELECT (${counts.join(' + ')})::int AS total`, params);
  return row.total as number;
}
