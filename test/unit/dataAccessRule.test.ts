import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { projectRoot } from '../../infra/paths';

// docs/decisions.md: hand-written SQL lives in queries files and activities, never in operations or presenters.
// This checks the API side (api/), identity and access (access/), which the API and the CLI share, and the CLI.
function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? sourceFiles(join(dir, entry.name))
      : entry.name.endsWith('.ts')
        ? [join(dir, entry.name)]
        : [],
  );
}

const runsSql = (file: string) => /\.query\s*\(/.test(readFileSync(file, 'utf8'));
const apiFiles = () => sourceFiles(join(projectRoot, 'api')).map((file) => relative(projectRoot, file));

test('no operations.ts or presenters.ts runs SQL itself', () => {
  const offenders = apiFiles()
    .filter((file) => /(^|\/)(operations|presenters)\.ts$/.test(file))
    .filter((file) => runsSql(join(projectRoot, file)));
  expect(offenders).toEqual([]);
});

test('the HTTP kernel runs no SQL itself: its tables are reached through access/', () => {
  const kernelFiles = apiFiles().filter((file) => file.startsWith('api/kernel/'));
  expect(kernelFiles.length).toBeGreaterThan(0);
  expect(kernelFiles.filter((file) => runsSql(join(projectRoot, file)))).toEqual([]);
});

test('in api/ and access/, only queries files run SQL (queries.ts or *Queries.ts)', () => {
  const files = ['api', 'access'].flatMap((dir) =>
    sourceFiles(join(projectRoot, dir)).map((file) => relative(projectRoot, file)),
  );
  expect(files.filter((file) => /(^|\/)(queries|\w+Queries)\.ts$/.test(file)).length).toBeGreaterThan(10);
  const offenders = files
    .filter((file) => !/(^|\/)(queries|\w+Queries)\.ts$/.test(file))
    .filter((file) => runsSql(join(projectRoot, file)));
  expect(offenders).toEqual([]);
});

test('in cli/, only queries files run SQL; a workflow handle’s query() is Temporal’s, not SQL', () => {
  const workflowQueries = /(\bhandle|getHandle\([^)]*\))\s*\.query\s*\(/g;
  const runsSqlInCli = (file: string) =>
    /\.query\s*\(/.test(readFileSync(file, 'utf8').replace(workflowQueries, ''));
  const files = sourceFiles(join(projectRoot, 'cli')).map((file) => relative(projectRoot, file));
  expect(files.filter((file) => /(^|\/)\w+Queries\.ts$/.test(file)).length).toBeGreaterThan(3);
  const offenders = files
    .filter((file) => !/(^|\/)\w+Queries\.ts$/.test(file))
    .filter((file) => runsSqlInCli(join(projectRoot, file)));
  expect(offenders).toEqual([]);
});
