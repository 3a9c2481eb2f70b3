import type { Queryable } from '../entities/queryable';
import { ROLES, type Role, roleRank, SERVICES, type ServiceName } from '../entities/types';
import { endSessionsOfSubject, insertConsoleAudit } from './consoleSessionsQueries';
import { applyMemberPlan, type MemberProjection, planIdentityChange } from './members';
import { selectIdentityMembers } from './membersQueries';
import type { ScimUserRow } from './provisioningQueries';

export * from './provisioningQueries';

/**
 * A SCIM Group named `referee-<service>-<role>` (any case) gives its members that role in that service; a person
 * in several has the highest of each service's; a person in none is not a member there (docs/provisioning.md).
 */
const ROLE_GROUP = /^referee-(math|genomics)-(reviewer|owner|admin)$/i;

export function roleOfGroup(displayName: string): { service: ServiceName; role: Role } | null {
  const match = ROLE_GROUP.exec(displayName);
  if (!match) return null;
  return { service: match[1].toLowerCase() as ServiceName, role: match[2].toUpperCase() as Role };
}

/** The role in each service that a person's groups give; a service absent from the result gives none. */
export function rolesOfGroups(groupNames: readonly string[]): Partial<Record<ServiceName, Role>> {
  const roles: Partial<Record<ServiceName, Role>> = {};
  for (const name of groupNames) {
    const granted = roleOfGroup(name);
    if (!granted) continue;
    const held = roles[granted.service];
    if (!held || roleRank(granted.role) > roleRank(held)) roles[granted.service] = granted.role;
  }
  return roles;
}

/** A SCIM request the projection refuses; the SCIM layer answers it with its error schema. */
export class ProvisioningRefusal extends Error {
  constructor(
    readonly code: 'primary_admin',
    readonly detail: string,
  ) {
    super(detail);
    this.name = 'ProvisioningRefusal';
  }
}

/** A person as the projection needs them: the SCIM User's identity, names and state, and their groups. */
export interface ProvisionedIdentity {
  userName: string;
  /** The userName before this change, when it changed (the members keep their rows, keys and history). */
  previousUserName?: string;
  displayName: string;
  email: string | null;
  /** False for a deactivated or deleted User: no membership anywhere. */
  active: boolean;
  groups: readonly string[];
}

/** The display name and email the members of a stored SCIM User get. */
export function identityOf(
  user: Pick<ScimUserRow, 'user_name' | 'active' | 'resource' | 'groups'>,
): ProvisionedIdentity {
  const resource = user.resource as {
    displayName?: string;
    name?: { formatted?: string; givenName?: string; familyName?: string };
    emails?: Array<{ value?: string; primary?: boolean }>;
  };
  const named = [resource.name?.givenName, resource.name?.familyName].filter(Boolean).join(' ');
  const emails = resource.emails ?? [];
  const email = (emails.find((e) => e.primary) ?? emails[0])?.value ?? null;
  return {
    userName: user.user_name,
    displayName: (resource.displayName || resource.name?.formatted || named || user.user_name).slice(0, 200),
    email,
    active: user.active,
    groups: user.groups.map((g) => g.display_name),
  };
}

/**
 * Makes the members of one identity what its SCIM User and groups say, through the same plans and identity audit
 * as `referee members sync` (access/members.ts). A member who loses every role is disabled (their keys stop in
 * every API process at once); one left with no enabled membership anywhere also has every console session ended.
 * The primary admin of a service is never disabled or demoted here: a deactivation, a deletion or a group change
 * that would do it is refused whole; a User who is the primary admin and holds no admin group keeps the membership
 * as it is (an identity service creates a User before it adds it to groups).
 */
export async function projectIdentity(
  tx: Queryable,
  identity: ProvisionedIdentity,
  source: {
    tokenId: string;
    reason: string;
    /** The service of the role group whose change causes this projection, if one does. */
    groupService?: ServiceName;
  },
): Promise<void> {
  const renamed = identity.previousUserName !== undefined && identity.previousUserName !== identity.userName;
  const current = await selectIdentityMembers(tx, renamed ? identity.previousUserName! : identity.userName);
  const roles = identity.active ? rolesOfGroups(identity.groups) : {};
  let enabledAfter = 0;
  for (const service of SERVICES) {
    const existing = current.find((m) => m.service === service);
    const role = roles[service];
    const base = { identity_id: identity.userName, username: identity.userName };
    let wanted: MemberProjection | null;
    if (existing?.primary_admin && role !== 'ADMIN') {
      if (!identity.active || source.groupService === service) {
        throw new ProvisioningRefusal(
          'primary_admin',
          `${existing.identity_id} is the primary admin of ${service}: SCIM cannot disable or demote them ` +
            `(keep them active in the referee-${service}-admin group; "referee members sync" changes them).`,
        );
      }
      wanted = { ...existing, ...base };
    } else if (role) {
      wanted = {
        ...base,
        display_name: identity.displayName,
        email: identity.email,
        role,
        enabled: true,
        primary_admin: existing?.primary_admin ?? false,
      };
    } else wanted = renamed && existing ? { ...existing, ...base, enabled: false } : null;
    if (wanted?.enabled) enabledAfter += 1;
    const plan = planIdentityChange(service, existing, wanted);
    await applyMemberPlan(tx, plan, { via: 'scim', token_id: source.tokenId }, source.reason);
  }
  const subjects = new Set<string>();
  if (enabledAfter === 0) subjects.add(identity.userName);
  if (renamed) subjects.add(identity.previousUserName!);
  for (const subject of subjects) {
    const ended = await endSessionsOfSubject(tx, subject, 'deprovisioned');
    if (ended === 0) continue;
    const members = await selectIdentityMembers(tx, identity.userName);
    await insertConsoleAudit(
      tx,
      members.map((m) => ({
        service: m.service,
        kind: 'console_sessions_ended',
        memberId: m.id,
        detail: { sessions: ended, by: 'scim', reason: source.reason, subject },
      })),
    );
  }
}

/** Every role group name, for the documents that list them. */
export const ROLE_GROUP_NAMES = SERVICES.flatMap((s) => ROLES.map((r) => `referee-${s}-${r.toLowerCase()}`));
