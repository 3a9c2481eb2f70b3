import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { projectRoot } from '../../infra/paths';

// bin/build.js is the CommonJS script the package scripts and bin/referee.js run; the test drives it as they do.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const build = require('../../bin/build.js') as {
  TARGETS: Record<string, { entry?: string; needs?: string[] }>;
  builtFrom(name: string, root?: string): string[];
  compile(name: string, root?: string, entry?: string): Promise<void>;
  ensureBuilt(names: string[]): Promise<string[]>;
  isCurrent(name: string, root?: string): boolean;
  outputOf(root: string, name: string): string;
  withNeeds(names: string[]): string[];
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

/** Writes `file` after `output` was built (a developer's edit): the build is dated a minute back first. */
function editAfterBuild(output: string, file: string, text: string): void {
  const before = new Date(Date.now() - 60_000);
  utimesSync(output, before, before);
  writeFileSync(file, text);
}

test('npm start builds every process it runs, and the workflow bundle, before it starts', () => {
  expect(build.withNeeds(['start'])).toEqual(
    expect.arrayContaining(['server', 'worker', 'workflow-bundle', 'start']),
  );
  expect(build.withNeeds(['start-cluster']).pop()).toBe('start-cluster');
  expect(build.withNeeds(['chaos'])).toEqual(expect.arrayContaining(['start-cluster', 'server', 'worker']));
  expect(() => build.withNeeds(['nothing'])).toThrow(/unknown build target nothing/);
});

test.each(['referee', 'server', 'worker', 'start'])(
  'dist/%s.js is stale once any file it was built from is newer, in every folder it draws on',
  async (target) => {
    await build.ensureBuilt([target]);
    expect(build.isCurrent(target)).toBe(true);
    const folders = new Map<string, string>();
    for (const input of build.builtFrom(target)) folders.set(input.split('/')[0], input);
    expect(folders.has(build.TARGETS[target].entry!.split('/')[0])).toBe(true);
    for (const input of folders.values())
      expect([input, whileNewer(join(projectRoot, input), () => build.isCurrent(target))]).toEqual([
        input,
        false,
      ]);
    expect(build.isCurrent(target)).toBe(true);
    // A file the process does not contain changes nothing.
    expect(
      whileNewer(join(projectRoot, 'test', 'unit', 'build.test.ts'), () => build.isCurrent(target)),
    ).toBe(true);
  },
  120_000,
);

describe('a project built into dist/', () => {
  const root = mkdtempSync(join(tmpdir(), 'referee-build-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  const run = () =>
    execFileSync(process.execPath, ['--enable-source-maps', build.outputOf(root, 'main')], {
      cwd: root,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    });

  beforeAll(async () => {
    writeFileSync(
      join(root, 'main.ts'),
      [
        "import { answer, fail } from './lib/answer';",
        "import { imported } from './lib/entry';",
        'if (require.main === module) {',
        '  console.log(`answer ${answer} ${imported}`);',
        '  if (process.env.FAIL) fail();',
        '}',
        '',
      ].join('\n'),
    );
    mkdirSync(join(root, 'lib'));
    writeFileSync(
      join(root, 'lib', 'answer.ts'),
      "export const answer: number = 1;\n\nexport function fail(): never {\n  throw new Error('from answer.ts');\n}\n",
    );
    // Another entry point the first imports: its main must not run inside the first's bundle.
    writeFileSync(
      join(root, 'lib', 'entry.ts'),
      "export const imported = 'imported';\nif (require.main === module) console.log('entry main ran');\n",
    );
    await build.compile('main', root, 'main.ts');
  });

  test('runs with plain node, and an imported entry point does not run its main', () => {
    expect(build.isCurrent('main', root)).toBe(true);
    expect(run()).toBe('answer 1 imported\n');
  });

  test('an edit makes it stale, and the rebuild runs the edited code', async () => {
    editAfterBuild(
      build.outputOf(root, 'main'),
      join(root, 'lib', 'answer.ts'),
      "export const answer: number = 2;\n\nexport function fail(): never {\n  throw new Error('from answer.ts');\n}\n",
    );
    expect(build.isCurrent('main', root)).toBe(false);
    await build.compile('main', root, 'main.ts');
    expect(build.isCurrent('main', root)).toBe(true);
    expect(run()).toBe('answer 2 imported\n');
  });

  test('a stack trace names the TypeScript file and line', () => {
    let stderr = '';
    try {
      execFileSync(process.execPath, ['--enable-source-maps', build.outputOf(root, 'main')], {
        cwd: root,
        env: { ...process.env, FAIL: '1' },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
    } catch (error) {
      stderr = String((error as { stderr: Buffer }).stderr);
    }
    expect(stderr).toMatch(/from answer\.ts/);
    expect(stderr).toMatch(/lib\/answer\.ts:4:\d+/);
  });
});
