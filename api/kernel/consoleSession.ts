import { createHash, timingSafeEqual } from 'node:crypto';
import type { DataSource } from 'typeorm';
import type { Config } from '../../config';
import {
  endSession,
  lookupSession,
  type SessionRow,
  touchSession,
} from '../../access/consoleSessionsQueries';
import type { ServiceName } from '../../entities/types';
import { AuthenticationError, type Principal } from './authenticate';

/**
 * The console session's cookie: an opaque secret; PostgreSQL holds only its SHA-256. Over https it is
 * `__Host-referee_session`: the prefix makes the browser refuse the name from any other origin (a sibling
 * subdomain cannot set or shadow it) and without Secure and `Path=/`.
 */
export const SESSION_COOKIE = 'referee_session';
/** The sign-in under way: its secret, from which state, nonce and the PKCE verifier derive. */
export const SIGN_IN_COOKIE = 'referee_sign_in';

/** Whether the console is served over https (then its cookies are `Secure` and `__Host-` prefixed). */
export const consoleIsSecure = (config: Config): boolean =>
  config.oidc ? new URL(config.oidc.redirectUrl).protocol === 'https:' : false;

/** A console cookie's name: `__Host-` prefixed over https; plain over http (browsers keep the prefix for https). */
export const consoleCookieName = (config: Config, name: string): string =>
  consoleIsSecure(config) ? `__Host-${name}` : name;

/** The header a state-changing request with the session cookie carries its CSRF token in. */
export const CSRF_HEADER = 'x-csrf-token';
/** What a console session may do: read and write as its member; files and keys need an API key. */
const SESSION_SCOPES = ['read', 'write'] as const;

export const hashSessionSecret = (secret: string): Buffer => createHash('sha256').update(secret).digest();

/** The CSRF token of a session: derived from its secret, so nothing more is stored and only its holder knows it. */
export const csrfTokenOf = (secret: string): string =>
  createHash('sha256').update(`csrf:${secret}`).digest('base64url');

/** Every value a Cookie header gives the named cookie, in order. */
export function cookieValues(header: string | undefined, name: string): string[] {
  const values: string[] = [];
  for (const part of (header ?? '').split(';')) {
    const at = part.indexOf('=');
    if (at > 0 && part.slice(0, at).trim() === name) values.push(part.slice(at + 1).trim());
  }
  return values;
}

/**
 * One cookie's value from a Cookie header; `duplicate` when the header carries the name more than once, which a
 * browser does only when another site (a sibling subdomain) set a cookie of the same name: such a request is
 * refused, not answered with whichever came first (cookie tossing).
 */
export function soleCookie(
  header: string | undefined,
  name: string,
): { value: string | null; duplicate: boolean } {
  const values = cookieValues(header, name);
  if (values.length > 1) return { value: null, duplicate: true };
  return { value: values[0] || null, duplicate: false };
}

/**
 * The origin the console is served from: the redirect URL's when a provider is configured (right behind a
 * proxy), else the request's own scheme and host. Not Koa's `ctx.origin`: since Koa 3 that is the request's
 * Origin header, which would compare the header with itself.
 */
export const consoleOrigin = (config: Config, request: { protocol: string; host: string }): string =>
  config.oidc ? new URL(config.oidc.redirectUrl).origin : `${request.protocol}://${request.host}`;

const equalText = (a: string, b: string) =>
  a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

/**
 * Whether a state-changing request carrying the session cookie comes from the console itself: its Origin is
 * the console's (browsers send Origin on every cross-origin and every non-GET request) and it carries the
 * session's CSRF token, which a page of another site cannot read.
 */
export function sameOriginWrite(
  secret: string,
  request: { origin: string | undefined; csrfToken: string | undefined; expectedOrigin: string },
): boolean {
  if (request.origin !== request.expectedOrigin) return false;
  return request.csrfToken !== undefined && equalText(request.csrfToken, csrfTokenOf(secret));
}

/** Why a session no longer signs its holder in, or null while it does. */
export function sessionEnd(
  session: Pick<SessionRow, 'ended_at' | 'expires_at' | 'idle_seconds'>,
  idleSeconds: number,
  now = Date.now(),
): 'ended' | 'expired' | 'idle' | null {
  if (session.ended_at) return 'ended';
  if (session.expires_at.getTime() <= now) return 'expired';
  if (session.idle_seconds >= idleSeconds) return 'idle';
  return null;
}

const SESSION_FAILURE_DETAIL: Record<string, string> = {
  session_unknown: 'The console session is not valid; sign in again.',
  session_ended: 'The console session has ended; sign in again.',
  session_expired: 'The console session has expired; sign in again.',
  session_idle: 'The console session ended after a time without use; sign in again.',
  duplicate_cookie: 'The request carries the console session cookie more than once; sign in again.',
  not_a_member: 'You are not a member of this service.',
  disabled: 'Your membership of this service is disabled.',
};

export const refuseSession = (reason: string, context: { memberId?: string; why?: string } = {}) =>
  new AuthenticationError(reason, null, context, SESSION_FAILURE_DETAIL[reason]);

/**
 * Resolves a console session cookie to a principal of `service`. Read from PostgreSQL on every request (no
 * cache): ending a session or disabling a member holds at once in every API process.
 */
export async function authenticateConsoleSession(
  deps: { dataSource: DataSource; config: Config },
  service: ServiceName,
  secret: string,
): Promise<Principal> {
  const session = await lookupSession(deps.dataSource, hashSessionSecret(secret), service);
  if (!session) throw refuseSession('session_unknown');
  const end = sessionEnd(session, deps.config.consoleSession.idleSeconds);
  const context = { why: `session ${session.id}`, memberId: session.member?.id };
  if (end) {
    if (end !== 'ended') await endSession(deps.dataSource, session.id, end);
    throw refuseSession(`session_${end}`, context);
  }
  const member = session.member;
  if (!member) throw refuseSession('not_a_member', context);
  if (!member.enabled) throw refuseSession('disabled', context);
  await touchSession(deps.dataSource, session.id, deps.config.consoleSession.idleSeconds);
  return {
    service,
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
    assertion: null,
    session: { id: session.id },
    role: member.role,
    scopes: [...SESSION_SCOPES],
  };
}
