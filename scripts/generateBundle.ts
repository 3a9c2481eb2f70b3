/**
 * The bundle generator's entry point and command line. Writes a realistic synthetic bundle of any size for tests
 * and the benchmark, deterministic for a seed: every record is derived from (seed, kind, index), so sections are
 * streamed to disk one record at a time and the bundle is never held in memory (only one small number per
 * question or topic).
 *
 *   npm run generate:bundle -- --service math --tasks 100000 --out <dir> [--seed 1] [--artifact-bytes N]
 *                              [--layout jsonl|inline]
 *   npm run generate:bundle -- --service genomics --tasks 5000 --out <dir> [--seed 1] [--batch batch-101]
 *                              [--layout jsonl|inline]
 *
 * Math: topics of 40 questions, 1–5 tasks per question, one report per mapped question shared by its tasks
 * (15% of questions unmapped, 4% of mapped tasks null-mapped), checkpoints (gzip), private and provenance
 * files, public inputs/tasks JSON per topic, per-task evidence, and clients on 30% of tasks.
 * Genomics: `--tasks` topics with markdown, measurements in both scopes (some without evidence), reports,
 * revisions with package files and publications, campaigns and clients.
 * Parts: bundleGenerator/ random.ts (seeded material), streams.ts (JSON/JSONL writers), math.ts, genomics.ts.
 */

import { parseArgs } from 'node:util';
import { generateGenomicsBundle } from './bundleGenerator/genomics';
import { generateMathBundle } from './bundleGenerator/math';
import type { GeneratedBundle, GenerateOptions } from './bundleGenerator/options';

export type { GeneratedBundle, GenerateOptions } from './bundleGenerator/options';

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
