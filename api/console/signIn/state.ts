import type Koa from 'koa';
import {
  endSession,
  lookupSession,
  membersOfSubject,
  type SessionMemberRow,
} from '../../../access/consoleSessionsQueries';
import { csrfTokenOf, hashSessionSecret, sessionEnd, soleCookie } from '../../kernel/consoleSession';
import { clearCookie } from './answers';
import type { SignIn } from './context';

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

/** `GET /console/auth/state`: the session's memberships, or why it ended (and it is ended, if it was not). */
export const authStateRoute = (signIn: SignIn) => async (ctx: Koa.Context) => {
  const { deps, sessionCookie } = signIn;
  ctx.set('Cache-Control', 'no-store');
  const body: ConsoleAuthState = {
    provider: signIn.oidc ? { name: signIn.oidc.settings.providerName } : null,
    signed_in: false,
  };
  const secret = soleCookie(ctx.get('cookie'), sessionCookie).value;
  const session = secret ? await lookupSession(deps.dataSource, hashSessionSecret(secret), null) : undefined;
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
    clearCookie(ctx, { name: sessionCookie, secure: signIn.secure });
  ctx.body = body;
};
