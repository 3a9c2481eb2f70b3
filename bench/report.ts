import { type RunStamp, stampLine } from './docSection';
import { cpuLine, type PairResult } from './harness';
import { describeTarget, fmt, meets, ratioFor, renderTable } from './stats';

const HEADER = [
  'pair',
  'variant',
  'conc',
  'thr A/s',
  'thr B/s',
  'thr B/A',
  'p50 A ms',
  'p50 B ms',
  'p50 B/A',
  'p99 A ms',
  'p99 B ms',
  'p99 B/A',
  'target',
  'met',
  'load',
  'RSS api/wkr MiB',
];

/** Import and export rows time one operation: their p50 columns hold its wall time, in seconds, and no p99. */
const timesOneOperation = (result: PairResult) => result.pair === 'import' || result.pair === 'export';

const latency = (result: PairResult, ms: number) =>
  timesOneOperation(result) ? `${fmt(ms / 1000)} s` : fmt(ms, ms < 10 ? 2 : 1);

export function verdict(result: PairResult): 'yes' | 'NO' | '' {
  if (result.targets.length === 0) return '';
  return result.targets.every((t) => meets(ratioFor(result.summary, t.metric), t)) ? 'yes' : 'NO';
}

/** The bench's table: medians over rounds of each side and of each round's B/A. */
export function resultTable(results: readonly PairResult[]): string {
  const rows = results.map((r) => {
    const s = r.summary;
    const oneOperation = timesOneOperation(r);
    return [
      r.pair,
      r.variant,
      String(r.concurrency),
      fmt(s.a.throughput),
      fmt(s.b.throughput),
      fmt(s.ratio.throughput, 2),
      latency(r, s.a.p50),
      latency(r, s.b.p50),
      fmt(s.ratio.p50, 2),
      oneOperation ? '' : latency(r, s.a.p99),
      oneOperation ? '' : latency(r, s.b.p99),
      oneOperation ? '' : fmt(s.ratio.p99, 2),
      r.targets.map(describeTarget).join(', '),
      verdict(r),
      fmt(s.load, 2),
      `${fmt(r.rss.api, 0)}/${fmt(r.rss.worker, 0)}`,
    ];
  });
  return renderTable(HEADER, rows);
}

/** Lines under the table: errors seen, CPU per request, and (unless `extras` is false) the raw extras of some pairs. */
export function resultFootnotes(results: readonly PairResult[], { extras = true } = {}): string[] {
  const lines: string[] = [];
  for (const r of results) {
    if (r.summary.errors.a || r.summary.errors.b)
      lines.push(
        `${r.pair}/${r.variant} @${r.concurrency}: errors A ${r.summary.errors.a}, B ${r.summary.errors.b}`,
      );
    if (Object.keys(r.summary.cpu.b).length > 0)
      lines.push(
        `${r.pair}/${r.variant} @${r.concurrency} CPU ms per request: A ${cpuLine(r.summary.cpu.a)} | B ${cpuLine(r.summary.cpu.b)}`,
      );
    if (extras && r.extra && r.pair === 'mutation')
      lines.push(`${r.pair}/${r.variant}: ${JSON.stringify(r.extra)}`);
  }
  return lines;
}

/** Where and from what a generated doc section was measured: the first line of the section. */
/**
 * A table of {@link renderTable} as a Markdown table with the same cells, laid out as prettier lays it out (so
 * `npm run lint` accepts the doc it is written into): the first column left as printed, the others right-aligned.
 * Columns are found from the rule under the header, since a cell may hold single spaces.
 */
export function markdownTable(text: string): string {
  const [header, rule, ...rows] = text.split('\n');
  const spans = [...rule.matchAll(/-+/g)].map((m) => [m.index, m.index + m[0].length] as const);
  const cellsOf = (line: string) =>
    spans.map(([start, end]) => line.slice(start, end).trim().replaceAll('|', '\\|'));
  const table = [cellsOf(header), ...rows.map(cellsOf)];
  const widths = spans.map((_, i) => Math.max(3, ...table.map((cells) => cells[i].length)));
  const line = (cells: readonly string[]) =>
    `| ${cells.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]) : cell.padStart(widths[i]))).join(' | ')} |`;
  const delimiter = `| ${widths.map((w, i) => (i === 0 ? '-'.repeat(w) : `${'-'.repeat(w - 1)}:`)).join(' | ')} |`;
  return [line(table[0]), delimiter, ...table.slice(1).map(line)].join('\n');
}

/** A generated doc section: the stamp, the run's table, then the lines the bench printed under it. */
export const markdownSection = (stamp: RunStamp, table: string, notes: readonly string[] = []): string =>
  [
    stampLine(stamp),
    '',
    markdownTable(table),
    ...(notes.length ? ['', ...notes.map((n) => `- ${n}`)] : []),
  ].join('\n');
