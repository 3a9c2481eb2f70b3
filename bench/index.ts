import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { projectRoot } from '../infra/paths';
import { assignTasks, createTopics, seedPeople } from './dataset';
import { type BenchContext, FULL, QUICK } from './harness';
import { dashboardPairs } from './pairs/dashboard';
import { downloadPairs } from './pairs/download';
import { exportPair } from './pairs/export';
import { importDataset, importGenomicsCampaigns, importSmallRounds } from './pairs/import';
import { mutationPairs } from './pairs/mutation';
import { webhookBenchEnv } from './pairs/webhooks';
import { readPairs } from './pairs/read';
import { markdownSection, resultFootnotes, resultTable, verdict } from './report';
import { runStamp, writeDocSection } from './docSection';
import { benchDocSection } from './docTarget';
import { summarizeProfiles } from './profile';
import { runScale, SCALES, type ScaleName } from './scale';
import { startOtlpReceiver } from './otlpReceiver';
import { startBenchSystem } from './system';
import { exitWhenDone } from './exitWhenDone';

const USAGE = `Usage: npm run bench -- [--quick] [--json <file>] [--only read,auth,dashboard,download,export,mutation,import]
                        [--engine dev|server] [--workers <n>] [--keep] [--profile-api <dir>]
                        [--profile-worker <dir>] [--tracing] [--webhooks] [--markdown]
       npm run bench -- --scale 1m [--json <file>] [--markdown]

Starts the whole system on its own infrastructure and a generated dataset, runs each pair (A = baseline,
B = ours) interleaved, and prints medians over rounds and B/A ratios. See docs/benchmark.md.

  --quick              a smoke run of the same steps (10,000 tasks, short rounds)
  --json <file>        also write the results as JSON
  --markdown           also write the run's table and the lines under it into docs/benchmark-results.md,
                       stamped with the command, commit, date and machine: a full run into the section of its --engine, --scale 1m
                       into the growth section, and --only mutation --webhooks (with none of --quick, --tasks,
                       --workers, --tracing) into the webhook section of its --engine; refused for any other
                       --quick, --only, --tasks, --workers, --tracing, --webhooks or --scale-tasks run
  --only <pairs>       run only these pairs (the dataset is always built)
  --tasks <n>          tasks of the dataset instead of the plan's (for quicker experiments)
  --engine dev|server  Temporal's dev server (default), or its own server on PostgreSQL with 16 history shards and
                       2 worker processes, as npm run start:cluster runs them; the echo baseline on the same one
  --workers <n>        worker processes polling the task queue (default 1 on the dev server, 2 on the server)
  --keep               keep the temporary data directory (logs, databases) for inspection
  --profile-api <dir>  run the API child with --cpu-prof, profiles written to <dir>
  --profile-worker <dir>
                       run the worker children with --cpu-prof (one profile per thread: the activities'
                       main thread and the workflows' thread), profiles written to <dir>
  --tracing            the API and the worker export traces (OTEL_EXPORTER_OTLP_ENDPOINT) to an OTLP/HTTP
                       receiver on loopback in the bench process; the baselines are never traced, so each
                       pair's B/A beside an untraced run's is the cost of tracing (docs/observability.md)
  --webhooks           the mutation pairs again with one webhook endpoint per service subscribed to the
                       mutation's event and a receiver on loopback: each pair's B/A beside the rows without is
                       the cost to the mutation; delivery latency (commit to receipt) p50/p99 under each load;
                       then the delivery runs: a 200-event burst (lag p99, last event), one endpoint's
                       deliveries/s, ten endpoints' fairness, and at 32 clients the mutation p50's growth and
                       the CPU per delivered event against per transition
  --scale 1m|100k      growth run instead of the pairs (the longest run; not in CI): 1,000,000 math tasks and
                       100,000 genomics topics through ops import beside the 100,000-task scale; import time,
                       page latencies, exact counts, peak RSS, reconcile and verify-storage, an export's wall
                       and memory and transitions' p50 beside it, with their bounds
  --scale-tasks <n>    the growth run at n tasks beside n/10 (a smoke run of --scale)`;

/** Peak resident memory over the whole run (the largest per-pair peak), the bound per process. */
const RSS_TARGETS_MIB = { api: 300, worker: 600 };

const PAIRS = ['read', 'auth', 'dashboard', 'download', 'export', 'mutation', 'import'] as const;

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      quick: { type: 'boolean', default: false },
      tasks: { type: 'string' },
      json: { type: 'string' },
      only: { type: 'string' },
      keep: { type: 'boolean', default: false },
      'profile-api': { type: 'string' },
      'profile-worker': { type: 'string' },
      tracing: { type: 'boolean', default: false },
      webhooks: { type: 'boolean', default: false },
      engine: { type: 'string', default: 'dev' },
      workers: { type: 'string' },
      scale: { type: 'string' },
      'scale-tasks': { type: 'string' },
      markdown: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  let docSection: string | null;
  try {
    docSection = benchDocSection(values);
  } catch (error) {
    throw new Error(`${(error as Error).message}\n\n${USAGE}`, { cause: error });
  }
  // Taken before the run, so it names the code measured (the run itself writes the doc).
  const stamp = docSection ? runStamp('npm run bench --') : null;
  if (values.scale || values['scale-tasks']) {
    const scale = (values.scale ?? '1m') as ScaleName;
    if (!Object.hasOwn(SCALES, scale)) throw new Error(`--scale: 100k or 1m, not ${scale}\n\n${USAGE}`);
    const started = performance.now();
    const log = (line: string) =>
      process.stdout.write(`[${((performance.now() - started) / 1000).toFixed(0).padStart(5)} s] ${line}\n`);
    const largerTasks = values['scale-tasks'] ? Number(values['scale-tasks']) : undefined;
    const { table, rows, results } = await runScale({ scale, largerTasks, log, keep: values.keep ?? false });
    console.log(`\n${table}`);
    const duration = `growth run in ${((performance.now() - started) / 60_000).toFixed(1)} min`;
    console.log(`- ${duration}`);
    if (values.json) await writeFile(values.json, `${JSON.stringify({ scale, results, rows }, null, 2)}\n`);
    if (stamp && docSection)
      console.log(
        `- table written to ${writeBenchDoc(docSection, markdownSection(stamp, table, [duration]))}`,
      );
    return 0;
  }
  const only = new Set(values.only ? values.only.split(',') : PAIRS);
  for (const name of only) {
    if (!(PAIRS as readonly string[]).includes(name))
      throw new Error(`--only: unknown pair ${name}\n\n${USAGE}`);
  }
  if (values.webhooks && !only.has('mutation'))
    throw new Error(`--webhooks measures the mutation pairs: keep mutation in --only\n\n${USAGE}`);
  if (values.engine !== 'dev' && values.engine !== 'server')
    throw new Error(`--engine: dev or server, not ${values.engine}\n\n${USAGE}`);
  const engine = values.engine === 'server' ? 'server' : 'dev server';
  const workers = values.workers ? Number(values.workers) : engine === 'server' ? 2 : 1;
  if (!(Number.isInteger(workers) && workers >= 1 && workers <= 8))
    throw new Error(`--workers: 1 to 8\n\n${USAGE}`);
  const plan = { ...(values.quick ? QUICK : FULL) };
  if (values.tasks) plan.mathTasks = Number(values.tasks);
  const started = performance.now();
  const elapsed = () => `${((performance.now() - started) / 1000).toFixed(0).padStart(4)} s`;
  const log = (line: string) => process.stdout.write(`[${elapsed()}] ${line}\n`);
  const loadAtStart = loadavg();
  log(
    `bench (${plan.name}, Temporal ${engine}, ${workers} worker process${workers > 1 ? 'es' : ''}${values.tracing ? ', tracing on' : ''}${values.webhooks ? ', webhooks' : ''}) ` +
      `on ${cpus().length} cores, ${(totalmem() / 2 ** 30).toFixed(0)} GiB; load average ${loadAtStart.map((l) => l.toFixed(2)).join(' ')}`,
  );
  const receiver = values.tracing ? await startOtlpReceiver() : null;

  const dataDir = await mkdtemp(join(tmpdir(), 'referee-bench-'));
  const profileDir = values['profile-api'] ? resolve(values['profile-api']) : undefined;
  const workerProfileDir = values['profile-worker'] ? resolve(values['profile-worker']) : undefined;
  const system = await startBenchSystem({
    dataDir,
    log,
    engine,
    workers,
    apiNodeFlags: profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [],
    workerNodeFlags: workerProfileDir ? ['--cpu-prof', `--cpu-prof-dir=${workerProfileDir}`] : [],
    extraEnv: {
      ...(receiver ? { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url } : {}),
      ...(values.webhooks ? webhookBenchEnv() : {}),
    },
  });
  let failure: unknown = null;
  const ctx: BenchContext = { system, people: await seedPeople(system), plan, log, results: [], notes: [] };
  try {
    const { runId } = await importDataset(ctx);
    const { campaignId } = await importGenomicsCampaigns(ctx);

    let step = performance.now();
    const assigned = await assignTasks(system, ctx.people, runId, plan.reviewerTasks);
    ctx.notes.push(
      `dataset: ${assigned.length} tasks assigned to the Reviewer through the API in ` +
        `${((performance.now() - step) / 1000).toFixed(1)} s`,
    );
    step = performance.now();
    const batch = 'batch-900';
    const topics = await createTopics(system, ctx.people, batch, plan.genomicsTopics);
    ctx.notes.push(
      `dataset: ${topics.length} genomics topics created through the API in ${((performance.now() - step) / 1000).toFixed(1)} s`,
    );
    // Statistics as autovacuum would leave them after a bulk load, so plans do not depend on its timing.
    await system.dataSource.query('ANALYZE');

    if (only.has('read') || only.has('auth')) {
      await readPairs(ctx, {
        owner: `run_id=${encodeURIComponent(runId)}&q=${encodeURIComponent('orbit bound')}&sort=oldest&page_size=100`,
        reviewer: `q=${encodeURIComponent('prime')}&review_state=ASSIGNED&sort=updated&page_size=100`,
        cursor: { batch, topics: topics.length },
      });
    }
    if (only.has('dashboard')) await dashboardPairs(ctx);
    if (only.has('download')) await downloadPairs(ctx);
    if (only.has('export')) await exportPair(ctx, runId);
    if (only.has('mutation')) {
      // A failed mutation step is reported, and the import rounds after it still run.
      try {
        const free: Array<{ task_id: string }> = await system.dataSource.query(
          `SELECT task_id FROM math_tasks WHERE run_id = $1 AND assignee_id IS NULL AND version = 0
            ORDER BY task_id DESC LIMIT 300`,
          [runId],
        );
        await mutationPairs(ctx, {
          mathTasks: free.slice(1).map((r) => r.task_id),
          topics,
          campaignId,
          oneTask: free[0].task_id,
          webhooks: values.webhooks,
        });
      } catch (error) {
        failure = error;
        log(
          `mutation step failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
        );
      }
    }
    if (only.has('import')) await importSmallRounds(ctx);
  } catch (error) {
    // The pairs measured so far are still printed (and written) below; the run then exits with 1.
    failure = error;
    log(`bench step failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  } finally {
    log('stopping');
    await system.stop();
    if (receiver) {
      ctx.notes.push(`tracing on: ${receiver.spans()} spans received by the OTLP receiver on loopback`);
      await receiver.stop();
    }
    if (!values.keep) await rm(dataDir, { recursive: true, force: true });
    else log(`data, logs and databases kept in ${dataDir}`);
  }

  const results = ctx.results.filter((r) => only.has(r.pair) || r.pair === 'import');
  const peakRss = {
    api: Math.max(0, ...results.map((r) => r.rss.api)),
    worker: Math.max(0, ...results.map((r) => r.rss.worker)),
  };
  const rss = {
    targetsMiB: RSS_TARGETS_MIB,
    peakMiB: peakRss,
    met: peakRss.api <= RSS_TARGETS_MIB.api && peakRss.worker <= RSS_TARGETS_MIB.worker,
  };
  const totalSeconds = (performance.now() - started) / 1000;
  const loadAtEnd = loadavg();
  const table = resultTable(results);
  const runLines = [
    `peak RSS over the run: API ${peakRss.api.toFixed(0)} MiB (target ≤ ${RSS_TARGETS_MIB.api}), worker ` +
      `${peakRss.worker.toFixed(0)} MiB (target ≤ ${RSS_TARGETS_MIB.worker}): ${rss.met ? 'met' : 'NOT met'}`,
    `${plan.name} run in ${(totalSeconds / 60).toFixed(1)} min; load average at start ` +
      `${loadAtStart.map((l) => l.toFixed(2)).join(' ')}, at end ${loadAtEnd.map((l) => l.toFixed(2)).join(' ')}`,
  ];
  console.log('');
  console.log(table);
  console.log('');
  for (const line of [...ctx.notes, ...resultFootnotes(results), ...runLines]) console.log(`- ${line}`);
  if (stamp && failure)
    console.log(
      '- docs/benchmark-results.md left as it was: a step failed, so the table is not the whole run',
    );
  else if (stamp && docSection) {
    const notes = [...ctx.notes, ...resultFootnotes(results, { extras: false }), ...runLines];
    console.log(`- table written to ${writeBenchDoc(docSection, markdownSection(stamp, table, notes))}`);
  }
  if (profileDir) {
    console.log(`\nCPU profile of the API (${profileDir}):`);
    for (const line of await summarizeProfiles(profileDir)) console.log(line);
  }
  if (workerProfileDir) {
    console.log(`\nCPU profiles of the worker (${workerProfileDir}):`);
    for (const line of await summarizeProfiles(workerProfileDir)) console.log(line);
  }
  if (values.json) {
    await writeFile(
      values.json,
      `${JSON.stringify(
        {
          plan,
          tracing: values.tracing ?? false,
          engine,
          workers,
          machine: { cpus: cpus().length, memoryGiB: totalmem() / 2 ** 30, loadAtStart, loadAtEnd },
          totalSeconds,
          results: results.map((r) => ({ ...r, met: verdict(r) })),
          notes: ctx.notes,
          historyEventsPerUpdate: ctx.historyEventsPerUpdate ?? null,
          webhookDelivery: ctx.webhookDelivery ?? null,
          webhookRuns: ctx.webhookRuns ?? null,
          rss,
        },
        null,
        2,
      )}\n`,
    );
    console.log(`- results written to ${values.json}`);
  }
  return failure ? 1 : 0;
}

/** Replaces a generated section of docs/benchmark-results.md. */
function writeBenchDoc(section: string, body: string): string {
  const path = join(projectRoot, 'docs', 'benchmark-results.md');
  writeDocSection(path, section, body);
  return path;
}

exitWhenDone(main, 'bench');
