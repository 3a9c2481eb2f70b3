import { createHash } from 'node:crypto';
import { createWriteStream, type WriteStream } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { gzipSync } from 'node:zlib';

/**
 * Writes a realistic synthetic bundle of any size for tests and the benchmark, deterministic for a seed:
 * every record is derived from (seed, kind, index), so sections are streamed to disk one record at a time and
 * the bundle is never held in memory (only one small number per question or topic).
 *
 *   npm run generate:bundle -- --service math --tasks 100000 --out <dir> [--seed 1] [--artifact-bytes N]
 *                              [--layout jsonl|inline]
 *   npm run generate:bundle -- --service genomics --tasks 5000 --out <dir> [--seed 1] [--batch batch-101]
 *
 * Math: topics of 40 questions, 1–5 tasks per question, one report per mapped question shared by its tasks
 * (15% of questions unmapped, 4% of mapped tasks null-mapped), checkpoints (gzip), private and provenance
 * files, public inputs/tasks JSON per topic, per-task evidence, and clients on 30% of tasks.
 * Genomics: `--tasks` topics with markdown, measurements in both scopes (some without evidence), reports,
 * revisions with package files and publications, campaigns and clients.
 */
export interface GenerateOptions {
  service: 'math' | 'genomics';
  /** Math: tasks; genomics: topics. */
  tasks: number;
  out: string;
  seed?: number;
  /** Approximate size of each report (and the uncompressed size of each checkpoint / 4). */
  artifactBytes?: number;
  /** Math: tasks and evidence in JSONL files beside the manifest (default) or inline in it. */
  layout?: 'inline' | 'jsonl';
  /** Math run id; default `synthetic-s<seed>-n<tasks>`. */
  runId?: string;
  /** Genomics batch; default `batch-<100 + seed>`. */
  batch?: string;
}

export interface GeneratedBundle {
  dir: string;
  id: string;
  counts: Record<string, number>;
}

const QUESTIONS_PER_TOPIC = 40;
const CLIENTS = 12;
const WORDS = (
  'prime lattice orbit bound integer cycle graph vertex sequence limit series modulus residue polynomial ' +
  'field group ring kernel matrix eigenvalue measure integral partition tiling coloring walk chain ' +
  'invariant symmetry divisor fraction square cube root digit sum product'
).split(' ');
const CLIENT_NAMES = ['Aurora', 'Borealis', 'Cobalt', 'Delta', 'Ember', 'Fjord', 'Granite', 'Helios'];

/** A small seeded PRNG (mulberry32) for one record, keyed by the seed, a record kind and its index. */
function rngFor(seed: number, kind: string, index: number): () => number {
  let h = (seed ^ 0x9e3779b9) >>> 0;
  for (const c of `${kind}:${index}`) h = Math.imul(h ^ c.charCodeAt(0), 0x01000193) >>> 0;
  let a = h;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const pick = <T>(rand: () => number, list: readonly T[]): T => list[Math.floor(rand() * list.length)];
const words = (rand: () => number, n: number) => Array.from({ length: n }, () => pick(rand, WORDS)).join(' ');
const sentence = (rand: () => number, n: number) => {
  const text = words(rand, n);
  return `${text[0].toUpperCase()}${text.slice(1)}.`;
};
const pad = (n: number, width = 6) => String(n).padStart(width, '0');
const sha256 = (bytes: Buffer | string) => createHash('sha256').update(bytes).digest('hex');
const isoAt = (base: number, minutes: number) => new Date(base + minutes * 60_000).toISOString();

/** Streams JSON text to a file, honouring back-pressure. */
class JsonStream {
  private readonly stream: WriteStream;
  private first = true;

  constructor(path: string) {
    this.stream = createWriteStream(path);
  }

  async raw(text: string): Promise<void> {
    if (!this.stream.write(text)) await new Promise<void>((done) => this.stream.once('drain', done));
  }

  async open(key: string): Promise<void> {
    this.first = true;
    await this.raw(`,\n"${key}": [`);
  }

  async item(value: unknown): Promise<void> {
    await this.raw(`${this.first ? '\n' : ',\n'}${JSON.stringify(value)}`);
    this.first = false;
  }

  async close(): Promise<void> {
    await this.raw('\n]');
  }

  async end(): Promise<void> {
    await new Promise<void>((done, fail) =>
      this.stream.end((error?: Error | null) => (error ? fail(error) : done())),
    );
  }
}

/** A JSONL file written a record per line, hashed as it is written. */
class JsonlFile {
  private readonly out: JsonStream;
  private readonly hash = createHash('sha256');

  constructor(path: string) {
    this.out = new JsonStream(path);
  }

  async item(value: unknown): Promise<void> {
    const line = `${JSON.stringify(value)}\n`;
    this.hash.update(line);
    await this.out.raw(line);
  }

  async end(): Promise<string> {
    await this.out.end();
    return this.hash.digest('hex');
  }
}

/**
 * Writes a list of records either inline in the manifest or (layout `jsonl`) to `<key>.jsonl` beside it,
 * returning the manifest entry that names that file.
 */
async function recordList(
  out: JsonStream,
  dir: string,
  key: string,
  layout: 'inline' | 'jsonl',
  write: (item: (value: unknown) => Promise<void>) => Promise<void>,
): Promise<Record<string, { path: string; sha256: string }>> {
  if (layout === 'inline') {
    await out.open(key);
    await write((value) => out.item(value));
    await out.close();
    return {};
  }
  const file = new JsonlFile(join(dir, `${key}.jsonl`));
  await write((value) => file.item(value));
  return { [`${key}_file`]: { path: `${key}.jsonl`, sha256: await file.end() } };
}

/** Writes a bundle file and returns the manifest's view of it (size always, SHA-256 for 90% of files). */
async function bundleFile(dir: string, path: string, bytes: Buffer | string, withSha: boolean) {
  await mkdir(dirname(join(dir, path)), { recursive: true });
  await writeFile(join(dir, path), bytes);
  const size = typeof bytes === 'string' ? Buffer.byteLength(bytes) : bytes.length;
  return withSha ? { size_bytes: size, sha256: sha256(bytes) } : { size_bytes: size };
}

/** Text of about `bytes` bytes, in paragraphs of pseudo-mathematical prose. */
function prose(rand: () => number, bytes: number): string {
  const parts: string[] = [];
  let length = 0;
  while (length < bytes) {
    const paragraph = Array.from({ length: 3 }, () => sentence(rand, 8 + Math.floor(rand() * 8))).join(' ');
    parts.push(paragraph);
    length += paragraph.length + 2;
  }
  return parts.join('\n\n');
}

/** Math run bundle (docs/bundles/math-run.md). */
export async function generateMathBundle(options: GenerateOptions): Promise<GeneratedBundle> {
  const seed = options.seed ?? 1;
  const total = options.tasks;
  const artifactBytes = options.artifactBytes ?? 1024;
  const layout = options.layout ?? 'jsonl';
  const runId = options.runId ?? `synthetic-s${seed}-n${total}`;
  const prefix = `s${seed}n${total}`;
  const dir = resolve(options.out);
  await mkdir(join(dir, 'files'), { recursive: true });
  const base = Date.UTC(2026, 9, 1, 8, 0, 0) + (seed % 100) * 86_400_000;

  // Question sizes are the only per-record state: 1 to 5 tasks each, until the requested total.
  const sizes: number[] = [];
  const sizeRand = rngFor(seed, 'sizes', 0);
  for (let left = total; left > 0;) {
    const size = Math.min(left, 1 + Math.floor(sizeRand() * 5));
    sizes.push(size);
    left -= size;
  }
  const questionCount = sizes.length;
  const topicCount = Math.max(1, Math.ceil(questionCount / QUESTIONS_PER_TOPIC));
  const topicId = (t: number) => `${prefix}-topic-${pad(t, 4)}`;
  const questionId = (q: number) => `${prefix}-q${pad(q)}`;
  const reportId = (q: number) => `${prefix}-report-${pad(q)}`;
  const clientName = (c: number) => `${CLIENT_NAMES[c % CLIENT_NAMES.length]} Research ${pad(c + 1, 2)}`;
  const question = (q: number) => {
    const rand = rngFor(seed, 'question', q);
    return {
      mapped: rand() >= 0.15,
      checkpoint: rand() < 0.15,
      private: rand() < 0.05,
      provenance: rand() < 0.05,
      rand,
    };
  };

  const out = new JsonStream(join(dir, 'manifest.json'));
  await out.raw(
    `{\n"format": "referee.math-run/1",\n"run": ${JSON.stringify({
      run_id: runId,
      title: `Synthetic run (seed ${seed}, ${total} tasks)`,
      source: 'scripts/generateBundle.ts',
      started_at: isoAt(base, 0),
      completed_at: isoAt(base, 600),
    })}`,
  );
  await out.open('clients');
  for (let c = 0; c < CLIENTS; c++)
    await out.item({ name: clientName(c), description: `Synthetic client ${c + 1} (seed ${seed})` });
  await out.close();
  await out.open('topics');
  for (let t = 0; t < topicCount; t++) {
    await out.item({ topic_id: topicId(t), title: `Topic ${t + 1}: ${words(rngFor(seed, 'topic', t), 3)}` });
  }
  await out.close();

  let artifacts = 0;
  await out.open('artifacts');
  const artifact = async (
    id: string,
    path: string,
    kind: string,
    cls: string,
    mediaType: string,
    bytes: Buffer | string,
  ) => {
    const withSha = rngFor(seed, 'sha', artifacts)() >= 0.1;
    const file = await bundleFile(dir, path, bytes, withSha);
    await out.item({ artifact_id: id, path, kind, class: cls, media_type: mediaType, ...file });
    artifacts += 1;
  };
  for (let q = 0; q < questionCount; q++) {
    const qq = question(q);
    const folder = `files/${pad(Math.floor(q / QUESTIONS_PER_TOPIC), 4)}`;
    if (qq.mapped) {
      const text = `# Report ${questionId(q)}\n\n${prose(qq.rand, artifactBytes)}\n`;
      await artifact(
        `${reportId(q)}-md`,
        `${folder}/q${pad(q)}-report.md`,
        'REPORT',
        'STANDARD',
        'text/markdown',
        text,
      );
      if (qq.checkpoint) {
        const state = JSON.stringify({
          question: questionId(q),
          step: 10_000,
          state: prose(qq.rand, artifactBytes * 4),
        });
        await artifact(
          `${prefix}-ckpt-${pad(q)}`,
          `${folder}/q${pad(q)}-step10000.json.gz`,
          'CHECKPOINT',
          'STANDARD',
          'application/gzip',
          gzipSync(state),
        );
      }
    }
    if (qq.private) {
      const notes = `Grader notes for ${questionId(q)}: ${sentence(qq.rand, 12)}\n`;
      await artifact(
        `${prefix}-private-${pad(q)}`,
        `${folder}/q${pad(q)}-grader.txt`,
        'EVIDENCE',
        'PRIVATE',
        'text/plain',
        notes,
      );
    }
    if (qq.provenance) {
      // The same bytes for every question: stored once, content-addressed.
      const provenance = `Generated by scripts/generateBundle.ts with seed ${seed}.\n`;
      await artifact(
        `${prefix}-prov-${pad(q)}`,
        `${folder}/q${pad(q)}-provenance.txt`,
        'EVIDENCE',
        'PROVENANCE',
        'text/plain',
        provenance,
      );
    }
    if ((q + 1) % QUESTIONS_PER_TOPIC === 0 || q === questionCount - 1) {
      const t = Math.floor(q / QUESTIONS_PER_TOPIC);
      const first = t * QUESTIONS_PER_TOPIC;
      const questions = Array.from({ length: q - first + 1 }, (_, i) => questionId(first + i));
      const inputs = JSON.stringify({ topic_id: topicId(t), questions }, null, 1);
      const taskIds: string[] = [];
      for (let i = first; i <= q; i++)
        for (let k = 0; k < sizes[i]; k++) taskIds.push(`${questionId(i)}-t${k + 1}`);
      await artifact(
        `${prefix}-inputs-${pad(t, 4)}`,
        `${folder}/inputs.json`,
        'PUBLIC_INPUT',
        'STANDARD',
        'application/json',
        inputs,
      );
      await artifact(
        `${prefix}-tasks-${pad(t, 4)}`,
        `${folder}/tasks.json`,
        'PUBLIC_TASKS',
        'STANDARD',
        'application/json',
        JSON.stringify({ topic_id: topicId(t), tasks: taskIds }, null, 1),
      );
    }
  }
  await out.close();

  let reports = 0;
  await out.open('reports');
  for (let q = 0; q < questionCount; q++) {
    if (!question(q).mapped) continue;
    await out.item({
      report_id: reportId(q),
      artifact_id: `${reportId(q)}-md`,
      source_id: `reports/${questionId(q)}`,
    });
    reports += 1;
  }
  await out.close();

  // Tasks and evidence walk the same (question, task) pairs; each task's choices come from its own PRNG.
  const eachTask = async (visit: (task: ReturnType<typeof taskAt>) => Promise<void>) => {
    for (let q = 0, index = 0; q < questionCount; q++) {
      const qq = question(q);
      for (let k = 0; k < sizes[q]; k++, index++) await visit(taskAt(q, k, index, qq.mapped));
    }
  };
  const taskAt = (q: number, k: number, index: number, mapped: boolean) => {
    const rand = rngFor(seed, 'task', index);
    const nullMapped = rand() < 0.04;
    const client = rand() < 0.3 ? clientName(Math.floor(rand() * CLIENTS)) : null;
    return {
      index,
      task_id: `${questionId(q)}-t${k + 1}`,
      topic_id: topicId(Math.floor(q / QUESTIONS_PER_TOPIC)),
      question_id: questionId(q),
      title: `${sentence(rand, 4).slice(0, -1)} (${k + 1})`,
      problem: `${sentence(rand, 14)} ${sentence(rand, 18)} Show that the ${pick(rand, WORDS)} is bounded by ${Math.floor(rand() * 1000)}.`,
      report_id: mapped && !nullMapped ? reportId(q) : null,
      client,
      rand,
    };
  };

  let mappedTasks = 0;
  let linkedTasks = 0;
  const files = await recordList(out, dir, 'tasks', layout, (item) =>
    eachTask(async ({ rand: _rand, index: _index, ...task }) => {
      if (task.report_id) mappedTasks += 1;
      if (task.client) linkedTasks += 1;
      await item(task);
    }),
  );

  let evidence = 0;
  Object.assign(
    files,
    await recordList(out, dir, 'evidence', layout, (item) =>
      eachTask(async (task) => {
        if (!task.report_id) return;
        const rand = rngFor(seed, 'evidence', task.index);
        if (rand() >= 0.9) return;
        const scores = Array.from({ length: 1 + Math.floor(rand() * 3) }, (_, i) => ({
          name: `criterion ${i + 1}: ${words(rand, 2)}`,
          weight: 1,
          score: Math.round(rand() * 4) / 4,
        }));
        const passed = rand() >= 0.2;
        await item({
          task_id: task.task_id,
          report_id: task.report_id,
          rubric: { criteria: scores, total: scores.reduce((sum, s) => sum + s.score, 0) / scores.length },
          review:
            rand() < 0.2
              ? null
              : {
                  verdict: passed ? 'correct' : 'incorrect',
                  summary: sentence(rand, 10),
                  reviewed_at: isoAt(base, 620),
                },
          quality_gate: {
            status: passed ? 'PASS' : 'WARN',
            checks: [
              { name: 'final answer present', passed: true },
              { name: 'independent derivation', passed },
            ],
          },
        });
        evidence += 1;
      }),
    ),
  );
  for (const [key, file] of Object.entries(files)) await out.raw(`,\n"${key}": ${JSON.stringify(file)}`);
  await out.raw('\n}\n');
  await out.end();

  return {
    dir,
    id: runId,
    counts: {
      tasks: total,
      questions: questionCount,
      topics: topicCount,
      reports,
      artifacts,
      evidence,
      clients: CLIENTS,
      mapped_tasks: mappedTasks,
      client_links: linkedTasks,
    },
  };
}

const CAMPAIGNS = ['cmp-synthetic-spring', 'cmp-synthetic-summer', 'cmp-synthetic-autumn'];
const GENOMICS_CLIENTS = ['acme', 'helix', 'nucleo', 'ribo', 'codon', 'allele'];
const CATEGORIES = ['oncology', 'pharmacogenomics', 'mitochondrial', 'rare disease', 'cardiology'];
const GENES = ['BRCA1', 'BRCA2', 'CYP2D6', 'TP53', 'MLH1', 'APOE', 'CFTR', 'LDLR', 'MYH7', 'SCN5A'];

/** Genomics bundle (docs/bundles/genomics.md): `tasks` topics with their records and files. */
export async function generateGenomicsBundle(options: GenerateOptions): Promise<GeneratedBundle> {
  const seed = options.seed ?? 1;
  const total = options.tasks;
  const artifactBytes = options.artifactBytes ?? 1024;
  const batch = options.batch ?? `batch-${100 + (seed % 900)}`;
  const bundleId = `synthetic-genomics-s${seed}-n${total}`;
  const dir = resolve(options.out);
  await mkdir(join(dir, 'files'), { recursive: true });
  const base = Date.UTC(2026, 9, 1, 8, 0, 0) + (seed % 100) * 86_400_000;
  const topicAt = (n: number) => {
    const rand = rngFor(seed, 'genomics-topic', n);
    const gene = pick(rand, GENES);
    return {
      gene,
      rand,
      campaign: rand() < 0.8 ? CAMPAIGNS[n % CAMPAIGNS.length] : null,
      clients: GENOMICS_CLIENTS.filter(() => rand() < 0.2),
      originalEvidence: rand() < 0.85,
      originalCompleted: rand() < 0.05 ? 0 : 10 + Math.floor(rand() * 40),
      rerunEvidence: rand() < 0.6,
      report: rand() < 0.7,
      revision: rand() < 0.3,
      publication: rand() < 0.5,
    };
  };
  const file = async (path: string, text: string, mediaType: string) => ({
    path,
    media_type: mediaType,
    ...(await bundleFile(dir, path, text, rngFor(seed, 'genomics-sha', path.length)() >= 0.1)),
  });
  const folder = (n: number) => `files/${pad(Math.floor((n - 1) / 200), 4)}`;
  const counts = { topics: total, measurements: 0, reports: 0, revisions: 0, publications: 0, files: 0 };

  const out = new JsonStream(join(dir, 'manifest.json'));
  await out.raw(
    `{\n"format": "referee.genomics/1",\n"bundle": ${JSON.stringify({
      bundle_id: bundleId,
      batch,
      title: `Synthetic genomics bundle (seed ${seed}, ${total} topics)`,
      exported_at: isoAt(base, 0),
    })}`,
  );
  await out.open('campaigns');
  for (const [i, id] of CAMPAIGNS.entries())
    await out.item({ campaign_id: id, name: `Synthetic campaign ${i + 1}`, status: 'OPEN' });
  await out.close();
  await out.open('clients');
  for (const id of GENOMICS_CLIENTS)
    await out.item({ client_id: id, name: `${id[0].toUpperCase()}${id.slice(1)} Genomics`, enabled: true });
  await out.close();

  await out.open('topics');
  for (let n = 1; n <= total; n++) {
    const t = topicAt(n);
    const markdown = `# ${t.gene} topic ${n}\n\n${prose(t.rand, Math.min(artifactBytes, 4096))}\n`;
    const path = `${folder(n)}/topic-${n}.md`;
    await bundleFile(dir, path, markdown, false);
    await out.item({
      topic: n,
      title: `${t.gene} ${words(t.rand, 3)} (${n})`,
      category: pick(t.rand, CATEGORIES),
      markdown_path: path,
      tags: [t.gene.toLowerCase(), ...(t.rand() < 0.5 ? [pick(t.rand, WORDS)] : [])],
      campaign_id: t.campaign,
      client_ids: t.clients,
    });
  }
  await out.close();

  await out.open('measurements');
  for (let n = 1; n <= total; n++) {
    const t = topicAt(n);
    const evidence = async (scope: string, passes: number, completed: number) =>
      file(
        `${folder(n)}/evidence-${n}-${scope}.json`,
        JSON.stringify({ topic: n, scope, passes, completed }),
        'application/json',
      );
    const passes = Math.floor(t.originalCompleted * 0.8);
    await out.item({
      measurement_id: `m-${n}-original`,
      topic: n,
      model_id: `gx-${t.gene.toLowerCase()}-1`,
      scope: 'original_report',
      measured_at: isoAt(base, n % 1440),
      ...(t.originalEvidence
        ? {
            scientific_passes: passes,
            completed: t.originalCompleted,
            evidence: await evidence('original', passes, t.originalCompleted),
          }
        : { evidence: null, reason: 'evidence withheld by the lab' }),
    });
    await out.item({
      measurement_id: `m-${n}-rerun`,
      topic: n,
      model_id: `gx-${t.gene.toLowerCase()}-1`,
      scope: 'public_package_rerun',
      measured_at: isoAt(base, 1440 + (n % 1440)),
      ...(t.rerunEvidence
        ? { scientific_passes: 5, completed: 10, evidence: await evidence('rerun', 5, 10) }
        : { evidence: null }),
    });
    counts.measurements += 2;
    counts.files += (t.originalEvidence ? 1 : 0) + (t.rerunEvidence ? 1 : 0);
  }
  await out.close();

  const perTopic = async (
    key: string,
    visit: (n: number, t: ReturnType<typeof topicAt>) => Promise<object | null>,
  ) => {
    await out.open(key);
    for (let n = 1; n <= total; n++) {
      const record = await visit(n, topicAt(n));
      if (record) await out.item(record);
    }
    await out.close();
  };
  await perTopic('reports', async (n, t) => {
    if (!t.report) return null;
    counts.reports += 1;
    counts.files += 1;
    return {
      report_id: `r-${n}`,
      topic: n,
      title: `${t.gene} report ${n}`,
      file: await file(
        `${folder(n)}/report-${n}.md`,
        `# Report ${n}\n\n${prose(t.rand, artifactBytes)}\n`,
        'text/markdown',
      ),
      reported_at: isoAt(base, 2880),
    };
  });
  await perTopic('revisions', async (n, t) => {
    if (!t.revision) return null;
    counts.revisions += 1;
    counts.files += 1;
    return {
      revision_id: `pkg-${n}-v1`,
      topic: n,
      campaign_id: CAMPAIGNS[n % CAMPAIGNS.length],
      notes: `Package for topic ${n}.`,
      file: await file(
        `${folder(n)}/package-${n}-v1.json`,
        JSON.stringify({ topic: n, gene: t.gene, version: 1 }),
        'application/json',
      ),
      completed_at: isoAt(base, 4320),
    };
  });
  await perTopic('publications', async (n, t) => {
    if (!t.revision || !t.publication) return null;
    counts.publications += 1;
    counts.files += 1;
    return {
      publication_id: `pub-${n}-v1`,
      topic: n,
      revision_id: `pkg-${n}-v1`,
      title: `${t.gene} summary ${n}`,
      file: await file(
        `${folder(n)}/publication-${n}.md`,
        `# Summary ${n}\n\n${sentence(t.rand, 20)}\n`,
        'text/markdown',
      ),
      published_at: isoAt(base, 5760),
    };
  });
  await out.raw('\n}\n');
  await out.end();
  return { dir, id: `${batch}/${bundleId}`, counts };
}

/** Dispatches on `service`. */
export async function generateBundle(options: GenerateOptions): Promise<GeneratedBundle> {
  if (options.service === 'math') return generateMathBundle(options);
  if (options.service === 'genomics') return generateGenomicsBundle(options);
  throw new Error(`unknown service ${String(options.service)}`);
}

async function main(argv: string[]): Promise<void> {
  const { values } = parseArgs({
    args: argv,
    options: {
      service: { type: 'string', default: 'math' },
      tasks: { type: 'string' },
      out: { type: 'string' },
      seed: { type: 'string', default: '1' },
      'artifact-bytes': { type: 'string', default: '1024' },
      'run-id': { type: 'string' },
      batch: { type: 'string' },
      layout: { type: 'string', default: 'jsonl' },
    },
  });
  const tasks = Number(values.tasks);
  const seed = Number(values.seed);
  const artifactBytes = Number(values['artifact-bytes']);
  if (values.service !== 'math' && values.service !== 'genomics')
    throw new Error('--service must be math or genomics');
  if (!Number.isInteger(tasks) || tasks < 1) throw new Error('--tasks must be a positive integer');
  if (values.layout !== 'inline' && values.layout !== 'jsonl')
    throw new Error('--layout must be inline or jsonl');
  if (!values.out) throw new Error('--out <dir> is required');
  if (!Number.isInteger(seed)) throw new Error('--seed must be an integer');
  if (!Number.isInteger(artifactBytes) || artifactBytes < 1)
    throw new Error('--artifact-bytes must be a positive integer');
  const started = Date.now();
  const bundle = await generateBundle({
    service: values.service,
    tasks,
    out: values.out,
    seed,
    artifactBytes,
    runId: values['run-id'],
    batch: values.batch,
    layout: values.layout,
  });
  console.log(JSON.stringify({ ...bundle, seconds: (Date.now() - started) / 1000 }));
}

if (require.main === module) {
  main(process.argv.slice(2)).catch((error: unknown) => {
    console.error(`generate:bundle: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  });
}
