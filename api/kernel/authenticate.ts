import type { DataSource } from 'typeorm';
import type { Role, Scope, ServiceName } from '../../entities/types';
import { bearerToken, parseToken, secretMatches } from './credentials';
import { problems } from './errors';
import { lowerRole } from './roles';

/** Who is calling: the member behind the key and what the key allows. */
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
  key: { id: string; role: Role; scopes: Scope[]; expiresAt: Date };
  /** The key's role, capped by the member's current role (a demoted member's keys shrink with them). */
  role: Role;
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
  'missing' | 'malformed' | 'wrong_service' | 'unknown' | 'revoked' | 'expired' | 'disabled';

export class AuthenticationError extends Error {
  constructor(
    readonly reason: AuthFailure,
    readonly keyId: string | null,
  ) {
    super(reason);
  }
}

/**
 * Resolves the Authorization header to a principal in one query. Revocation, expiry and the member's
 * enabled flag are read from PostgreSQL on every request, so a revocation holds across processes at once.
 */
export async function authenticate(
  dataSource: DataSource,
  service: ServiceName,
  authorization: string | undefined,
): Promise<Principal> {
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
  if (row.revoked_at) throw new AuthenticationError('revoked', row.key_id);
  if (row.expires_at.getTime() <= Date.now()) throw new AuthenticationError('expired', row.key_id);
  if (!row.enabled) throw new AuthenticationError('disabled', row.key_id);
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
    role: lowerRole(row.key_role, row.member_role),
  };
}

const FAILURE_DETAIL: Record<AuthFailure, string> = {
  missing: 'Send an API key as "Authorization: Bearer <token>".',
  malformed: 'The credential is not a valid API key.',
  wrong_service: 'The API key belongs to the other service.',
  unknown: 'The API key is not valid.',
  revoked: 'The API key has been revoked.',
  expired: 'The API key has expired.',
  disabled: 'The member behind this API key is disabled.',
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
