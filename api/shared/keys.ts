import type { Transactional } from '../../entities/queryable';
import {
  issueApiKey as issueKey,
  type IssuedKey,
  type KeyCaller,
  KeyRefusal,
  type KeyRefusalCode,
  type KeyRequest,
  requireMayIssueFor as requireMayIssue,
  revokeVisibleKey,
} from '../../access/keys';
import type { AppDeps } from '../kernel/deps';
import { type ApiError, problems } from '../kernel/errors';
import { sharedProblems } from './problems';

/**
 * A refused key request as both services answer it: above what the issuer holds is 403 (the caller cannot grant
 * what it lacks), the 51st active key 409 (revoke one first), a disabled recipient named in the body 400.
 */
const keyRefusalProblem: Record<KeyRefusalCode, (refusal: KeyRefusal) => ApiError> = {
  issuer_not_admin: (r) => problems.forbidden(r.detail),
  role_above_issuer: (r) => problems.forbidden(r.detail),
  scopes_above_issuer: (r) => problems.forbidden(r.detail),
  member_not_found: (r) => problems.notFound(r.detail),
  active_key_limit: (r) => sharedProblems.conflict('active_key_limit', r.detail, r.extensions),
  key_outlives_issuer: (r) => sharedProblems.forbidden('key_outlives_issuer', r.detail),
  key_exceeds_member: (r) => sharedProblems.forbidden('key_exceeds_member', r.detail),
  member_disabled: (r) => sharedProblems.badRequest('member_disabled', r.detail),
};

function asProblem(error: unknown): unknown {
  return error instanceof KeyRefusal ? keyRefusalProblem[error.code](error) : error;
}

const DAY_MS = 86_400_000;

/** When a key asked to live `days` days from `now` (epoch ms) expires. */
export const daysFrom = (now: number, days: number): Date => new Date(now + days * DAY_MS);

/** Only an Admin issues keys for another member (403 otherwise, before anything about that member is read). */
export function requireMayIssueFor(caller: KeyCaller, forSelf: boolean): void {
  try {
    requireMayIssue(caller, forSelf);
  } catch (error) {
    throw asProblem(error);
  }
}

/** `issueApiKey` of access/keys.ts, its refusals as this service's problems. */
export async function issueApiKey(
  dataSource: Transactional,
  caller: KeyCaller,
  request: KeyRequest,
): Promise<IssuedKey> {
  try {
    return await issueKey(dataSource, caller, request);
  } catch (error) {
    throw asProblem(error);
  }
}

/**
 * `revokeVisibleKey` of access/keys.ts. This process forgets the key before it answers, so the caller's next
 * request here is refused whatever the timing of the notification; other processes drop it when it arrives.
 */
export async function revokeKeyOfCaller(
  deps: Pick<AppDeps, 'dataSource' | 'keyCache'>,
  caller: KeyCaller,
  keyId: string,
): Promise<Awaited<ReturnType<typeof revokeVisibleKey>>> {
  const key = await revokeVisibleKey(deps.dataSource, caller, keyId);
  if (key) deps.keyCache?.invalidate(`key:${key.id}`);
  return key;
}
