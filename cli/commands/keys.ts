import { ROLES } from '../../entities/types';
import { defineCommand } from '../kernel/command';
import { serviceFilter, serviceRequired } from './options';

export const keysCreate = defineCommand({
  name: 'keys create',
  summary: 'Mint an API key for a member; the token is printed once.',
  details: [
    'The member is named by its identity id (the "identity_id" of "members list", e.g. "idp|ada").',
    "The role defaults to the member's and cannot exceed it. This is how the first admin gets in.",
  ],
  options: {
    service: serviceRequired,
    member: { type: 'string', value: 'identity_id', required: true, summary: "The member's identity id." },
    name: { type: 'string', value: 'name', summary: 'A name for the key (default: "ops key for <member>").' },
    role: {
      type: 'string',
      value: 'role',
      choices: ROLES,
      summary: "The key's role (default: the member's).",
    },
    scopes: {
      type: 'string',
      value: 'scope,scope',
      summary: 'The scopes, comma-separated (default: every scope); an empty or unknown scope is refused.',
    },
    'expires-in-days': {
      type: 'integer',
      value: 'days',
      min: 1,
      max: 365,
      default: 90,
      summary: 'Days until the key expires.',
    },
  },
  positionals: [],
  run: async (ctx, input): Promise<void> => (await import('../handlers/keys')).keysCreate(ctx, input),
});

export const keysList = defineCommand({
  name: 'keys list',
  summary: 'List keys (never their secrets), newest first, with their state.',
  options: { service: serviceFilter },
  positionals: [],
  run: async (ctx, input): Promise<void> => (await import('../handlers/keys')).keysList(ctx, input),
});

export const keysRevoke = defineCommand({
  name: 'keys revoke',
  summary: 'Revoke a key; the API refuses it from its next request on.',
  details: ['Revoking a revoked key changes nothing.'],
  options: {},
  positionals: [
    { name: 'key-id', summary: "The key's id (a UUID).", required: true, hint: 'see "referee keys list"' },
  ],
  run: async (ctx, input): Promise<void> => (await import('../handlers/keys')).keysRevoke(ctx, input),
});
