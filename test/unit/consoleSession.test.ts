import { signInParameters } from '../../api/console/signIn';
import { cookieOf, csrfTokenOf, sameOriginWrite, sessionEnd } from '../../api/kernel/consoleSession';
import { loadConfig } from '../../config';

describe('console sessions', () => {
  it('reads one cookie among several', () => {
    expect(cookieOf('a=1; referee_session=abc; b=2', 'referee_session')).toBe('abc');
    expect(cookieOf('referee_session_x=abc', 'referee_session')).toBeNull();
    expect(cookieOf('referee_session=', 'referee_session')).toBeNull();
    expect(cookieOf(undefined, 'referee_session')).toBeNull();
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
    expect(config.consoleSession).toEqual({ idleSeconds: 3600, absoluteSeconds: 43_200 });
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
