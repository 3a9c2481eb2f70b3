import type { DataSource } from 'typeorm';
import type { Member } from '../../../entities/Member';
import type { RowOf } from '../../../entities/rows';
import type { Principal } from '../../kernel/authenticate';

/** A member as the member lists show it: its `members` row without the service. */
export type MemberRow = Omit<RowOf<Member>, 'service'>;

const MEMBER_COLUMNS = `id::text, identity_id, username, display_name, email, role, enabled, primary_admin,
  created_at, updated_at`;

/** A Reviewer sees their own record; operators every member they may assign, never the primary admin. */
export async function reviewerChoices(dataSource: DataSource, principal: Principal): Promise<MemberRow[]> {
  if (principal.role === 'REVIEWER') {
    return dataSource.query(`SELECT ${MEMBER_COLUMNS} FROM members WHERE id = $1`, [principal.member.id]);
  }
  return dataSource.query(
    `SELECT ${MEMBER_COLUMNS} FROM members m
      WHERE service = 'math' AND NOT primary_admin ORDER BY m.display_name, m.id`,
  );
}

export async function allMembers(dataSource: DataSource): Promise<MemberRow[]> {
  return dataSource.query(`SELECT ${MEMBER_COLUMNS} FROM members m WHERE service = 'math' ORDER BY m.id`);
}

export interface AuditRow {
  id: string;
  kind: string;
  member_id: string | null;
  key_id: string | null;
  detail: Record<string, unknown>;
  created_at: Date;
}

export const AUDIT_LIMIT = 100;

/** 100 identity audit records of the math service, newest first: the latest, or those before a record id. */
export async function identityAuditPage(
  dataSource: DataSource,
  page: { before?: string; kind?: string } = {},
): Promise<AuditRow[]> {
  return dataSource.query(
    `SELECT a.id::text AS id, a.kind, a.member_id::text AS member_id, a.key_id, a.detail, a.created_at
       FROM identity_audit a
      WHERE a.service = 'math' AND ($2::bigint IS NULL OR a.id < $2) AND ($3::text IS NULL OR a.kind = $3)
      ORDER BY a.id DESC LIMIT $1`,
    [AUDIT_LIMIT, page.before ?? null, page.kind ?? null],
  );
}
