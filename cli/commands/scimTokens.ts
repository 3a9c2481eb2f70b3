import { defineCommand } from '../kernel/command';

export const scimTokensCreate = defineCommand({
  name: 'scim-tokens create',
  summary: "Create a provisioning token for the identity service's SCIM client; printed once.",
  details: [
    'It is valid for /scim/v2 only (no API key or console session reaches SCIM, and it reaches nothing else);',
    'only a hash of it is kept. See docs/provisioning.md for where Okta, Entra ID and Keycloak take it.',
  ],
  options: {
    name: {
      type: 'string',
      value: 'name',
      summary:
        'What the token is for, e.g. "okta" (shown by "scim-tokens list"; default: "identity service").',
    },
  },
  positionals: [],
  run: async (ctx, input): Promise<void> =>
    (await import('../handlers/scimTokens')).scimTokensCreate(ctx, input),
});

export const scimTokensList = defineCommand({
  name: 'scim-tokens list',
  summary: 'List provisioning tokens (never their secrets), newest first, with their state and last use.',
  options: {},
  positionals: [],
  run: async (ctx) => (await import('../handlers/scimTokens')).scimTokensList(ctx),
});

export const scimTokensRevoke = defineCommand({
  name: 'scim-tokens revoke',
  summary: 'Revoke a provisioning token; SCIM refuses it from its next request on, in every API process.',
  details: ['Revoking a revoked token changes nothing.'],
  options: {},
  positionals: [
    {
      name: 'token-id',
      summary: "The token's id (a UUID).",
      required: true,
      hint: 'see "referee scim-tokens list"',
    },
  ],
  run: async (ctx, input): Promise<void> =>
    (await import('../handlers/scimTokens')).scimTokensRevoke(ctx, input),
});
