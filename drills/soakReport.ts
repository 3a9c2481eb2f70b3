import { type Check, markdownTable } from './results';

/*
 * What the soak drill reports of a run (drills/soak.ts): the minute table and the checks it passes or fails, the
 * section `--markdown` writes into docs/soak.md.
 */

export type Kind = 'read' | 'mutation' | 'download';

/** One minute of the load: requests by kind, the failures among them, and both services' resident set. */
export interface Minute {
  minute: number;
  counts: Record<Kind, number>;
  errors: number;
  /** Of the errors: 503 answers (a Temporal call past its deadline on an overloaded machine, or a dependency down). */
  unavailable: number;
  throttled: number;
  apiMiB: number;
  workerMiB: number;
}

/** Largest RSS growth allowed over the last 10 minutes of the run. */
export const RSS_GROWTH_LIMIT = 0.1;

/** The minute table of a run, as docs/soak.md shows it. */
export function formatTable(table: Minute[]): string {
  return markdownTable(
    [
      'minute',
      'req/s',
      'reads',
      'mutations',
      'downloads',
      'errors',
      'of which 503',
      '429',
      'API RSS MiB',
      'worker RSS MiB',
    ],
    table.map((m) => {
      const total = m.counts.read + m.counts.mutation + m.counts.download;
      return [
        m.minute,
        (total / 60).toFixed(1),
        m.counts.read,
        m.counts.mutation,
        m.counts.download,
        m.errors,
        m.unavailable,
        m.throttled,
        m.apiMiB.toFixed(0),
        m.workerMiB.toFixed(0),
      ].map(String);
    }),
  );
}

/**
 * RSS growth over the last 10 minutes: the mean of the last 3 samples against the mean of the 3 samples
 * starting 10 minutes before the last (one sample swings by a garbage collection; three smooth that out).
 */
export function growth(table: Minute[], field: 'apiMiB' | 'workerMiB'): number | null {
  if (table.length < 11) return null;
  const mean = (samples: Minute[]) => samples.reduce((sum, m) => sum + m[field], 0) / samples.length;
  const end = table.length;
  return mean(table.slice(end - 3)) / mean(table.slice(end - 11, end - 8)) - 1;
}

/** The drill's pass/fail rules over the minute table and the operator checks' findings after the load. */
export function verdicts(table: Minute[], reconcileFindings: number, storageFindings: number): Check[] {
  const errors = table.reduce((sum, m) => sum + m.errors, 0);
  const checks: Check[] = [
    { ok: errors === 0, text: `${errors} errors (429s are not errors: docs/limits.md)` },
    { ok: reconcileFindings === 0, text: `${reconcileFindings} reconcile findings after the load` },
    { ok: storageFindings === 0, text: `${storageFindings} verify-storage findings after the load` },
  ];
  for (const [name, field] of [
    ['API', 'apiMiB'],
    ['worker', 'workerMiB'],
  ] as const) {
    const grew = growth(table, field);
    checks.push(
      grew === null
        ? { ok: false, text: `${name} RSS growth not measured: the run needs at least 11 minutes` }
        : {
            ok: grew <= RSS_GROWTH_LIMIT,
            text: `${name} RSS grew ${(grew * 100).toFixed(1)} % over the last 10 minutes (limit ${RSS_GROWTH_LIMIT * 100} %)`,
          },
    );
  }
  return checks;
}
