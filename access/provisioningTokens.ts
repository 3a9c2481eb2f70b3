import { randomBytes, randomUUID } from 'node:crypto';
import type { Queryable } from '../entities/queryable';
import { hashSecret, secretMatches } from './credentials';
import {
  insertProvisioningAudit,
  insertProvisioningToken,
  markProvisioningTokenRevoked,
  type ProvisioningTokenRow,
  selectProvisioningToken,
  selectProvisioningTokens,
  touchProvisioningToken,
} from './provisioningTokensQueries';

export type { ProvisioningTokenRow } from './provisioningTokensQueries';

/**
 * Provisioning tokens, the identity service's credential for `/scim/v2` (docs/provisioning.md):
 * `rfs_<token id, 32 hex>_<secret, 43 base64url = 256 bits>`. The prefix is neither an API key's nor a console
 * cookie's, so no other authenticator accepts one, and the SCIM endpoint accepts nothing else. Only SHA-256 of
 * the secret is stored; the plaintext is shown once.
 */
const TOKEN_PATTERN = /^rfs_([0-9a-f]{32})_([A-Za-z0-9_-]{43})$/;

export interface CreatedProvisioningToken extends ProvisioningTokenRow {
  /** The plaintext: returned once, never stored or logged. */
  token: string;
}

export async function createProvisioningToken(
  db: Queryable,
  request: { name: string; createdBy: string },
): Promise<CreatedProvisioningToken> {
  const id = randomUUID();
  const secret = randomBytes(32).toString('base64url');
  const row = await insertProvisioningToken(db, {
    id,
    name: request.name,
    secretHash: hashSecret(secret),
    createdBy: request.createdBy,
  });
  return { ...row, token: `rfs_${id.replaceAll('-', '')}_${secret}` };
}

/** Every token, newest first (never a secret or its hash). */
export const listProvisioningTokens = (db: Queryable): Promise<ProvisioningTokenRow[]> =>
  selectProvisioningTokens(db);

/** Revokes a token; null when none has that id, `alreadyRevoked` when the revocation changes nothing. */
export async function revokeProvisioningToken(
  db: Queryable,
  id: string,
): Promise<{ token: ProvisioningTokenRow; alreadyRevoked: boolean } | null> {
  const revoked = await markProvisioningTokenRevoked(db, id);
  if (revoked) return { token: revoked, alreadyRevoked: false };
  const existing = await selectProvisioningToken(db, id);
  if (!existing) return null;
  const { secret_hash: _hash, ...token } = existing;
  return { token, alreadyRevoked: true };
}

/** Why a SCIM request's credential is refused (recorded in the SCIM audit, never the credential). */
export type ProvisioningTokenFailure = 'missing' | 'malformed' | 'unknown' | 'revoked';

export type ProvisioningTokenCheck =
  | { ok: true; token: ProvisioningTokenRow }
  | { ok: false; reason: ProvisioningTokenFailure; tokenId: string | null };

/**
 * The token a Bearer credential names, read from PostgreSQL on every request (no cache: a revocation holds at once
 * in every API process); the secret is compared in constant time.
 */
export async function checkProvisioningToken(
  db: Queryable,
  token: string | null,
): Promise<ProvisioningTokenCheck> {
  if (!token) return { ok: false, reason: 'missing', tokenId: null };
  const match = TOKEN_PATTERN.exec(token);
  if (!match) return { ok: false, reason: 'malformed', tokenId: null };
  const hex = match[1];
  const id = `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
  const row = await selectProvisioningToken(db, id);
  if (!row || !secretMatches(match[2], row.secret_hash))
    return { ok: false, reason: 'unknown', tokenId: null };
  if (row.revoked_at) return { ok: false, reason: 'revoked', tokenId: row.id };
  await touchProvisioningToken(db, row.id);
  const { secret_hash: _hash, ...checked } = row;
  return { ok: true, token: checked };
}

/** One row of the SCIM audit: every request, with a valid token or not. */
export const recordProvisioningRequest = insertProvisioningAudit;
