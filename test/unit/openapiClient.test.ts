import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { projectRoot } from '../../infra/paths';

describe('the contract types in console/src/contract', () => {
  // In a child process: Prettier 3 formats through ES modules, which jest's CommonJS runtime cannot load.
  it('is what npm run generate:client makes from the current contracts (regenerate when operations change)', async () => {
    const run = promisify(execFile)(
      process.execPath,
      [join(projectRoot, 'node_modules', 'tsx', 'dist', 'cli.mjs'), 'scripts/generateClient.ts', '--check'],
      { cwd: projectRoot },
    );
    await expect(run).resolves.toMatchObject({ stdout: expect.stringContaining('up to date') });
  }, 120_000);
});
