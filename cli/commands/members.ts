import { defineCommand } from '../kernel/command';
import { serviceFilter } from './options';

const memberFile = {
  name: 'file',
  summary: 'JSON {"math": [...], "genomics": [...]} (example: demo/members.json).',
  required: true,
  hint: 'JSON: {"math": [...], "genomics": [...]}',
} as const;

export const membersList = defineCommand({
  name: 'members list',
  summary: 'List members with role, state and active key count.',
  options: { service: serviceFilter },
  positionals: [],
  run: async (ctx, input): Promise<void> => (await import('../handlers/members')).membersList(ctx, input),
});

export const membersUpsert = defineCommand({
  name: 'members upsert',
  summary: 'Add the members in <file> and update changed ones; disables nobody.',
  options: {},
  positionals: [memberFile],
  run: async (ctx, input): Promise<void> => (await import('../handlers/members')).membersUpsert(ctx, input),
});

export const membersSync = defineCommand({
  name: 'members sync',
  summary: 'Make the members equal <file>: also disables every member absent from it.',
  details: [
    "Use it with the identity service's full export; a disabled member's keys stop working.",
    'A service absent from the file is left alone.',
  ],
  options: {
    'dry-run': {
      type: 'boolean',
      summary: 'Print who would be created, changed and disabled; change nothing.',
    },
  },
  positionals: [memberFile],
  run: async (ctx, input): Promise<void> => (await import('../handlers/members')).membersSync(ctx, input),
});

export const membersEndSessions = defineCommand({
  name: 'members end-sessions',
  summary: "End every console session of an identity at once (the person's browsers are signed out).",
  details: [
    'Their next request with the session is refused in every API process; signing in again opens a new one.',
  ],
  options: {},
  positionals: [
    {
      name: 'identity-id',
      summary: "The member's identity_id, as the sign-in's member claim names it.",
      required: true,
      hint: 'e.g. "idp|ada"',
    },
  ],
  run: async (ctx, input): Promise<void> =>
    (await import('../handlers/members')).membersEndSessions(ctx, input),
});
