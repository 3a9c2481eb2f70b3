import type { AuditRow, MemberRow } from './queries';

/** A member as an assignment choice: no e-mail, no timestamps. */
export function presentReviewer(m: MemberRow) {
  return {
    id: m.id,
    identity_id: m.identity_id,
    username: m.username,
    display_name: m.display_name,
    role: m.role,
    enabled: m.enabled,
  };
}

/** The full local projection of a central identity (Admin only). */
export function presentUser(m: MemberRow) {
  return {
    id: m.id,
    identity_id: m.identity_id,
    username: m.username,
    display_name: m.display_name,
    email: m.email,
    role: m.role,
    enabled: m.enabled,
    primary_admin: m.primary_admin,
    created_at: m.created_at.toISOString(),
    updated_at: m.updated_at.toISOString(),
  };
}

export function presentAuditRecord(a: AuditRow) {
  return {
    id: a.id,
    kind: a.kind,
    member_id: a.member_id,
    key_id: a.key_id,
    detail: a.detail,
    created_at: a.created_at.toISOString(),
  };
}
