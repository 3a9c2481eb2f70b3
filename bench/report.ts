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

/** Import rows time one operation: their latency columns hold the wall time, in seconds. */
const latency = (result: PairResult, ms: number) =>
  result.pair === 'import' ? `${fmt(ms / 1000)} s` : fmt(ms, ms < 10 ? 2 : 1);

export function verdict(result: PairResult): 'yes' | 'NO' | '' {
  if (result.targets.length === 0) return '';
  return result.targets.every((t) => meets(ratioFor(result.summary, t.metric), t)) ? 'yes' : 'NO';
}

/** The bench's table: medians over rounds of each side and of each round's B/A. */
export function resultTable(results: readonly PairResult[]): string {
  const rows = results.map((r) => {
    const s = r.summary;
    const importRow = r.pair === 'import';
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
      importRow ? '' : latency(r, s.a.p99),
      importRow ? '' : latency(r, s.b.p99),
      importRow ? '' : fmt(s.ratio.p99, 2),
      r.targets.map(describeTarget).join(', '),
      verdict(r),
      fmt(s.load, 2),
      `${fmt(r.rss.api, 0)}/${fmt(r.rss.worker, 0)}`,
    ];
  });
  return renderTable(HEADER, rows);
}

/** Lines under the table: errors seen, and the extra measurements of some pairs. */
export function resultFootnotes(results: readonly PairResult[]): string[] {
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
    if (r.extra && r.pair === 'mutation') lines.push(`${r.pair}/${r.variant}: ${JSON.stringify(r.extra)}`);
  }
  return lines;
}
