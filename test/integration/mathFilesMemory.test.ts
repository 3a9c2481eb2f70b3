import { type ChildProcess, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { freePort, waitForPort } from '../../infra/ports';
import { projectRoot } from '../../infra/paths';
import { SERVICE_NODE_FLAGS, TS_SOURCE_LOADER } from '../../infra/processes';
import { writeLargeArtifactBundle } from '../helpers/files';
import type { LiveMemorySample } from '../helpers/liveMemoryProbe';
import { importBundle, mintKey, seedMembers, startStack, type TestStack } from '../helpers/stack';

/**
 * A 200 MiB checkpoint is verified and served by an API server running as its own process with the API's V8 flags,
 * whose live memory (what is reachable after a full collection, test/helpers/liveMemoryProbe.ts) is sampled while
 * the download runs: it must stay under 64 MiB above what it was before, far below the object, and come back to
 * within 32 MiB of it afterwards. Live memory, not resident: the verified download's S3 and spool chunks die as
 * soon as they are written, and how many of them wait for the collector depends on the runtime. Node 24's V8 (13.6)
 * collects young Buffers at 64 MiB of them rather than 32 (nodejs/node#61967), and the allocator keeps the pages
 * freed after that, so the same download grows the resident set by about 75 MiB there against 34 on Node 20.
 */
const MiB = 1024 * 1024;
const SIZE = 200 * MiB;
const LIVE_GROWTH_LIMIT = 64 * MiB;
const LIVE_AFTER_LIMIT = 32 * MiB;

let stack: TestStack;
let server: ChildProcess | null = null;
let bundleDir: string | null = null;
let probeDir: string | null = null;

afterAll(async () => {
  if (server && server.exitCode === null) {
    const exited = new Promise((resolve) => server!.once('exit', resolve));
    server.kill('SIGTERM');
    await exited;
  }
  if (bundleDir) await rm(bundleDir, { recursive: true, force: true });
  if (probeDir) await rm(probeDir, { recursive: true, force: true });
  await stack?.stop();
});

async function samplesOf(file: string): Promise<LiveMemorySample[]> {
  const text = await readFile(file, 'utf8').catch(() => '');
  return text
    .split('\n')
    .filter((line) => line.endsWith('}'))
    .map((line) => JSON.parse(line) as LiveMemorySample);
}

/** The first sample the probe takes after `time` (it samples every 500 ms). */
async function sampleAfter(file: string, time: number): Promise<LiveMemorySample> {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    const sample = (await samplesOf(file)).find((s) => s.at > time);
    if (sample) return sample;
    await sleep(100);
  }
  throw new Error(`the live-memory probe wrote no sample to ${file} within 30 s`);
}

/** Downloads through SHA-256 without keeping the body. */
function hashedDownload(
  url: string,
  token: string,
): Promise<{ status: number; size: number; sha256: string }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers: { authorization: `Bearer ${token}` }, agent: false }, (res) => {
        const hash = createHash('sha256');
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          hash.update(chunk);
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, size, sha256: hash.digest('hex') }));
        res.on('error', reject);
      })
      .on('error', reject);
  });
}

it('serves a verified 200 MiB artifact holding under 64 MiB more while it streams and under 32 MiB more after', async () => {
  stack = await startStack();
  await seedMembers(stack);
  const owner = (await mintKey(stack, 'math', 'idp|olga')).token;
  const bundle = await writeLargeArtifactBundle('big-run', 'big-checkpoint', SIZE);
  bundleDir = bundle.dir;
  await writeFile(join(bundle.dir, 'files', 'small.txt'), 'warm-up\n');
  const manifest = JSON.parse(await readFile(join(bundle.dir, 'manifest.json'), 'utf8'));
  manifest.artifacts.push({
    artifact_id: 'small-text',
    path: 'files/small.txt',
    kind: 'PUBLIC_INPUT',
    class: 'STANDARD',
    media_type: 'text/plain',
  });
  await writeFile(join(bundle.dir, 'manifest.json'), JSON.stringify(manifest));
  await importBundle(stack, bundle.dir);

  const port = await freePort();
  const { config } = stack;
  probeDir = await mkdtemp(join(tmpdir(), 'referee-live-memory-'));
  const samples = join(probeDir, 'samples.jsonl');
  const probe = join(projectRoot, 'test', 'helpers', 'liveMemoryProbe.ts');
  const flags = [...SERVICE_NODE_FLAGS.api, '--expose-gc', ...TS_SOURCE_LOADER, '--require', probe];
  server = spawn(process.execPath, [...flags, 'server.ts'], {
    cwd: projectRoot,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATABASE_URL: config.databaseUrl,
      DATABASE_POOL_SIZE: '3',
      TEMPORAL_ADDRESS: config.temporal.address,
      TEMPORAL_NAMESPACE: config.temporal.namespace,
      TEMPORAL_TASK_QUEUE: config.temporal.taskQueue,
      S3_ENDPOINT: config.s3.endpoint,
      S3_ACCESS_KEY_ID: config.s3.accessKeyId,
      S3_SECRET_ACCESS_KEY: config.s3.secretAccessKey,
      S3_BUCKET: config.s3.bucket,
      LOG_LEVEL: 'warn',
      LIVE_MEMORY_FILE: samples,
    },
  });
  await waitForPort('127.0.0.1', port, 30_000);
  const base = `http://127.0.0.1:${port}`;

  server.kill('SIGUSR2'); // the probe starts sampling
  const warmUp = await hashedDownload(`${base}/api/math/artifacts/small-text/download`, owner);
  expect(warmUp).toMatchObject({ status: 200, size: 8 });
  const before = await sampleAfter(samples, Date.now());

  const from = Date.now();
  const result = await hashedDownload(`${base}/api/math/artifacts/big-checkpoint/download`, owner);
  const to = Date.now();
  // What it settles to: the lowest sample of the two seconds after (a response's last chunks may still be in flight).
  await sampleAfter(samples, to + 2_000);
  const settling = (await samplesOf(samples)).filter((s) => s.at > to && s.at <= to + 2_000);
  const after = settling.reduce((low, s) => (s.live < low.live ? s : low), await sampleAfter(samples, to));
  const during = (await samplesOf(samples)).filter((s) => s.at > from && s.at <= to);
  const peak = Math.max(...during.map((s) => s.live), after.live);
  const peakRss = Math.max(...during.map((s) => s.rss), after.rss);

  expect(result).toEqual({ status: 200, size: SIZE, sha256: bundle.sha256 });
  const mib = (bytes: number) => `${(bytes / MiB).toFixed(1)} MiB`;
  process.stderr.write(
    `[memory] live ${mib(before.live)} before, peak ${mib(peak)} over ${during.length} samples, ` +
      `${mib(after.live)} after; resident ${mib(before.rss)} before, peak ${mib(peakRss)}\n`,
  );
  expect(during.length).toBeGreaterThan(0);
  expect(peak - before.live).toBeLessThan(LIVE_GROWTH_LIMIT);
  expect(after.live - before.live).toBeLessThan(LIVE_AFTER_LIMIT);
}, 180_000);
