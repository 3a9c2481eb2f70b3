import { loadavg } from 'node:os';
import { Upload } from '@aws-sdk/lib-storage';
import { Client, escapeLiteral } from 'pg';
import { to as copyTo } from 'pg-copy-streams';
import type { Principal } from '../../api/kernel/authenticate';
import { taskSnapshotSql } from '../../api/math/tasks/queries';
import { type BenchContext, readPeaks, recordPair, resetPeaks } from '../harness';
import type { Sample, Target } from '../stats';

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
): Promise<{ id: string; seconds: number; rows: number }> {
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const started = performance.now();
  const created = await fetch(`${apiUrl}/api/math/exports`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ filters: { run_id: runId, sort: 'updated' } }),
  });
  if (created.status !== 202) throw new Error(`export refused: ${created.status} ${await created.text()}`);
  let exp = (await created.json()) as { id: string; state: string; rows_in_snapshot: number };
  while (exp.state === 'RUNNING') {
    await new Promise((resolve) => setTimeout(resolve, 100));
    exp = (await (await fetch(`${apiUrl}/api/math/exports/${exp.id}`, { headers })).json()) as typeof exp;
  }
  if (exp.state !== 'SUCCEEDED') throw new Error(`export ${exp.id} ended ${exp.state}`);
  return { id: exp.id, seconds: (performance.now() - started) / 1000, rows: exp.rows_in_snapshot };
}

/** Deletes an export and its file (a bench's exports would otherwise fill its bucket until they expire). */
export async function deleteExport(apiUrl: string, token: string, exportId: string): Promise<void> {
  const answer = await fetch(`${apiUrl}/api/math/exports/${exportId}`, {
    method: 'DELETE',
    headers: { authorization: `Bearer ${token}` },
  });
  if (!answer.ok) throw new Error(`delete export ${exportId}: ${answer.status} ${await answer.text()}`);
}

/** The export pair: the run's tasks exported through the API against COPY streamed to S3. */
export async function exportPair(ctx: BenchContext, runId: string): Promise<void> {
  resetPeaks(ctx);
  const baseline = await copyToS3(ctx, runId);
  const ours = await exportThroughApi(ctx.system.apiUrl, ctx.people.mathOwner.token, runId);
  recordPair(ctx, {
    pair: 'export',
    variant: `${ours.rows.toLocaleString('en-US')} tasks`,
    concurrency: 1,
    targets: EXPORT_TARGETS,
    rounds: [{ a: exportSample(ours.rows, baseline.seconds), b: exportSample(ours.rows, ours.seconds) }],
    rss: readPeaks(ctx),
  });
  ctx.notes.push(
    `export ${ours.rows.toLocaleString('en-US')} tasks: COPY to S3 ${baseline.seconds.toFixed(1)} s ` +
      `(${(baseline.bytes / 1024 ** 2).toFixed(1)} MiB) | ours ${ours.seconds.toFixed(1)} s`,
  );
}
