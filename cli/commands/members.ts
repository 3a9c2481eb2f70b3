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
  run: async (ctx, { options }) => (await import('../handlers/members')).membersList(ctx, options.service),
});

export const membersUpsert = defineCommand({
  name: 'members upsert',
  summary: 'Add the members in <file> and update changed ones; disables nobody.',
  options: {},
  positionals: [memberFile],
  run: async (ctx, { positionals }) =>
    (await import('../handlers/members')).membersApply(ctx, 'upsert', positionals.file, false),
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
  run: async (ctx, { options, positionals }) =>
    (await import('../handlers/members')).membersApply(ctx, 'sync', positionals.file, options['dry-run']),
});
