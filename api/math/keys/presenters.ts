import type { KeyEventRow, KeyRow } from '../../shared/keys';
import { iso } from '../../shared/schemas';

/** A math API key record: metadata only, never the secret or its hash. */
export function presentKey(k: KeyRow) {
  return {
    id: k.id,
    member_id: k.member_id,
    identity_id: k.identity_id,
    name: k.name,
    role: k.role,
    scopes: k.scopes,
    created_at: k.created_at.toISOString(),
    expires_at: k.expires_at.toISOString(),
    revoked_at: iso(k.revoked_at),
    last_used_at: iso(k.last_used_at),
  };
}

export function presentKeyEvent(e: KeyEventRow) {
  return {
    id: e.id,
    kind: e.kind,
    method: e.method,
    path: e.path,
    status: e.status,
    detail: e.detail,
    created_at: e.created_at.toISOString(),
  };
}
