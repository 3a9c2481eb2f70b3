import type { KeyRow } from '../../shared/keys';
import { iso } from '../../shared/schemas';

/** API key metadata as the genomics spec lists it; `actor_id` is the member the key acts for. */
export function presentKeyMetadata(k: KeyRow) {
  return {
    id: k.id,
    actor_id: k.member_id,
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
