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

// A workflow handle's query() is Temporal's, not SQL (the CLI reads import progress and task state with it).
const WORKFLOW_QUERIES = /(\bhandle|getHandle\([^)]*\))\s*\.query\s*\(/g;
const runsSql = (file: string) =>
  /\.query\s*\(/.test(readFileSync(file, 'utf8').replace(WORKFLOW_QUERIES, ''));
const isQueriesFile = (file: string) => /(^|\/)(queries|\w+Queries)\.ts$/.test(file);
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
  expect(files.filter(isQueriesFile).length).toBeGreaterThan(10);
  const offenders = files
    .filter((file) => !isQueriesFile(file))
    .filter((file) => runsSql(join(projectRoot, file)));
  expect(offenders).toEqual([]);
});

test('in cli/, only queries files run SQL', () => {
  const files = sourceFiles(join(projectRoot, 'cli')).map((file) => relative(projectRoot, file));
  expect(files.filter(isQueriesFile).length).toBeGreaterThan(3);
  const offenders = files
    .filter((file) => !isQueriesFile(file))
    .filter((file) => runsSql(join(projectRoot, file)));
  expect(offenders).toEqual([]);
});
