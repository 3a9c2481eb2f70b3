import Joi from 'joi';
import type { DataSource } from 'typeorm';
import type { Queryable } from '../entities/queryable';
import { ROLES, type Role, SERVICES, type ServiceName } from '../entities/types';
import {
  countOpenAssignments,
  disableMember,
  insertIdentityAudit,
  insertMember,
  selectMemberIdByIdentity,
  selectMembers,
  selectServiceMembers,
  type StoredMember,
  updateMember,
} from './membersQueries';

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

/** `sync` makes the projection equal the file (members absent from it are disabled); `upsert` disables nobody. */
export type SyncMode = 'sync' | 'upsert';

type Changes = Record<string, { from: unknown; to: unknown }>;

/** What a sync or upsert of one service changes, identity by identity. */
export interface MemberPlan {
  service: ServiceName;
  create: MemberProjection[];
  update: Array<{ id: string; member: MemberProjection; changes: Changes }>;
  disable: Array<{ id: string; identity_id: string }>;
  unchanged: number;
}

const PLANNED_FIELDS = ['username', 'display_name', 'email', 'role', 'enabled', 'primary_admin'] as const;

const changesOf = (
  current: MemberProjection,
  wanted: MemberProjection,
  fields: ReadonlyArray<keyof MemberProjection>,
): Changes =>
  Object.fromEntries(
    fields.filter((f) => current[f] !== wanted[f]).map((f) => [f, { from: current[f], to: wanted[f] }]),
  );

/**
 * The plan for one identity in one service, as the identity service wants it now: `wanted` null means no
 * membership (an existing member is disabled, never deleted). A renamed identity keeps its member row (its keys
 * and history), so `current` may carry the previous `identity_id`. Pure, like {@link planMemberSync}.
 */
export function planIdentityChange(
  service: ServiceName,
  current: StoredMember | undefined,
  wanted: MemberProjection | null,
): MemberPlan {
  const plan: MemberPlan = { service, create: [], update: [], disable: [], unchanged: 0 };
  if (!wanted) {
    if (current?.enabled) plan.disable.push({ id: current.id, identity_id: current.identity_id });
    else plan.unchanged += current ? 1 : 0;
    return plan;
  }
  if (!current) {
    plan.create.push(wanted);
    return plan;
  }
  const changes = changesOf(current, wanted, ['identity_id', ...PLANNED_FIELDS]);
  if (Object.keys(changes).length === 0) plan.unchanged += 1;
  else plan.update.push({ id: current.id, member: wanted, changes });
  return plan;
}

/** Compares the stored members of a service with the listed ones; pure, so a dry run shows exactly this. */
export function planMemberSync(
  service: ServiceName,
  existing: StoredMember[],
  listed: MemberProjection[],
  mode: SyncMode,
): MemberPlan {
  const plan: MemberPlan = { service, create: [], update: [], disable: [], unchanged: 0 };
  const byIdentity = new Map(existing.map((m) => [m.identity_id, m]));
  for (const m of listed) {
    const wanted = {
      ...m,
      email: m.email ?? null,
      enabled: m.enabled ?? true,
      primary_admin: m.primary_admin ?? false,
    };
    const current = byIdentity.get(m.identity_id);
    if (!current) {
      plan.create.push(wanted);
      continue;
    }
    const changes = changesOf(current, wanted, PLANNED_FIELDS);
    if (Object.keys(changes).length === 0) plan.unchanged += 1;
    else plan.update.push({ id: current.id, member: wanted, changes });
  }
  if (mode === 'sync') {
    const names = new Set(listed.map((m) => m.identity_id));
    for (const m of existing) {
      if (!names.has(m.identity_id) && m.enabled) plan.disable.push({ id: m.id, identity_id: m.identity_id });
    }
  }
  return plan;
}

export const summarizePlan = (plan: MemberPlan): SyncSummary => ({
  service: plan.service,
  created: plan.create.length,
  updated: plan.update.length,
  disabled: plan.disable.length,
  unchanged: plan.unchanged,
});

/** Who changes members, for the identity audit: the ops CLI's file, or the identity service over SCIM. */
export type MemberChangeSource = { via: 'members sync' } | { via: 'scim'; token_id: string };

/**
 * Writes one service's plan inside the caller's transaction, each change with its identity audit record: the one
 * code path by which `referee members sync` and SCIM provisioning change members. A disabled member's keys stop
 * in every API process at once (the `members` trigger notifies every key cache, api/kernel/keyCache.ts).
 */
export async function applyMemberPlan(
  tx: Queryable,
  plan: MemberPlan,
  source: MemberChangeSource,
  reason = 'absent from sync',
): Promise<void> {
  const audit = (kind: string, memberId: string, detail: object) =>
    insertIdentityAudit(tx, plan.service, kind, memberId, { ...detail, source });
  for (const m of plan.create) {
    const id = await insertMember(tx, plan.service, m);
    await audit('member_created', id, { identity_id: m.identity_id, role: m.role, enabled: m.enabled });
  }
  for (const { id, member: m, changes } of plan.update) {
    await updateMember(tx, id, m);
    await audit('member_updated', id, { identity_id: m.identity_id, changes });
  }
  for (const m of plan.disable) {
    await disableMember(tx, m.id);
    await audit('member_disabled', m.id, {
      identity_id: m.identity_id,
      reason,
      open_assignments: await countOpenAssignments(tx, plan.service, m.id),
    });
  }
}

/**
 * Brings the local projection in line with the given list: new identities are added and changed ones updated;
 * with `sync` (the default) members missing from the list are disabled (never deleted: keys and history refer
 * to them), with `upsert` nobody is. Each change is an identity audit record; disabling a member stops their
 * keys at once. With `dryRun` the plans are computed and nothing is written.
 */
export async function syncMembers(
  dataSource: DataSource,
  file: MemberSyncFile,
  options: { mode?: SyncMode; dryRun?: boolean } = {},
): Promise<MemberPlan[]> {
  const plans: MemberPlan[] = [];
  for (const service of SERVICES) {
    const members = file[service];
    if (!members) continue;
    plans.push(
      await dataSource.transaction(async (tx) => {
        const existing = await selectServiceMembers(tx, service, !options.dryRun);
        const plan = planMemberSync(service, existing, members, options.mode ?? 'sync');
        if (!options.dryRun) await applyMemberPlan(tx, plan, { via: 'members sync' });
        return plan;
      }),
    );
  }
  return plans;
}

/** A member as the ops CLI lists it. */
export interface MemberRow extends MemberProjection {
  id: string;
  service: ServiceName;
  active_keys: number;
}

/** Members of one or both services, by service and identity id. */
export async function listMembers(dataSource: DataSource, service?: ServiceName): Promise<MemberRow[]> {
  return selectMembers(dataSource, service);
}

/** The local member id of an identity in one service, or null when it is not a member there. */
export async function memberIdByIdentity(
  dataSource: DataSource,
  service: ServiceName,
  identityId: string,
): Promise<string | null> {
  return selectMemberIdByIdentity(dataSource, service, identityId);
}
