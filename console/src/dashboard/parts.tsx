/** Pieces both dashboards are made of: the window chooser, count charts, the reviewer table, ageing. */
import { useEffect } from 'preact/hooks';
import { navigate } from '../router';
import { formatTime, label } from '../ui';
import { AGEING_AXIS, AGEING_LABELS, ChartFigure, Figure, formatDuration, WINDOWS } from './charts';

/** The figures refresh on their own every minute while the tab is visible. */
export const POLL_MS = 60_000;

export function usePolling(reload: () => void): void {
  useEffect(() => {
    const timer = window.setInterval(() => {
      if (document.visibilityState === 'visible') reload();
    }, POLL_MS);
    return () => window.clearInterval(timer);
  }, [reload]);
}

export function WindowChooser({ path, days }: { path: string; days: number }) {
  return (
    <form class="filters" onSubmit={(e) => e.preventDefault()}>
      <label>
        Trend and turnaround window
        <select
          name="days"
          value={String(days)}
          onChange={(e) => navigate(`${path}?days=${(e.target as HTMLSelectElement).value}`)}
        >
          {WINDOWS.map((d) => (
            <option key={d} value={String(d)}>
              last {d} days
            </option>
          ))}
        </select>
      </label>
    </form>
  );
}

/** Counts by value (states, decisions, dispositions) as a bar chart and its table. */
export function CountsFigure({
  id,
  title,
  source,
  path,
  counts,
}: {
  id: string;
  title: string;
  source: string;
  /** Where `counts` is in the answer (`review_status.review_states`). */
  path: string;
  counts: Record<string, number>;
}) {
  const names = Object.keys(counts);
  const total = names.reduce((sum, n) => sum + counts[n], 0);
  return (
    <ChartFigure
      id={id}
      title={title}
      summary={`${total} in all; ${names.map((n) => `${label(n)} ${counts[n]}`).join(', ')}.`}
      chart={{
        kind: 'bars',
        x: names.map(label),
        series: [{ label: title, values: names.map((n) => counts[n]) }],
      }}
    >
      <table class="list compact">
        <thead>
          <tr>
            <th scope="col">{title}</th>
            <th scope="col">Count</th>
          </tr>
        </thead>
        <tbody>
          {names.map((n) => (
            <tr key={n}>
              <th scope="row">{label(n)}</th>
              <Figure source={source} path={`${path}.${n}`} value={counts[n]} />
            </tr>
          ))}
        </tbody>
      </table>
    </ChartFigure>
  );
}

export interface ReviewerFigures {
  reviewer_id: string;
  display_name: string;
  enabled: boolean;
  verdicts: number;
  median_seconds: number | null;
  p90_seconds: number | null;
  open: number;
  oldest_assigned_at: string | null;
}

/** Turnaround per reviewer (median and p90 as bars) and the table of every reviewer figure. */
export function TurnaroundFigure({
  source,
  days,
  reviewers,
  extraColumns = [],
}: {
  source: string;
  days: number;
  reviewers: ReviewerFigures[];
  /** Columns from another answer, per reviewer (the math workload), with where each value comes from. */
  extraColumns?: Array<{
    title: string;
    cell: (r: ReviewerFigures) => { source: string; path: string; value: number } | null;
  }>;
}) {
  const timed = reviewers.filter((r) => r.median_seconds !== null);
  // The chart's unit follows the slowest p90, so a minute-long turnaround is not a flat line of hours.
  const slowest = Math.max(0, ...timed.map((r) => r.p90_seconds ?? 0));
  const [unitSeconds, unit] =
    slowest < 120 ? [1, 's'] : slowest < 7200 ? [60, 'min'] : slowest < 172_800 ? [3600, 'h'] : [86_400, 'd'];
  const inUnit = (s: number | null) => Math.round(((s ?? 0) / unitSeconds) * 10) / 10;
  return (
    <ChartFigure
      id="turnaround"
      title="Workload and turnaround per reviewer"
      summary={
        timed.length === 0
          ? `No verdict in the last ${days} days.`
          : `From assignment to verdict over the last ${days} days: ${timed
              .map(
                (r) =>
                  `${r.display_name} median ${formatDuration(r.median_seconds!)}, p90 ${formatDuration(r.p90_seconds!)}`,
              )
              .join('; ')}.`
      }
      chart={{
        kind: 'bars',
        x: timed.map((r) => r.display_name),
        series: [
          { label: `median (${unit})`, values: timed.map((r) => inUnit(r.median_seconds)) },
          { label: `p90 (${unit})`, values: timed.map((r) => inUnit(r.p90_seconds)) },
        ],
        formatY: (v) => `${v} ${unit}`,
      }}
    >
      <table class="list compact" data-testid="reviewers">
        <thead>
          <tr>
            <th scope="col">Reviewer</th>
            {extraColumns.map((c) => (
              <th scope="col" key={c.title}>
                {c.title}
              </th>
            ))}
            <th scope="col">Open</th>
            <th scope="col">Oldest open since</th>
            <th scope="col">Verdicts ({days} days)</th>
            <th scope="col">Median</th>
            <th scope="col">p90</th>
          </tr>
        </thead>
        <tbody>
          {reviewers.length === 0 && (
            <tr>
              <td colSpan={6 + extraColumns.length} class="muted">
                No reviewer has open work or a verdict in this window.
              </td>
            </tr>
          )}
          {reviewers.map((r, i) => (
            <tr key={r.reviewer_id}>
              <th scope="row">
                {r.display_name}
                {!r.enabled && <span class="muted"> (disabled)</span>}
              </th>
              {extraColumns.map((c) => {
                const cell = c.cell(r);
                return cell ? <Figure key={c.title} {...cell} /> : <td key={c.title}>—</td>;
              })}
              <Figure source={source} path={`reviewers.${i}.open`} value={r.open} />
              <Figure
                source={source}
                path={`reviewers.${i}.oldest_assigned_at`}
                value={r.oldest_assigned_at}
                format={(v) => formatTime(String(v))}
              />
              <Figure source={source} path={`reviewers.${i}.verdicts`} value={r.verdicts} />
              <Figure
                source={source}
                path={`reviewers.${i}.median_seconds`}
                value={r.median_seconds}
                format={formatDuration}
              />
              <Figure
                source={source}
                path={`reviewers.${i}.p90_seconds`}
                value={r.p90_seconds}
                format={formatDuration}
              />
            </tr>
          ))}
        </tbody>
      </table>
    </ChartFigure>
  );
}

export interface Ageing {
  buckets: Array<{ bucket: string; open: number }>;
  oldest_assigned_at: string | null;
}

/** Open assigned work by how long ago it was assigned. */
export function AgeingFigure({ source, path, ageing }: { source: string; path: string; ageing: Ageing }) {
  const open = ageing.buckets.reduce((sum, b) => sum + b.open, 0);
  return (
    <ChartFigure
      id="ageing"
      title="Ageing of assigned work"
      summary={
        open === 0
          ? 'No open assigned work.'
          : `${open} open, the oldest assigned ${formatTime(ageing.oldest_assigned_at)}.`
      }
      chart={{
        kind: 'bars',
        x: ageing.buckets.map((b) => AGEING_AXIS[b.bucket] ?? b.bucket),
        series: [{ label: 'open', values: ageing.buckets.map((b) => b.open) }],
      }}
    >
      <table class="list compact">
        <thead>
          <tr>
            <th scope="col">Assigned</th>
            <th scope="col">Open</th>
          </tr>
        </thead>
        <tbody>
          {ageing.buckets.map((b, i) => (
            <tr key={b.bucket}>
              <th scope="row">{AGEING_LABELS[b.bucket] ?? b.bucket} ago</th>
              <Figure source={source} path={`${path}.buckets.${i}.open`} value={b.open} />
            </tr>
          ))}
        </tbody>
      </table>
    </ChartFigure>
  );
}

/** A trend: one line per series over the window's days, with the day-by-day table behind a disclosure. */
export function TrendFigure({
  source,
  path,
  days,
  points,
  series,
}: {
  source: string;
  /** Where the points are in the answer (`trend.points`). */
  path: string;
  days: number;
  points: Array<Record<string, string | number> & { date: string }>;
  series: Array<{ field: string; label: string }>;
}) {
  const totals = series.map((s) => points.reduce((sum, p) => sum + Number(p[s.field]), 0));
  return (
    <ChartFigure
      id="trend"
      title={`Activity over the last ${days} days`}
      summary={`${series.map((s, i) => `${totals[i]} ${s.label}`).join(', ')} from ${points[0]?.date ?? '—'} to ${
        points[points.length - 1]?.date ?? '—'
      } (UTC days).`}
      chart={{
        kind: 'lines',
        x: points.map((p) => p.date),
        series: series.map((s) => ({ label: s.label, values: points.map((p) => Number(p[s.field])) })),
      }}
    >
      <details>
        <summary>Day by day</summary>
        <table class="list compact">
          <thead>
            <tr>
              <th scope="col">Day (UTC)</th>
              {series.map((s) => (
                <th scope="col" key={s.field}>
                  {s.label}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {points.map((p, i) => (
              <tr key={p.date}>
                <th scope="row">{p.date}</th>
                {series.map((s) => (
                  <Figure key={s.field} source={source} path={`${path}.${i}.${s.field}`} value={p[s.field]} />
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </ChartFigure>
  );
}

/** Freshness times as a definition list, each with where it came from. */
export function Freshness({
  source,
  path,
  rows,
}: {
  source: string;
  path: string;
  rows: Array<{ field: string; label: string; value: string | null }>;
}) {
  return (
    <section aria-labelledby="freshness-title">
      <h2 id="freshness-title">Freshness of imports</h2>
      <table class="list compact" data-testid="freshness">
        <tbody>
          {rows.map((r) => (
            <tr key={r.field}>
              <th scope="row">{r.label}</th>
              <Figure
                source={source}
                path={`${path}.${r.field}`}
                value={r.value}
                format={(v) =>
                  r.field.endsWith('_at')
                    ? formatTime(String(v))
                    : r.field.endsWith('_status')
                      ? label(String(v))
                      : String(v)
                }
              />
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
