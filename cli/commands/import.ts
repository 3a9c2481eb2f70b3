import { defineCommand } from '../kernel/command';

export const importBundle = defineCommand({
  name: 'import',
  summary:
    'Import a math run or genomics bundle (by its manifest\'s "format") through its Temporal import workflow.',
  details: [
    "The bundle is checked first as the import will check it (its JSON Schema, references, every file's size and",
    'SHA-256), so a broken one is refused with all its problems before any workflow starts. Progress goes to stderr.',
    'Formats: docs/bundles/math-run.md and docs/bundles/genomics.md.',
  ],
  options: {
    detach: {
      type: 'boolean',
      summary: 'Return once the import workflow has started, printing its id, without waiting for its end.',
    },
  },
  positionals: [
    {
      name: 'bundle-dir',
      summary: 'The bundle folder (it holds a manifest.json).',
      required: true,
      hint: 'a folder with a manifest.json',
    },
  ],
  run: async (ctx, input): Promise<void> =>
    (await import('../handlers/importBundle')).importBundle(ctx, input),
});
