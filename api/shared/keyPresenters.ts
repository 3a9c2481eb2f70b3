import type { KeyRow } from '../../access/keys';
import type { KeyMemberField } from './keySchemas';
import { iso } from './schemas';

/** A key record as `keyRecordSchema` describes it: metadata only, never the secret or its hash. */
export function presentKeyRecord(k: KeyRow, memberField: KeyMemberField) {
  return {
    id: k.id,
    [memberField]: k.member_id,
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
