import type { Role, Scope, ServiceName } from '../entities/types';
import type { Queryable } from '../entities/queryable';

/** The channel that triggers on `api_keys` and `members` notify when a key or its member changes. */
export const AUTH_CHANGES_CHANNEL = 'referee_auth_changes';

/** An API key with its member, as authentication needs them. */
export interface KeyRow {
  key_id: string;
  key_service: ServiceName;
  key_role: Role;
  scopes: Scope[];
  secret_hash: Buffer;
  expires_at: Date;
  revoked_at: Date | null;
  member_id: string;
  identity_id: string;
  username: string;
  display_name: string;
  email: string | null;
  member_role: Role;
  enabled: boolean;
}

const KEY_LOOKUP_SQL = `SELECT k.id AS key_id, k.service AS key_service, k.role AS key_role, k.scopes, k.secret_hash,
       k.expires_at, k.revoked_at, m.id AS member_id, m.identity_id, m.username, m.display_name, m.email,
       m.role AS member_role, m.enabled
  FROM api_keys k JOIN members m ON m.id = k.member_id
 WHERE k.id = $1 AND k.service = $2`;

/** One key of one service with its member (undefined when there is none). */
export async function lookupApiKey(
  db: Queryable,
  keyId: string,
  service: ServiceName,
): Promise<KeyRow | undefined> {
  const rows: KeyRow[] = await db.query(KEY_LOOKUP_SQL, [keyId, service]);
  return rows[0];
}

/** Moves each key's `last_used_at` forward to its time (never back). */
export async function recordKeysLastUsed(db: Queryable, keyIds: string[], usedAt: Date[]): Promise<void> {
  await db.query(
    `UPDATE api_keys k SET last_used_at = GREATEST(COALESCE(k.last_used_at, u.at), u.at)
           FROM unnest($1::uuid[], $2::timestamptz[]) AS u(id, at) WHERE k.id = u.id`,
    [keyIds, usedAt],
  );
}

/** Subscribes a dedicated connection to {@link AUTH_CHANGES_CHANNEL}. */
export async function listenForAuthChanges(connection: {
  query(sql: string): Promise<unknown>;
}): Promise<void> {
  await connection.query(`LISTEN ${AUTH_CHANGES_CHANNEL}`);
}

/** An authentication failure, for the identity audit (never the credential itself). */
export async function recordAuthFailure(
  db: Queryable,
  row: { service: string; memberId: string | null; keyId: string | null; detail: Record<string, unknown> },
): Promise<void> {
  await db.query(
    `INSERT INTO identity_audit (service, kind, member_id, key_id, detail)
        VALUES ($1, 'authentication_failed', $2, $3, $4)`,
    [row.service, row.memberId, row.keyId, JSON.stringify(row.detail)],
  );
}

/** A write request made with an API key: method, path and status, for the key's activity log. */
export async function recordWriteRequest(
  db: Queryable,
  row: { keyId: string; method: string; path: string; status: number },
): Promise<void> {
  await db.query(
    `INSERT INTO key_events (key_id, kind, method, path, status) VALUES ($1, 'write_request', $2, $3, $4)`,
    [row.keyId, row.method, row.path, row.status],
  );
}
