import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, posix } from 'node:path';

/**
 * docs/layout.md's table against the tree and against the import rules `npm run lint` enforces
 * (eslint.config.mjs): every path it names exists, every top-level folder with source code has a row, and each
 * row's "May import" cell says exactly what lint lets that room import.
 */
const ROOT = join(__dirname, '..', '..');
const SOURCE = /\.(ts|tsx|js|mjs|cjs)$/;
const NOT_SOURCE_FOLDERS = new Set(['node_modules', 'dist', 'coverage', '.referee', '.artifacts']);

interface LayoutRow {
  /** The paths the first column names, as written (`api/math/`, `server.ts`). */
  paths: string[];
  mayImport: string;
}

/** Splits a table line into its cells; `\|` inside a cell is a pipe, not a border. */
const cellsOf = (line: string) =>
  line
    .trim()
    .replace(/^\||\|$/g, '')
    .split(/(?<!\\)\|/)
    .map((cell) => cell.trim());
const codeSpans = (text: string) => [...text.matchAll(/`([^`]+)`/g)].map((m) => m[1]);

/** The rows of the first table under the heading "# Layout". */
export function layoutRows(readme: string): LayoutRow[] {
  const lines = readme.split('\n');
  const heading = lines.findIndex((line) => /^# Layout\s*$/.test(line));
  if (heading < 0) throw new Error('docs/layout.md has no "# Layout" section');
  const start = lines.findIndex((line, i) => i > heading && line.startsWith('|'));
  const end = lines.findIndex((line, i) => i > start && !line.startsWith('|'));
  const [header, , ...rows] = lines.slice(start, end < 0 ? undefined : end).map(cellsOf);
  const mayImport = header.findIndex((cell) => /^May import/i.test(cell));
  if (mayImport < 0) throw new Error('the Layout table has no "May import" column');
  return rows.map((cells) => ({ paths: codeSpans(cells[0]), mayImport: cells[mayImport] }));
}

/** A room as the comparison names it: its path without a trailing slash. */
const roomName = (path: string) => path.replace(/\/$/, '');

type Access = 'open' | 'types' | 'refused';

/**
 * What a "May import" cell says of each entry. Comma-separated items; text in parentheses is a note. An item's
 * leading words apply to every path in it: "types from" (type imports only), "but" (refused); others are open.
 * A cell starting with "anything" opens every room it does not refuse; otherwise every room it does not name is
 * refused. Paths inside a room (`activities/bundles/`) open that part only. "—" (or nothing): no code to import.
 */
export function parseMayImport(cell: string): { anything: boolean; entries: Map<string, Access> } | null {
  const text = cell.replace(/\([^)]*\)/g, '');
  if (/^(—|-|)$/.test(text.trim())) return null;
  const entries = new Map<string, Access>();
  for (const item of text.split(',')) {
    const access: Access = /\btypes from\b/.test(item) ? 'types' : /\bbut\b/.test(item) ? 'refused' : 'open';
    for (const path of codeSpans(item)) entries.set(roomName(path), access);
  }
  return { anything: /^\s*anything\b/i.test(text), entries };
}

/** A file inside the room, where lint's rules for it apply (the room itself when it is a file). */
const probeFile = (room: string) => (room.endsWith('.ts') ? room : `${room}/layout-probe.ts`);
/** How a file of `room` imports `target` (a room, or a path inside one such as `activities/**\/*Queries.ts`). */
function specifier(room: string, target: string): string {
  const path = target.endsWith('.ts')
    ? target
        .replace(/\*\*\//g, '')
        .replace('*', 'layoutProbe')
        .replace(/\.ts$/, '')
    : `${target}/layout-probe`;
  const relative = posix.relative(posix.dirname(probeFile(room)), path);
  return relative.startsWith('.') ? relative : `./${relative}`;
}

/**
 * Asks eslint, with the project's own configuration, what a file of each room may import: for each probe, lints
 * `import { … }` and `import type { … }` of each specifier under that file's `no-restricted-imports` settings.
 * In a child process: eslint loads its ES-module configuration with `import()`, which jest's runtime refuses.
 */
function lintImports(probes: Array<{ file: string; specifiers: string[] }>): Access[][] {
  const script = `
    import { readFileSync } from 'node:fs';
    import { ESLint, Linter } from 'eslint';
    import tseslint from 'typescript-eslint';
    const RULE = '@typescript-eslint/no-restricted-imports';
    const eslint = new ESLint({ cwd: process.cwd() });
    const linter = new Linter({ configType: 'flat' });
    const out = [];
    for (const { file, specifiers } of JSON.parse(readFileSync(0, 'utf8'))) {
      const rule = (await eslint.calculateConfigForFile(file))?.rules?.[RULE];
      const code = specifiers
        .map((s, i) => "import { v" + i + " } from '" + s + "';\\nimport type { t" + i + " } from '" + s + "';")
        .join('\\n');
      const flagged = new Set(
        rule
          ? linter
              .verify(code, [{ files: ['**/*.{ts,tsx}'], languageOptions: { parser: tseslint.parser },
                plugins: { '@typescript-eslint': tseslint.plugin }, rules: { [RULE]: rule } }], { filename: file })
              .map((m) => { if (m.ruleId !== RULE) throw new Error(file + ': ' + m.message); return m.line; })
          : [],
      );
      out.push(specifiers.map((_, i) =>
        flagged.has(2 * i + 2) ? 'refused' : flagged.has(2 * i + 1) ? 'types' : 'open'));
    }
    process.stdout.write(JSON.stringify(out));`;
  const stdout = execFileSync(process.execPath, ['--input-type=module', '-e', script], {
    cwd: ROOT,
    input: JSON.stringify(probes),
    encoding: 'utf8',
  });
  return JSON.parse(stdout) as Access[][];
}

/** Every disagreement between the rows' "May import" cells and what lint lets each room import. */
function importDisagreements(rows: readonly LayoutRow[], only?: string): string[] {
  const rooms = rows.flatMap((row) => row.paths.map(roomName));
  const checked = rows.flatMap((row) => {
    if (only && !row.paths.includes(only)) return [];
    const said = parseMayImport(row.mayImport);
    return said ? row.paths.map((path) => ({ room: roomName(path), said })) : [];
  });
  const probes = checked.map(({ room, said }) => {
    const inside = [...said.entries.keys()].filter((entry) => !rooms.includes(entry));
    const targets = [...rooms.filter((other) => other !== room), ...inside];
    const expected = targets.map(
      (target) => said.entries.get(target) ?? (said.anything ? 'open' : ('refused' as Access)),
    );
    return {
      room,
      targets,
      expected,
      file: probeFile(room),
      specifiers: targets.map((t) => specifier(room, t)),
    };
  });
  const linted = lintImports(probes);
  return probes.flatMap((probe, i) =>
    probe.targets.flatMap((target, j) =>
      linted[i][j] === probe.expected[j]
        ? []
        : [`${probe.room} → ${target}: docs/layout.md says ${probe.expected[j]}, lint says ${linted[i][j]}`],
    ),
  );
}

function hasSource(dir: string): boolean {
  return readdirSync(dir, { withFileTypes: true }).some((entry) =>
    entry.isDirectory()
      ? !entry.name.startsWith('.') && !NOT_SOURCE_FOLDERS.has(entry.name) && hasSource(join(dir, entry.name))
      : SOURCE.test(entry.name),
  );
}

const readme = readFileSync(join(ROOT, 'docs', 'layout.md'), 'utf8');
const rows = layoutRows(readme);

describe("docs/layout.md's table", () => {
  it('names only paths that exist', () => {
    const missing = rows.flatMap((row) => row.paths).filter((path) => !existsSync(join(ROOT, path)));
    expect(missing).toEqual([]);
  });

  it('has a row for every top-level folder with source code and every top-level TypeScript file', () => {
    const named = rows.flatMap((row) => row.paths.map(roomName));
    const topLevel = readdirSync(ROOT, { withFileTypes: true })
      .filter((entry) =>
        entry.isDirectory()
          ? !entry.name.startsWith('.') &&
            !NOT_SOURCE_FOLDERS.has(entry.name) &&
            hasSource(join(ROOT, entry.name))
          : entry.name.endsWith('.ts'),
      )
      .map((entry) => entry.name);
    const unnamed = topLevel.filter(
      (name) => !named.some((path) => path === name || path.startsWith(`${name}/`)),
    );
    expect(unnamed).toEqual([]);
  });

  it('says in "May import" exactly what the import rules of eslint.config.mjs let each room import', () => {
    expect(importDisagreements(rows)).toEqual([]);
  });

  it('reports a "May import" cell that disagrees with the import rules', () => {
    const wrong = rows.map((row) =>
      row.paths.includes('workflows/')
        ? { ...row, mayImport: '`api/kernel/`, types from `activities/`' }
        : row,
    );
    expect(importDisagreements(wrong, 'workflows/')).toEqual(
      expect.arrayContaining(['workflows → api/kernel: docs/layout.md says open, lint says refused']),
    );
  });
});

describe('the "May import" grammar', () => {
  it('reads open, type-only and refused entries, notes in parentheses, and "anything but"', () => {
    const listed = parseMayImport(
      '`api/kernel/`, `workflows/` (ids, state), types from `entities/` and `config.ts`',
    );
    expect(listed?.anything).toBe(false);
    expect(Object.fromEntries(listed?.entries ?? [])).toEqual({
      'api/kernel': 'open',
      workflows: 'open',
      entities: 'types',
      'config.ts': 'types',
    });
    const anything = parseMayImport('anything but `activities/`, of it `activities/bundles/`');
    expect(anything?.anything).toBe(true);
    expect(Object.fromEntries(anything?.entries ?? [])).toEqual({
      activities: 'refused',
      'activities/bundles': 'open',
    });
    expect(parseMayImport('—')).toBeNull();
  });
});
