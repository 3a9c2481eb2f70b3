import type Koa from 'koa';
import * as oidc from 'openid-client';
import { endSession, lookupSession, membersOfSubject } from '../../../access/consoleSessionsQueries';
import {
  consoleOrigin,
  CSRF_HEADER,
  hashSessionSecret,
  sameOriginWrite,
  soleCookie,
} from '../../kernel/consoleSession';
import { problems } from '../../kernel/errors';
import { clearCookie } from './answers';
import type { SignIn } from './context';

/** `POST /console/auth/sign-out`: ends the session (a same-origin write) and says where the browser goes next. */
export const signOutRoute = (signIn: SignIn) => async (ctx: Koa.Context) => {
  const { deps, sessionCookie } = signIn;
  ctx.set('Cache-Control', 'no-store');
  const secret = soleCookie(ctx.get('cookie'), sessionCookie).value;
  const session = secret ? await lookupSession(deps.dataSource, hashSessionSecret(secret), null) : undefined;
  if (!secret || !session) {
    clearCookie(ctx, { name: sessionCookie, secure: signIn.secure });
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
    await signIn.audit(
      members.map((m) => ({
        service: m.service,
        kind: 'console_signed_out',
        memberId: m.id,
        detail: { session_id: session.id },
      })),
    );
  }
  clearCookie(ctx, { name: sessionCookie, secure: signIn.secure });
  ctx.body = { redirect: await afterSignOut(signIn) };
};

/** The provider's end-session page where it offers one (its session ends too), else the console. */
async function afterSignOut(signIn: SignIn): Promise<string> {
  if (!signIn.oidc) return '/console';
  try {
    const provider = await signIn.oidc.configuration();
    // RP-initiated logout where the provider offers it: its session ends too.
    if (provider.serverMetadata().end_session_endpoint)
      return oidc.buildEndSessionUrl(provider, {
        post_logout_redirect_uri: new URL('/console', signIn.oidc.settings.redirectUrl).href,
      }).href;
  } catch (error) {
    signIn.deps.logger.warn({ err: error }, 'the OpenID Provider cannot be reached; its session stays');
  }
  return '/console';
}
