import { join } from 'node:path';
import { type MathBundleArtifact, openMathBundle, recordBatches } from '../../activities/bundles/mathBundle';
import { generateBundle, opsImport } from '../dataset';
import { type BenchContext, measurePair } from '../harness';
import { closedLoop } from '../load';
import type { Target } from '../stats';

/**
 * A first read verifies before its first byte (against a baseline doing only that); a later one is served from
 * the cache of verified objects (against a raw stream, which a cached copy needs no more work than).
 */
export const COLD_DOWNLOAD_TARGETS: Target[] = [{ metric: 'throughput', bound: 'min', value: 0.8 }];
export const WARM_DOWNLOAD_TARGETS: Target[] = [{ metric: 'throughput', bound: 'min', value: 1.0 }];

const MiB = 1024 * 1024;

/**
 * Report sizes: just under 1 MiB (verified in memory, the API's limit for that is 1 MiB) and 16 MiB
 * (verified through a temporary file). The generator writes prose of at least the size asked plus a title.
 */
const SIZES = [
  { label: '1 MiB', artifactBytes: MiB - 4096 },
  { label: '16 MiB', artifactBytes: 16 * MiB - 4096 },
];

/** A bundle of 2 tasks whose report has the given size, made by the generator; seeds are tried until one maps a report. */
async function reportBundle(ctx: BenchContext, artifactBytes: number, label: string) {
  for (let seed = 1; seed < 20; seed++) {
    const out = join(ctx.system.dataDir, 'bundles', `download-${label.replace(' ', '')}-s${seed}`);
    await generateBundle({
      service: 'math',
      tasks: 2,
      out,
      seed,
      artifactBytes,
      runId: `bench-download-${label.replace(' ', '')}`,
    });
    const { manifest } = await openMathBundle(out);
    const artifacts: MathBundleArtifact[] = [];
    for await (const batch of recordBatches<MathBundleArtifact>(out, manifest, 'artifacts', 1000))
      artifacts.push(...batch);
    const report = artifacts
      .filter((a) => a.kind === 'REPORT')
      .sort((x, y) => (y.size_bytes ?? 0) - (x.size_bytes ?? 0))[0];
    if (report) return { dir: out, artifactId: report.artifact_id };
  }
  throw new Error(`the generator mapped no report for ${label}`);
}

/**
 * Download pairs of the verified artifact download: a first read (the API with its cache off) against a bare
 * route that verifies first and against a raw S3 stream (informative, no target); a cached read against the raw
 * stream.
 */
export async function downloadPairs(ctx: BenchContext): Promise<void> {
  const { system, people, plan } = ctx;
  const connections = plan.downloadConnections;
  for (const size of SIZES) {
    const bundle = await reportBundle(ctx, size.artifactBytes, size.label);
    await opsImport(system, bundle.dir);
    const [artifact]: Array<{ object_key: string; size_bytes: string; sha256: string }> =
      await system.dataSource.query(
        'SELECT object_key, size_bytes::text, sha256 FROM math_artifacts WHERE artifact_id = $1',
        [bundle.artifactId],
      );
    ctx.notes.push(`download ${size.label}: report ${bundle.artifactId} of ${artifact.size_bytes} bytes`);
    const side = (url: string, path: string, headers: Record<string, string>) =>
      closedLoop({ url, connections, client: () => ({ next: () => ({ method: 'GET', path, headers }) }) });
    const download = `/api/math/artifacts/${bundle.artifactId}/download`;
    const auth = { authorization: `Bearer ${people.mathOwner.token}` };
    const recorded = `size=${artifact.size_bytes}&sha256=${artifact.sha256}`;
    const verifyFirst = `/bare/s3-verified/${artifact.object_key}?${recorded}`;
    await measurePair(ctx, {
      pair: 'download',
      variant: `${size.label}, cold vs verify-first`,
      concurrency: connections,
      targets: COLD_DOWNLOAD_TARGETS,
      a: side(system.baselineUrl, verifyFirst, {}),
      b: side(system.coldApiUrl, download, auth),
    });
    await measurePair(ctx, {
      pair: 'download',
      variant: `${size.label}, cold vs raw stream`,
      concurrency: connections,
      targets: [],
      a: side(system.baselineUrl, `/bare/s3/${artifact.object_key}`, {}),
      b: side(system.coldApiUrl, download, auth),
    });
    await measurePair(ctx, {
      pair: 'download',
      variant: `${size.label}, warm`,
      concurrency: connections,
      targets: WARM_DOWNLOAD_TARGETS,
      a: side(system.baselineUrl, `/bare/s3/${artifact.object_key}`, {}),
      b: side(system.apiUrl, download, auth),
    });
  }
}
