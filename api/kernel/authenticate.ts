import type { DataSource } from 'typeorm';
import type { Role, Scope, ServiceName } from '../../entities/types';
import {
  ASSERTION_CLOCK_SKEW_SECONDS,
  AssertionRejected,
  type AssertionVerifier,
  assertionCredential,
} from './assertion';
import { bearerToken, parseToken, secretMatches } from './credentials';
import { problems } from './errors';
import { lowerRole } from './roles';

/** Who is calling: the member behind the credential and what the credential allows. */
export interface Principal {
  service: ServiceName;
  member: {
    id: string;
    identityId: string;
    username: string;
    displayName: string;
    email: string | null;
    role: Role;
    enabled: boolean;
  };
  /** The API key in use; null when the request carries a genomics dashboard assertion instead. */
  key: { id: string; role: Role; scopes: Scope[]; expiresAt: Date } | null;
  /** The dashboard assertion in use (genomics only); its body digest is checked once the body is read. */
  assertion: { jti: string; expiresAt: Date; bodySha256: string } | null;
  /** The credential's role, capped by the member's current role (a demoted member's keys shrink with them). */
  role: Role;
  /** The credential's scopes. */
  scopes: Scope[];
}

/** The API key of a principal on a service that only takes API keys (math); a missing key is a bug. */
export function apiKeyOf(principal: Principal): NonNullable<Principal['key']> {
  if (!principal.key) throw problems.internal();
  return principal.key;
}

interface KeyRow {
  key_id: string;
  key_service: ServiceName;
  key_role: Role;
  scopes: Scope[];
  secret_hash: Buffer;
  expires_at: Date;
  revoked_at: Date | null;
  member_id: string;
  identity_id: string;
  username: string;
  display_name: string;
  email: string | null;
  member_role: Role;
  enabled: boolean;
}

export type AuthFailure =
  | 'missing'
  | 'malformed'
  | 'wrong_service'
  | 'unknown'
  | 'revoked'
  | 'expired'
  | 'disabled'
  | 'assertion_disabled'
  | 'assertion_invalid'
  | 'assertion_replayed'
  | 'assertion_unknown_member'
  | 'assertion_member_disabled'
  | 'assertion_body_mismatch';

export class AuthenticationError extends Error {
  constructor(
    readonly reason: AuthFailure,
    readonly keyId: string | null,
    /** Facts for the identity audit record (member id, assertion id, why); never shown to the caller. */
    readonly context: { memberId?: string; jti?: string; why?: string } = {},
  ) {
    super(reason);
  }
}

/** What the request binding of a dashboard assertion is checked against. */
export interface RequestTarget {
  method: string;
  /** The request target as sent: path and query string. */
  target: string;
  /** Configured verifier of dashboard assertions; null refuses them. */
  assertions: AssertionVerifier | null;
}

/**
 * Resolves the Authorization header to a principal in one query. Revocation, expiry and the member's
 * enabled flag are read from PostgreSQL on every request, so a revocation holds across processes at once.
 */
export async function authenticate(
  dataSource: DataSource,
  service: ServiceName,
  authorization: string | undefined,
  request?: RequestTarget,
): Promise<Principal> {
  const assertion = assertionCredential(authorization);
  if (assertion !== null) {
    if (service !== 'genomics' || !request?.assertions)
      throw new AuthenticationError('assertion_disabled', null);
    return authenticateAssertion(dataSource, assertion, request, request.assertions);
  }
  const token = bearerToken(authorization);
  if (!token) throw new AuthenticationError('missing', null);
  const parsed = parseToken(token);
  if (!parsed) throw new AuthenticationError('malformed', null);
  if (parsed.service !== service) throw new AuthenticationError('wrong_service', null);
  const rows: KeyRow[] = await dataSource.query(
    `SELECT k.id AS key_id, k.service AS key_service, k.role AS key_role, k.scopes, k.secret_hash, k.expires_at,
            k.revoked_at, m.id AS member_id, m.identity_id, m.username, m.display_name, m.email,
            m.role AS member_role, m.enabled
       FROM api_keys k JOIN members m ON m.id = k.member_id
      WHERE k.id = $1 AND k.service = $2`,
    [parsed.keyId, service],
  );
  const row = rows[0];
  if (!row || !secretMatches(parsed.secret, row.secret_hash)) throw new AuthenticationError('unknown', null);
  const context = { memberId: row.member_id };
  if (row.revoked_at) throw new AuthenticationError('revoked', row.key_id, context);
  if (row.expires_at.getTime() <= Date.now()) throw new AuthenticationError('expired', row.key_id, context);
  if (!row.enabled) throw new AuthenticationError('disabled', row.key_id, context);
  return {
    service,
    member: {
      id: row.member_id,
      identityId: row.identity_id,
      username: row.username,
      displayName: row.display_name,
      email: row.email,
      role: row.member_role,
      enabled: row.enabled,
    },
    key: { id: row.key_id, role: row.key_role, scopes: row.scopes, expiresAt: row.expires_at },
    assertion: null,
    role: lowerRole(row.key_role, row.member_role),
    scopes: row.scopes,
  };
}

interface MemberRow {
  id: string;
  identity_id: string;
  username: string;
  display_name: string;
  email: string | null;
  role: Role;
  enabled: boolean;
}

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
    throw new AuthenticationError('assertion_invalid', null, { why: error.why });
  }
  const [member]: MemberRow[] = await dataSource.query(
    `SELECT id::text, identity_id, username, display_name, email, role, enabled
       FROM members WHERE service = 'genomics' AND identity_id = $1`,
    [claims.identityId],
  );
  if (!member) throw new AuthenticationError('assertion_unknown_member', null, { jti: claims.jti });
  const context = { memberId: member.id, jti: claims.jti };
  if (!member.enabled) throw new AuthenticationError('assertion_member_disabled', null, context);
  const used: unknown[] = await dataSource.query(
    `INSERT INTO dashboard_assertion_uses (jti, member_id, method, path, expires_at)
     VALUES ($1, $2, $3, $4, $5) ON CONFLICT (jti) DO NOTHING RETURNING 1`,
    [
      claims.jti,
      member.id,
      claims.method,
      claims.path,
      new Date(claims.expiresAt.getTime() + ASSERTION_CLOCK_SKEW_SECONDS * 1000),
    ],
  );
  if (used.length === 0) throw new AuthenticationError('assertion_replayed', null, context);
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

/** Refuses the request when its body is not the one the assertion was signed for. */
export function confirmAssertionBody(principal: Principal, rawBodySha256: string): void {
  if (principal.assertion && principal.assertion.bodySha256 !== rawBodySha256) {
    throw new AuthenticationError('assertion_body_mismatch', null, {
      memberId: principal.member.id,
      jti: principal.assertion.jti,
    });
  }
}

let lastAssertionCleanup = 0;

/** Used assertions are kept only until they expire (a replay after that fails on `exp`); pruned once a minute. */
async function forgetExpiredAssertions(dataSource: DataSource): Promise<void> {
  if (Date.now() - lastAssertionCleanup < 60_000) return;
  lastAssertionCleanup = Date.now();
  await dataSource.query(`DELETE FROM dashboard_assertion_uses WHERE expires_at < now()`);
}

const FAILURE_DETAIL: Record<AuthFailure, string> = {
  missing: 'Send an API key as "Authorization: Bearer <token>".',
  malformed: 'The credential is not a valid API key.',
  wrong_service: 'The API key belongs to the other service.',
  unknown: 'The API key is not valid.',
  revoked: 'The API key has been revoked.',
  expired: 'The API key has expired.',
  disabled: 'The member behind this API key is disabled.',
  assertion_disabled: 'Dashboard assertions are not accepted here; send an API key.',
  assertion_invalid: 'The dashboard assertion is not valid for this request.',
  assertion_replayed: 'The dashboard assertion has already been used.',
  assertion_unknown_member: 'The dashboard assertion names no member of this workspace.',
  assertion_member_disabled: 'The member named by the dashboard assertion is disabled.',
  assertion_body_mismatch: 'The request body is not the one the dashboard assertion was signed for.',
};

export const authFailureProblem = (failure: AuthenticationError) =>
  problems.unauthenticated(FAILURE_DETAIL[failure.reason]);

/**
 * Records `last_used_at` off the request path: uses are coalesced in memory and flushed in one UPDATE
 * per second, so authentication costs one read. A crash loses at most a second of last-use times.
 */
export class LastUsedRecorder {
  private pending = new Map<string, Date>();
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly dataSource: DataSource,
    private readonly intervalMs = 1000,
    private readonly onError: (error: unknown) => void = () => undefined,
  ) {}

  record(keyId: string, at = new Date()): void {
    this.pending.set(keyId, at);
    if (!this.timer) {
      this.timer = setTimeout(() => void this.flush(), this.intervalMs);
      this.timer.unref();
    }
  }

  async flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (this.pending.size === 0) return;
    const batch = this.pending;
    this.pending = new Map();
    try {
      await this.dataSource.query(
        `UPDATE api_keys k SET last_used_at = GREATEST(COALESCE(k.last_used_at, u.at), u.at)
           FROM unnest($1::uuid[], $2::timestamptz[]) AS u(id, at) WHERE k.id = u.id`,
        [[...batch.keys()], [...batch.values()]],
      );
    } catch (error) {
      this.onError(error);
    }
  }
}
