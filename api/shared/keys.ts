import type { DataSource, EntityManager } from 'typeorm';
import type { Role, Scope, ServiceName } from '../../entities/types';
import type { Principal } from '../kernel/authenticate';
import { mintToken } from '../kernel/credentials';
import { type ApiError, problems } from '../kernel/errors';
import { atLeast, lowerRole, missingScopes } from '../kernel/roles';

export interface NewKey {
  service: ServiceName;
  memberId: string;
  name: string;
  role: Role;
  scopes: Scope[];
  expiresAt: Date;
  createdByKeyId: string | null;
  /** Who asked, for the audit trail (`ops` when minted from the command line). */
  issuer: string;
}

export interface CreatedKey {
  id: string;
  /** The plaintext token: returned to the caller once, never stored or logged. */
  token: string;
  role: Role;
  scopes: Scope[];
  expiresAt: Date;
}

/** Inserts a key with its creation event and identity audit record, inside the caller's transaction. */
export async function insertApiKey(tx: EntityManager, key: NewKey): Promise<CreatedKey> {
  const minted = mintToken(key.service);
  await tx.query(
    `INSERT INTO api_keys (id, service, member_id, name, role, scopes, secret_hash, created_by_key_id, expires_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
    [
      minted.keyId,
      key.service,
      key.memberId,
      key.name,
      key.role,
      key.scopes,
      minted.secretHash,
      key.createdByKeyId,
      key.expiresAt,
    ],
  );
  const detail = JSON.stringify({
    name: key.name,
    role: key.role,
    scopes: key.scopes,
    expires_at: key.expiresAt.toISOString(),
    issuer: key.issuer,
  });
  await tx.query(`INSERT INTO key_events (key_id, kind, detail) VALUES ($1, 'created', $2)`, [
    minted.keyId,
    detail,
  ]);
  await tx.query(
    `INSERT INTO identity_audit (service, kind, member_id, key_id, detail) VALUES ($1, 'key_created', $2, $3, $4)`,
    [key.service, key.memberId, minted.keyId, detail],
  );
  return {
    id: minted.keyId,
    token: minted.token,
    role: key.role,
    scopes: key.scopes,
    expiresAt: key.expiresAt,
  };
}

/** Keys a member may hold at once that are neither revoked nor expired. */
export const ACTIVE_KEY_LIMIT = 50;
/** Key lists and audit lists are capped, newest first. */
export const KEY_LIST_LIMIT = 500;

/** A key as both services describe it; never its secret or hash. */
export interface KeyRow {
  id: string;
  member_id: string;
  identity_id: string;
  name: string;
  role: Role;
  scopes: Scope[];
  created_at: Date;
  expires_at: Date;
  revoked_at: Date | null;
  last_used_at: Date | null;
}

const KEY_COLUMNS = `k.id, k.member_id::text AS member_id, m.identity_id, k.name, k.role, k.scopes, k.created_at,
  k.expires_at, k.revoked_at, k.last_used_at`;

/** The one visibility rule of keys in both services: an Admin sees the workspace's, anyone else their own. */
function visibleKeys(principal: Principal, params: unknown[]): string {
  if (principal.role === 'ADMIN') return 'TRUE';
  params.push(principal.member.id);
  return `k.member_id = $${params.length}`;
}

/** Up to 500 keys the caller may see, newest first, expired and revoked ones included. */
export async function listVisibleKeys(dataSource: DataSource, principal: Principal): Promise<KeyRow[]> {
  const params: unknown[] = [principal.service, KEY_LIST_LIMIT];
  return dataSource.query(
    `SELECT ${KEY_COLUMNS} FROM api_keys k JOIN members m ON m.id = k.member_id
      WHERE k.service = $1 AND ${visibleKeys(principal, params)}
      ORDER BY k.created_at DESC, k.id DESC LIMIT $2`,
    params,
  );
}

/** One key the caller may see, or null (another member's key is as absent as an unknown one). */
export async function findVisibleKey(
  db: DataSource | EntityManager,
  principal: Principal,
  keyId: string,
  lock = false,
): Promise<KeyRow | null> {
  const params: unknown[] = [principal.service, keyId];
  const rows: KeyRow[] = await db.query(
    `SELECT ${KEY_COLUMNS} FROM api_keys k JOIN members m ON m.id = k.member_id
      WHERE k.service = $1 AND k.id = $2 AND ${visibleKeys(principal, params)}${lock ? ' FOR UPDATE OF k' : ''}`,
    params,
  );
  return rows[0] ?? null;
}

export interface KeyEventRow {
  id: string;
  kind: 'created' | 'revoked' | 'write_request';
  method: string | null;
  path: string | null;
  status: number | null;
  detail: Record<string, unknown>;
  created_at: Date;
}

/** The latest 100 events of a key the caller may see; an unavailable key has none. */
export async function visibleKeyEvents(
  dataSource: DataSource,
  principal: Principal,
  keyId: string,
): Promise<KeyEventRow[]> {
  const params: unknown[] = [principal.service, keyId];
  return dataSource.query(
    `SELECT e.id::text, e.kind, e.method, e.path, e.status, e.detail, e.created_at
       FROM key_events e JOIN api_keys k ON k.id = e.key_id
      WHERE k.service = $1 AND k.id = $2 AND ${visibleKeys(principal, params)}
      ORDER BY e.id DESC LIMIT 100`,
    params,
  );
}

/** What a caller asks for; unset role and scopes inherit the issuer's (the role capped at the recipient's). */
export interface KeyRequest {
  recipientId: string;
  name: string;
  role?: Role;
  scopes?: Scope[];
  expiresAt: Date;
}

export interface IssuedKey extends CreatedKey {
  memberId: string;
}

/** Only an Admin issues keys for another member (403 otherwise, before anything about that member is read). */
export function requireMayIssueFor(principal: Principal, forSelf: boolean): void {
  if (!forSelf && principal.role !== 'ADMIN') {
    throw problems.forbidden('Only an Admin may create a key for another member; create one for yourself.');
  }
}

type KeyRefusalCode = 'key_outlives_issuer' | 'key_exceeds_member' | 'member_disabled';

/**
 * A refused key request, per service: the math spec is silent, so 422 (docs/decisions.md); the genomics error
 * table keeps 422 for evidence, so a key above what the issuer or recipient may hold is 403 (permission) and a
 * disabled recipient named in the body is 400 (invalid request).
 */
const keyRefusal: Record<ServiceName, (code: KeyRefusalCode, detail: string) => ApiError> = {
  math: (code, detail) => problems.unprocessable(code, detail),
  genomics: (code, detail) =>
    code === 'member_disabled' ? problems.badRequest(code, detail) : problems.forbidden(detail, code),
};

/**
 * Issues a key within every ceiling: never above the issuer's effective role or key scopes (403: the caller
 * cannot grant what it lacks), never above the recipient member's role, never outliving the issuer's own key
 * (math: 422, the request does not fit; genomics: 403 or 400, see `keyRefusal`), and at most 50 active keys per
 * member (409: revoke one first). The recipient's row is locked, so concurrent creations cannot overshoot the cap.
 */
export async function issueApiKey(
  dataSource: DataSource,
  principal: Principal,
  request: KeyRequest,
): Promise<IssuedKey> {
  const scopes = request.scopes ?? principal.scopes;
  if (request.role && !atLeast(principal.role, request.role)) {
    throw problems.forbidden(`A key cannot have a role above yours (${principal.role}).`);
  }
  const lacking = missingScopes(principal.scopes, scopes);
  if (lacking.length > 0) {
    throw problems.forbidden(`A key cannot have scopes your credential lacks: ${lacking.join(', ')}.`);
  }
  if (principal.key && request.expiresAt.getTime() > principal.key.expiresAt.getTime()) {
    throw keyRefusal[principal.service](
      'key_outlives_issuer',
      `A key cannot expire after the key that creates it (${principal.key.expiresAt.toISOString()}).`,
    );
  }
  return dataSource.transaction(async (tx) => {
    const [recipient]: Array<{ id: string; role: Role; enabled: boolean }> = await tx.query(
      `SELECT id::text, role, enabled FROM members WHERE id = $1 AND service = $2 FOR UPDATE`,
      [request.recipientId, principal.service],
    );
    if (!recipient) throw problems.notFound(`Member ${request.recipientId}`);
    if (!recipient.enabled) {
      throw keyRefusal[principal.service]('member_disabled', `Member ${recipient.id} is disabled.`);
    }
    const role = request.role ?? lowerRole(principal.role, recipient.role);
    if (!atLeast(recipient.role, role)) {
      throw keyRefusal[principal.service](
        'key_exceeds_member',
        `A key cannot have a role above its member's (${recipient.role}).`,
      );
    }
    const [{ active }]: Array<{ active: number }> = await tx.query(
      `SELECT count(*)::int AS active FROM api_keys
        WHERE member_id = $1 AND revoked_at IS NULL AND expires_at > now()`,
      [recipient.id],
    );
    if (active >= ACTIVE_KEY_LIMIT) {
      throw problems.conflict(
        'active_key_limit',
        `Member ${recipient.id} already has ${ACTIVE_KEY_LIMIT} active keys; revoke one first.`,
        { limit: ACTIVE_KEY_LIMIT },
      );
    }
    const created = await insertApiKey(tx, {
      service: principal.service,
      memberId: recipient.id,
      name: request.name,
      role,
      scopes,
      expiresAt: request.expiresAt,
      createdByKeyId: principal.key?.id ?? null,
      issuer: principal.key
        ? principal.member.identityId
        : `${principal.member.identityId} (dashboard assertion)`,
    });
    return { ...created, memberId: recipient.id };
  });
}

/** Who revokes a key: a member through the API, or an operator through the ops CLI (no member, no key). */
export interface Revoker {
  identityId: string;
  memberId: string | null;
  keyId: string | null;
}

/**
 * Revokes a locked, not yet revoked key: sets `revoked_at` and records a key event and an identity audit
 * record, the same whoever revokes. Authentication reads `revoked_at` from PostgreSQL on every request, so
 * every API process refuses the key from its next request on.
 */
async function revokeLockedKey(
  tx: EntityManager,
  service: ServiceName,
  key: KeyRow,
  revoker: Revoker,
): Promise<void> {
  await tx.query(`UPDATE api_keys SET revoked_at = now() WHERE id = $1`, [key.id]);
  const detail = JSON.stringify({
    revoked_by: revoker.identityId,
    revoked_by_member_id: revoker.memberId,
    revoked_by_key_id: revoker.keyId,
    own_key: key.member_id === revoker.memberId,
  });
  await tx.query(`INSERT INTO key_events (key_id, kind, detail) VALUES ($1, 'revoked', $2)`, [
    key.id,
    detail,
  ]);
  await tx.query(
    `INSERT INTO identity_audit (service, kind, member_id, key_id, detail) VALUES ($1, 'key_revoked', $2, $3, $4)`,
    [service, key.member_id, key.id, detail],
  );
}

/**
 * Revokes a key the caller may see; null when there is none. The first revocation takes effect (see
 * {@link revokeLockedKey}); a repeated one changes nothing and keeps `revoked_at`.
 */
export async function revokeVisibleKey(
  dataSource: DataSource,
  principal: Principal,
  keyId: string,
): Promise<KeyRow | null> {
  return dataSource.transaction(async (tx) => {
    const key = await findVisibleKey(tx, principal, keyId, true);
    if (!key || key.revoked_at) return key;
    await revokeLockedKey(tx, principal.service, key, {
      identityId: principal.member.identityId,
      memberId: principal.member.id,
      keyId: principal.key?.id ?? null,
    });
    return findVisibleKey(tx, principal, keyId);
  });
}

/** A key of either service as the ops CLI lists it. */
export type OperatorKeyRow = KeyRow & { service: ServiceName };

/** Keys of one or both services for an operator, newest first (at most 500), expired and revoked ones included. */
export async function listKeys(dataSource: DataSource, service?: ServiceName): Promise<OperatorKeyRow[]> {
  return dataSource.query(
    `SELECT k.service, ${KEY_COLUMNS} FROM api_keys k JOIN members m ON m.id = k.member_id
      WHERE ($1::text IS NULL OR k.service = $1) ORDER BY k.created_at DESC, k.id DESC LIMIT $2`,
    [service ?? null, KEY_LIST_LIMIT],
  );
}

/**
 * Revokes any key by id for an operator, with the same effect and audit records as through the API; null when
 * no key has that id. `alreadyRevoked` tells a repeated revocation (which changes nothing).
 */
export async function revokeKeyAsOperator(
  dataSource: DataSource,
  keyId: string,
  operator: string,
): Promise<{ key: OperatorKeyRow; alreadyRevoked: boolean } | null> {
  return dataSource.transaction(async (tx) => {
    const find = async (lock: boolean): Promise<OperatorKeyRow | undefined> =>
      (
        await tx.query(
          `SELECT k.service, ${KEY_COLUMNS} FROM api_keys k JOIN members m ON m.id = k.member_id
            WHERE k.id = $1${lock ? ' FOR UPDATE OF k' : ''}`,
          [keyId],
        )
      )[0];
    const key = await find(true);
    if (!key) return null;
    if (key.revoked_at) return { key, alreadyRevoked: true };
    await revokeLockedKey(tx, key.service, key, { identityId: operator, memberId: null, keyId: null });
    return { key: (await find(false))!, alreadyRevoked: false };
  });
}
