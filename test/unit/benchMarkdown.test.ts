import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import type { PairResult } from '../../bench/harness';
import { type RunStamp, stampLine } from '../../bench/docSection';
import { markdownSection, markdownTable, resultTable } from '../../bench/report';
import { renderTable, summarize } from '../../bench/stats';

const stamp: RunStamp = {
  command: 'npm run bench -- --engine server --markdown',
  commit: '1a2b3c4+dirty',
  date: '2026-11-27',
  cores: 2,
  cpuModel: 'AMD EPYC 7B13',
};

/**
 * What prettier makes of a Markdown text in docs/ with the project's settings (`npm run lint` checks docs with it).
 * In a child process: prettier loads its plugins with `import()`, which jest's runtime refuses.
 */
const prettierMarkdown = (text: string) =>
  execFileSync(
    process.execPath,
    [require.resolve('prettier/bin/prettier.cjs'), '--stdin-filepath', 'docs/benchmark.md'],
    { cwd: join(__dirname, '..', '..'), input: text, encoding: 'utf8' },
  );

const cellsOfMarkdown = (table: string) =>
  table
    .split('\n')
    .filter((_, i) => i !== 1)
    .map((line) =>
      line
        .slice(2, -2)
        .split(' | ')
        .map((cell) => cell.trim()),
    );

const pair = (variant: string, concurrency: number, a: number, b: number): PairResult => {
  const sample = (throughput: number) => ({
    throughput,
    p50: 1000 / throughput,
    p99: 3000 / throughput,
    count: 100,
    errors: 0,
    load: 2.5,
  });
  const rounds = [{ a: sample(a), b: sample(b) }];
  return {
    pair: 'mutation',
    variant,
    concurrency,
    targets: [
      { metric: 'p50', bound: 'max', value: 2 },
      { metric: 'p99', bound: 'max', value: 3 },
    ],
    rounds,
    summary: summarize(rounds),
    rss: { api: 280.4, worker: 351.2 },
  };
};

describe('the bench table as Markdown', () => {
  it('keeps every cell of the printed table, cells with spaces and empty cells included', () => {
    const text = renderTable(
      ['measurement', '100,000', 'ratio', 'bound'],
      [
        ['page p50, Owner list', '13.4', '1.03', 'ratio ≤ 1.2'],
        ['API peak RSS MiB', '268.7', '', '≤ 300'],
      ],
    );
    expect(cellsOfMarkdown(markdownTable(text))).toEqual([
      ['measurement', '100,000', 'ratio', 'bound'],
      ['page p50, Owner list', '13.4', '1.03', 'ratio ≤ 1.2'],
      ['API peak RSS MiB', '268.7', '', '≤ 300'],
    ]);
  });

  it('is laid out as prettier lays it out, so the doc it is written into passes lint', () => {
    const table = markdownTable(
      resultTable([pair('math action', 1, 107.8, 42.1), pair('genomics override', 32, 201.7, 87.2)]),
    );
    expect(prettierMarkdown(`${table}\n`)).toBe(`${table}\n`);
    const section = markdownSection(stamp, resultTable([pair('math action', 1, 107.8, 42.1)]), [
      'mutation: history events per update (median between accepted updates in one run): echo 5, math action 6',
      'peak RSS over the run: API 294 MiB (target ≤ 300), worker 459 MiB (target ≤ 600): met',
    ]);
    expect(prettierMarkdown(`${section}\n`)).toBe(`${section}\n`);
  });

  it('opens with a line naming the command, the commit, the date and the machine', () => {
    expect(stampLine(stamp)).toBe(
      '`npm run bench -- --engine server --markdown` at `1a2b3c4+dirty` on 2026-11-27, 2 cores (AMD EPYC 7B13).',
    );
    const section = markdownSection(stamp, renderTable(['a', 'b'], [['x', '1']]), ['one note']);
    expect(section.split('\n')).toEqual([
      stampLine(stamp),
      '',
      '| a   |   b |',
      '| --- | --: |',
      '| x   |   1 |',
      '',
      '- one note',
    ]);
  });
});
