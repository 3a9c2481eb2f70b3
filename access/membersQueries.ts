import type { ServiceName } from '../entities/types';
import type { MemberProjection, MemberRow } from './members';
import type { Queryable } from '../entities/queryable';

export type StoredMember = MemberProjection & { id: string };

/** A service's members, locked for a sync unless it is a dry run. */
export async function selectServiceMembers(
  tx: Queryable,
  service: ServiceName,
  lock: boolean,
): Promise<StoredMember[]> {
  return tx.query(
    `SELECT id::text, identity_id, username, display_name, email, role, enabled, primary_admin
             FROM members WHERE service = $1${lock ? ' FOR UPDATE' : ''}`,
    [service],
  );
}

export async function insertIdentityAudit(
  tx: Queryable,
  service: ServiceName,
  kind: string,
  memberId: string,
  detail: object,
): Promise<void> {
  await tx.query(`INSERT INTO identity_audit (service, kind, member_id, detail) VALUES ($1, $2, $3, $4)`, [
    service,
    kind,
    memberId,
    JSON.stringify(detail),
  ]);
}

/** Inserts a member; returns its id. */
export async function insertMember(
  tx: Queryable,
  service: ServiceName,
  m: MemberProjection,
): Promise<string> {
  const [row]: Array<{ id: string }> = await tx.query(
    `INSERT INTO members (service, identity_id, username, display_name, email, role, enabled, primary_admin)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING id::text`,
    [service, m.identity_id, m.username, m.display_name, m.email, m.role, m.enabled, m.primary_admin],
  );
  return row.id;
}

export async function updateMember(tx: Queryable, id: string, m: MemberProjection): Promise<void> {
  await tx.query(
    `UPDATE members SET username = $2, display_name = $3, email = $4, role = $5, enabled = $6, primary_admin = $7,
                    identity_id = $8, updated_at = now() WHERE id = $1`,
    [id, m.username, m.display_name, m.email, m.role, m.enabled, m.primary_admin, m.identity_id],
  );
}

export async function disableMember(tx: Queryable, id: string): Promise<void> {
  await tx.query(`UPDATE members SET enabled = false, updated_at = now() WHERE id = $1`, [id]);
}

export async function selectMembers(db: Queryable, service?: ServiceName): Promise<MemberRow[]> {
  return db.query(
    `SELECT m.id::text, m.service, m.identity_id, m.username, m.display_name, m.email, m.role, m.enabled,
            m.primary_admin,
            (SELECT count(*)::int FROM api_keys k
              WHERE k.member_id = m.id AND k.revoked_at IS NULL AND k.expires_at > now()) AS active_keys
       FROM members m WHERE ($1::text IS NULL OR m.service = $1) ORDER BY m.service, m.identity_id`,
    [service ?? null],
  );
}

export async function selectMemberIdByIdentity(
  db: Queryable,
  service: ServiceName,
  identityId: string,
): Promise<string | null> {
  const rows: Array<{ id: string }> = await db.query(
    'SELECT id::text FROM members WHERE service = $1 AND identity_id = $2',
    [service, identityId],
  );
  return rows[0]?.id ?? null;
}

/** The members of one identity in every service, locked for a change. */
export async function selectIdentityMembers(
  tx: Queryable,
  identityId: string,
): Promise<Array<StoredMember & { service: ServiceName }>> {
  return tx.query(
    `SELECT id::text, service, identity_id, username, display_name, email, role, enabled, primary_admin
       FROM members WHERE identity_id = $1 ORDER BY service FOR UPDATE`,
    [identityId],
  );
}

/**
 * Work a member still holds: math tasks assigned to them that are neither archived nor completed, and active
 * genomics assignments. Disabling a member keeps them (docs/provisioning.md "Deprovisioning").
 */
export async function countOpenAssignments(
  tx: Queryable,
  service: ServiceName,
  memberId: string,
): Promise<number> {
  const sql =
    service === 'math'
      ? `SELECT count(*)::int AS n FROM math_tasks
          WHERE assignee_id = $1 AND NOT archived AND review_state <> 'COMPLETED'`
      : `SELECT count(*)::int AS n FROM genomics_assignments WHERE reviewer_id = $1 AND status = 'ACTIVE'`;
  const [row]: Array<{ n: number }> = await tx.query(sql, [memberId]);
  return row.n;
}
