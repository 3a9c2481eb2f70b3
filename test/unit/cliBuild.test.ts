import { statSync, utimesSync } from 'node:fs';
import { join } from 'node:path';
import { projectRoot } from '../../infra/paths';

// bin/buildCli.js is the CommonJS script bin/referee.js runs; the test drives it as that script does.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const cli = require('../../bin/buildCli.js') as {
  buildCli(): void;
  bundleInputs(): string[];
  cliBuildIsCurrent(): boolean;
};

/** Makes `file` look edited after the build for the duration of `check`, then gives it its own times back. */
function whileNewer<T>(file: string, check: () => T): T {
  const { atime, mtime } = statSync(file);
  utimesSync(file, atime, new Date(Date.now() + 60_000));
  try {
    return check();
  } finally {
    utimesSync(file, atime, mtime);
  }
}

test('the CLI bundle is stale once any file it was built from is newer, in every folder it draws on', () => {
  cli.buildCli();
  expect(cli.cliBuildIsCurrent()).toBe(true);
  const inputs = cli.bundleInputs();
  const folders = new Map<string, string>();
  for (const input of inputs) if (input.includes('/')) folders.set(input.split('/')[0], input);
  // The folders the ops CLI needs today; a folder it starts to import later is in the list by construction.
  expect([...folders.keys()]).toEqual(
    expect.arrayContaining([
      'access',
      'activities',
      'entities',
      'infra',
      'cli',
      'storage',
      'webhooks',
      'workflows',
    ]),
  );
  for (const input of [...folders.values(), 'config.ts'])
    expect([input, whileNewer(join(projectRoot, input), () => cli.cliBuildIsCurrent())]).toEqual([
      input,
      false,
    ]);
  expect(cli.cliBuildIsCurrent()).toBe(true);
  // A file the CLI does not contain changes nothing.
  expect(
    whileNewer(join(projectRoot, 'test', 'unit', 'cliBuild.test.ts'), () => cli.cliBuildIsCurrent()),
  ).toBe(true);
});
