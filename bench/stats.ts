/**
 * Pure arithmetic of the benchmark: medians over rounds, B/A ratios, targets and the printed table.
 * No I/O here, so it is unit-tested (test/unit/benchStats.test.ts).
 */

/** One measured side of one round: a closed-loop run at a fixed concurrency (or one timed operation). */
export interface Sample {
  /** Successful requests (or operations) per second. */
  throughput: number;
  /** Latency percentiles in milliseconds. */
  p50: number;
  p99: number;
  /** Successful requests counted in the sample. */
  count: number;
  /** Failed requests (non-2xx, socket errors, timeouts); a sample with errors is reported, never hidden. */
  errors: number;
  /** 1-minute load average when the sample ended. */
  load: number;
  /** CPU milliseconds per successful request, by process (API, worker, PostgreSQL, Temporal, …). */
  cpu?: Record<string, number>;
}

export interface Round {
  a: Sample;
  b: Sample;
}

export type Metric = 'throughput' | 'p50' | 'p99' | 'wall';

/** A target on the median B/A ratio of one metric: `min` (B/A ≥ value) or `max` (B/A ≤ value). */
export interface Target {
  metric: Metric;
  bound: 'min' | 'max';
  value: number;
}

/** Median of the values; NaN for none. Even counts take the mean of the middle two. */
export function median(values: readonly number[]): number {
  const sorted = values.filter((v) => !Number.isNaN(v)).sort((x, y) => x - y);
  if (sorted.length === 0) return Number.NaN;
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** B/A, or NaN when A is zero or either side is not a number. */
export function ratio(b: number, a: number): number {
  if (!Number.isFinite(a) || !Number.isFinite(b) || a === 0) return Number.NaN;
  return b / a;
}

/** The value of a metric in a sample; `wall` is the time of one operation, kept in p50. */
function valueOf(sample: Sample, metric: Metric): number {
  return metric === 'wall' ? sample.p50 : sample[metric];
}

export interface PairSummary {
  rounds: number;
  a: { throughput: number; p50: number; p99: number };
  b: { throughput: number; p50: number; p99: number };
  /** Median over rounds of each round's B/A (a round's A and B ran back to back). */
  ratio: { throughput: number; p50: number; p99: number };
  errors: { a: number; b: number };
  /** Median 1-minute load average over the samples. */
  load: number;
  /** Median CPU milliseconds per request of each process, for each side (where measured). */
  cpu: { a: Record<string, number>; b: Record<string, number> };
}

/** Median over samples of each key of their CPU breakdowns. */
export function medianCpu(samples: readonly Sample[]): Record<string, number> {
  const keys = [...new Set(samples.flatMap((s) => Object.keys(s.cpu ?? {})))];
  return Object.fromEntries(keys.map((k) => [k, median(samples.map((s) => s.cpu?.[k] ?? Number.NaN))]));
}

/** Medians over rounds of each side and of each round's B/A ratio. */
export function summarize(rounds: readonly Round[]): PairSummary {
  const side = (pick: (r: Round) => Sample) => ({
    throughput: median(rounds.map((r) => pick(r).throughput)),
    p50: median(rounds.map((r) => pick(r).p50)),
    p99: median(rounds.map((r) => pick(r).p99)),
  });
  const ratioOf = (metric: Metric) =>
    median(rounds.map((r) => ratio(valueOf(r.b, metric), valueOf(r.a, metric))));
  return {
    rounds: rounds.length,
    a: side((r) => r.a),
    b: side((r) => r.b),
    ratio: { throughput: ratioOf('throughput'), p50: ratioOf('p50'), p99: ratioOf('p99') },
    errors: {
      a: rounds.reduce((n, r) => n + r.a.errors, 0),
      b: rounds.reduce((n, r) => n + r.b.errors, 0),
    },
    load: median(rounds.flatMap((r) => [r.a.load, r.b.load])),
    cpu: { a: medianCpu(rounds.map((r) => r.a)), b: medianCpu(rounds.map((r) => r.b)) },
  };
}

/** The summary's ratio for a target's metric (`wall` is kept as p50). */
export function ratioFor(summary: PairSummary, metric: Metric): number {
  return metric === 'wall' || metric === 'p50' ? summary.ratio.p50 : summary.ratio[metric];
}

/** Whether a ratio meets its target; NaN never does. */
export function meets(value: number, target: Target): boolean {
  if (Number.isNaN(value)) return false;
  return target.bound === 'min' ? value >= target.value : value <= target.value;
}

export const describeTarget = (t: Target): string =>
  `${t.metric === 'throughput' ? 'thr' : t.metric} ${t.bound === 'min' ? '≥' : '≤'} ${t.value}`;

/** Fixed-point text of a number, or "–" when it is not one. */
export function fmt(value: number, digits = 1): string {
  if (!Number.isFinite(value)) return '–';
  if (Math.abs(value) >= 1000) return Math.round(value).toLocaleString('en-US');
  return value.toFixed(digits);
}

/** A plain-text table with a header rule; columns are padded to their widest cell. */
export function renderTable(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: readonly string[]) =>
    cells
      .map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i])))
      .join('  ')
      .trimEnd();
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}
