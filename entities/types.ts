export const SERVICES = ['math', 'genomics'] as const;
export type ServiceName = (typeof SERVICES)[number];

/** Roles in ascending privilege. */
export const ROLES = ['REVIEWER', 'OWNER', 'ADMIN'] as const;
export type Role = (typeof ROLES)[number];

export const SCOPES = ['read', 'write', 'files:read', 'files:write', 'paths:read', 'keys:manage'] as const;
export type Scope = (typeof SCOPES)[number];

export function roleRank(role: Role): number {
  return ROLES.indexOf(role);
}
