import type { EntityManager } from 'typeorm';
import type { Role, Scope, ServiceName } from '../../entities/types';
import { mintToken } from '../kernel/credentials';

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
