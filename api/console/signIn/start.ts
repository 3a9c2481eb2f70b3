import { randomBytes } from 'node:crypto';
import type Koa from 'koa';
import * as oidc from 'openid-client';
import { insertSignIn } from '../../../access/consoleSessionsQueries';
import { sourceAddress } from '../../kernel/authFailureAudit';
import { hashSessionSecret } from '../../kernel/consoleSession';
import { answerPage, escapeHtml, setCookie } from './answers';
import { providerOrNotFound, type SignIn } from './context';
import { signInParameters } from './provider';

/** How long a person may take at the provider. */
const SIGN_IN_SECONDS = 600;

/** `GET /console/auth/sign-in`: a sign-in row and its cookie, then the redirect to the provider. */
export const signInStartRoute = (signIn: SignIn) => async (ctx: Koa.Context) => {
  const { deps } = signIn;
  const { settings, configuration } = providerOrNotFound(signIn, ctx);
  const admitted = signIn.startThrottle.take(sourceAddress(ctx.req.socket.remoteAddress));
  if (!admitted.allowed) {
    deps.metrics.rateLimitRefused('console', 'sign_in_starts');
    ctx.set('Retry-After', String(admitted.retryAfterSeconds));
    answerPage(ctx, {
      status: 429,
      title: 'Too many sign-ins',
      paragraphs: [
        `Too many sign-ins were started from your address just now. Try again in ${admitted.retryAfterSeconds} seconds.`,
      ],
    });
    return;
  }
  let provider: oidc.Configuration;
  try {
    provider = await configuration();
  } catch (error) {
    deps.logger.warn({ err: error, issuer: settings.issuer }, 'the OpenID Provider cannot be reached');
    answerPage(ctx, {
      status: 503,
      title: 'The sign-in service cannot be reached',
      paragraphs: [
        `Referee could not reach ${escapeHtml(settings.providerName)} just now. Try again in a minute.`,
      ],
    });
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
  setCookie(ctx, {
    name: signIn.signInCookie,
    value: secret,
    secure: signIn.secure,
    // `/`, as the __Host- prefix requires.
    path: '/',
    maxAgeSeconds: SIGN_IN_SECONDS,
    // Lax: the provider sends the browser back with a top-level GET from its own site.
    sameSite: 'Lax',
  });
  ctx.set('Cache-Control', 'no-store');
  ctx.redirect(url.href);
};
