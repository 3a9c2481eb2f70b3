import Koa from 'koa';
import { emailClaimVerified, signInParameters } from '../../api/console/signIn/provider';
import {
  consoleCookieName,
  consoleOrigin,
  csrfTokenOf,
  sameOriginWrite,
  sessionEnd,
  soleCookie,
} from '../../api/kernel/consoleSession';
import { loadConfig } from '../../config';

describe('console sessions', () => {
  it('reads one cookie among several', () => {
    const one = (header: string | undefined) => soleCookie(header, 'referee_session');
    expect(one('a=1; referee_session=abc; b=2')).toEqual({ value: 'abc', duplicate: false });
    expect(one('referee_session_x=abc').value).toBeNull();
    expect(one('referee_session=').value).toBeNull();
    expect(one(undefined).value).toBeNull();
  });

  it('refuses a cookie sent twice (another site tossed one of its name), never taking the first', () => {
    expect(soleCookie('referee_session=tossed; referee_session=mine', 'referee_session')).toEqual({
      value: null,
      duplicate: true,
    });
    expect(soleCookie('referee_session=a; referee_session=', 'referee_session').duplicate).toBe(true);
  });

  it('names the cookies __Host- over https, where a sibling subdomain cannot set them', () => {
    const oidc = (redirect: string) =>
      loadConfig({
        OIDC_ISSUER: 'https://idp.example.org',
        OIDC_CLIENT_ID: 'referee',
        OIDC_CLIENT_SECRET: 'secret',
        OIDC_REDIRECT_URL: `${redirect}/console/auth/callback`,
      });
    expect(consoleCookieName(oidc('https://referee.example.org'), 'referee_session')).toBe(
      '__Host-referee_session',
    );
    expect(consoleCookieName(oidc('http://127.0.0.1:3000'), 'referee_session')).toBe('referee_session');
    expect(consoleCookieName(loadConfig({}), 'referee_session')).toBe('referee_session');
  });

  it('takes a write only from the console origin with the session’s own CSRF token', () => {
    const expectedOrigin = 'https://referee.example.org';
    const csrfToken = csrfTokenOf('secret');
    expect(sameOriginWrite('secret', { origin: expectedOrigin, csrfToken, expectedOrigin })).toBe(true);
    expect(sameOriginWrite('secret', { origin: 'https://evil.example', csrfToken, expectedOrigin })).toBe(
      false,
    );
    expect(sameOriginWrite('secret', { origin: undefined, csrfToken, expectedOrigin })).toBe(false);
    expect(sameOriginWrite('secret', { origin: expectedOrigin, csrfToken: undefined, expectedOrigin })).toBe(
      false,
    );
    expect(sameOriginWrite('other', { origin: expectedOrigin, csrfToken, expectedOrigin })).toBe(false);
  });

  it('ends a session that was ended, is past its absolute lifetime, or idle too long', () => {
    const now = Date.parse('2026-01-01T12:00:00Z');
    const open = { ended_at: null, expires_at: new Date(now + 1000), idle_seconds: 10 };
    expect(sessionEnd(open, 3600, now)).toBeNull();
    expect(sessionEnd({ ...open, ended_at: new Date(now) }, 3600, now)).toBe('ended');
    expect(sessionEnd({ ...open, expires_at: new Date(now) }, 3600, now)).toBe('expired');
    expect(sessionEnd({ ...open, idle_seconds: 3600 }, 3600, now)).toBe('idle');
  });

  it('derives distinct state, nonce and PKCE verifier from each sign-in secret', () => {
    const a = signInParameters('one');
    const b = signInParameters('two');
    expect(new Set([a.state, a.nonce, a.codeVerifier]).size).toBe(3);
    expect(a.state).not.toBe(b.state);
    // RFC 7636: 43 to 128 unreserved characters.
    expect(a.codeVerifier).toMatch(/^[A-Za-z0-9._~-]{43,128}$/);
  });

  it('needs the client and redirect URL with an issuer, and defaults the member claim to sub', () => {
    expect(loadConfig({}).oidc).toBeUndefined();
    expect(() => loadConfig({ OIDC_ISSUER: 'https://idp.example.org' })).toThrow(/OIDC_CLIENT_ID/);
    const config = loadConfig({
      OIDC_ISSUER: 'https://idp.example.org',
      OIDC_CLIENT_ID: 'referee',
      OIDC_CLIENT_SECRET: 's',
      OIDC_REDIRECT_URL: 'https://referee.example.org/console/auth/callback',
    });
    expect(config.oidc).toMatchObject({ memberClaim: 'sub', scopes: 'openid' });
    expect(config.consoleSession).toEqual({
      idleSeconds: 3600,
      absoluteSeconds: 43_200,
      signInStartsPerMinute: 20,
    });
    expect(config.identityAudit).toEqual({ failureIntervalMs: 10_000, retentionDays: 365 });
    expect(() =>
      loadConfig({
        OIDC_ISSUER: 'https://idp.example.org',
        OIDC_CLIENT_ID: 'referee',
        OIDC_CLIENT_SECRET: 's',
        OIDC_REDIRECT_URL: 'https://referee.example.org/elsewhere',
      }),
    ).toThrow(/\/console\/auth\/callback/);
  });
});

describe('the member claim', () => {
  it('takes an email claim only with email_verified true', () => {
    expect(emailClaimVerified({ email: 'ada@example.org', email_verified: true }, 'email')).toBe(true);
    expect(emailClaimVerified({ email: 'ada@example.org', email_verified: false }, 'email')).toBe(false);
    expect(emailClaimVerified({ email: 'ada@example.org' }, 'email')).toBe(false);
    // A string "true" is not the boolean the claim is defined as (OpenID Connect Core 5.1).
    expect(emailClaimVerified({ email: 'ada@example.org', email_verified: 'true' }, 'email')).toBe(false);
    expect(emailClaimVerified(undefined, 'email')).toBe(false);
    expect(emailClaimVerified({ sub: 'idp|ada' }, 'sub')).toBe(true);
  });

  it("takes the console's origin from the request's host without a provider, never from its Origin header", async () => {
    const app = new Koa();
    app.use((ctx) => {
      ctx.body = consoleOrigin(loadConfig({}), ctx);
    });
    const server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    try {
      const { port } = server.address() as { port: number };
      const response = await fetch(`http://127.0.0.1:${port}/`, {
        headers: { origin: 'https://evil.example' },
      });
      expect(await response.text()).toBe(`http://127.0.0.1:${port}`);
    } finally {
      server.close();
    }
  });
});
