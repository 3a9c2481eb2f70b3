import { createHash } from 'node:crypto';
import * as oidc from 'openid-client';
import type { Config } from '../../../config';

export type OidcSettings = NonNullable<Config['oidc']>;

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
export function refusalReason(error: unknown): string {
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

/** The provider's configuration, discovered at the first sign-in and kept; a failure is retried next time. */
export function providerConfiguration(settings: OidcSettings): () => Promise<oidc.Configuration> {
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
