import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type RunStamp, stampLine, writeDocSection } from '../bench/docSection';
import { projectRoot } from '../infra/paths';
import type { ResultsSection } from './commandLines';

/** A Markdown table as plain rows; writeDocSection lays it out as prettier does when it goes into a doc. */
export const markdownTable = (header: readonly string[], rows: ReadonlyArray<readonly string[]>): string =>
  [header, header.map(() => '---'), ...rows].map((cells) => `| ${cells.join(' | ')} |`).join('\n');

/** One pass/fail rule of a drill, with what it counted. */
export interface Check {
  ok: boolean;
  text: string;
}

/**
 * Prints the results table and the checks. With a stamp (--markdown) also writes both into the drill's doc, under
 * a first line naming the command, the commit and the machine. Returns the exit code: 0 when every check passed.
 */
export function reportResults(
  results: ResultsSection,
  outcome: { table: string; checks: readonly Check[]; stamp: RunStamp | null },
): number {
  console.log(`\n${outcome.table}\n\n${checkLines(outcome.checks)}`);
  if (outcome.stamp) {
    const doc = join(projectRoot, results.doc);
    writeDocSection(doc, results.section, resultsSectionBody({ ...outcome, stamp: outcome.stamp }));
    console.log(`- results written to ${doc}`);
  }
  return outcome.checks.every((check) => check.ok) ? 0 : 1;
}

/** The checks as a drill prints and writes them: a `- PASS …` or `- FAIL …` line each. */
const checkLines = (checks: readonly Check[]): string =>
  checks.map((check) => `- ${check.ok ? 'PASS' : 'FAIL'} ${check.text}`).join('\n');

/** What `--markdown` writes into the drill's doc section: the line naming the run, the table and the checks. */
export const resultsSectionBody = (outcome: {
  table: string;
  checks: readonly Check[];
  stamp: RunStamp;
}): string => `${stampLine(outcome.stamp)}\n\n${outcome.table}\n\n${checkLines(outcome.checks)}`;

/** Runs `drive` with a new temporary folder, removed afterwards unless `keep` (then its path is logged). */
export async function withScratchFolder<T>(
  prefix: string,
  keep: boolean,
  log: (line: string) => void,
  drive: (dataDir: string) => Promise<T>,
): Promise<T> {
  const dataDir = await mkdtemp(join(tmpdir(), prefix));
  try {
    return await drive(dataDir);
  } finally {
    if (keep) log(`data and logs kept in ${dataDir}`);
    else await rm(dataDir, { recursive: true, force: true });
  }
}
