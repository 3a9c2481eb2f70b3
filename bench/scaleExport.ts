import { randomUUID } from 'node:crypto';
import type { Caller } from './dataset';
import { inParallel } from './dataset';
import { sampleOf } from './load';
import { deleteExport, exportThroughApi } from './pairs/export';
import { fmt, type Round, type Sample, summarize } from './stats';
import { type BenchSystem, resetPeakRss, rssOf } from './system';

/** Closed-loop clients sending math transitions, each cycling through tasks of its own (so none is stale). */
const TRANSITION_CLIENTS = 8;
const TASKS_PER_CLIENT = 4;
const TRANSITION_ROUNDS = 3;
/** Each round's side without an export lasts the export's own wall time, within these bounds (seconds). */
const WINDOW_SECONDS = { min: 10, max: 60 };
const WARMUP_SECONDS = 3;

/** The rows {@link measureExportGrowth} measures, in its order (a failed export step leaves them NaN). */
export const EXPORT_MEASUREMENTS = [
  'export wall',
  'transitions p50 ms, without export',
  'transitions p50 ms, during export',
  'transitions p50 during / without export',
  'transitions failed',
  'API peak RSS MiB, export',
  'worker peak RSS MiB, export',
] as const;

type ScaleSystem = Pick<BenchSystem, 'apiUrl' | 'dataSource' | 'api' | 'worker'>;

interface Subject {
  taskId: string;
  version: number;
}

/** An answer's JSON body; an empty object for one that is not JSON (a proxy's or a crashed process's). */
function parsed(text: string): { task?: { version: number }; current_version?: number } {
  try {
    return JSON.parse(text) as ReturnType<typeof parsed>;
  } catch {
    return {};
  }
}

/**
 * Transitions (the Owner's `feedback` action, as the mutation pair sends it) from every client until `done()`
 * says so after an answer: each client finishes its request in flight, so none is abandoned and left stale.
 */
async function transitionsUntil(
  system: ScaleSystem,
  owner: Caller,
  clients: Subject[][],
  done: () => boolean,
): Promise<Sample & { errorSamples: string[]; timed: Array<{ sentAt: number; ms: number }> }> {
  const timed: Array<{ sentAt: number; ms: number }> = [];
  const errorSamples: string[] = [];
  let errors = 0;
  const started = performance.now();
  await Promise.all(
    clients.map(async (own) => {
      for (let n = 0; !done(); n++) {
        const subject = own[n % own.length];
        const sent = performance.now();
        const answer = await fetch(`${system.apiUrl}/api/math/tasks/${subject.taskId}`, {
          method: 'POST',
          headers: {
            authorization: `Bearer ${owner.token}`,
            'content-type': 'application/json',
            'idempotency-key': `bench-${randomUUID()}`,
          },
          body: JSON.stringify({
            version: subject.version,
            action: 'feedback',
            comment: `Growth feedback ${n}.`,
          }),
        });
        const text = await answer.text();
        const body = parsed(text);
        if (answer.status === 200 && body.task) {
          timed.push({ sentAt: sent, ms: performance.now() - sent });
          subject.version = body.task.version;
        } else {
          errors += 1;
          if (errorSamples.length < 5) errorSamples.push(`${answer.status} ${text.slice(0, 300)}`);
          if (body.current_version !== undefined) subject.version = body.current_version;
        }
      }
    }),
  );
  const latencies = timed.map((t) => t.ms);
  return { ...sampleOf(latencies, (performance.now() - started) / 1000, errors), errorSamples, timed };
}

/**
 * The export rows of one scale, on its imported run (`rows` tasks): one export of the whole run alone, timed from
 * POST to SUCCEEDED; then rounds of transitions without an export and, right after, transitions while exports of
 * the run go on back to back (at least as long as the side without, and always to the end of an export); the API's
 * and the worker's peak RSS over all of it. Each export is deleted when its round is done.
 */
export async function measureExportGrowth(
  system: ScaleSystem,
  owner: Caller,
  runId: string,
  rows: number,
  log: (line: string) => void,
): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  resetPeakRss(system.api.pid);
  resetPeakRss(system.worker.pid);
  const alone = await exportThroughApi(system.apiUrl, owner.token, runId);
  if (alone.rows !== rows)
    throw new Error(`export ${alone.id} holds ${alone.rows} rows, not the run's ${rows}`);
  out['export wall'] = alone.seconds;
  log(`export of ${rows} tasks alone: ${fmt(alone.seconds)} s`);
  await deleteExport(system.apiUrl, owner.token, alone.id);

  const found: Array<{ task_id: string; version: number }> = await system.dataSource.query(
    'SELECT task_id, version FROM math_tasks WHERE run_id = $1 ORDER BY task_id DESC LIMIT $2',
    [runId, TRANSITION_CLIENTS * TASKS_PER_CLIENT],
  );
  const subjects = found.map((r) => ({ taskId: r.task_id, version: r.version }));
  const clients = Array.from({ length: TRANSITION_CLIENTS }, (_, i) =>
    subjects.slice(i * TASKS_PER_CLIENT, (i + 1) * TASKS_PER_CLIENT),
  ).filter((own) => own.length > 0);
  // The first transition of a task starts its workflow (update-with-start): done before anything is measured.
  await inParallel(clients, TRANSITION_CLIENTS, async (own) => {
    let sent = 0;
    await transitionsUntil(system, owner, [own], () => sent++ >= own.length);
  });
  const forSeconds = (seconds: number) => {
    const until = performance.now() + seconds * 1000;
    return () => performance.now() >= until;
  };
  await transitionsUntil(system, owner, clients, forSeconds(WARMUP_SECONDS));

  const window = Math.min(WINDOW_SECONDS.max, Math.max(WINDOW_SECONDS.min, alone.seconds));
  const rounds: Round[] = [];
  for (let round = 0; round < TRANSITION_ROUNDS; round++) {
    const without = await transitionsUntil(system, owner, clients, forSeconds(window));
    const exportIds: string[] = [];
    // When each export's POST was in flight: the snapshot, which one statement takes and nothing paces.
    const snapshots: Array<{ from: number; until: number }> = [];
    let exporting = true;
    const started = performance.now();
    const exports = (async () => {
      try {
        do {
          const from = performance.now();
          const done = await exportThroughApi(system.apiUrl, owner.token, runId);
          exportIds.push(done.id);
          snapshots.push({ from, until: from + done.answeredSeconds * 1000 });
        } while (performance.now() - started < window * 1000);
      } finally {
        exporting = false;
      }
    })();
    const during = await transitionsUntil(system, owner, clients, () => !exporting);
    await exports;
    for (const id of exportIds) await deleteExport(system.apiUrl, owner.token, id);
    rounds.push({ a: without, b: during });
    const describe = (s: Sample) =>
      `p50 ${fmt(s.p50)} ms (${s.count} transitions${s.errors ? `, ${s.errors} errors` : ''})`;
    const inSnapshot = (t: { sentAt: number }) =>
      snapshots.some((x) => t.sentAt >= x.from && t.sentAt < x.until);
    const split = (pick: boolean) => during.timed.filter((t) => inSnapshot(t) === pick).map((t) => t.ms);
    const p50Of = (ms: number[]) => `p50 ${fmt(sampleOf(ms, 1).p50)} ms (${ms.length})`;
    log(
      `  transitions round ${round + 1}: without an export ${describe(without)} | during ` +
        `${exportIds.length} export${exportIds.length > 1 ? 's' : ''} ${describe(during)}: sent while a POST ` +
        `took its snapshot ${p50Of(split(true))}, while a file was written ${p50Of(split(false))}`,
    );
    for (const line of [...without.errorSamples, ...during.errorSamples]) log(`    error: ${line}`);
  }
  const summary = summarize(rounds);
  out['transitions p50 ms, without export'] = summary.a.p50;
  out['transitions p50 ms, during export'] = summary.b.p50;
  out['transitions p50 during / without export'] = summary.ratio.p50;
  out['transitions failed'] = summary.errors.a + summary.errors.b;
  out['API peak RSS MiB, export'] = rssOf(system.api.pid).peakMiB;
  out['worker peak RSS MiB, export'] = rssOf(system.worker.pid).peakMiB;
  return out;
}
