import type { Queryable } from '../../../entities/queryable';
import type { Member } from '../../../entities/Member';
import type { RowPick } from '../../../entities/rows';

/** What a dashboard assertion needs of its member: a view of the `members` row. */
export type AssertionMemberRow = RowPick<
  Member,
  'id' | 'identity_id' | 'username' | 'display_name' | 'email' | 'role' | 'enabled'
>;

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
