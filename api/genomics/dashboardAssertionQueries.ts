import type { Queryable } from '../../domain/queryable';
import type { Role } from '../../entities/types';

export interface AssertionMemberRow {
  id: string;
  identity_id: string;
  username: string;
  display_name: string;
  email: string | null;
  role: Role;
  enabled: boolean;
}

/** The genomics member of an identity, or undefined. */
export async function findAssertionMember(
  db: Queryable,
  identityId: string,
): Promise<AssertionMemberRow | undefined> {
  const [member]: AssertionMemberRow[] = await db.query(
    `SELECT id::text, identity_id, username, display_name, email, role, enabled
       FROM members WHERE service = 'genomics' AND identity_id = $1`,
    [identityId],
  );
  return member;
}

/** Records an assertion's first use; false when its `jti` was used before. */
export async function recordAssertionUse(
  db: Queryable,
  use: { jti: string; memberId: string; method: string; path: string; keepUntil: Date },
): Promise<boolean> {
  const used: unknown[] = await db.query(
    `INSERT INTO dashboard_assertion_uses (jti, member_id, method, path, expires_at)
     VALUES ($1, $2, $3, $4, $5) ON CONFLICT (jti) DO NOTHING RETURNING 1`,
    [use.jti, use.memberId, use.method, use.path, use.keepUntil],
  );
  return used.length > 0;
}

export async function deleteExpiredAssertionUses(db: Queryable): Promise<void> {
  await db.query(`DELETE FROM dashboard_assertion_uses WHERE expires_at < now()`);
}
