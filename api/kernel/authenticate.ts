import type { DataSource } from 'typeorm';
import type { Role, Scope, ServiceName } from '../../entities/types';
import { type KeyWithMemberRow, lookupApiKey, recordKeysLastUsed } from '../../access/authQueries';
import { bearerToken, parseToken, secretMatches } from '../../access/credentials';
import { problems } from './errors';
import type { AppDeps } from './deps';
import type { KeyCache } from './keyCache';
import { lowerRole } from '../../access/roles';

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
  /** The API key in use; null when the request carries a dashboard assertion instead. */
  key: { id: string; role: Role; scopes: Scope[]; expiresAt: Date } | null;
  /** The dashboard assertion in use, if the service's authenticators issued one; its body digest is checked once the body is read. */
  assertion: { jti: string; expiresAt: Date; bodySha256: string } | null;
  /** The console session in use (a signed-in browser's cookie), if any. */
  session?: { id: string };
  /** The credential's role, capped by the member's current role (a demoted member's keys shrink with them). */
  role: Role;
  /** The credential's scopes. */
  scopes: Scope[];
}

/**
 * The API key of a principal, for operations whose records name the key: a console session is refused
 * (it has no key); any other principal without one is a bug.
 */
export function apiKeyOf(principal: Principal): NonNullable<Principal['key']> {
  if (principal.key) return principal.key;
  if (principal.session)
    throw problems.forbidden('This operation needs an API key; a console session cannot use it.');
  throw problems.internal();
}

export type { KeyWithMemberRow } from '../../access/authQueries';

/** Why an API key was refused; services' own authenticators add reasons of their own. */
export type ApiKeyFailure =
  'missing' | 'malformed' | 'wrong_service' | 'unknown' | 'revoked' | 'expired' | 'disabled';

const API_KEY_FAILURE_DETAIL: Record<ApiKeyFailure, string> = {
  missing: 'Send an API key as "Authorization: Bearer <token>".',
  malformed: 'The credential is not a valid API key.',
  wrong_service: 'The API key belongs to the other service.',
  unknown: 'The API key is not valid.',
  revoked: 'The API key has been revoked.',
  expired: 'The API key has expired.',
  disabled: 'The member behind this API key is disabled.',
};

export class AuthenticationError extends Error {
  /** What the caller is told (never the audit context). */
  readonly detail: string;

  constructor(
    /** Recorded in the identity audit: an {@link ApiKeyFailure} or a reason of a service's authenticator. */
    readonly reason: string,
    readonly keyId: string | null,
    /** Facts for the identity audit record (member id, assertion id, why); never shown to the caller. */
    readonly context: { memberId?: string; jti?: string; why?: string } = {},
    detail?: string,
  ) {
    super(reason);
    this.detail = detail ?? API_KEY_FAILURE_DETAIL[reason as ApiKeyFailure] ?? 'The credential is not valid.';
  }
}

/** The request a credential is presented with (some credentials are bound to it). */
export interface RequestTarget {
  method: string;
  /** The request target as sent: path and query string. */
  target: string;
}

/** One kind of credential a service accepts. */
export interface Authenticator {
  /** Whether the Authorization header carries this authenticator's kind of credential. */
  claims(authorization: string | undefined): boolean;
  authenticate(authorization: string | undefined, request: RequestTarget): Promise<Principal>;
}

/**
 * Builds a service's authenticator once per API process. A service lists its own
 * (`ServiceDefinition.authenticators`, first claim wins); the kernel knows only API keys.
 */
export type AuthenticatorFactory = (deps: AppDeps, service: ServiceName) => Authenticator;

/** API keys, the credential of both services; it claims every header, so it belongs last in a list. */
export const apiKeyAuthenticator: AuthenticatorFactory = (deps, service) => ({
  claims: () => true,
  authenticate: (authorization) =>
    authenticateApiKey({ dataSource: deps.dataSource, keyCache: deps.keyCache }, service, authorization),
});

/** Resolves the Authorization header with the first of the service's authenticators that claims it. */
export function authenticate(
  authenticators: readonly Authenticator[],
  authorization: string | undefined,
  request: RequestTarget,
): Promise<Principal> {
  const authenticator = authenticators.find((candidate) => candidate.claims(authorization));
  if (!authenticator) throw new AuthenticationError('missing', null);
  return authenticator.authenticate(authorization, request);
}

/**
 * Resolves a Bearer API key to a principal. The key and its member come from the process's key cache
 * when it holds them (no query), else from one query; revocation, the member's enabled flag and role
 * changes end cached entries in every API process through LISTEN/NOTIFY (keyCache.ts), and expiry is
 * checked on every request, so a revocation holds across processes at once.
 */
export async function authenticateApiKey(
  deps: { dataSource: DataSource; keyCache?: KeyCache<KeyWithMemberRow> },
  service: ServiceName,
  authorization: string | undefined,
): Promise<Principal> {
  const token = bearerToken(authorization);
  if (!token) throw new AuthenticationError('missing', null);
  const parsed = parseToken(token);
  if (!parsed) throw new AuthenticationError('malformed', null);
  if (parsed.service !== service) throw new AuthenticationError('wrong_service', null);
  let row = deps.keyCache?.get(service, parsed.keyId);
  if (!row) {
    const generation = deps.keyCache?.generation ?? 0;
    row = await lookupApiKey(deps.dataSource, parsed.keyId, service);
    if (row) deps.keyCache?.store(service, row, generation);
  }
  if (!row || !secretMatches(parsed.secret, row.secret_hash)) throw new AuthenticationError('unknown', null);
  const context = { memberId: row.member_id };
  if (row.revoked_at) throw new AuthenticationError('revoked', row.id, context);
  if (row.expires_at.getTime() <= Date.now()) throw new AuthenticationError('expired', row.id, context);
  if (!row.enabled) throw new AuthenticationError('disabled', row.id, context);
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
    key: { id: row.id, role: row.role, scopes: row.scopes, expiresAt: row.expires_at },
    assertion: null,
    role: lowerRole(row.role, row.member_role),
    scopes: row.scopes,
  };
}

/** Refuses the request when its body is not the one the assertion was signed for. */
export function confirmAssertionBody(principal: Principal, rawBodySha256: string): void {
  if (principal.assertion && principal.assertion.bodySha256 !== rawBodySha256) {
    throw new AuthenticationError(
      'assertion_body_mismatch',
      null,
      {
        memberId: principal.member.id,
        jti: principal.assertion.jti,
      },
      'The request body is not the one the dashboard assertion was signed for.',
    );
  }
}

export const authFailureProblem = (failure: AuthenticationError) => problems.unauthenticated(failure.detail);

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
      await recordKeysLastUsed(this.dataSource, [...batch.keys()], [...batch.values()]);
    } catch (error) {
      this.onError(error);
    }
  }
}
