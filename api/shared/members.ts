import Joi from 'joi';
import type { DataSource } from 'typeorm';
import { ROLES, type Role, SERVICES, type ServiceName } from '../../entities/types';

export interface MemberProjection {
  identity_id: string;
  username: string;
  display_name: string;
  email: string | null;
  role: Role;
  enabled: boolean;
  primary_admin?: boolean;
}

/** `ops members sync` input: the full member list of one or both services, as the identity service has it. */
export type MemberSyncFile = Partial<Record<ServiceName, MemberProjection[]>>;

const memberSchema = Joi.object<MemberProjection>({
  identity_id: Joi.string().max(128).required(),
  username: Joi.string().max(200).required(),
  display_name: Joi.string().max(200).required(),
  email: Joi.string().email({ tlds: false }).max(320).allow(null).default(null),
  role: Joi.string()
    .valid(...ROLES)
    .required(),
  enabled: Joi.boolean().default(true),
  primary_admin: Joi.boolean().default(false),
});

export const memberSyncFileSchema = Joi.object<MemberSyncFile>(
  Object.fromEntries(SERVICES.map((s) => [s, Joi.array().items(memberSchema).unique('identity_id')])),
).or(...SERVICES);

export interface SyncSummary {
  service: ServiceName;
  created: number;
  updated: number;
  disabled: number;
  unchanged: number;
}

/**
 * Makes the local projection equal the given list: new identities are added, changed ones updated, and
 * members missing from the list disabled (never deleted: keys and history refer to them). Each change
 * is an identity audit record; disabling a member stops their keys at once.
 */
export async function syncMembers(dataSource: DataSource, file: MemberSyncFile): Promise<SyncSummary[]> {
  const summaries: SyncSummary[] = [];
  for (const service of SERVICES) {
    const members = file[service];
    if (!members) continue;
    summaries.push(
      await dataSource.transaction(async (tx) => {
        const summary: SyncSummary = { service, created: 0, updated: 0, disabled: 0, unchanged: 0 };
        const existing: Array<MemberProjection & { id: string }> = await tx.query(
          `SELECT id::text, identity_id, username, display_name, email, role, enabled, primary_admin
             FROM members WHERE service = $1 FOR UPDATE`,
          [service],
        );
        const byIdentity = new Map(existing.map((m) => [m.identity_id, m]));
        const audit = (kind: string, memberId: string, detail: object) =>
          tx.query(`INSERT INTO identity_audit (service, kind, member_id, detail) VALUES ($1, $2, $3, $4)`, [
            service,
            kind,
            memberId,
            JSON.stringify(detail),
          ]);
        for (const m of members) {
          const current = byIdentity.get(m.identity_id);
          const wanted = { ...m, primary_admin: m.primary_admin ?? false };
          if (!current) {
            const [row]: Array<{ id: string }> = await tx.query(
              `INSERT INTO members (service, identity_id, username, display_name, email, role, enabled, primary_admin)
               VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING id::text`,
              [
                service,
                m.identity_id,
                m.username,
                m.display_name,
                m.email,
                m.role,
                wanted.enabled,
                wanted.primary_admin,
              ],
            );
            await audit('member_created', row.id, {
              identity_id: m.identity_id,
              role: m.role,
              enabled: wanted.enabled,
            });
            summary.created += 1;
            continue;
          }
          const fields = ['username', 'display_name', 'email', 'role', 'enabled', 'primary_admin'] as const;
          const changes = Object.fromEntries(
            fields
              .filter((f) => current[f] !== wanted[f])
              .map((f) => [f, { from: current[f], to: wanted[f] }]),
          );
          if (Object.keys(changes).length === 0) {
            summary.unchanged += 1;
            continue;
          }
          await tx.query(
            `UPDATE members SET username = $2, display_name = $3, email = $4, role = $5, enabled = $6, primary_admin = $7,
                    updated_at = now() WHERE id = $1`,
            [current.id, m.username, m.display_name, m.email, m.role, wanted.enabled, wanted.primary_admin],
          );
          await audit('member_updated', current.id, { identity_id: m.identity_id, changes });
          summary.updated += 1;
        }
        const listed = new Set(members.map((m) => m.identity_id));
        for (const m of existing) {
          if (listed.has(m.identity_id) || !m.enabled) continue;
          await tx.query(`UPDATE members SET enabled = false, updated_at = now() WHERE id = $1`, [m.id]);
          await audit('member_disabled', m.id, { identity_id: m.identity_id, reason: 'absent from sync' });
          summary.disabled += 1;
        }
        return summary;
      }),
    );
  }
  return summaries;
}

/** The local member id of an identity in one service, or null when it is not a member there. */
export async function memberIdByIdentity(
  dataSource: DataSource,
  service: ServiceName,
  identityId: string,
): Promise<string | null> {
  const rows: Array<{ id: string }> = await dataSource.query(
    'SELECT id::text FROM members WHERE service = $1 AND identity_id = $2',
    [service, identityId],
  );
  return rows[0]?.id ?? null;
}
