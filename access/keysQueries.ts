import { emitWebhookSql, isoUtcSql } from '../webhooks/events';
import type { Role, Scope, ServiceName } from '../entities/types';
import type { ApiKey } from '../entities/ApiKey';
import type { Member } from '../entities/Member';
import type { Queryable } from '../entities/queryable';
import type { RowPick } from '../entities/rows';

/** A key as both services describe it, with its member's identity id; never its secret or hash. */
export type KeyRow = RowPick<
  ApiKey,
  | 'id'
  | 'member_id'
  | 'name'
  | 'role'
  | 'scopes'
  | 'created_at'
  | 'expires_at'
  | 'revoked_at'
  | 'last_used_at'
> &
  RowPick<Member, 'identity_id'>;

/** A key of either service as the ops CLI lists it. */
export type OperatorKeyRow = KeyRow & { service: ServiceName };

export interface KeyEventRow {
  id: string;
  kind: 'created' | 'revoked' | 'write_request';
  method: string | null;
  path: string | null;
  status: number | null;
  detail: Record<string, unknown>;
  created_at: Date;
}

/** Key lists and audit lists are capped, newest first. */
export const KEY_LIST_LIMIT = 500;

/** Whose keys a caller sees: an Admin the workspace's, anyone else their own (`memberId`). */
export type KeyVisibility = { all: true } | { all: false; memberId: string };

/** The columns of {@link KeyRow}, from `api_keys k JOIN members m`. */
export const KEY_COLUMNS = `k.id, k.member_id::text AS member_id, m.identity_id, k.name, k.role, k.scopes, k.created_at,
  k.expires_at, k.revoked_at, k.last_used_at`;

/** The one visibility rule of keys in both services, as a condition on `k`. */
function visibleKeys(visibility: KeyVisibility, params: unknown[]): string {
  if (visibility.all) return 'TRUE';
  params.push(visibility.memberId);
  return `k.member_id = $${params.length}`;
}

export async function insertKeyRow(
  tx: Queryable,
  key: {
    id: string;
    service: ServiceName;
    memberId: string;
    name: string;
    role: Role;
    scopes: Scope[];
    secretHash: Buffer;
    createdByKeyId: string | null;
    expiresAt: Date;
  },
): Promise<void> {
  await tx.query(
    `INSERT INTO api_keys (id, service, member_id, name, role, scopes, secret_hash, created_by_key_id, expires_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
    [
      key.id,
      key.service,
      key.memberId,
      key.name,
      key.role,
      key.scopes,
      key.secretHash,
      key.createdByKeyId,
      key.expiresAt,
    ],
  );
}

/** A key's creation or revocation event and its identity audit record (the same JSON detail). */
export async function recordKeyChange(
  tx: Queryable,
  change: {
    kind: 'created' | 'revoked';
    service: ServiceName;
    memberId: string;
    keyId: string;
    detail: string;
  },
): Promise<void> {
  await tx.query(`INSERT INTO key_events (key_id, kind, detail) VALUES ($1, $2, $3)`, [
    change.keyId,
    change.kind,
    change.detail,
  ]);
  await tx.query(
    `INSERT INTO identity_audit (service, kind, member_id, key_id, detail) VALUES ($1, $2, $3, $4, $5)`,
    [change.service, `key_${change.kind}`, change.memberId, change.keyId, change.detail],
  );
}

/** Revokes the key and emits `<service>.key.revoked` (docs/webhooks.md) in the caller's transaction. */
export async function markKeyRevoked(
  tx: Queryable,
  keyId: string,
  revokedByMemberId: string | null,
): Promise<void> {
  await tx.query(
    `WITH revoked AS (
       UPDATE api_keys SET revoked_at = now() WHERE id = $1 RETURNING id, service, member_id, revoked_at
     ), emitted AS (
       SELECT ${emitWebhookSql({
         service: 'service',
         type: "service || '.key.revoked'",
         subject: "'key:' || id",
         data: `jsonb_build_object('key_id', id, 'member_id', member_id::text,
                  'revoked_by_member_id', $2::text, 'revoked_at', ${isoUtcSql('revoked_at')})`,
       })} FROM revoked
     )
     SELECT (SELECT count(*) FROM emitted) AS emitted`,
    [keyId, revokedByMemberId],
  );
}

/** Up to 500 keys of a service the caller may see, newest first. */
export async function selectVisibleKeys(
  db: Queryable,
  service: ServiceName,
  visibility: KeyVisibility,
): Promise<KeyRow[]> {
  const params: unknown[] = [service, KEY_LIST_LIMIT];
  return db.query(
    `SELECT ${KEY_COLUMNS} FROM api_keys k JOIN members m ON m.id = k.member_id
      WHERE k.service = $1 AND ${visibleKeys(visibility, params)}
      ORDER BY k.created_at DESC, k.id DESC LIMIT $2`,
    params,
  );
}

export async function selectVisibleKey(
  db: Queryable,
  service: ServiceName,
  visibility: KeyVisibility,
  keyId: string,
  lock: boolean,
): Promise<KeyRow | null> {
  const params: unknown[] = [service, keyId];
  const rows: KeyRow[] = await db.query(
    `SELECT ${KEY_COLUMNS} FROM api_keys k JOIN members m ON m.id = k.member_id
      WHERE k.service = $1 AND k.id = $2 AND ${visibleKeys(visibility, params)}${lock ? ' FOR UPDATE OF k' : ''}`,
    params,
  );
  return rows[0] ?? null;
}

export async function selectVisibleKeyEvents(
  db: Queryable,
  service: ServiceName,
  visibility: KeyVisibility,
  keyId: string,
): Promise<KeyEventRow[]> {
  const params: unknown[] = [service, keyId];
  return db.query(
    `SELECT e.id::text, e.kind, e.method, e.path, e.status, e.detail, e.created_at
       FROM key_events e JOIN api_keys k ON k.id = e.key_id
      WHERE k.service = $1 AND k.id = $2 AND ${visibleKeys(visibility, params)}
      ORDER BY e.id DESC LIMIT 100`,
    params,
  );
}

/** The recipient of a new key, locked so concurrent creations cannot pass the active-key cap. */
export async function lockKeyRecipient(
  tx: Queryable,
  memberId: string,
  service: ServiceName,
): Promise<{ id: string; role: Role; enabled: boolean } | undefined> {
  const [recipient]: Array<{ id: string; role: Role; enabled: boolean }> = await tx.query(
    `SELECT id::text, role, enabled FROM members WHERE id = $1 AND service = $2 FOR UPDATE`,
    [memberId, service],
  );
  return recipient;
}

export async function countActiveKeys(tx: Queryable, memberId: string): Promise<number> {
  const [{ active }]: Array<{ active: number }> = await tx.query(
    `SELECT count(*)::int AS active FROM api_keys
        WHERE member_id = $1 AND revoked_at IS NULL AND expires_at > now()`,
    [memberId],
  );
  return active;
}

export async function selectKeys(db: Queryable, service?: ServiceName): Promise<OperatorKeyRow[]> {
  return db.query(
    `SELECT k.service, ${KEY_COLUMNS} FROM api_keys k JOIN members m ON m.id = k.member_id
      WHERE ($1::text IS NULL OR k.service = $1) ORDER BY k.created_at DESC, k.id DESC LIMIT $2`,
    [service ?? null, KEY_LIST_LIMIT],
  );
}

export async function selectKeyById(
  db: Queryable,
  keyId: string,
  lock: boolean,
): Promise<OperatorKeyRow | undefined> {
  return (
    await db.query(
      `SELECT k.service, ${KEY_COLUMNS} FROM api_keys k JOIN members m ON m.id = k.member_id
            WHERE k.id = $1${lock ? ' FOR UPDATE OF k' : ''}`,
      [keyId],
    )
  )[0];
}
