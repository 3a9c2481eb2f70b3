import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { projectRoot } from '../../infra/paths';

// docs/decisions.md: hand-written SQL lives in queries files and activities, never in operations or presenters.
function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? sourceFiles(join(dir, entry.name))
      : entry.name.endsWith('.ts')
        ? [join(dir, entry.name)]
        : [],
  );
}

test('no operations.ts or presenters.ts runs SQL itself', () => {
  const offenders = sourceFiles(join(projectRoot, 'api'))
    .filter((file) => /(^|\/)(operations|presenters)\.ts$/.test(file))
    .filter((file) => /\.query\s*\(/.test(readFileSync(file, 'utf8')))
    .map((file) => relative(projectRoot, file));
  expect(offenders).toEqual([]);
});
