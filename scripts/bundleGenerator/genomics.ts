import { mkdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { GeneratedBundle, GenerateOptions } from './options';
import { isoAt, pad, pick, prose, rngFor, sentence, WORDS, words } from './random';
import { bundleFile, JsonStream, recordList } from './streams';

const CAMPAIGNS = ['cmp-synthetic-spring', 'cmp-synthetic-summer', 'cmp-synthetic-autumn'];
const GENOMICS_CLIENTS = ['acme', 'helix', 'nucleo', 'ribo', 'codon', 'allele'];
const CATEGORIES = ['oncology', 'pharmacogenomics', 'mitochondrial', 'rare disease', 'cardiology'];
const GENES = ['BRCA1', 'BRCA2', 'CYP2D6', 'TP53', 'MLH1', 'APOE', 'CFTR', 'LDLR', 'MYH7', 'SCN5A'];

/**
 * Genomics bundle (docs/bundles/genomics.md): `tasks` topics with their records and files. With layout `jsonl`
 * (the default) topics, measurements, reports, revisions and publications are JSONL files beside the manifest.
 */
export async function generateGenomicsBundle(options: GenerateOptions): Promise<GeneratedBundle> {
  const seed = options.seed ?? 1;
  const layout = options.layout ?? 'jsonl';
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

  // The JSONL files each list names, written into the manifest after its inline lists.
  const files = await recordList(out, dir, 'topics', layout, async (write) => {
    for (let n = 1; n <= total; n++) {
      const t = topicAt(n);
      const markdown = `# ${t.gene} topic ${n}\n\n${prose(t.rand, Math.min(artifactBytes, 4096))}\n`;
      const path = `${folder(n)}/topic-${n}.md`;
      await bundleFile(dir, path, markdown, false);
      await write({
        topic: n,
        title: `${t.gene} ${words(t.rand, 3)} (${n})`,
        category: pick(t.rand, CATEGORIES),
        markdown_path: path,
        tags: [t.gene.toLowerCase(), ...(t.rand() < 0.5 ? [pick(t.rand, WORDS)] : [])],
        campaign_id: t.campaign,
        client_ids: t.clients,
      });
    }
  });

  const measurements = async (write: (value: unknown) => Promise<void>) => {
    for (let n = 1; n <= total; n++) {
      const t = topicAt(n);
      const evidence = async (scope: string, passes: number, completed: number) =>
        file(
          `${folder(n)}/evidence-${n}-${scope}.json`,
          JSON.stringify({ topic: n, scope, passes, completed }),
          'application/json',
        );
      const passes = Math.floor(t.originalCompleted * 0.8);
      await write({
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
      await write({
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
  };
  Object.assign(files, await recordList(out, dir, 'measurements', layout, measurements));

  const perTopic = async (
    key: string,
    visit: (n: number, t: ReturnType<typeof topicAt>) => Promise<object | null>,
  ) =>
    Object.assign(
      files,
      await recordList(out, dir, key, layout, async (write) => {
        for (let n = 1; n <= total; n++) {
          const record = await visit(n, topicAt(n));
          if (record) await write(record);
        }
      }),
    );
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
  for (const [key, file] of Object.entries(files)) await out.raw(`,\n"${key}": ${JSON.stringify(file)}`);
  await out.raw('\n}\n');
  await out.end();
  return { dir, id: `${batch}/${bundleId}`, counts };
}
