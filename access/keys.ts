import type { DataSource, EntityManager } from 'typeorm';
import type { Transactional } from '../entities/queryable';
import type { Role, Scope, ServiceName } from '../entities/types';
import { mintToken } from './credentials';
import {
  countActiveKeys,
  insertKeyRow,
  type KeyEventRow,
  type KeyRow,
  type KeyVisibility,
  lockKeyRecipient,
  markKeyRevoked,
  type OperatorKeyRow,
  recordKeyChange,
  selectKeyById,
  selectKeys,
  selectVisibleKey,
  selectVisibleKeyEvents,
  selectVisibleKeys,
} from './keysQueries';
import { atLeast, lowerRole, missingScopes } from './roles';

export { KEY_LIST_LIMIT, type KeyEventRow, type KeyRow, type OperatorKeyRow } from './keysQueries';

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

/** Who asks for keys through the API: what the caller's credential allows (an API principal is one). */
export interface KeyCaller {
  service: ServiceName;
  /** The credential's effective role. */
  role: Role;
  scopes: Scope[];
  member: { id: string; identityId: string };
  /** The API key in use; null for a genomics dashboard assertion. */
  key: { id: string; expiresAt: Date } | null;
}

/** Why a key request is refused; the API maps each code to its problem (api/shared/keys.ts). */
export type KeyRefusalCode =
  | 'issuer_not_admin'
  | 'role_above_issuer'
  | 'scopes_above_issuer'
  | 'key_outlives_issuer'
  | 'member_not_found'
  | 'member_disabled'
  | 'key_exceeds_member'
  | 'active_key_limit';

export class KeyRefusal extends Error {
  constructor(
    readonly code: KeyRefusalCode,
    /** What the caller is told. */
    readonly detail: string,
    readonly extensions: Record<string, unknown> = {},
  ) {
    super(detail);
    this.name = 'KeyRefusal';
  }
}

/** Inserts a key with its creation event and identity audit record, inside the caller's transaction. */
export async function insertApiKey(tx: EntityManager, key: NewKey): Promise<CreatedKey> {
  const minted = mintToken(key.service);
  await insertKeyRow(tx, { ...key, id: minted.keyId, secretHash: minted.secretHash });
  const detail = JSON.stringify({
    name: key.name,
    role: key.role,
    scopes: key.scopes,
    expires_at: key.expiresAt.toISOString(),
    issuer: key.issuer,
  });
  await recordKeyChange(tx, {
    kind: 'created',
    service: key.service,
    memberId: key.memberId,
    keyId: minted.keyId,
    detail,
  });
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

/** The one visibility rule of keys in both services: an Admin sees the workspace's, anyone else their own. */
const visibilityOf = (caller: KeyCaller): KeyVisibility =>
  caller.role === 'ADMIN' ? { all: true } : { all: false, memberId: caller.member.id };

/** Up to 500 keys the caller may see, newest first, expired and revoked ones included. */
export async function listVisibleKeys(dataSource: DataSource, caller: KeyCaller): Promise<KeyRow[]> {
  return selectVisibleKeys(dataSource, caller.service, visibilityOf(caller));
}

/** One key the caller may see, or null (another member's key is as absent as an unknown one). */
export async function findVisibleKey(
  db: DataSource | EntityManager,
  caller: KeyCaller,
  keyId: string,
  lock = false,
): Promise<KeyRow | null> {
  return selectVisibleKey(db, caller.service, visibilityOf(caller), keyId, lock);
}

/** The latest 100 events of a key the caller may see; an unavailable key has none. */
export async function visibleKeyEvents(
  dataSource: DataSource,
  caller: KeyCaller,
  keyId: string,
): Promise<KeyEventRow[]> {
  return selectVisibleKeyEvents(dataSource, caller.service, visibilityOf(caller), keyId);
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

/** Only an Admin issues keys for another member (refused before anything about that member is read). */
export function requireMayIssueFor(caller: KeyCaller, forSelf: boolean): void {
  if (!forSelf && caller.role !== 'ADMIN') {
    throw new KeyRefusal(
      'issuer_not_admin',
      'Only an Admin may create a key for another member; create one for yourself.',
    );
  }
}

/**
 * Issues a key within every ceiling: never above the issuer's effective role or key scopes, never above the
 * recipient member's role, never outliving the issuer's own key, and at most 50 active keys per member. The
 * recipient's row is locked, so concurrent creations cannot overshoot the cap.
 */
export async function issueApiKey(
  dataSource: Transactional,
  caller: KeyCaller,
  request: KeyRequest,
): Promise<IssuedKey> {
  const scopes = request.scopes ?? caller.scopes;
  if (request.role && !atLeast(caller.role, request.role)) {
    throw new KeyRefusal('role_above_issuer', `A key cannot have a role above yours (${caller.role}).`);
  }
  const lacking = missingScopes(caller.scopes, scopes);
  if (lacking.length > 0) {
    throw new KeyRefusal(
      'scopes_above_issuer',
      `A key cannot have scopes your credential lacks: ${lacking.join(', ')}.`,
    );
  }
  if (caller.key && request.expiresAt.getTime() > caller.key.expiresAt.getTime()) {
    throw new KeyRefusal(
      'key_outlives_issuer',
      `A key cannot expire after the key that creates it (${caller.key.expiresAt.toISOString()}).`,
    );
  }
  return dataSource.transaction(async (tx) => {
    const recipient = await lockKeyRecipient(tx, request.recipientId, caller.service);
    if (!recipient) throw new KeyRefusal('member_not_found', `Member ${request.recipientId}`);
    if (!recipient.enabled) {
      throw new KeyRefusal('member_disabled', `Member ${recipient.id} is disabled.`);
    }
    const role = request.role ?? lowerRole(caller.role, recipient.role);
    if (!atLeast(recipient.role, role)) {
      throw new KeyRefusal(
        'key_exceeds_member',
        `A key cannot have a role above its member's (${recipient.role}).`,
      );
    }
    const active = await countActiveKeys(tx, recipient.id);
    if (active >= ACTIVE_KEY_LIMIT) {
      throw new KeyRefusal(
        'active_key_limit',
        `Member ${recipient.id} already has ${ACTIVE_KEY_LIMIT} active keys; revoke one first.`,
        { limit: ACTIVE_KEY_LIMIT },
      );
    }
    const created = await insertApiKey(tx, {
      service: caller.service,
      memberId: recipient.id,
      name: request.name,
      role,
      scopes,
      expiresAt: request.expiresAt,
      createdByKeyId: caller.key?.id ?? null,
      issuer: caller.key ? caller.member.identityId : `${caller.member.identityId} (dashboard assertion)`,
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
 * record, the same whoever revokes. The triggers on `api_keys` notify every API process's key cache, so
 * every API process refuses the key from its next request on.
 */
async function revokeLockedKey(
  tx: EntityManager,
  service: ServiceName,
  key: KeyRow,
  revoker: Revoker,
): Promise<void> {
  await markKeyRevoked(tx, key.id, revoker.memberId);
  const detail = JSON.stringify({
    revoked_by: revoker.identityId,
    revoked_by_member_id: revoker.memberId,
    revoked_by_key_id: revoker.keyId,
    own_key: key.member_id === revoker.memberId,
  });
  await recordKeyChange(tx, { kind: 'revoked', service, memberId: key.member_id, keyId: key.id, detail });
}

/**
 * Revokes a key the caller may see; null when there is none. The first revocation takes effect (see
 * {@link revokeLockedKey}); a repeated one changes nothing and keeps `revoked_at`.
 */
export async function revokeVisibleKey(
  dataSource: DataSource,
  caller: KeyCaller,
  keyId: string,
): Promise<KeyRow | null> {
  return dataSource.transaction(async (tx) => {
    const key = await findVisibleKey(tx, caller, keyId, true);
    if (!key || key.revoked_at) return key;
    await revokeLockedKey(tx, caller.service, key, {
      identityId: caller.member.identityId,
      memberId: caller.member.id,
      keyId: caller.key?.id ?? null,
    });
    return findVisibleKey(tx, caller, keyId);
  });
}

/** Keys of one or both services for an operator, newest first (at most 500), expired and revoked ones included. */
export async function listKeys(dataSource: DataSource, service?: ServiceName): Promise<OperatorKeyRow[]> {
  return selectKeys(dataSource, service);
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
    const key = await selectKeyById(tx, keyId, true);
    if (!key) return null;
    if (key.revoked_at) return { key, alreadyRevoked: true };
    await revokeLockedKey(tx, key.service, key, { identityId: operator, memberId: null, keyId: null });
    return { key: (await selectKeyById(tx, keyId, false))!, alreadyRevoked: false };
  });
}
