/**
 * The development OpenID Provider of `npm start` (DEVELOPMENT ONLY): a real provider (`oidc-provider`) on
 * loopback whose accounts are the demo members, so a newcomer signs in to the console as Ada, Olga or Rui with one
 * click. It keeps its keys and sessions under `stateDir` (launcher/devIdentityStore.ts), has no passwords, and runs
 * only when no OIDC_ISSUER is configured; the
 * image never contains it (oidc-provider is a development dependency). Run as a script it prints its issuer as a
 * JSON line on stdout (the browser tests start it so).
 */
import { createPrivateKey, type KeyObject, randomBytes, sign } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import type { ClientMetadata, Configuration, KoaContextWithOIDC } from 'oidc-provider';
import { projectRoot } from '../infra/paths';
import { devAdapter, loadOrCreateKeys } from './devIdentityStore';

export interface DevAccount {
  /** The member's `identity_id`, the provider's `sub`. */
  id: string;
  name: string;
  email: string | null;
  username: string;
  /** The member's roles by service, shown on the sign-in buttons. */
  roles: string;
}

export interface DevIdentityProvider {
  issuer: string;
  clientId: string;
  clientSecret: string;
  accounts: DevAccount[];
  close(): Promise<void>;
}

export const DEV_CLIENT_ID = 'referee-console';

interface DemoMember {
  identity_id: string;
  username: string;
  display_name: string;
  email: string | null;
  role: string;
  enabled: boolean;
}

/** The demo members (demo/members.json) as accounts: one per identity, with its role in each service. */
export function demoAccounts(): DevAccount[] {
  const demo = JSON.parse(readFileSync(join(projectRoot, 'demo', 'members.json'), 'utf8')) as Record<
    string,
    DemoMember[]
  >;
  const accounts = new Map<string, DevAccount>();
  for (const [service, members] of Object.entries(demo)) {
    for (const m of members) {
      const account = accounts.get(m.identity_id) ?? {
        id: m.identity_id,
        name: m.display_name,
        email: m.email,
        username: m.username,
        roles: '',
      };
      account.roles = [account.roles, `${m.role.toLowerCase()} in ${service}`].filter(Boolean).join(', ');
      accounts.set(m.identity_id, account);
    }
  }
  return [...accounts.values()];
}

/**
 * Tests only: with `foreignAudience` set, a sign-in that asks for this scope gets an ID token for that audience
 * instead of its own client, signed with the provider's key like any other.
 */
export const FOREIGN_AUDIENCE_SCOPE = 'test_foreign_audience';

/** The ID token again with `aud` replaced, signed anew (RS256) with the provider's own key. */
function withAudience(idToken: string, audience: string, key: KeyObject): string {
  const [header, payload] = idToken.split('.');
  const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Record<string, unknown>;
  const signed = `${header}.${Buffer.from(JSON.stringify({ ...claims, aud: audience })).toString('base64url')}`;
  return `${signed}.${sign('sha256', Buffer.from(signed), key).toString('base64url')}`;
}

const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  );

const page = (title: string, body: string) =>
  [
    '<!doctype html><html lang="en"><head><meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeHtml(title)}</title></head><body><main>`,
    `<h1>${escapeHtml(title)}</h1>`,
    '<p><strong>Development only.</strong> This provider runs with <code>npm start</code> and signs anyone in as a demo member, without a password.</p>',
    body,
    '</main></body></html>',
  ].join('\n');

/** A page of this provider; its forms post here, and the answer redirects on to the console (`redirectOrigin`). */
function send(res: ServerResponse, status: number, html: string, redirectOrigin: string): void {
  res.statusCode = status;
  res.setHeader('Content-Type', 'text/html; charset=utf-8');
  res.setHeader('Cache-Control', 'no-store');
  res.setHeader(
    'Content-Security-Policy',
    `default-src 'none'; form-action 'self' ${redirectOrigin}; frame-ancestors 'none'`,
  );
  res.end(html);
}

async function readForm(req: IncomingMessage): Promise<URLSearchParams> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > 16 * 1024) throw new Error('form too large');
    chunks.push(chunk as Buffer);
  }
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}

/**
 * Starts the provider on 127.0.0.1:`port` (0: any free port) with one confidential client, the console, sending
 * people back to `redirectUrl`. `extraClientIds` registers more clients alike (tests use one to get a code
 * issued to another client); `foreignAudience` makes sign-ins asking for FOREIGN_AUDIENCE_SCOPE get ID tokens
 * for that audience (tests show the console refuses them).
 */
export async function startDevIdentityProvider(options: {
  port: number;
  redirectUrl: string;
  postLogoutRedirectUrl: string;
  clientSecret?: string;
  extraClientIds?: string[];
  foreignAudience?: string;
  /** Where keys and sessions outlive a restart; without it they live in this process. */
  stateDir?: string;
}): Promise<DevIdentityProvider> {
  const { default: Provider } = await import('oidc-provider');
  const accounts = demoAccounts();
  const clientSecret = options.clientSecret ?? randomBytes(32).toString('base64url');
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(options.port, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const keys = loadOrCreateKeys(options.stateDir);
  const signingKey = keys.signingKey;
  const privateKey = createPrivateKey({ key: signingKey as never, format: 'jwk' });
  const client = (clientId: string): ClientMetadata => ({
    client_id: clientId,
    client_secret: clientSecret,
    client_name: 'Referee console',
    redirect_uris: [options.redirectUrl],
    post_logout_redirect_uris: [options.postLogoutRedirectUrl],
    response_types: ['code'],
    grant_types: ['authorization_code'],
    token_endpoint_auth_method: 'client_secret_basic',
  });
  const configuration: Configuration = {
    clients: [DEV_CLIENT_ID, ...(options.extraClientIds ?? [])].map(client),
    jwks: { keys: [{ ...signingKey, kid: 'dev-1', alg: 'RS256', use: 'sig' }] as never },
    cookies: { keys: keys.cookieKeys },
    adapter: devAdapter(options.stateDir),
    claims: { openid: ['sub'], email: ['email'], profile: ['name', 'preferred_username'] },
    scopes: ['openid', 'offline_access', ...(options.foreignAudience ? [FOREIGN_AUDIENCE_SCOPE] : [])],
    pkce: { required: () => true },
    findAccount: (_ctx, id) => {
      const account = accounts.find((a) => a.id === id);
      if (!account) return undefined;
      return {
        accountId: id,
        claims: () => ({
          sub: id,
          name: account.name,
          preferred_username: account.username,
          ...(account.email ? { email: account.email } : {}),
        }),
      };
    },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    features: {
      devInteractions: { enabled: false },
      rpInitiatedLogout: {
        enabled: true,
        logoutSource: (ctx: KoaContextWithOIDC, form: string) => {
          ctx.type = 'html';
          ctx.body = page(
            'Sign out of the development provider',
            `${form}<button type="submit" form="op.logoutForm" name="logout" value="yes">Sign out</button>`,
          );
        },
      },
    },
    renderError: (ctx, out) => {
      ctx.type = 'html';
      ctx.body = page(
        'Sign-in error',
        `<p>${escapeHtml(String(out.error))}: ${escapeHtml(String(out.error_description ?? ''))}</p>`,
      );
    },
  };
  const provider = new Provider(issuer, configuration);
  const { foreignAudience } = options;
  if (foreignAudience) {
    provider.use(async (ctx, next) => {
      await next();
      const body = ctx.body as { id_token?: unknown } | undefined;
      const scope = ctx.oidc?.entities.AuthorizationCode?.scope?.split(' ') ?? [];
      if (
        ctx.oidc?.route === 'token' &&
        typeof body?.id_token === 'string' &&
        scope.includes(FOREIGN_AUDIENCE_SCOPE)
      )
        ctx.body = { ...body, id_token: withAudience(body.id_token, foreignAudience, privateKey) };
    });
  }
  const callback = provider.callback();
  const redirectOrigin = new URL(options.redirectUrl).origin;

  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    const path = new URL(req.url ?? '/', issuer).pathname;
    const interaction = /^\/interaction\/([A-Za-z0-9_-]+)(\/login)?$/.exec(path);
    if (!interaction) {
      callback(req, res);
      return;
    }
    void (async () => {
      try {
        const details = await provider.interactionDetails(req, res);
        if (details.prompt.name === 'login' && req.method === 'POST' && interaction[2]) {
          const accountId = (await readForm(req)).get('account');
          if (!accountId || !accounts.some((a) => a.id === accountId)) {
            send(res, 400, page('Unknown account', '<p>Choose one of the demo members.</p>'), redirectOrigin);
            return;
          }
          await provider.interactionFinished(
            req,
            res,
            { login: { accountId } },
            { mergeWithLastSubmission: false },
          );
        } else if (details.prompt.name === 'login') {
          const buttons = accounts
            .map(
              (a) =>
                `<form method="post" action="/interaction/${details.uid}/login">` +
                `<input type="hidden" name="account" value="${escapeHtml(a.id)}">` +
                `<button type="submit">Sign in as ${escapeHtml(a.name)}</button> ` +
                `<span>${escapeHtml(a.id)}: ${escapeHtml(a.roles)}</span></form>`,
            )
            .join('\n');
          send(res, 200, page('Sign in to Referee (development provider)', buttons), redirectOrigin);
        } else {
          // Consent: the console is this provider's only client, so what it asks for is granted.
          const grant = new provider.Grant({
            accountId: details.session!.accountId,
            clientId: details.params.client_id as string,
          });
          grant.addOIDCScope(String(details.params.scope));
          const grantId = await grant.save();
          await provider.interactionFinished(
            req,
            res,
            { consent: { grantId } },
            { mergeWithLastSubmission: true },
          );
        }
      } catch (error) {
        send(
          res,
          400,
          page(
            'Sign-in error',
            `<p>${escapeHtml(error instanceof Error ? error.message : String(error))}</p>`,
          ),
          redirectOrigin,
        );
      }
    })();
  });

  return {
    issuer,
    clientId: DEV_CLIENT_ID,
    clientSecret,
    accounts,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

if (require.main === module) {
  const redirectUrl = process.env.DEV_OIDC_REDIRECT_URL!;
  startDevIdentityProvider({
    port: Number(process.env.DEV_OIDC_PORT ?? 0),
    redirectUrl,
    postLogoutRedirectUrl: new URL('/console', redirectUrl).href,
    clientSecret: process.env.DEV_OIDC_CLIENT_SECRET,
    extraClientIds: process.env.DEV_OIDC_EXTRA_CLIENTS?.split(',').filter(Boolean),
    foreignAudience: process.env.DEV_OIDC_FOREIGN_AUDIENCE || undefined,
    stateDir: process.env.DEV_OIDC_STATE_DIR || undefined,
  }).then(
    (provider) => {
      process.stdout.write(`${JSON.stringify({ issuer: provider.issuer, clientId: provider.clientId })}\n`);
      process.once('SIGTERM', () => void provider.close().then(() => process.exit(0)));
    },
    (error: unknown) => {
      console.error('development identity provider failed to start:', error);
      process.exit(1);
    },
  );
}
