import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  assignTasks,
  generateBundle,
  lastJson,
  opsImport,
  type OpsImportRun,
  runCli,
  seedPeople,
} from './dataset';
import { formatImportPhases, importPhases } from './importPhases';
import { getSide, pages } from './pairs/read';
import { type GrowthRow, growthRows, growthTable } from './growth';
import { EXPORT_MEASUREMENTS, measureExportGrowth } from './scaleExport';
import { fmt, median } from './stats';
import { resetPeakRss, rssOf, startBenchSystem, type SystemAccess } from './system';

/** Dataset sizes of a growth run: math tasks, and genomics topics (a tenth of them), both imported by `ops import`. */
export const SCALES = { '100k': 100_000, '1m': 1_000_000 } as const;
export type ScaleName = keyof typeof SCALES;

const READ_CONNECTIONS = 8;
const READ_SECONDS = 10;
const READ_ROUNDS = 3;
const REVIEWER_TASKS = 1_000;

/**
 * One scale: a fresh system, the math run and the genomics batch imported through `ops import`, 1,000 tasks assigned
 * to the Reviewer through the API, the tables vacuumed, then timed page loads of the lists, exact counts checked
 * against SQL, peak RSS of the API and the worker, `ops reconcile` / `ops verify-storage`, each in its own
 * process, timed with its peak RSS, and last the export rows (bench/scaleExport.ts): a failed export step is
 * logged and leaves its rows unmeasured (not met), so the hours before it still give their rows.
 */
async function measureScale(
  scale: number,
  log: (line: string) => void,
  keep: boolean,
): Promise<Record<string, number>> {
  const dataDir = await mkdtemp(join(tmpdir(), `referee-scale-${scale}-`));
  const system = await startBenchSystem({ dataDir, log });
  const out: Record<string, number> = {};
  try {
    const people = await seedPeople(system);
    const runId = `scale-run-${scale}`;
    const batch = 'batch-600';
    const topics = Math.max(1, Math.round(scale / 10));
    const math = await generateBundle({
      service: 'math',
      tasks: scale,
      out: join(dataDir, 'bundles', 'math'),
      seed: 1,
      runId,
    });
    const genomics = await generateBundle({
      service: 'genomics',
      tasks: topics,
      out: join(dataDir, 'bundles', 'genomics'),
      seed: 2,
      batch,
    });
    resetPeakRss(system.worker.pid);
    const phasesOf = async (run: OpsImportRun) =>
      formatImportPhases(await importPhases(system.temporal, run));
    const mathImport = await opsImport(system, math.dir);
    out['import wall, math'] = mathImport.seconds;
    log(`imported ${scale} math tasks in ${fmt(mathImport.seconds)} s (${await phasesOf(mathImport)})`);
    const genomicsImport = await opsImport(system, genomics.dir);
    out['import wall, genomics'] = genomicsImport.seconds;
    log(
      `imported ${topics} genomics topics in ${fmt(genomicsImport.seconds)} s (${await phasesOf(genomicsImport)})`,
    );
    await assignTasks(system, people, runId, REVIEWER_TASKS);
    // The worker's peak over the imports and the assignments after them (1,000 workflows started): it is reset
    // below for the pages, and the worker's highest resident set can fall in the assignments.
    const importPeak = rssOf(system.worker.pid).peakMiB;
    // The pages are measured on vacuumed tables, as autovacuum leaves them after an import (visibility map set,
    // statistics fresh), not while its vacuum of a million new rows reads and writes beside them.
    const vacuumStarted = Date.now();
    await system.dataSource.query('VACUUM (ANALYZE)');
    log(`VACUUM (ANALYZE) after the imports: ${fmt((Date.now() - vacuumStarted) / 1000)} s`);

    resetPeakRss(system.api.pid);
    resetPeakRss(system.worker.pid);
    const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
    const owner = bearer(people.mathOwner.token);
    const lists: Array<[string, Record<string, string>, (client: number, n: number) => string]> = [
      [
        'Owner list',
        owner,
        pages(`/api/math/tasks?run_id=${encodeURIComponent(runId)}&sort=oldest&page_size=100`),
      ],
      [
        'Owner q search',
        owner,
        pages(`/api/math/tasks?q=${encodeURIComponent('orbit bound')}&page_size=100`),
      ],
      [
        'Reviewer list',
        bearer(people.mathReviewer.token),
        pages(`/api/math/tasks?review_state=ASSIGNED&sort=updated&page_size=100`),
      ],
      [
        'v1 cursor',
        bearer(people.genomicsOwner.token),
        (client, n) =>
          `/api/v1/tasks?limit=100&afterBatch=${batch}&afterTopic=${1 + (((client * 7919 + n * 104_729) >>> 0) % Math.max(1, topics - 100))}`,
      ],
    ];
    for (const [name, headers, pathFor] of lists) {
      const load = getSide(system.apiUrl, headers, pathFor, READ_CONNECTIONS);
      await load(2); // warm-up
      const samples = [];
      const vacuums = watchAutovacuum(system.dataSource);
      for (let round = 0; round < READ_ROUNDS; round++) samples.push(await load(READ_SECONDS));
      const vacuumed = await vacuums.stop();
      if (vacuumed.length > 0) log(`${name}: autovacuum ran beside the pages on ${vacuumed.join(', ')}`);
      const errors = samples.reduce((sum, s) => sum + s.errors, 0);
      if (errors > 0) {
        for (const line of samples.flatMap((s) => s.errorSamples).slice(0, 5)) log(`    error: ${line}`);
        throw new Error(`${name}: ${errors} failed requests`);
      }
      out[`page p50, ${name}`] = median(samples.map((s) => s.p50));
      out[`page p99, ${name}`] = median(samples.map((s) => s.p99));
      log(`${name}: p50 ${fmt(out[`page p50, ${name}`])} ms, p99 ${fmt(out[`page p99, ${name}`])} ms`);
    }

    // Counts stay exact: the unfiltered Owner list's total and counts against a count in SQL.
    const response = await fetch(`${system.apiUrl}/api/math/tasks?page_size=1`, { headers: owner });
    const page = (await response.json()) as {
      total: number;
      counts: { review_states: Record<string, number> };
    };
    const rows: Array<{ review_state: string; n: number }> = await system.dataSource.query(
      'SELECT review_state, count(*)::int AS n FROM math_tasks GROUP BY review_state',
    );
    const sqlTotal = rows.reduce((sum, r) => sum + r.n, 0);
    const exact =
      page.total === sqlTotal && rows.every((r) => page.counts.review_states[r.review_state] === r.n);
    if (!exact) throw new Error(`counts differ: API ${JSON.stringify(page)} vs SQL ${JSON.stringify(rows)}`);
    out['exact counts (total)'] = sqlTotal;

    out['API peak RSS MiB'] = rssOf(system.api.pid).peakMiB;
    out['worker peak RSS MiB'] = Math.max(importPeak, rssOf(system.worker.pid).peakMiB);

    // Builds dist/referee.js if a source is newer, so neither tool's time includes the build.
    await runCli(['--help']);
    for (const tool of ['reconcile', 'verify-storage'] as const) {
      const run = await operatorTool(system, tool);
      out[`${tool} wall`] = run.seconds;
      out[`${tool} peak RSS MiB`] = run.peakMiB;
      log(`${tool}: ${run.summary} in ${fmt(run.seconds)} s, peak RSS ${fmt(run.peakMiB)} MiB`);
    }

    // Last: the exports' objects and transitions change nothing the rows above measured.
    try {
      Object.assign(out, await measureExportGrowth(system, people.mathOwner, runId, scale, log));
    } catch (error) {
      for (const name of EXPORT_MEASUREMENTS) out[name] ??= Number.NaN;
      log(`export step failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    }
  } finally {
    await system.stop();
    if (!keep) await rm(dataDir, { recursive: true, force: true });
  }
  return out;
}

interface OperatorReport {
  findings: unknown[];
  services?: Array<{ service: string; checked: number }>;
  objectsChecked?: number;
}

/**
 * `npm run ops -- <tool> --restart --json` as an operator runs it (the compiled CLI with its V8 flags), in a
 * process of its own: wall time from spawn to exit, that process's peak resident memory, and a summary of its
 * report (findings exit 1 with the report).
 */
async function operatorTool(system: SystemAccess, tool: 'reconcile' | 'verify-storage') {
  const run = await runCli([tool, '--restart', '--json'], system.env, [0, 1]);
  const result = lastJson<{ report?: OperatorReport; error?: { message: string; report?: OperatorReport } }>(
    run.stdout,
  );
  const report = result.report ?? result.error?.report;
  if (!report) throw new Error(`${tool} failed: ${result.error?.message ?? run.stdout.slice(-500)}`);
  const checked = report.services
    ? report.services.map((s) => `${s.service} ${s.checked} tasks`).join(', ')
    : `${report.objectsChecked} objects`;
  return {
    seconds: run.seconds,
    peakMiB: run.peakMiB,
    summary: `${checked}, ${report.findings.length} findings`,
  };
}

/**
 * Tables an autovacuum worker was seen working on (sampled every 250 ms) until `stop`: a page measurement with a
 * vacuum beside it is named in the log, so a p99 it moved is not mistaken for the query's own growth.
 */
function watchAutovacuum(db: { query: (sql: string) => Promise<Array<{ relation: string }>> }) {
  const seen = new Set<string>();
  let running = true;
  const sampling = (async () => {
    while (running) {
      const rows = await db.query(
        `SELECT p.relid::regclass::text AS relation FROM pg_stat_progress_vacuum p
           JOIN pg_stat_activity a ON a.pid = p.pid WHERE a.backend_type = 'autovacuum worker'`,
      );
      for (const row of rows) seen.add(row.relation);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  })();
  return {
    async stop(): Promise<string[]> {
      running = false;
      await sampling;
      return [...seen].sort();
    },
  };
}

/**
 * `npm run bench -- --scale 1m`: the 100,000-task scale and the 1,000,000-task scale one after the other on fresh
 * systems, and a table of each measurement at both with the ratio, its bound and whether it is met
 * (bench/growth.ts). `--scale 100k` runs the smaller one alone; `--scale-tasks n` replaces the larger size (for a
 * smoke run of the mode itself).
 */
export async function runScale(options: {
  scale: ScaleName;
  largerTasks?: number;
  log: (line: string) => void;
  keep: boolean;
}): Promise<{ table: string; rows: GrowthRow[]; results: Record<string, Record<string, number>> }> {
  // The larger scale beside the 100,000-task one; a smoke run (`largerTasks`) keeps the same tenfold step.
  const sizes = options.largerTasks
    ? [Math.max(1, Math.round(options.largerTasks / 10)), options.largerTasks]
    : options.scale === '100k'
      ? [SCALES['100k']]
      : [SCALES['100k'], SCALES[options.scale]];
  const results: Record<string, Record<string, number>> = {};
  for (const size of sizes) {
    options.log(`scale ${size.toLocaleString('en-US')} tasks`);
    results[size] = await measureScale(size, options.log, options.keep);
  }
  const rows = growthRows(sizes, results);
  return { table: growthTable(sizes, rows), rows, results };
}
