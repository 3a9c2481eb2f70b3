import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type Router from '@koa/router';
import type Koa from 'koa';
import * as oidc from 'openid-client';
import {
  endSession,
  insertConsoleAudit,
  insertSession,
  insertSignIn,
  lookupSession,
  membersOfSubject,
  type SessionMemberRow,
  takeSignIn,
} from '../../access/consoleSessionsQueries';
import type { Config } from '../../config';
import type { PublicRoute } from '../kernel/app';
import { sourceAddress } from '../kernel/authFailureAudit';
import {
  consoleCookieName,
  consoleIsSecure,
  consoleOrigin,
  CSRF_HEADER,
  csrfTokenOf,
  hashSessionSecret,
  sameOriginWrite,
  SESSION_COOKIE,
  sessionEnd,
  SIGN_IN_COOKIE,
  soleCookie,
} from '../kernel/consoleSession';
import type { AppDeps } from '../kernel/deps';
import { problems } from '../kernel/errors';
import { SourceThrottle } from '../kernel/sourceThrottle';
/** How long a person may take at the provider. */
const SIGN_IN_SECONDS = 600;
const AUTH_PATH = '/console/auth';

const derive = (purpose: string, secret: string) =>
  createHash('sha256').update(`${purpose}:${secret}`).digest('base64url');

/** The state, nonce and PKCE verifier of one sign-in: none stored, each recomputed from the cookie's secret. */
export const signInParameters = (secret: string) => ({
  state: derive('state', secret),
  nonce: derive('nonce', secret),
  codeVerifier: derive('pkce', secret),
});

/**
 * What the identity audit records of a refused provider answer: the library's error, the check under it that
 * failed, the claim it compared and the OAuth error code. openid-client wraps oauth4webapi's error, whose own
 * cause names the claim (and holds the token's claims, which are not recorded).
 */
function refusalReason(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const details = error as Error & { code?: string; error?: string };
  const inner = error.cause instanceof Error && error.cause.message !== error.message ? error.cause : null;
  const comparison = (inner ?? error).cause as { claim?: unknown } | undefined;
  const claim = comparison && typeof comparison === 'object' ? comparison.claim : undefined;
  const extra = [
    details.code,
    typeof details.error === 'string' ? details.error : undefined,
    typeof claim === 'string' ? `claim ${claim}` : undefined,
  ].filter(Boolean);
  return `${error.name}: ${error.message}${inner ? ` (${inner.message})` : ''}${extra.length > 0 ? ` [${extra.join(', ')}]` : ''}`;
}

/**
 * Whether the ID token's member claim may name a member: an `email` claim only with `email_verified: true`. An
 * address the provider has not verified is whatever its holder typed, never a member's identity.
 */
export function emailClaimVerified(
  claims: Record<string, unknown> | undefined,
  memberClaim: string,
): boolean {
  return memberClaim !== 'email' || claims?.email_verified === true;
}

/** Plain http only for a provider on this machine (the development provider of `npm start`). */
const isLoopback = (url: URL) =>
  url.protocol === 'http:' && ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname);

type OidcSettings = NonNullable<Config['oidc']>;

/** The provider's configuration, discovered at the first sign-in and kept; a failure is retried next time. */
function providerConfiguration(settings: OidcSettings): () => Promise<oidc.Configuration> {
  let discovered: Promise<oidc.Configuration> | null = null;
  return () => {
    discovered ??= (async () => {
      const issuer = new URL(settings.issuer);
      const configuration = await oidc.discovery(
        issuer,
        settings.clientId,
        undefined,
        oidc.ClientSecretBasic(settings.clientSecret),
        isLoopback(issuer) ? { execute: [oidc.allowInsecureRequests] } : undefined,
      );
      // ID token signatures are checked with the provider's JWKS, not only trusted for coming over TLS.
      oidc.enableNonRepudiationChecks(configuration);
      return configuration;
    })();
    discovered.catch(() => (discovered = null));
    return discovered;
  };
}

interface CookieOptions {
  path: string;
  maxAgeSeconds?: number;
  sameSite: 'Strict' | 'Lax';
}

function setCookie(ctx: Koa.Context, secure: boolean, name: string, value: string, options: CookieOptions) {
  const parts = [`${name}=${value}`, `Path=${options.path}`, 'HttpOnly', `SameSite=${options.sameSite}`];
  if (options.maxAgeSeconds !== undefined) parts.push(`Max-Age=${options.maxAgeSeconds}`);
  if (secure) parts.push('Secure');
  ctx.append('Set-Cookie', parts.join('; '));
}

const clearCookie = (ctx: Koa.Context, secure: boolean, name: string, path: string) =>
  setCookie(ctx, secure, name, '', { path, maxAgeSeconds: 0, sameSite: 'Lax' });

const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  );

/** The page of a sign-in that did not open a session: says why and offers the way on, never a redirect loop. */
export const PAGE_SECURITY_POLICY =
  "default-src 'none'; img-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

function answerPage(ctx: Koa.Context, status: number, title: string, paragraphs: string[]): void {
  ctx.status = status;
  ctx.type = 'text/html; charset=utf-8';
  ctx.set('Content-Security-Policy', PAGE_SECURITY_POLICY);
  ctx.set('Cache-Control', 'no-store');
  ctx.set('Referrer-Policy', 'no-referrer');
  ctx.body = [
    '<!doctype html>',
    '<html lang="en">',
    '<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeHtml(title)} · Referee console</title>`,
    '<link rel="icon" href="/console/favicon.svg" type="image/svg+xml"></head>',
    '<body><main>',
    `<h1>${escapeHtml(title)}</h1>`,
    ...paragraphs.map((p) => `<p>${p}</p>`),
    '<p><a href="/console">Back to the console sign-in</a></p>',
    '</main></body></html>',
  ].join('\n');
}

/** A small mark for the browser's tab (no 404 for /favicon.ico in any console page's log). */
export const FAVICON_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><rect width="16" height="16" rx="3" fill="#1f4e79"/>' +
  '<path d="M4 12V4h4.5a2.5 2.5 0 0 1 0 5H6m2 0 3 3" stroke="#fff" stroke-width="1.6" fill="none"/></svg>';

/** What the console reads at start: whether a provider is offered, and who is signed in where. */
interface ConsoleAuthState {
  provider: { name: string } | null;
  signed_in: boolean;
  notice?: string;
  csrf_token?: string;
  memberships?: Array<{
    service: SessionMemberRow['service'];
    member: { id: string; username: string; display_name: string; role: SessionMemberRow['role'] };
  }>;
}

/**
 * The console's OpenID Connect sign-in (Authorization Code flow with PKCE, state and nonce, a confidential
 * client), its sessions and the favicon. Provider tokens stay in this process: the browser gets only the
 * session cookie. Without `OIDC_ISSUER` the sign-in answers 404 and the console offers API keys alone.
 */
export function signInRoutes(deps: AppDeps): PublicRoute {
  const settings = deps.config.oidc;
  const configuration = settings ? providerConfiguration(settings) : null;
  const secure = consoleIsSecure(deps.config);
  const sessionCookie = consoleCookieName(deps.config, SESSION_COOKIE);
  const signInCookie = consoleCookieName(deps.config, SIGN_IN_COOKIE);
  // Each start stores a row for ten minutes: an anonymous flood is refused per address before it writes.
  const startThrottle = new SourceThrottle({ perMinute: deps.config.consoleSession.signInStartsPerMinute });
  const audit = (rows: Parameters<typeof insertConsoleAudit>[1]) =>
    insertConsoleAudit(deps.dataSource, rows).catch((error: unknown) =>
      deps.logger.warn({ err: error }, 'could not record a console sign-in event'),
    );
  const refuseSignIn = async (
    ctx: Koa.Context,
    why: string,
    members: SessionMemberRow[],
    status: number,
    title: string,
    paragraphs: string[],
  ) => {
    deps.logger.info({ why }, 'console sign-in refused');
    const services =
      members.length > 0
        ? members
        : (['math', 'genomics'] as const).map((service) => ({ service, id: null }));
    await audit(
      services.map((m) => ({
        service: m.service,
        kind: 'console_sign_in_refused',
        memberId: m.id,
        detail: { why },
      })),
    );
    answerPage(ctx, status, title, paragraphs);
  };

  return (router: Router) => {
    const favicon = (ctx: Koa.Context) => {
      ctx.type = 'image/svg+xml';
      ctx.set('Cache-Control', 'public, max-age=86400');
      ctx.body = FAVICON_SVG;
    };
    router.get('/favicon.ico', favicon);
    router.get('/console/favicon.svg', favicon);

    router.get(`${AUTH_PATH}/state`, async (ctx) => {
      ctx.set('Cache-Control', 'no-store');
      const body: ConsoleAuthState = {
        provider: settings ? { name: settings.providerName } : null,
        signed_in: false,
      };
      const secret = soleCookie(ctx.get('cookie'), sessionCookie).value;
      const session = secret
        ? await lookupSession(deps.dataSource, hashSessionSecret(secret), null)
        : undefined;
      const end = session ? sessionEnd(session, deps.config.consoleSession.idleSeconds) : null;
      if (session && !end) {
        const members = (await membersOfSubject(deps.dataSource, session.subject)).filter((m) => m.enabled);
        if (members.length > 0) {
          body.signed_in = true;
          body.csrf_token = csrfTokenOf(secret!);
          body.memberships = members.map((m) => ({
            service: m.service,
            member: { id: m.id, username: m.username, display_name: m.display_name, role: m.role },
          }));
        } else {
          await endSession(deps.dataSource, session.id, 'no_enabled_membership');
          body.notice = 'Signed out: your membership is disabled in every service.';
        }
      } else if (session) {
        if (end !== 'ended') await endSession(deps.dataSource, session.id, end!);
        body.notice =
          end === 'ended' ? 'Signed out: the session has ended.' : 'Signed out: the session has expired.';
      }
      if (ctx.get('cookie').includes(`${sessionCookie}=`) && !body.signed_in)
        clearCookie(ctx, secure, sessionCookie, '/');
      ctx.body = body;
    });

    router.get(`${AUTH_PATH}/sign-in`, async (ctx) => {
      if (!settings || !configuration) throw problems.routeNotFound(ctx.method, ctx.path);
      const admitted = startThrottle.take(sourceAddress(ctx.req.socket.remoteAddress));
      if (!admitted.allowed) {
        deps.metrics.rateLimitRefused('console', 'sign_in_starts');
        ctx.set('Retry-After', String(admitted.retryAfterSeconds));
        answerPage(ctx, 429, 'Too many sign-ins', [
          `Too many sign-ins were started from your address just now. Try again in ${admitted.retryAfterSeconds} seconds.`,
        ]);
        return;
      }
      let provider: oidc.Configuration;
      try {
        provider = await configuration();
      } catch (error) {
        deps.logger.warn({ err: error, issuer: settings.issuer }, 'the OpenID Provider cannot be reached');
        answerPage(ctx, 503, 'The sign-in service cannot be reached', [
          `Referee could not reach ${escapeHtml(settings.providerName)} just now. Try again in a minute.`,
        ]);
        return;
      }
      const secret = randomBytes(32).toString('base64url');
      await insertSignIn(deps.dataSource, hashSessionSecret(secret), SIGN_IN_SECONDS);
      const { state, nonce, codeVerifier } = signInParameters(secret);
      const url = oidc.buildAuthorizationUrl(provider, {
        redirect_uri: settings.redirectUrl,
        scope: settings.scopes,
        state,
        nonce,
        code_challenge: await oidc.calculatePKCECodeChallenge(codeVerifier),
        code_challenge_method: 'S256',
      });
      setCookie(ctx, secure, signInCookie, secret, {
        // `/`, as the __Host- prefix requires.
        path: '/',
        maxAgeSeconds: SIGN_IN_SECONDS,
        // Lax: the provider sends the browser back with a top-level GET from its own site.
        sameSite: 'Lax',
      });
      ctx.set('Cache-Control', 'no-store');
      ctx.redirect(url.href);
    });

    router.get(`${AUTH_PATH}/callback`, async (ctx) => {
      if (!settings || !configuration) throw problems.routeNotFound(ctx.method, ctx.path);
      const { value: secret, duplicate } = soleCookie(ctx.get('cookie'), signInCookie);
      clearCookie(ctx, secure, signInCookie, '/');
      if (!secret || !(await takeSignIn(deps.dataSource, hashSessionSecret(secret)))) {
        // Anyone can send this request: counted for the audit (authFailureAudit.ts), never a write of its own.
        for (const service of ['math', 'genomics'] as const)
          deps.authFailures.record({
            service,
            kind: 'console_sign_in_refused',
            reason: duplicate ? 'duplicate_cookie' : 'no_sign_in',
            memberId: null,
            keyId: null,
            method: ctx.method,
            route: `${AUTH_PATH}/callback`,
            source: sourceAddress(ctx.req.socket.remoteAddress),
            why: duplicate
              ? 'the sign-in cookie more than once (another site set one of its name)'
              : 'no sign-in under way (used already, expired, or another browser)',
          });
        answerPage(ctx, 400, 'This sign-in is no longer valid', [
          'It was used already, took longer than ten minutes, or was started in another browser. Sign in again from the console.',
        ]);
        return;
      }
      const providerError = typeof ctx.query.error === 'string' ? ctx.query.error : null;
      if (providerError) {
        await refuseSignIn(ctx, `provider error ${providerError}`, [], 400, 'The sign-in was not completed', [
          `${escapeHtml(settings.providerName)} answered: ${escapeHtml(providerError)}.`,
        ]);
        return;
      }
      const { state, nonce, codeVerifier } = signInParameters(secret);
      let claims: oidc.IDToken | undefined;
      try {
        const current = new URL(settings.redirectUrl);
        current.search = ctx.querystring;
        const tokens = await oidc.authorizationCodeGrant(await configuration(), current, {
          pkceCodeVerifier: codeVerifier,
          expectedState: state,
          expectedNonce: nonce,
          idTokenExpected: true,
        });
        claims = tokens.claims();
      } catch (error) {
        const why = refusalReason(error);
        await refuseSignIn(ctx, `provider answer refused (${why})`, [], 400, 'The sign-in was refused', [
          `The answer from ${escapeHtml(settings.providerName)} did not pass Referee's checks, so no session was opened. Sign in again; if this repeats, tell your operator (the time is in the identity audit).`,
        ]);
        return;
      }
      if (!emailClaimVerified(claims, settings.memberClaim)) {
        await refuseSignIn(
          ctx,
          'the ID token has an email claim without email_verified true',
          [],
          403,
          'Your email address is not verified',
          [
            `${escapeHtml(settings.providerName)} has not verified the email address of your account, and Referee matches members by it. Verify the address there, or ask your operator.`,
          ],
        );
        return;
      }
      const subject = claims?.[settings.memberClaim];
      if (typeof subject !== 'string' || subject === '') {
        await refuseSignIn(
          ctx,
          `the ID token has no ${settings.memberClaim} claim`,
          [],
          403,
          'Your identity has no member name',
          [
            `The sign-in did not name you with the claim Referee matches to members (<code>${escapeHtml(settings.memberClaim)}</code>). Ask your operator.`,
          ],
        );
        return;
      }
      const members = await membersOfSubject(deps.dataSource, subject);
      const enabled = members.filter((m) => m.enabled);
      if (enabled.length === 0) {
        const disabled = members.length > 0;
        await refuseSignIn(
          ctx,
          disabled ? `member ${subject} is disabled` : `no member ${subject}`,
          members,
          403,
          disabled ? 'Your membership is disabled' : 'You are not a member of Referee',
          [
            disabled
              ? `You signed in as <code>${escapeHtml(subject)}</code>, whose membership is disabled in every service.`
              : `You signed in as <code>${escapeHtml(subject)}</code>, but no Referee service has a member with this identity.`,
            'An administrator adds or enables members (referee members sync). Signing in again changes nothing until then.',
          ],
        );
        return;
      }
      const sessionSecret = randomBytes(32).toString('base64url');
      const sessionId = randomUUID();
      await insertSession(deps.dataSource, {
        id: sessionId,
        secretHash: hashSessionSecret(sessionSecret),
        subject,
        absoluteSeconds: deps.config.consoleSession.absoluteSeconds,
      });
      await audit(
        enabled.map((m) => ({
          service: m.service,
          kind: 'console_signed_in',
          memberId: m.id,
          detail: { session_id: sessionId, issuer: settings.issuer },
        })),
      );
      // Strict: no other site's page or link ever sends it.
      setCookie(ctx, secure, sessionCookie, sessionSecret, { path: '/', sameSite: 'Strict' });
      ctx.set('Cache-Control', 'no-store');
      ctx.redirect('/console');
    });

    router.post(`${AUTH_PATH}/sign-out`, async (ctx) => {
      ctx.set('Cache-Control', 'no-store');
      const secret = soleCookie(ctx.get('cookie'), sessionCookie).value;
      const session = secret
        ? await lookupSession(deps.dataSource, hashSessionSecret(secret), null)
        : undefined;
      if (!secret || !session) {
        clearCookie(ctx, secure, sessionCookie, '/');
        ctx.body = { redirect: '/console' };
        return;
      }
      if (
        !sameOriginWrite(secret, {
          origin: ctx.get('origin') || undefined,
          csrfToken: ctx.get(CSRF_HEADER) || undefined,
          expectedOrigin: consoleOrigin(deps.config, ctx),
        })
      )
        throw problems.forbidden('Sign out from the console (same Origin and its CSRF token).');
      if (await endSession(deps.dataSource, session.id, 'signed_out')) {
        const members = await membersOfSubject(deps.dataSource, session.subject);
        await audit(
          members.map((m) => ({
            service: m.service,
            kind: 'console_signed_out',
            memberId: m.id,
            detail: { session_id: session.id },
          })),
        );
      }
      clearCookie(ctx, secure, sessionCookie, '/');
      let redirect = '/console';
      if (settings && configuration) {
        try {
          const provider = await configuration();
          // RP-initiated logout where the provider offers it: its session ends too.
          if (provider.serverMetadata().end_session_endpoint)
            redirect = oidc.buildEndSessionUrl(provider, {
              post_logout_redirect_uri: new URL('/console', settings.redirectUrl).href,
            }).href;
        } catch (error) {
          deps.logger.warn({ err: error }, 'the OpenID Provider cannot be reached; its session stays');
        }
      }
      ctx.body = { redirect };
    });
  };
}
