import type { ImportProgress } from '../../workflows/importCommon';

export const formatBytes = (bytes: number) =>
  bytes < 1024
    ? `${bytes} B`
    : bytes < 1024 ** 2
      ? `${(bytes / 1024).toFixed(1)} KiB`
      : bytes < 1024 ** 3
        ? `${(bytes / 1024 ** 2).toFixed(1)} MiB`
        : `${(bytes / 1024 ** 3).toFixed(2)} GiB`;

export const formatDuration = (seconds: number) => {
  const s = Math.max(0, Math.round(seconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const pad = (n: number) => String(n).padStart(2, '0');
  return h > 0 ? `${h}:${pad(m)}:${pad(s % 60)}` : `${m}:${pad(s % 60)}`;
};

/** Files and bytes per second since the first sample, and the time left at that pace (null when unknown). */
export interface Pace {
  filesPerSecond: number;
  bytesPerSecond: number;
  etaSeconds: number | null;
}

export function paceOf(
  first: { at: number; p: ImportProgress },
  last: { at: number; p: ImportProgress },
): Pace {
  const seconds = (last.at - first.at) / 1000;
  if (seconds <= 0) return { filesPerSecond: 0, bytesPerSecond: 0, etaSeconds: null };
  const filesPerSecond = (last.p.filesStored - first.p.filesStored) / seconds;
  const bytesPerSecond = (last.p.bytesUploaded - first.p.bytesUploaded) / seconds;
  const left = last.p.filesTotal - last.p.filesStored;
  return {
    filesPerSecond,
    bytesPerSecond,
    etaSeconds: filesPerSecond > 0 ? left / filesPerSecond : left === 0 ? 0 : null,
  };
}

const fractionOf = (p: ImportProgress) =>
  p.filesTotal > 0 ? p.filesStored / p.filesTotal : p.phase === 'done' ? 1 : 0;

/**
 * One progress line no wider than `columns - 1` (a line as wide as the terminal wraps on some terminals, and a
 * wrapped line cannot be redrawn in place). Parts are dropped from the least useful up until it fits: the
 * record counts, the subject, the byte rate, the file rate, the ETA, the phase; the bar keeps at least 20 cells while
 * parts can go, and shrinks to 10 only when the bare percentage and counts would not fit otherwise.
 */
export function renderProgressLine(p: ImportProgress, pace: Pace, columns: number): string {
  const width = Math.max(20, columns - 1);
  const fraction = fractionOf(p);
  const percent = `${String(Math.floor(fraction * 100)).padStart(3)}%`;
  const counts = `${p.filesStored}/${p.filesTotal} files`;
  const records = Object.entries(p.records)
    .map(([kind, n]) => `${n} ${kind}`)
    .join(', ');
  // In priority order: the first ones are kept longest.
  const optional = [
    p.phase,
    pace.etaSeconds !== null && p.phase === 'uploading' ? `ETA ${formatDuration(pace.etaSeconds)}` : '',
    pace.filesPerSecond > 0 ? `${pace.filesPerSecond.toFixed(1)} files/s` : '',
    pace.bytesPerSecond > 0 ? `${formatBytes(pace.bytesPerSecond)}/s` : '',
    p.subject ?? '',
    records,
  ].filter((part) => part !== '');
  const compose = (bar: number, parts: string[]) => {
    const filled = Math.round(fraction * bar);
    const drawn = bar > 0 ? `[${'#'.repeat(filled)}${'.'.repeat(bar - filled)}] ` : '';
    return `${drawn}${percent} ${counts}${parts.length ? ` | ${parts.join(' | ')}` : ''}`;
  };
  // A readable bar (20+ cells) first, then a short one (10+) before the last parts go.
  for (const minimumBar of [20, 10]) {
    for (let kept = optional.length; kept >= 0; kept -= 1) {
      const parts = optional.slice(0, kept);
      const bar = Math.min(40, width - compose(0, parts).length - 3);
      if (bar >= minimumBar) return compose(bar, parts);
    }
  }
  return compose(0, []).slice(0, width);
}

/** A plain line for logs and pipes: what changed, no bar, no carriage return. */
export function renderProgressRecord(p: ImportProgress, pace: Pace): string {
  const parts = [
    `${p.phase}${p.subject ? ` ${p.subject}` : ''}`,
    `${p.filesStored}/${p.filesTotal} files stored (${p.filesUploaded} uploaded, ${formatBytes(p.bytesUploaded)})`,
  ];
  if (pace.filesPerSecond > 0) parts.push(`${pace.filesPerSecond.toFixed(1)} files/s`);
  if (pace.etaSeconds !== null && p.phase === 'uploading')
    parts.push(`ETA ${formatDuration(pace.etaSeconds)}`);
  return parts.join(', ');
}

export type ProgressMode = 'bar' | 'lines' | 'jsonl';

/**
 * Polls the import's progress and shows it on stderr: a bar redrawn in place on a terminal (refitted when the
 * terminal is resized), a plain line per phase and per tenth of the files otherwise, or with `--json` one JSON
 * object per change (JSON Lines). Returns the function that stops it, drawing the final state when given.
 */
export function showProgress(
  query: () => Promise<ImportProgress>,
  mode: ProgressMode,
  stream: NodeJS.WriteStream = process.stderr,
): (final?: ImportProgress) => void {
  let first: { at: number; p: ImportProgress } | undefined;
  let lastKey = '';
  let drawn = false;
  const draw = (p: ImportProgress) => {
    const sample = { at: Date.now(), p };
    if (!first || (first.p.phase !== 'uploading' && p.phase === 'uploading')) first = sample;
    const pace = paceOf(first, sample);
    if (mode === 'bar') {
      stream.write(`\r${renderProgressLine(p, pace, stream.columns || 80)}\x1b[K`);
      drawn = true;
      return;
    }
    const key = `${p.phase}:${Math.floor(fractionOf(p) * 10)}`;
    if (key === lastKey) return;
    lastKey = key;
    stream.write(
      mode === 'jsonl'
        ? `${JSON.stringify({ progress: p, files_per_second: pace.filesPerSecond, eta_seconds: pace.etaSeconds })}\n`
        : `${renderProgressRecord(p, pace)}\n`,
    );
  };
  // One query at a time: while a worker is slow to answer, queries must not pile up, since each one still
  // waiting when the workflow closes makes a worker replay the closed workflow's whole history to answer it.
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  const pollLater = () => {
    timer = setTimeout(() => {
      query()
        .then((p) => {
          if (!stopped) draw(p);
        })
        .catch(() => undefined)
        .finally(() => {
          if (!stopped) pollLater();
        });
    }, PROGRESS_POLL_MS);
  };
  pollLater();
  return (final) => {
    stopped = true;
    clearTimeout(timer);
    if (final) draw(final);
    if (mode === 'bar' && drawn) stream.write('\n');
  };
}

/** How long `showProgress` waits after an answer before it asks again. */
export const PROGRESS_POLL_MS = 500;

/**
 * The progress fields of an import workflow's result, which ends with its final progress: the last state to show
 * without querying the closed workflow, which a worker would answer by replaying its whole history (the longer,
 * the larger the import).
 */
export function finalProgressOf(result: ImportProgress): ImportProgress {
  const { service, phase, subject, filesTotal, filesStored, filesUploaded, bytesUploaded, records, error } =
    result;
  return { service, phase, subject, filesTotal, filesStored, filesUploaded, bytesUploaded, records, error };
}
