/**
 * The growth run's table (`npm run bench -- --scale 1m`): each measurement at each scale, the ratio from the
 * smaller scale to the larger, its bound and whether it is met. No I/O here, so it is unit-tested
 * (test/unit/benchGrowth.test.ts).
 */
import { fmt, renderTable } from './stats';

/** What each measurement may grow by from the smaller scale to the larger (the bounds for ten times the data). */
export const GROWTH_BOUNDS: Record<string, number> = {
  'import wall, math': 11,
  'import wall, genomics': 11,
  'page p50, Owner list': 1.2,
  'page p99, Owner list': 1.2,
  'page p50, Owner q search': 1.2,
  'page p99, Owner q search': 1.2,
  'page p50, Reviewer list': 1.2,
  'page p99, Reviewer list': 1.2,
  'page p50, v1 cursor': 1.2,
  'page p99, v1 cursor': 1.2,
  'reconcile wall': 11,
  'verify-storage wall': 11,
  // "Flat": within the pages' 1.2 for ten times the data.
  'reconcile peak RSS MiB': 1.2,
  'verify-storage peak RSS MiB': 1.2,
  'export wall': 11,
};

/**
 * Measurements whose bound holds at every scale, not as a growth ratio: the full bench's RSS targets (MiB), and
 * the p50 of transitions during an export over the p50 of the same run's transitions without one.
 */
export const ABSOLUTE_BOUNDS: Record<string, number> = {
  'API peak RSS MiB': 300,
  'worker peak RSS MiB': 600,
  'API peak RSS MiB, export': 300,
  'worker peak RSS MiB, export': 600,
  'transitions p50 during / without export': 1.2,
};

export type Verdict = 'yes' | 'NO' | '';

export interface GrowthRow {
  measurement: string;
  /** The measurement at each scale, smaller first (NaN where it was not measured). */
  values: number[];
  /** Larger over smaller; NaN with one scale. */
  ratio: number;
  bound: string;
  /** Unbounded rows: ''. A bounded row whose value (or ratio) was not measured is not met. */
  met: Verdict;
}

const verdict = (ok: boolean): Verdict => (ok ? 'yes' : 'NO');

/**
 * One row per measurement seen at any scale (in the order measured), with its bound: a growth bound is judged on
 * the ratio (only with two scales), an absolute bound on the value at every scale.
 */
export function growthRows(
  sizes: readonly number[],
  results: Record<string, Record<string, number>>,
): GrowthRow[] {
  const names = [...new Set(sizes.flatMap((size) => Object.keys(results[size] ?? {})))];
  return names.map((measurement) => {
    const values = sizes.map((size) => results[size]?.[measurement] ?? Number.NaN);
    const ratio = values.length > 1 ? values[values.length - 1] / values[0] : Number.NaN;
    const growth = GROWTH_BOUNDS[measurement];
    const absolute = ABSOLUTE_BOUNDS[measurement];
    if (growth !== undefined)
      return {
        measurement,
        values,
        ratio,
        bound: `ratio ≤ ${growth}`,
        // NaN compares false: a failed measurement is not met.
        met: values.length > 1 ? verdict(ratio <= growth) : '',
      };
    if (absolute !== undefined)
      return {
        measurement,
        values,
        ratio,
        bound: `≤ ${absolute}`,
        met: verdict(values.every((v) => v <= absolute)),
      };
    return { measurement, values, ratio, bound: '', met: '' };
  });
}

/** A measured value: counts whole, small values (ratios, seconds) to hundredths, the rest to tenths. */
const cell = (value: number) => fmt(value, Number.isInteger(value) ? 0 : value < 10 ? 2 : 1);

/** The printed table of {@link growthRows}: a column per scale, then the ratio, the bound and the verdict. */
export function growthTable(sizes: readonly number[], rows: readonly GrowthRow[]): string {
  const header = ['measurement', ...sizes.map((s) => s.toLocaleString('en-US')), 'ratio', 'bound', 'met'];
  const cells = rows.map((row) => [
    row.measurement,
    ...row.values.map(cell),
    sizes.length > 1 ? fmt(row.ratio, 2) : '',
    row.bound,
    row.met,
  ]);
  return renderTable(header, cells);
}
