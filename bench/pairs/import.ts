import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { PutObjectCommand } from '@aws-sdk/client-s3';
import { PARALLEL_CHUNKS, UPLOADS_PER_CHUNK } from '../../workflows/importCommon';
import { generateBundle, inParallel, opsImport } from '../dataset';
import { formatImportPhases, type ImportPhases, importPhases } from '../importPhases';
import { type BenchContext, readPeaks, recordPair, resetPeaks } from '../harness';
import type { Round, Sample, Target } from '../stats';
import { loadavg } from 'node:os';

export const IMPORT_TARGETS: Target[] = [{ metric: 'wall', bound: 'max', value: 1.3 }];

/** Uploads in flight in the raw baseline: the import's own (upload activities at once × uploads in each). */
export const RAW_PUT_CONCURRENCY = PARALLEL_CHUNKS * UPLOADS_PER_CHUNK;

interface MathManifest {
  run: { run_id: string; title: string; source?: string; started_at?: string; completed_at?: string };
  topics: Array<{ topic_id: string; title: string }>;
  artifacts?: ArtifactRecord[];
  artifacts_file?: { path: string };
  reports?: ReportRecord[];
  reports_file?: { path: string };
  tasks?: TaskRecord[];
  tasks_file?: { path: string };
  evidence?: EvidenceRecord[];
  evidence_file?: { path: string };
}

interface ArtifactRecord {
  artifact_id: string;
  path: string;
  kind: string;
  class: string;
  media_type: string;
  size_bytes: number;
  sha256?: string;
}

interface ReportRecord {
  report_id: string;
  artifact_id: string;
  source_id?: string | null;
}

interface TaskRecord {
  task_id: string;
  topic_id: string;
  question_id: string;
  title: string;
  problem: string;
  report_id: string | null;
}

interface EvidenceRecord {
  task_id: string;
  report_id: string;
  rubric?: unknown;
  review?: unknown;
  quality_gate?: unknown;
}

/** A record list of the bundle: inline in the manifest, or one JSON object per line of its `<key>_file`. */
async function records<T>(
  dir: string,
  inline: T[] | undefined,
  file: { path: string } | undefined,
): Promise<T[]> {
  if (inline) return inline;
  if (!file) return [];
  const text = await readFile(join(dir, file.path), 'utf8');
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as T);
}

const SHADOW_TABLES = [
  'math_runs',
  'math_topics',
  'math_artifacts',
  'math_reports',
  'math_tasks',
  'math_task_evidence',
];

/**
 * The baseline's tables: copies of the real ones (columns, defaults, checks and indexes, trigram ones
 * included) in schema `bench_raw`, with the same foreign keys among themselves.
 */
async function createShadowTables(ctx: BenchContext): Promise<void> {
  await ctx.system.dataSource.query(`
    CREATE SCHEMA IF NOT EXISTS bench_raw;
    ${SHADOW_TABLES.map((t) => `CREATE TABLE IF NOT EXISTS bench_raw.${t} (LIKE public.${t} INCLUDING ALL);`).join('\n')}
    ALTER TABLE bench_raw.math_topics ADD FOREIGN KEY (latest_run_id) REFERENCES bench_raw.math_runs (run_id);
    ALTER TABLE bench_raw.math_artifacts ADD FOREIGN KEY (run_id) REFERENCES bench_raw.math_runs (run_id);
    ALTER TABLE bench_raw.math_reports ADD FOREIGN KEY (artifact_id) REFERENCES bench_raw.math_artifacts (artifact_id);
    ALTER TABLE bench_raw.math_tasks ADD FOREIGN KEY (run_id) REFERENCES bench_raw.math_runs (run_id),
      ADD FOREIGN KEY (topic_id) REFERENCES bench_raw.math_topics (topic_id),
      ADD FOREIGN KEY (report_id) REFERENCES bench_raw.math_reports (report_id);
    ALTER TABLE bench_raw.math_task_evidence ADD FOREIGN KEY (task_id) REFERENCES bench_raw.math_tasks (task_id);
  `);
}

interface RawImportTimes {
  seconds: number;
  /** From reading the manifest to the last PutObject. */
  readAndPutSeconds: number;
  insertSeconds: number;
}

const formatRawImport = (raw: RawImportTimes): string =>
  `read and PUT ${raw.readAndPutSeconds.toFixed(1)} s, insert ${raw.insertSeconds.toFixed(1)} s`;

/**
 * The physical floor of an import: read the manifest, PutObject every file at the import's concurrency
 * (no hashing, no existence check), then insert the same rows in one transaction, one statement per table.
 */
async function rawImport(ctx: BenchContext, dir: string, round: string): Promise<RawImportTimes> {
  const { system } = ctx;
  const db = system.dataSource;
  await db.query(`TRUNCATE ${SHADOW_TABLES.map((t) => `bench_raw.${t}`).join(', ')}`);
  const started = performance.now();
  const bytes = await readFile(join(dir, 'manifest.json'));
  const m = JSON.parse(bytes.toString('utf8')) as MathManifest;
  const runId = m.run.run_id;
  const artifacts = await records(dir, m.artifacts, m.artifacts_file);
  const reports = await records(dir, m.reports, m.reports_file);
  const tasks = await records(dir, m.tasks, m.tasks_file);
  const evidence = await records(dir, m.evidence, m.evidence_file);
  const objectKey = (artifactId: string) => `bench-raw/${round}/${artifactId}`;
  await inParallel(artifacts, RAW_PUT_CONCURRENCY, async (a) => {
    await system.s3.send(
      new PutObjectCommand({
        Bucket: system.config.s3.bucket,
        Key: objectKey(a.artifact_id),
        Body: createReadStream(join(dir, a.path)),
        ContentLength: a.size_bytes,
        ContentType: a.media_type,
      }),
    );
  });
  const readAndPutDone = performance.now();
  const json = (value: unknown) => (value ? JSON.stringify(value) : null);
  await db.transaction(async (tx) => {
    await tx.query(
      `INSERT INTO bench_raw.math_runs (run_id, title, source, started_at, completed_at, bundle_sha256)
       VALUES ($1, $2, $3, $4, $5, $6)`,
      [
        runId,
        m.run.title,
        m.run.source ?? null,
        m.run.started_at ?? null,
        m.run.completed_at ?? null,
        createHash('sha256').update(bytes).digest('hex'),
      ],
    );
    await tx.query(
      `INSERT INTO bench_raw.math_topics (topic_id, title, latest_run_id)
       SELECT t.id, t.title, $1 FROM unnest($2::text[], $3::text[]) AS t(id, title)`,
      [runId, m.topics.map((t) => t.topic_id), m.topics.map((t) => t.title)],
    );
    await tx.query(
      `INSERT INTO bench_raw.math_artifacts (artifact_id, run_id, kind, class, source_path, filename, media_type,
         object_key, size_bytes, sha256)
       SELECT a.id, $1, a.kind, a.class, a.path, regexp_replace(a.path, '^.*/', ''), a.media_type, a.object_key,
         a.size_bytes, a.sha256
         FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::bigint[], $9::text[])
           AS a(id, kind, class, path, media_type, object_key, size_bytes, sha256)`,
      [
        runId,
        artifacts.map((a) => a.artifact_id),
        artifacts.map((a) => a.kind),
        artifacts.map((a) => a.class),
        artifacts.map((a) => a.path),
        artifacts.map((a) => a.media_type),
        artifacts.map((a) => objectKey(a.artifact_id)),
        artifacts.map((a) => a.size_bytes),
        artifacts.map((a) => a.sha256 ?? '0'.repeat(64)),
      ],
    );
    await tx.query(
      `INSERT INTO bench_raw.math_reports (report_id, run_id, artifact_id, source_id)
       SELECT r.id, $1, r.artifact_id, r.source_id FROM unnest($2::text[], $3::text[], $4::text[]) AS r(id, artifact_id, source_id)`,
      [
        runId,
        reports.map((r) => r.report_id),
        reports.map((r) => r.artifact_id),
        reports.map((r) => r.source_id ?? null),
      ],
    );
    await tx.query(
      `INSERT INTO bench_raw.math_tasks (task_id, run_id, topic_id, question_id, title, problem, report_id)
       SELECT x.id, $1, x.topic_id, x.question_id, x.title, x.problem, x.report_id
         FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[])
           AS x(id, topic_id, question_id, title, problem, report_id)`,
      [
        runId,
        tasks.map((t) => t.task_id),
        tasks.map((t) => t.topic_id),
        tasks.map((t) => t.question_id),
        tasks.map((t) => t.title),
        tasks.map((t) => t.problem),
        tasks.map((t) => t.report_id),
      ],
    );
    await tx.query(
      `INSERT INTO bench_raw.math_task_evidence (task_id, run_id, report_id, rubric, review, quality_gate)
       SELECT e.task_id, $1, e.report_id, e.rubric, e.review, e.quality_gate
         FROM unnest($2::text[], $3::text[], $4::jsonb[], $5::jsonb[], $6::jsonb[])
           AS e(task_id, report_id, rubric, review, quality_gate)`,
      [
        runId,
        evidence.map((e) => e.task_id),
        evidence.map((e) => e.report_id),
        evidence.map((e) => json(e.rubric)),
        evidence.map((e) => json(e.review)),
        evidence.map((e) => json(e.quality_gate)),
      ],
    );
  });
  const done = performance.now();
  return {
    seconds: (done - started) / 1000,
    readAndPutSeconds: (readAndPutDone - started) / 1000,
    insertSeconds: (done - readAndPutDone) / 1000,
  };
}

/** One import as a sample: throughput in tasks per second, the wall time (ms) in p50 and p99. */
const importSample = (tasks: number, seconds: number): Sample => ({
  throughput: tasks / seconds,
  p50: seconds * 1000,
  p99: seconds * 1000,
  count: 1,
  errors: 0,
  load: loadavg()[0],
});

/**
 * Raw then `ops import` of one generated bundle; the worker's peak RSS is the one during `ops import`. Each side's
 * time is split into its phases (the raw side's reading and PUTs, then its inserts; ours from the import
 * workflow's history).
 */
async function importRound(ctx: BenchContext, dir: string, tasks: number, round: string) {
  const raw = await rawImport(ctx, dir, round);
  resetPeaks(ctx);
  const ops = await opsImport(ctx.system, dir);
  const peaks = readPeaks(ctx);
  const phases = await importPhases(ctx.system.temporal, ops);
  ctx.log(
    `  import ${round}: raw ${raw.seconds.toFixed(1)} s (${formatRawImport(raw)}) | ` +
      `ops import ${ops.seconds.toFixed(1)} s (${formatImportPhases(phases)}) | ` +
      `worker peak ${peaks.worker.toFixed(0)} MiB | load ${loadavg()[0].toFixed(2)}`,
  );
  const result: Round = { a: importSample(tasks, raw.seconds), b: importSample(tasks, ops.seconds) };
  return { round: result, peaks, opsResult: ops.result, phases: { raw, ops: phases } };
}

/** Generates the dataset bundle and imports it (the import pair's large size); returns its run id. */
export async function importDataset(ctx: BenchContext): Promise<{ runId: string }> {
  const { plan, system, log } = ctx;
  await createShadowTables(ctx);
  const out = join(system.dataDir, 'bundles', `math-${plan.mathTasks}`);
  const generated = await generateBundle({ service: 'math', tasks: plan.mathTasks, out, seed: 1 });
  ctx.notes.push(
    `dataset: generator made ${plan.mathTasks.toLocaleString('en-US')} tasks in ${generated.seconds.toFixed(1)} s ` +
      `(${JSON.stringify(generated.counts)})`,
  );
  log(`generated ${generated.id} in ${generated.seconds.toFixed(1)} s; importing (raw, then ops import)`);
  const { round, peaks, opsResult, phases } = await importRound(
    ctx,
    out,
    plan.mathTasks,
    `n${plan.mathTasks}`,
  );
  recordPair(ctx, {
    pair: 'import',
    variant: `${plan.mathTasks.toLocaleString('en-US')} tasks`,
    concurrency: RAW_PUT_CONCURRENCY,
    targets: IMPORT_TARGETS,
    rounds: [round],
    rss: peaks,
    extra: { opsImport: opsResult, phases },
  });
  ctx.notes.push(
    `import ${plan.mathTasks.toLocaleString('en-US')} tasks, by phase: raw ${formatRawImport(phases.raw)} | ` +
      `ours ${formatImportPhases(phases.ops)}`,
  );
  return { runId: generated.id };
}

/** The smaller import size, several rounds, each on a bundle of its own seed (so nothing is deduplicated). */
export async function importSmallRounds(ctx: BenchContext): Promise<void> {
  const { plan, system } = ctx;
  const rounds: Round[] = [];
  const phasesOfRounds: Array<{ raw: RawImportTimes; ops: ImportPhases }> = [];
  let worker = 0;
  let api = 0;
  for (let i = 0; i < plan.importSmallRounds; i++) {
    const seed = 100 + i;
    const out = join(system.dataDir, 'bundles', `math-${plan.importSmallTasks}-s${seed}`);
    await generateBundle({ service: 'math', tasks: plan.importSmallTasks, out, seed });
    const { round, peaks, phases } = await importRound(
      ctx,
      out,
      plan.importSmallTasks,
      `n${plan.importSmallTasks}-s${seed}`,
    );
    rounds.push(round);
    phasesOfRounds.push(phases);
    worker = Math.max(worker, peaks.worker);
    api = Math.max(api, peaks.api);
  }
  recordPair(ctx, {
    pair: 'import',
    variant: `${plan.importSmallTasks.toLocaleString('en-US')} tasks`,
    concurrency: RAW_PUT_CONCURRENCY,
    targets: IMPORT_TARGETS,
    rounds,
    rss: { api, worker },
    extra: { phases: phasesOfRounds },
  });
}

/**
 * A small generated genomics bundle through `ops import`: the campaigns that decision overrides name come
 * in the way they do in production (imports are the only source of campaigns). Returns an open campaign.
 */
export async function importGenomicsCampaigns(ctx: BenchContext): Promise<{ campaignId: string }> {
  const { system } = ctx;
  const out = join(system.dataDir, 'bundles', 'genomics-campaigns');
  const generated = await generateBundle({
    service: 'genomics',
    tasks: 50,
    out,
    seed: 7,
    batch: 'batch-800',
  });
  const ops = await opsImport(system, out);
  ctx.notes.push(
    `dataset: genomics bundle of 50 topics (campaigns, clients, measurements, revisions) imported in ` +
      `${ops.seconds.toFixed(1)} s`,
  );
  const [open]: Array<{ id: string }> = await system.dataSource.query(
    `SELECT id FROM genomics_campaigns WHERE status = 'OPEN' ORDER BY id LIMIT 1`,
  );
  if (!open) throw new Error(`the genomics bundle ${generated.id} brought no open campaign`);
  return { campaignId: open.id };
}
