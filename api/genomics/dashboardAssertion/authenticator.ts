import type { DataSource } from 'typeorm';
import { deleteExpiredAssertionUses, findAssertionMember, recordAssertionUse } from './queries';
import {
  ASSERTION_CLOCK_SKEW_SECONDS,
  AssertionRejected,
  type AssertionVerifier,
  assertionCredential,
  createAssertionVerifier,
} from './verifier';
import {
  AuthenticationError,
  type AuthenticatorFactory,
  type Principal,
  type RequestTarget,
} from '../../kernel/authenticate';
import { lowerRole } from '../../../access/roles';

/** What the caller is told for each refusal of a dashboard assertion. */
const ASSERTION_FAILURE_DETAIL = {
  assertion_disabled: 'Dashboard assertions are not accepted here; send an API key.',
  assertion_invalid: 'The dashboard assertion is not valid for this request.',
  assertion_replayed: 'The dashboard assertion has already been used.',
  assertion_unknown_member: 'The dashboard assertion names no member of this workspace.',
  assertion_member_disabled: 'The member named by the dashboard assertion is disabled.',
} as const;

type AssertionFailure = keyof typeof ASSERTION_FAILURE_DETAIL;

const refused = (reason: AssertionFailure, context: AuthenticationError['context'] = {}) =>
  new AuthenticationError(reason, null, context, ASSERTION_FAILURE_DETAIL[reason]);

/**
 * The genomics dashboard's signed assertions (`Authorization: Assertion <jws>`), verified with the
 * configured key; without one every assertion is refused. Registered by the genomics service only.
 */
export const dashboardAssertionAuthenticator: AuthenticatorFactory = (deps) => {
  const verifier = createAssertionVerifier(deps.config.genomicsDashboardAssertionKey);
  return {
    claims: (authorization) => assertionCredential(authorization) !== null,
    async authenticate(authorization, request) {
      const jws = assertionCredential(authorization);
      if (jws === null || !verifier) throw refused('assertion_disabled');
      return authenticateAssertion(deps.dataSource, jws, request, verifier);
    },
  };
};

/**
 * A dashboard assertion: verified (signature, times, method and target), its member looked up, then its
 * `jti` recorded in PostgreSQL, so a second use is refused by every API process. The body digest is
 * checked by the caller once the body has been read (`confirmAssertionBody`).
 */
async function authenticateAssertion(
  dataSource: DataSource,
  jws: string,
  request: RequestTarget,
  verifier: AssertionVerifier,
): Promise<Principal> {
  let claims;
  try {
    claims = await verifier.verify(jws, request);
  } catch (error) {
    if (!(error instanceof AssertionRejected)) throw error;
    throw refused('assertion_invalid', { why: error.why });
  }
  const member = await findAssertionMember(dataSource, claims.identityId);
  if (!member) throw refused('assertion_unknown_member', { jti: claims.jti });
  const context = { memberId: member.id, jti: claims.jti };
  if (!member.enabled) throw refused('assertion_member_disabled', context);
  const firstUse = await recordAssertionUse(dataSource, {
    jti: claims.jti,
    memberId: member.id,
    method: claims.method,
    path: claims.path,
    keepUntil: new Date(claims.expiresAt.getTime() + ASSERTION_CLOCK_SKEW_SECONDS * 1000),
  });
  if (!firstUse) throw refused('assertion_replayed', context);
  await forgetExpiredAssertions(dataSource);
  return {
    service: 'genomics',
    member: {
      id: member.id,
      identityId: member.identity_id,
      username: member.username,
      displayName: member.display_name,
      email: member.email,
      role: member.role,
      enabled: member.enabled,
    },
    key: null,
    assertion: { jti: claims.jti, expiresAt: claims.expiresAt, bodySha256: claims.bodySha256 },
    role: lowerRole(claims.role, member.role),
    scopes: claims.scopes,
  };
}

let lastAssertionCleanup = 0;

/** Used assertions are kept only until they expire (a replay after that fails on `exp`); pruned once a minute. */
async function forgetExpiredAssertions(dataSource: DataSource): Promise<void> {
  if (Date.now() - lastAssertionCleanup < 60_000) return;
  lastAssertionCleanup = Date.now();
  await deleteExpiredAssertionUses(dataSource);
}
