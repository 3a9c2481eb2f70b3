import { randomBytes, randomUUID } from 'node:crypto';
import type Koa from 'koa';
import * as oidc from 'openid-client';
import {
  insertSession,
  membersOfSubject,
  type SessionMemberRow,
  takeSignIn,
} from '../../../access/consoleSessionsQueries';
import { sourceAddress } from '../../kernel/authFailureAudit';
import { hashSessionSecret, soleCookie } from '../../kernel/consoleSession';
import { answerPage, clearCookie, escapeHtml, setCookie } from './answers';
import { AUTH_PATH, providerOrNotFound, type Refusal, type SignIn } from './context';
import { emailClaimVerified, refusalReason, signInParameters } from './provider';

/** Whom the provider's answer names, and their enabled members (one at least). */
interface Identity {
  subject: string;
  enabled: SessionMemberRow[];
}

/**
 * `GET /console/auth/callback`: the provider's answer to a sign-in under way. Its code is exchanged for the ID
 * token, whose member claim names the members; a session opens when one of them is enabled.
 */
export const signInCallbackRoute = (signIn: SignIn) => async (ctx: Koa.Context) => {
  providerOrNotFound(signIn, ctx);
  const secret = await signInUnderWay(signIn, ctx);
  if (!secret) return;
  const identity = await identify(signIn, ctx, secret);
  if ('why' in identity) {
    await signIn.refuse(ctx, identity);
    return;
  }
  await openSession(signIn, ctx, identity);
};

/**
 * The sign-in cookie's secret when it names a sign-in under way (taken now, so once only); else the answer page,
 * and null. The cookie is cleared either way.
 */
async function signInUnderWay(signIn: SignIn, ctx: Koa.Context): Promise<string | null> {
  const { deps } = signIn;
  const { value: secret, duplicate } = soleCookie(ctx.get('cookie'), signIn.signInCookie);
  clearCookie(ctx, { name: signIn.signInCookie, secure: signIn.secure });
  if (secret && (await takeSignIn(deps.dataSource, hashSessionSecret(secret)))) return secret;
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
  answerPage(ctx, {
    status: 400,
    title: 'This sign-in is no longer valid',
    paragraphs: [
      'It was used already, took longer than ten minutes, or was started in another browser. Sign in again from the console.',
    ],
  });
  return null;
}

/** Who the provider's answer names, with their enabled members; or why no session opens. */
async function identify(signIn: SignIn, ctx: Koa.Context, secret: string): Promise<Refusal | Identity> {
  const { settings, configuration } = providerOrNotFound(signIn, ctx);
  const name = escapeHtml(settings.providerName);
  const providerError = typeof ctx.query.error === 'string' ? ctx.query.error : null;
  if (providerError)
    return {
      why: `provider error ${providerError}`,
      status: 400,
      title: 'The sign-in was not completed',
      paragraphs: [`${name} answered: ${escapeHtml(providerError)}.`],
    };
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
    return {
      why: `provider answer refused (${refusalReason(error)})`,
      status: 400,
      title: 'The sign-in was refused',
      paragraphs: [
        `The answer from ${name} did not pass Referee's checks, so no session was opened. Sign in again; if this repeats, tell your operator (the time is in the identity audit).`,
      ],
    };
  }
  if (!emailClaimVerified(claims, settings.memberClaim))
    return {
      why: 'the ID token has an email claim without email_verified true',
      status: 403,
      title: 'Your email address is not verified',
      paragraphs: [
        `${name} has not verified the email address of your account, and Referee matches members by it. Verify the address there, or ask your operator.`,
      ],
    };
  const subject = claims?.[settings.memberClaim];
  if (typeof subject !== 'string' || subject === '')
    return {
      why: `the ID token has no ${settings.memberClaim} claim`,
      status: 403,
      title: 'Your identity has no member name',
      paragraphs: [
        `The sign-in did not name you with the claim Referee matches to members (<code>${escapeHtml(settings.memberClaim)}</code>). Ask your operator.`,
      ],
    };
  const members = await membersOfSubject(signIn.deps.dataSource, subject);
  const enabled = members.filter((m) => m.enabled);
  return enabled.length > 0 ? { subject, enabled } : notAMember(subject, members);
}

/** The refusal of an identity with no enabled member: none at all, or every one disabled. */
function notAMember(subject: string, members: SessionMemberRow[]): Refusal {
  const disabled = members.length > 0;
  const you = `You signed in as <code>${escapeHtml(subject)}</code>`;
  return {
    why: disabled ? `member ${subject} is disabled` : `no member ${subject}`,
    members,
    status: 403,
    title: disabled ? 'Your membership is disabled' : 'You are not a member of Referee',
    paragraphs: [
      disabled
        ? `${you}, whose membership is disabled in every service.`
        : `${you}, but no Referee service has a member with this identity.`,
      'An administrator adds or enables members (referee members sync). Signing in again changes nothing until then.',
    ],
  };
}

/** Opens the session of `subject`, audits it in each service it is a member of, and sends the browser home. */
async function openSession(signIn: SignIn, ctx: Koa.Context, { subject, enabled }: Identity): Promise<void> {
  const { deps } = signIn;
  const { settings } = providerOrNotFound(signIn, ctx);
  const sessionSecret = randomBytes(32).toString('base64url');
  const sessionId = randomUUID();
  await insertSession(deps.dataSource, {
    id: sessionId,
    secretHash: hashSessionSecret(sessionSecret),
    subject,
    absoluteSeconds: deps.config.consoleSession.absoluteSeconds,
  });
  await signIn.audit(
    enabled.map((m) => ({
      service: m.service,
      kind: 'console_signed_in',
      memberId: m.id,
      detail: { session_id: sessionId, issuer: settings.issuer },
    })),
  );
  // Strict: no other site's page or link ever sends it.
  setCookie(ctx, {
    name: signIn.sessionCookie,
    value: sessionSecret,
    secure: signIn.secure,
    path: '/',
    sameSite: 'Strict',
  });
  ctx.set('Cache-Control', 'no-store');
  ctx.redirect('/console');
}
