/**
 * The dashboards' charts: uPlot (canvas, small, no dependencies, no HTML strings, so it runs under the console's
 * CSP and Trusted Types) drawn inside a focusable figure whose caption and table carry the same numbers as text.
 * The canvas is hidden from assistive technology; the table is the chart for them, and for anyone who wants the
 * figures. Every figure cell names where it came from (`data-source`, `data-path`), so a test can compare it with
 * the API's answer.
 */
import type { ComponentChildren } from 'preact';
import { useEffect, useRef } from 'preact/hooks';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';

/** Colours with at least 4.5:1 contrast on white, told apart by more than hue (each series also has a label). */
export const SERIES_COLOURS = ['#0b5cad', '#b35900', '#1a7f37', '#8250df', '#b42318', '#57606a'];

export interface Series {
  label: string;
  values: number[];
}

interface ChartProps {
  /** Category labels (bars) or UTC dates `YYYY-MM-DD` (lines). */
  x: string[];
  series: Series[];
  /** Bars take one or two series (side by side); lines any number. */
  kind: 'bars' | 'lines';
  /** Formats a y value on the axis (counts by default). */
  formatY?: (value: number) => string;
  height?: number;
}

/** Whole-number steps of a count axis. */
const COUNT_STEPS = [
  1, 2, 5, 10, 20, 50, 100, 200, 500, 1_000, 2_000, 5_000, 10_000, 20_000, 50_000, 100_000, 1_000_000,
];

const dayStart = (date: string) => Date.parse(`${date}T00:00:00Z`) / 1000;

/** One uPlot chart, sized to its container and redrawn when the container's width changes. */
function Chart({ x, series, kind, formatY, height = 220 }: ChartProps) {
  const holder = useRef<HTMLDivElement>(null);
  const key = JSON.stringify([x, series, kind]);
  useEffect(() => {
    const element = holder.current;
    if (!element) return;
    const bars = kind === 'bars';
    const xs = bars ? x.map((_, i) => i) : x.map(dayStart);
    const width = () => Math.max(240, element.clientWidth);
    const options: uPlot.Options = {
      width: width(),
      height,
      legend: { show: false },
      cursor: { show: !bars, drag: { x: false, y: false } },
      scales: {
        x: bars ? { time: false, range: [-0.5, x.length - 0.5] } : { time: true },
        y: { range: (_u, _min, max) => [0, Math.max(1, max * 1.1)] },
      },
      axes: [
        bars
          ? {
              splits: () => xs,
              values: (_u, splits) => splits.map((i) => x[i] ?? ''),
              stroke: '#57606a',
              // Five or more long category names do not fit side by side in a column of the grid.
              ...(x.length > 4 && x.some((name) => name.length > 8) ? { rotate: -25, size: 60 } : {}),
            }
          : { stroke: '#57606a' },
        {
          stroke: '#57606a',
          // Counts step by whole numbers; a formatted axis (durations) by whatever fits.
          ...(formatY ? {} : { incrs: COUNT_STEPS }),
          values: (_u, splits) => splits.map((v) => (formatY ? formatY(v) : String(v))),
          size: 60,
        },
      ],
      series: [
        {},
        ...series.map((s, i) => ({
          label: s.label,
          stroke: SERIES_COLOURS[i % SERIES_COLOURS.length],
          fill: bars ? SERIES_COLOURS[i % SERIES_COLOURS.length] : undefined,
          width: bars ? 0 : 2,
          points: { show: !bars },
          // One series: centred bars; two: side by side (left and right of their category).
          paths: bars
            ? uPlot.paths.bars!({
                size: [series.length > 1 ? 0.4 : 0.6, 80],
                align: series.length > 1 ? (i === 0 ? -1 : 1) : 0,
              })
            : undefined,
        })),
      ],
    };
    const plot = new uPlot(options, [xs, ...series.map((s) => s.values)], element);
    const resize = new ResizeObserver(() => plot.setSize({ width: width(), height }));
    resize.observe(element);
    return () => {
      resize.disconnect();
      plot.destroy();
    };
  }, [key, height]);
  return <div ref={holder} class="chart" aria-hidden="true" data-testid="chart" />;
}

/**
 * A chart with its text alternative: a focusable figure (so keyboard users reach it and hear its caption and
 * summary), the chart, and a table of exactly the charted numbers.
 */
export function ChartFigure({
  id,
  title,
  summary,
  chart,
  children,
}: {
  id: string;
  title: string;
  /** One sentence saying what the chart shows, read with the caption. */
  summary: ComponentChildren;
  chart: ChartProps;
  /** The table (or text) with the same numbers. */
  children: ComponentChildren;
}) {
  return (
    <figure
      class="chart-figure"
      tabIndex={0}
      aria-labelledby={`${id}-title`}
      aria-describedby={`${id}-summary`}
      data-testid={`figure-${id}`}
    >
      <figcaption>
        <h2 id={`${id}-title`}>{title}</h2>
        <p id={`${id}-summary`} class="muted">
          {summary}
        </p>
      </figcaption>
      <Chart {...chart} />
      <Legend series={chart.series} />
      {children}
    </figure>
  );
}

/** The series' names and colours as text (uPlot's own legend is off: it is a table of hover values). */
function Legend({ series }: { series: Series[] }) {
  if (series.length < 2) return null;
  return (
    <ul class="chart-legend" aria-hidden="true">
      {series.map((s, i) => (
        <li key={s.label}>
          <span class={`swatch swatch-${i % SERIES_COLOURS.length}`} />
          {s.label}
        </li>
      ))}
    </ul>
  );
}

/** A number the API returned, shown with where it came from. */
export function Figure({
  source,
  path,
  value,
  format,
}: {
  source: string;
  path: string;
  value: number | string | null;
  format?: (value: number | string) => string;
}) {
  const text = value === null ? '—' : format ? format(value) : String(value);
  return (
    <td data-source={source} data-path={path} data-value={value === null ? 'null' : String(value)}>
      {text}
    </td>
  );
}

/** A duration in seconds as people read it: `45 s`, `12 min`, `3 h 05 min`, `2 d 4 h`. */
export function formatDuration(seconds: number | string): string {
  const s = Number(seconds);
  if (s < 60) return `${s} s`;
  const minutes = Math.floor(s / 60);
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return `${hours} h ${String(minutes % 60).padStart(2, '0')} min`;
  return `${Math.floor(hours / 24)} d ${hours % 24} h`;
}

/** The ageing bucket names as the page shows them. */
export const AGEING_LABELS: Record<string, string> = {
  under_1d: 'under 1 day',
  '1d_to_3d': '1–3 days',
  '3d_to_7d': '3–7 days',
  '7d_to_14d': '7–14 days',
  '14d_to_30d': '14–30 days',
  over_30d: 'over 30 days',
};

/** The same buckets as a chart's axis names them (the table says them in full). */
export const AGEING_AXIS: Record<string, string> = {
  under_1d: '< 1 d',
  '1d_to_3d': '1–3 d',
  '3d_to_7d': '3–7 d',
  '7d_to_14d': '7–14 d',
  '14d_to_30d': '14–30 d',
  over_30d: '> 30 d',
};

/** The trend windows the page offers (the APIs take 1 to 90 days). */
export const WINDOWS = [7, 30, 90];

/** The window in the page's URL (`?days=`), one of WINDOWS, 30 by default. */
export function windowOf(query: URLSearchParams): number {
  const days = Number(query.get('days'));
  return WINDOWS.includes(days) ? days : 30;
}
