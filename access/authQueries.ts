import type { ApiKey } from '../entities/ApiKey';
import type { Member } from '../entities/Member';
import type { Queryable } from '../entities/queryable';
import type { RowOf, RowPick } from '../entities/rows';
import type { ServiceName } from '../entities/types';
import { KEY_COLUMNS, type KeyRow } from './keysQueries';

/** The channel that triggers on `api_keys` and `members` notify when a key or its member changes. */
export const AUTH_CHANGES_CHANNEL = 'referee_auth_changes';

/** An API key with its secret's hash and its member, as authentication needs them. */
export type KeyWithMemberRow = KeyRow &
  RowPick<ApiKey, 'service' | 'secret_hash'> &
  RowPick<Member, 'username' | 'display_name' | 'email' | 'enabled'> & { member_role: RowOf<Member>['role'] };

const KEY_LOOKUP_SQL = `SELECT ${KEY_COLUMNS}, k.service, k.secret_hash, m.username, m.display_name, m.email, m.enabled,
       m.role AS member_role
  FROM api_keys k JOIN members m ON m.id = k.member_id
 WHERE k.id = $1 AND k.service = $2`;

/** One key of one service with its member (undefined when there is none). */
export async function lookupApiKey(
  db: Queryable,
  keyId: string,
  service: ServiceName,
): Promise<KeyWithMemberRow | undefined> {
  const rows: KeyWithMemberRow[] = await db.query(KEY_LOOKUP_SQL, [keyId, service]);
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

/** Refused credentials counted over an interval, for the identity audit (never the credential itself). */
export interface AuthFailureRecord {
  service: string;
  kind: string;
  memberId: string | null;
  keyId: string | null;
  detail: Record<string, unknown>;
}

/** Writes counted authentication failures: one identity audit record per group, in one statement. */
export async function recordAuthFailures(db: Queryable, rows: AuthFailureRecord[]): Promise<void> {
  await db.query(
    `INSERT INTO identity_audit (service, kind, member_id, key_id, detail)
       SELECT * FROM unnest($1::text[], $2::text[], $3::bigint[], $4::uuid[], $5::jsonb[])`,
    [
      rows.map((r) => r.service),
      rows.map((r) => r.kind),
      rows.map((r) => r.memberId),
      rows.map((r) => r.keyId),
      rows.map((r) => JSON.stringify(r.detail)),
    ],
  );
}

/**
 * Deletes identity audit records older than `retentionDays`, at most `batch` of them (the oldest); returns how
 * many went. Called until it returns less than the batch, so one purge never holds a long lock.
 */
export async function purgeIdentityAudit(
  db: Queryable,
  retentionDays: number,
  batch: number,
): Promise<number> {
  const rows: unknown[] = await db.query(
    `WITH purged AS (
       DELETE FROM identity_audit WHERE id IN (
         SELECT id FROM identity_audit WHERE created_at < now() - make_interval(days => $1)
          ORDER BY created_at LIMIT $2)
       RETURNING 1)
     SELECT 1 FROM purged`,
    [retentionDays, batch],
  );
  return rows.length;
}

/** A write request made with an API key: which key, and the request's method and path. */
export interface WriteRequest {
  keyId: string;
  method: string;
  path: string;
}

/**
 * The INSERT of a `write_request` key event, its values at the given placeholders (key id, method, path, status):
 * alone in {@link recordWriteRequest}, and inside the statement that stores a request's idempotency receipt.
 */
export const insertWriteRequestSql = (keyId: string, method: string, path: string, status: string) =>
  `INSERT INTO key_events (key_id, kind, method, path, status) VALUES (${keyId}, 'write_request', ${method}, ${path}, ${status})`;

/** A write request made with an API key: method, path and status, for the key's activity log. */
export async function recordWriteRequest(
  db: Queryable,
  row: WriteRequest & { status: number },
): Promise<void> {
  await db.query(insertWriteRequestSql('$1', '$2', '$3', '$4'), [
    row.keyId,
    row.method,
    row.path,
    row.status,
  ]);
}
