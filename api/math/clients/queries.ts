import type { DataSource, EntityManager } from 'typeorm';
import type { Queryable, Transactional } from '../../../entities/queryable';
import type { Principal } from '../../kernel/authenticate';
import { problems } from '../../kernel/errors';
import { limitOffset, type PageQuery } from '../shared/pagination';
import { containsPattern } from '../shared/search';
import { visibleClients, visibleTasks } from '../visibility';
import { mathProblems } from '../problems';

export interface ClientRow {
  id: string;
  name: string;
  description: string;
  enabled: boolean;
  created_at: Date;
  updated_at: Date;
  task_count: number;
  archived_task_count: number;
}

export interface ClientFields {
  name: string;
  description: string;
  enabled: boolean;
}

const CLIENT_ORDER = 'lower(c.name), c.id';

/** Clients with task counts (archived included, and archived alone) over the caller's visible tasks. */
function clientSql(principal: Principal, where: string, params: unknown[], page: PageQuery | null): string {
  const visible = visibleTasks(principal, 't', params);
  const clients = `SELECT c.* FROM math_clients c WHERE ${visibleClients(principal, 'c.id', params)} AND ${where}`;
  let paged = clients;
  if (page) {
    params.push(...limitOffset(page));
    paged = `${clients} ORDER BY ${CLIENT_ORDER} LIMIT $${params.length - 1} OFFSET $${params.length}`;
  }
  return `SELECT c.id::text, c.name, c.description, c.enabled, c.created_at, c.updated_at, counts.*
            FROM (${paged}) c
            CROSS JOIN LATERAL (
              SELECT count(*)::int AS task_count, count(*) FILTER (WHERE t.archived)::int AS archived_task_count
                FROM math_tasks t WHERE t.client_id = c.id AND ${visible}
            ) counts
           ORDER BY ${CLIENT_ORDER}`;
}

/** Clients the caller may see, by name; `q` matches the name. */
export async function listClients(
  dataSource: DataSource,
  principal: Principal,
  q: string | undefined,
  page: PageQuery,
): Promise<{ rows: ClientRow[]; total: number }> {
  const filterParams: unknown[] = [];
  let where = 'TRUE';
  if (q !== undefined) {
    filterParams.push(containsPattern(q));
    where = `c.name ILIKE $1`;
  }
  const params = [...filterParams];
  const countParams = [...filterParams];
  const [rows, [count]] = await Promise.all([
    dataSource.query(clientSql(principal, where, params, page), params) as Promise<ClientRow[]>,
    dataSource.query(
      `SELECT count(*)::int AS total FROM math_clients c
        WHERE ${visibleClients(principal, 'c.id', countParams)} AND ${where}`,
      countParams,
    ) as Promise<Array<{ total: number }>>,
  ]);
  return { rows, total: count.total };
}

export async function findClient(
  dataSource: Queryable,
  principal: Principal,
  id: string,
): Promise<ClientRow> {
  const params: unknown[] = [id];
  const rows: ClientRow[] = await dataSource.query(clientSql(principal, 'c.id = $1', params, null), params);
  if (!rows[0]) throw problems.notFound(`Client ${id}`);
  return rows[0];
}

const isDuplicateName = (error: unknown) =>
  (error as { code?: string; constraint?: string }).code === '23505' &&
  (error as { constraint?: string }).constraint === 'math_clients_name_ci';

const duplicateName = (name: string) =>
  mathProblems.conflict(
    'duplicate_client_name',
    `A client named "${name}" already exists (names ignore case).`,
  );

/** Inserts a client and its audit event; 409 when the name is taken, ignoring case. */
export async function createClient(
  dataSource: Transactional,
  actorId: string,
  fields: ClientFields,
): Promise<string> {
  return dataSource.transaction(async (tx) => {
    const inserted: Array<{ id: string }> = await tx.query(
      `INSERT INTO math_clients (name, description, enabled) VALUES ($1, $2, $3)
       ON CONFLICT ((lower(name))) DO NOTHING RETURNING id::text`,
      [fields.name, fields.description, fields.enabled],
    );
    if (!inserted[0]) throw duplicateName(fields.name);
    await recordClientEvent(tx, inserted[0].id, 'client_created', actorId, { ...fields });
    return inserted[0].id;
  });
}

/**
 * Updates a client if `expectedUpdatedAt` is its current `updated_at` (compared at the millisecond
 * precision the API shows). The new `updated_at` is strictly later than the old one, so every edit
 * changes the token even within one millisecond.
 */
export async function updateClient(
  dataSource: Transactional,
  actorId: string,
  id: string,
  fields: ClientFields,
  expectedUpdatedAt: string,
): Promise<void> {
  // Compared as epoch milliseconds: any ISO string joi accepts compares, none reaches PostgreSQL's date parser.
  const expectedMs = Date.parse(expectedUpdatedAt);
  if (!Number.isFinite(expectedMs))
    throw problems.validation([{ path: 'body.updated_at', message: 'body.updated_at must be a date-time' }]);
  try {
    await dataSource.transaction(async (tx) => {
      const current: Array<ClientFields & { updated_at: Date; matches: boolean }> = await tx.query(
        `SELECT name, description, enabled, updated_at,
                (extract(epoch FROM date_trunc('milliseconds', updated_at)) * 1000)::bigint = $2::bigint AS matches
           FROM math_clients WHERE id = $1 FOR UPDATE`,
        [id, expectedMs],
      );
      const before = current[0];
      if (!before) throw problems.notFound(`Client ${id}`);
      if (!before.matches) {
        throw mathProblems.conflict(
          'stale_client',
          'The client changed since it was read; re-read it and retry.',
          {
            current_updated_at: before.updated_at.toISOString(),
          },
        );
      }
      const taken: unknown[] = await tx.query(
        'SELECT 1 FROM math_clients WHERE lower(name) = lower($2) AND id <> $1',
        [id, fields.name],
      );
      if (taken.length > 0) throw duplicateName(fields.name);
      await tx.query(
        `UPDATE math_clients SET name = $2, description = $3, enabled = $4,
                updated_at = GREATEST(date_trunc('milliseconds', now()),
                                      date_trunc('milliseconds', updated_at) + interval '1 millisecond')
          WHERE id = $1`,
        [id, fields.name, fields.description, fields.enabled],
      );
      await recordClientEvent(tx, id, 'client_updated', actorId, {
        ...fields,
        previous: { name: before.name, description: before.description, enabled: before.enabled },
      });
    });
  } catch (error) {
    // A concurrent rename can still win the race between the check and the update.
    if (isDuplicateName(error)) throw duplicateName(fields.name);
    throw error;
  }
}

async function recordClientEvent(
  tx: EntityManager,
  clientId: string,
  kind: 'client_created' | 'client_updated',
  actorId: string,
  detail: Record<string, unknown>,
): Promise<void> {
  await tx.query(
    'INSERT INTO math_client_events (client_id, kind, actor_id, detail) VALUES ($1, $2, $3, $4)',
    [clientId, kind, actorId, JSON.stringify(detail)],
  );
}
