import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { projectRoot } from '../infra/paths';

/**
 * Generated parts of a doc sit between `<!-- BEGIN <name> -->` and `<!-- END <name> -->` lines; the tool that
 * measured a table writes it there, so a doc holds exactly one run's table and never a hand-kept log.
 */
export const sectionMarkers = (name: string): { begin: string; end: string } => ({
  begin: `<!-- BEGIN ${name}: written by the tool named below; do not edit by hand -->`,
  end: `<!-- END ${name} -->`,
});

/** Returns `doc` with the named section's body replaced by `body`; throws when the markers are missing. */
export function replaceDocSection(doc: string, name: string, body: string): string {
  const { begin, end } = sectionMarkers(name);
  const start = doc.indexOf(begin);
  const stop = doc.indexOf(end, start + begin.length);
  if (start < 0 || stop < 0) throw new Error(`the doc has no section "${name}" (expected the line ${begin})`);
  return `${doc.slice(0, start + begin.length)}\n${body.trim()}\n${doc.slice(stop)}`;
}

/** The body of a named section, or undefined when the doc has none. */
export function readDocSection(doc: string, name: string): string | undefined {
  const { begin, end } = sectionMarkers(name);
  const start = doc.indexOf(begin);
  const stop = doc.indexOf(end, start + begin.length);
  return start < 0 || stop < 0 ? undefined : doc.slice(start + begin.length, stop).trim();
}

/** What a generated section names first: the command, the commit measured, the day and the machine. */
export interface RunStamp {
  /** The command as typed, e.g. `npm run bench -- --engine server --markdown`. */
  command: string;
  /** `git rev-parse --short HEAD`, with `+dirty` when the tree had changes. */
  commit: string;
  /** The day the run ended, YYYY-MM-DD. */
  date: string;
  cores: number;
  cpuModel: string;
}

/** Stamps a run of `command` (e.g. `npm run chaos --`) with its arguments; take it before the run starts. */
export function runStamp(command: string): RunStamp {
  const git = (...args: string[]) => execFileSync('git', args, { cwd: projectRoot, encoding: 'utf8' }).trim();
  return {
    command: [command, ...process.argv.slice(2)].join(' '),
    commit: `${git('rev-parse', '--short', 'HEAD')}${git('status', '--porcelain') ? '+dirty' : ''}`,
    date: new Date().toISOString().slice(0, 10),
    cores: cpus().length,
    cpuModel: cpus()[0]?.model.trim() ?? 'unknown CPU',
  };
}

export const stampLine = (stamp: RunStamp): string =>
  `\`${stamp.command}\` at \`${stamp.commit}\` on ${stamp.date}, ${stamp.cores} cores (${stamp.cpuModel}).`;

/**
 * Rewrites the named section of the doc at `path` and lays the doc out as `npm run lint` expects it. Prettier runs
 * in a child process: it loads its Markdown support with `import()`, which jest's runtime refuses.
 */
export function writeDocSection(path: string, name: string, body: string): void {
  const next = replaceDocSection(readFileSync(path, 'utf8'), name, body);
  const prettier = require.resolve('prettier/bin/prettier.cjs');
  writeFileSync(
    path,
    execFileSync(process.execPath, [prettier, '--stdin-filepath', path], { input: next, encoding: 'utf8' }),
  );
}
