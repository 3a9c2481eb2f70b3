import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  readDocSection,
  replaceDocSection,
  type RunStamp,
  sectionMarkers,
  stampLine,
} from '../../bench/docSection';
import { SOAK_RESULTS } from '../../drills/commandLines';
import { resultsSectionBody } from '../../drills/results';
import { formatTable, growth, type Minute, verdicts } from '../../drills/soakReport';

const minute = (n: number, overrides: Partial<Minute> = {}): Minute => ({
  minute: n,
  counts: { read: 1200, mutation: 600, download: 300 },
  errors: 0,
  unavailable: 0,
  throttled: 0,
  apiMiB: 300,
  workerMiB: 500,
  ...overrides,
});
const run = (minutes: number, each: (n: number) => Partial<Minute> = () => ({})) =>
  Array.from({ length: minutes }, (_, i) => minute(i + 1, each(i + 1)));

const stamp: RunStamp = {
  command: 'npm run soak -- --minutes 12 --markdown',
  commit: 'abc1234',
  date: '2026-12-02',
  cores: 2,
  cpuModel: 'Test CPU',
};

describe('the soak drill’s report', () => {
  it('a minute row: requests per second over all kinds, the failures, both resident sets', () => {
    const table = formatTable([minute(1, { errors: 2, unavailable: 1, throttled: 3, apiMiB: 321.4 })]);
    expect(table.split('\n')).toEqual([
      '| minute | req/s | reads | mutations | downloads | errors | of which 503 | 429 | API RSS MiB | worker RSS MiB |',
      '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |',
      '| 1 | 35.0 | 1200 | 600 | 300 | 2 | 1 | 3 | 321 | 500 |',
    ]);
  });

  it('growth compares the mean of the last three samples with the three starting ten minutes before', () => {
    expect(growth(run(10), 'apiMiB')).toBeNull();
    // Minutes 1–3 at 300 MiB, 9–11 at 330 MiB: 10 % more.
    const grown = run(11, (n) => ({ apiMiB: n >= 9 ? 330 : 300 }));
    expect(growth(grown, 'apiMiB')).toBeCloseTo(0.1);
    expect(growth(grown, 'workerMiB')).toBeCloseTo(0);
  });

  it('passes a clean run; fails on an error, a finding, growth past the limit or a run too short to measure', () => {
    expect(
      verdicts(
        run(11, () => ({ throttled: 5 })),
        0,
        0,
      ).every((check) => check.ok),
    ).toBe(true);
    const failed = (table: Minute[], reconcile = 0, storage = 0) =>
      verdicts(table, reconcile, storage)
        .filter((check) => !check.ok)
        .map((check) => check.text);
    expect(failed(run(11, (n) => ({ errors: n === 5 ? 1 : 0 })))).toEqual([
      '1 errors (429s are not errors: docs/limits.md)',
    ]);
    expect(failed(run(11), 2, 1)).toEqual([
      '2 reconcile findings after the load',
      '1 verify-storage findings after the load',
    ]);
    expect(failed(run(11, (n) => ({ workerMiB: n >= 9 ? 560 : 500 })))).toEqual([
      'worker RSS grew 12.0 % over the last 10 minutes (limit 10 %)',
    ]);
    expect(failed(run(10))).toEqual([
      'API RSS growth not measured: the run needs at least 11 minutes',
      'worker RSS growth not measured: the run needs at least 11 minutes',
    ]);
  });

  it('--markdown writes the run’s line, its table and its checks into docs/soak.md’s section, and nothing else', () => {
    const doc = readFileSync(join(__dirname, '..', '..', SOAK_RESULTS.doc), 'utf8');
    const table = run(12);
    const body = resultsSectionBody({ table: formatTable(table), checks: verdicts(table, 0, 0), stamp });
    const written = replaceDocSection(doc, SOAK_RESULTS.section, body);
    const section = readDocSection(written, SOAK_RESULTS.section)!;
    expect(section.split('\n\n')).toEqual([
      stampLine(stamp),
      formatTable(table),
      [
        '- PASS 0 errors (429s are not errors: docs/limits.md)',
        '- PASS 0 reconcile findings after the load',
        '- PASS 0 verify-storage findings after the load',
        '- PASS API RSS grew 0.0 % over the last 10 minutes (limit 10 %)',
        '- PASS worker RSS grew 0.0 % over the last 10 minutes (limit 10 %)',
      ].join('\n'),
    ]);
    const { begin, end } = sectionMarkers(SOAK_RESULTS.section);
    const outside = (text: string) => [text.slice(0, text.indexOf(begin)), text.slice(text.indexOf(end))];
    expect(outside(written)).toEqual(outside(doc));
  });
});
