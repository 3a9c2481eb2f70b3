import { type Role, roleRank, type Scope } from '../entities/types';

export const atLeast = (role: Role, minimum: Role): boolean => roleRank(role) >= roleRank(minimum);

export const lowerRole = (a: Role, b: Role): Role => (roleRank(a) <= roleRank(b) ? a : b);

export const missingScopes = (granted: readonly Scope[], required: readonly Scope[]): Scope[] =>
  required.filter((s) => !granted.includes(s));
