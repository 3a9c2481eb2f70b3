import type { Queryable } from '../entities/queryable';

/** A stored SCIM User with the groups that hold it. */
export interface ScimUserRow {
  id: string;
  user_name: string;
  external_id: string | null;
  active: boolean;
  resource: Record<string, unknown>;
  version: number;
  created_at: Date;
  updated_at: Date;
  groups: Array<{ id: string; display_name: string }>;
}

/** A stored SCIM Group with its members. */
export interface ScimGroupRow {
  id: string;
  display_name: string;
  external_id: string | null;
  version: number;
  created_at: Date;
  updated_at: Date;
  members: Array<{ id: string; user_name: string }>;
}

const USER_SQL = `SELECT u.id, u.user_name, u.external_id, u.active, u.resource, u.version, u.created_at, u.updated_at,
       COALESCE((SELECT json_agg(json_build_object('id', g.id, 'display_name', g.display_name) ORDER BY g.display_name)
                   FROM scim_group_members gm JOIN scim_groups g ON g.id = gm.group_id
                  WHERE gm.user_id = u.id), '[]') AS groups
  FROM scim_users u`;

const GROUP_SQL = (
  withMembers: boolean,
) => `SELECT g.id, g.display_name, g.external_id, g.version, g.created_at,
       g.updated_at,
       ${
         withMembers
           ? `COALESCE((SELECT json_agg(json_build_object('id', u.id, 'user_name', u.user_name) ORDER BY u.user_name)
                   FROM scim_group_members gm JOIN scim_users u ON u.id = gm.user_id
                  WHERE gm.group_id = g.id), '[]')`
           : `'[]'::json`
       } AS members
  FROM scim_groups g`;

export async function selectScimUser(
  db: Queryable,
  id: string,
  lock = false,
): Promise<ScimUserRow | undefined> {
  if (lock) await db.query('SELECT 1 FROM scim_users WHERE id = $1 FOR UPDATE', [id]);
  const rows: ScimUserRow[] = await db.query(`${USER_SQL} WHERE u.id = $1`, [id]);
  return rows[0];
}

/** Users matching one indexed attribute (`user_name` case-insensitively), or every user; in `user_name` order. */
export async function selectScimUsers(
  db: Queryable,
  where: { userName?: string; externalId?: string; ids?: string[] } = {},
): Promise<ScimUserRow[]> {
  if (where.userName !== undefined)
    return db.query(`${USER_SQL} WHERE lower(u.user_name) = lower($1)`, [where.userName]);
  if (where.externalId !== undefined)
    return db.query(`${USER_SQL} WHERE u.external_id = $1 ORDER BY lower(u.user_name)`, [where.externalId]);
  if (where.ids !== undefined)
    return db.query(`${USER_SQL} WHERE u.id = ANY ($1::uuid[]) ORDER BY lower(u.user_name)`, [where.ids]);
  return db.query(`${USER_SQL} ORDER BY lower(u.user_name), u.id`);
}

export async function insertScimUser(
  tx: Queryable,
  row: { id: string; userName: string; externalId: string | null; active: boolean; resource: object },
): Promise<void> {
  await tx.query(
    `INSERT INTO scim_users (id, user_name, external_id, active, resource) VALUES ($1, $2, $3, $4, $5)`,
    [row.id, row.userName, row.externalId, row.active, JSON.stringify(row.resource)],
  );
}

export async function updateScimUser(
  tx: Queryable,
  row: { id: string; userName: string; externalId: string | null; active: boolean; resource: object },
): Promise<void> {
  await tx.query(
    `UPDATE scim_users SET user_name = $2, external_id = $3, active = $4, resource = $5, version = version + 1,
            updated_at = now() WHERE id = $1`,
    [row.id, row.userName, row.externalId, row.active, JSON.stringify(row.resource)],
  );
}

export async function deleteScimUser(tx: Queryable, id: string): Promise<void> {
  await tx.query('DELETE FROM scim_users WHERE id = $1', [id]);
}

export async function selectScimGroup(
  db: Queryable,
  id: string,
  options: { lock?: boolean; members?: boolean } = {},
): Promise<ScimGroupRow | undefined> {
  if (options.lock) await db.query('SELECT 1 FROM scim_groups WHERE id = $1 FOR UPDATE', [id]);
  const rows: ScimGroupRow[] = await db.query(`${GROUP_SQL(options.members ?? true)} WHERE g.id = $1`, [id]);
  return rows[0];
}

export async function selectScimGroups(
  db: Queryable,
  where: { displayName?: string; members?: boolean } = {},
): Promise<ScimGroupRow[]> {
  const sql = GROUP_SQL(where.members ?? true);
  if (where.displayName !== undefined)
    return db.query(`${sql} WHERE lower(g.display_name) = lower($1)`, [where.displayName]);
  return db.query(`${sql} ORDER BY lower(g.display_name), g.id`);
}

export async function insertScimGroup(
  tx: Queryable,
  row: { id: string; displayName: string; externalId: string | null },
): Promise<void> {
  await tx.query(`INSERT INTO scim_groups (id, display_name, external_id) VALUES ($1, $2, $3)`, [
    row.id,
    row.displayName,
    row.externalId,
  ]);
}

export async function updateScimGroup(
  tx: Queryable,
  row: { id: string; displayName: string; externalId: string | null },
): Promise<void> {
  await tx.query(
    `UPDATE scim_groups SET display_name = $2, external_id = $3, version = version + 1, updated_at = now()
      WHERE id = $1`,
    [row.id, row.displayName, row.externalId],
  );
}

export async function deleteScimGroup(tx: Queryable, id: string): Promise<void> {
  await tx.query('DELETE FROM scim_groups WHERE id = $1', [id]);
}

/** Raises a group's version (its membership changed). */
export async function bumpScimGroup(tx: Queryable, id: string): Promise<void> {
  await tx.query('UPDATE scim_groups SET version = version + 1, updated_at = now() WHERE id = $1', [id]);
}

/** Raises users' versions (the groups that hold them changed), locking them. */
export async function bumpScimUsers(tx: Queryable, ids: string[]): Promise<void> {
  if (ids.length === 0) return;
  await tx.query(
    'UPDATE scim_users SET version = version + 1, updated_at = now() WHERE id = ANY ($1::uuid[])',
    [ids],
  );
}

export async function insertScimGroupMembers(
  tx: Queryable,
  groupId: string,
  userIds: string[],
): Promise<void> {
  if (userIds.length === 0) return;
  await tx.query(
    `INSERT INTO scim_group_members (group_id, user_id) SELECT $1, unnest($2::uuid[]) ON CONFLICT DO NOTHING`,
    [groupId, userIds],
  );
}

export async function deleteScimGroupMembers(
  tx: Queryable,
  groupId: string,
  userIds: string[],
): Promise<void> {
  if (userIds.length === 0) return;
  await tx.query('DELETE FROM scim_group_members WHERE group_id = $1 AND user_id = ANY ($2::uuid[])', [
    groupId,
    userIds,
  ]);
}

/** Which of these ids are stored users. */
export async function selectExistingScimUserIds(db: Queryable, ids: string[]): Promise<string[]> {
  if (ids.length === 0) return [];
  const rows: Array<{ id: string }> = await db.query(
    'SELECT id FROM scim_users WHERE id = ANY ($1::uuid[])',
    [ids],
  );
  return rows.map((r) => r.id);
}
