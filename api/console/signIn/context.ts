import type Koa from 'koa';
import type * as oidc from 'openid-client';
import { insertConsoleAudit, type SessionMemberRow } from '../../../access/consoleSessionsQueries';
import {
  consoleCookieName,
  consoleIsSecure,
  SESSION_COOKIE,
  SIGN_IN_COOKIE,
} from '../../kernel/consoleSession';
import type { AppDeps } from '../../kernel/deps';
import { problems } from '../../kernel/errors';
import { SourceThrottle } from '../../kernel/sourceThrottle';
import { type AnswerPage, answerPage } from './answers';
import { type OidcSettings, providerConfiguration } from './provider';

export const AUTH_PATH = '/console/auth';

/** A sign-in that opens no session: why (for the log and the identity audit), whom it names, and the page. */
export interface Refusal extends AnswerPage {
  why: string;
  /** The members the identity names, disabled ones too; none: the refusal is audited in both services. */
  members?: SessionMemberRow[];
}

/** What every sign-in route shares: the settings, the provider, the cookies' names, the audit and the refusal. */
export interface SignIn {
  deps: AppDeps;
  /** The provider's settings and configuration; none without `OIDC_ISSUER`. */
  oidc: { settings: OidcSettings; configuration: () => Promise<oidc.Configuration> } | null;
  secure: boolean;
  sessionCookie: string;
  signInCookie: string;
  /** Each start stores a row for ten minutes: an anonymous flood is refused per address before it writes. */
  startThrottle: SourceThrottle;
  audit(rows: Parameters<typeof insertConsoleAudit>[1]): Promise<void>;
  refuse(ctx: Koa.Context, refusal: Refusal): Promise<void>;
}

export function signInOf(deps: AppDeps): SignIn {
  const settings = deps.config.oidc;
  const audit = async (rows: Parameters<typeof insertConsoleAudit>[1]) => {
    await insertConsoleAudit(deps.dataSource, rows).catch((error: unknown) =>
      deps.logger.warn({ err: error }, 'could not record a console sign-in event'),
    );
  };
  return {
    deps,
    oidc: settings ? { settings, configuration: providerConfiguration(settings) } : null,
    secure: consoleIsSecure(deps.config),
    sessionCookie: consoleCookieName(deps.config, SESSION_COOKIE),
    signInCookie: consoleCookieName(deps.config, SIGN_IN_COOKIE),
    startThrottle: new SourceThrottle({ perMinute: deps.config.consoleSession.signInStartsPerMinute }),
    audit,
    async refuse(ctx, { why, members = [], ...page }) {
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
      answerPage(ctx, page);
    },
  };
}

/** The provider, or a 404 when none is configured (the console offers API keys alone). */
export function providerOrNotFound(signIn: SignIn, ctx: Koa.Context): NonNullable<SignIn['oidc']> {
  if (!signIn.oidc) throw problems.routeNotFound(ctx.method, ctx.path);
  return signIn.oidc;
}
