import { defineCommand } from '../kernel/command';

export const migrate = defineCommand({
  name: 'migrate',
  summary: 'Bring the database schema up to date (the only command that migrates).',
  details: [
    '`npm start` migrates too; the API and the worker never do, and every other command refuses a schema',
    'behind the code, naming this one.',
  ],
  options: {},
  positionals: [],
  run: async (ctx) => (await import('../handlers/migrate')).migrate(ctx),
});
