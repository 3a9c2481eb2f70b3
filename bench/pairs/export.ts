import { loadavg } from 'node:os';
import { Upload } from '@aws-sdk/lib-storage';
import { Client, escapeLiteral } from 'pg';
import { to as copyTo } from 'pg-copy-streams';
import type { Principal } from '../../api/kernel/authenticate';
import { taskSnapshotSql } from '../../api/math/tasks/queries';
import { type BenchContext, readPeaks, recordPair, resetPeaks } from '../harness';
import type { Round, Sample, Target } from '../stats';

/** docs/benchmark.md: an export at most twice the least the same work costs. */
export const EXPORT_TARGETS: Target[] = [{ metric: 'wall', bound: 'max', value: 2 }];

const PART_BYTES = 8 * 1024 * 1024;

const exportSample = (rows: number, seconds: number): Sample => ({
  throughput: rows / seconds,
  p50: seconds * 1000,
  p99: seconds * 1000,
  count: 1,
  errors: 0,
  load: loadavg()[0],
});

/** The snapshot's SQL with its parameters written in (COPY takes none), as an Owner's list of the run reads it. */
function snapshotCopySql(runId: string): string {
  const owner = { role: 'OWNER', member: { id: '0' } } as unknown as Principal;
  const { sql, params } = taskSnapshotSql(owner, { run_id: runId, surface: 'all' }, 'updated');
  const inlined = sql.replace(/\$(\d+)/g, (_, n: string) => escapeLiteral(String(params[Number(n) - 1])));
  return `COPY (SELECT s.item FROM (${inlined}) s ORDER BY s.ordinal) TO STDOUT`;
}

/**
 * The least an export can cost: the same rows, presented by the same SQL, read by one `COPY (SELECT …) TO STDOUT`
 * and streamed to the same bucket by a bare multipart upload, nothing recorded or hashed.
 */
async function copyToS3(ctx: BenchContext, runId: string): Promise<{ seconds: number; bytes: number }> {
  const started = performance.now();
  const client = new Client({ connectionString: ctx.system.config.databaseUrl });
  await client.connect();
  try {
    const stream = client.query(copyTo(snapshotCopySql(runId)));
    let bytes = 0;
    stream.on('data', (chunk: Buffer) => (bytes += chunk.length));
    await new Upload({
      client: ctx.system.s3,
      params: {
        Bucket: ctx.system.config.s3.bucket,
        Key: `bench/export-baseline-${Date.now()}.jsonl`,
        Body: stream,
      },
      partSize: PART_BYTES,
      queueSize: 1,
    }).done();
    return { seconds: (performance.now() - started) / 1000, bytes };
  } finally {
    await client.end();
  }
}

/** One export of a run's tasks through the API as `token`'s member, from POST to SUCCEEDED. */
export async function exportThroughApi(
  apiUrl: string,
  token: string,
  runId: string,
): Promise<{ id: string; seconds: number; answeredSeconds: number; rows: number; bytes: number }> {
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const started = performance.now();
  const created = await fetch(`${apiUrl}/api/math/exports`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ filters: { run_id: runId, sort: 'updated' } }),
  });
  if (created.status !== 202) throw new Error(`export refused: ${created.status} ${await created.text()}`);
  // The POST answers once the snapshot is copied and the workflow started; the rest is the file's writing.
  const answeredSeconds = (performance.now() - started) / 1000;
  let exp = (await created.json()) as {
    id: string;
    state: string;
    rows_in_snapshot: number;
    size_bytes: number | null;
  };
  while (exp.state === 'RUNNING') {
    await new Promise((resolve) => setTimeout(resolve, 100));
    exp = (await (await fetch(`${apiUrl}/api/math/exports/${exp.id}`, { headers })).json()) as typeof exp;
  }
  if (exp.state !== 'SUCCEEDED') throw new Error(`export ${exp.id} ended ${exp.state}`);
  return {
    id: exp.id,
    seconds: (performance.now() - started) / 1000,
    answeredSeconds,
    rows: exp.rows_in_snapshot,
    bytes: exp.size_bytes ?? 0,
  };
}

/** Deletes an export and its file (a bench's exports would otherwise fill its bucket until they expire). */
export async function deleteExport(apiUrl: string, token: string, exportId: string): Promise<void> {
  const answer = await fetch(`${apiUrl}/api/math/exports/${exportId}`, {
    method: 'DELETE',
    headers: { authorization: `Bearer ${token}` },
  });
  if (!answer.ok) throw new Error(`delete export ${exportId}: ${answer.status} ${await answer.text()}`);
}

/** Rounds of the export pair; the second runs B before A, so neither side always reads the tables first. */
const EXPORT_ROUNDS = 2;

/** The export pair: the run's tasks exported through the API against COPY streamed to S3. */
export async function exportPair(ctx: BenchContext, runId: string): Promise<void> {
  resetPeaks(ctx);
  const token = ctx.people.mathOwner.token;
  const rounds: Round[] = [];
  const walls: string[] = [];
  let rows = 0;
  for (let round = 0; round < EXPORT_ROUNDS; round++) {
    const copy = () => copyToS3(ctx, runId);
    const api = () => exportThroughApi(ctx.system.apiUrl, token, runId);
    const [baseline, ours] =
      round % 2 === 0
        ? [await copy(), await api()]
        : await api().then(async (first) => [await copy(), first] as const);
    // Timed: its file is not needed after (deleting it is not part of the wall).
    await deleteExport(ctx.system.apiUrl, token, ours.id);
    rows = ours.rows;
    rounds.push({ a: exportSample(rows, baseline.seconds), b: exportSample(rows, ours.seconds) });
    walls.push(
      `COPY to S3 ${baseline.seconds.toFixed(1)} s (${(baseline.bytes / 1024 ** 2).toFixed(1)} MiB) | ` +
        `ours ${ours.seconds.toFixed(1)} s (${(ours.bytes / 1024 ** 2).toFixed(1)} MiB; POST answered in ` +
        `${ours.answeredSeconds.toFixed(1)} s)`,
    );
    ctx.log(`export round ${round + 1} (${round % 2 === 0 ? 'A then B' : 'B then A'}): ${walls[round]}`);
  }
  recordPair(ctx, {
    pair: 'export',
    variant: `${rows.toLocaleString('en-US')} tasks`,
    concurrency: 1,
    targets: EXPORT_TARGETS,
    rounds,
    rss: readPeaks(ctx),
  });
  ctx.notes.push(`export ${rows.toLocaleString('en-US')} tasks, by round: ${walls.join('; ')}`);
}
