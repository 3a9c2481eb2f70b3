import { createHash, randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream } from 'node:stream/web';
import { readConnectionFile } from '../../infra/connectionFile';
import type * as declared from '../commands/export';
import type { CommandInput } from '../kernel/command';
import type { CommandContext } from '../kernel/context';
import { OpsError, UsageError } from '../kernel/output';
import { formatBytes } from './progress';

type ExportOptions = CommandInput<typeof declared.exportTasks>['options'];

const MATH_FILTERS = [
  'question-id',
  'run-id',
  'reviewer-id',
  'client-id',
  'review-state',
  'decision',
  'q',
  'surface',
  'sort',
] as const satisfies ReadonlyArray<keyof ExportOptions>;
const GENOMICS_FILTERS = ['search', 'disposition'] as const satisfies ReadonlyArray<keyof ExportOptions>;
type Filter = (typeof MATH_FILTERS)[number] | (typeof GENOMICS_FILTERS)[number];

/** The API the export goes through: REFEREE_API_URL, else the running npm start's. */
function apiBaseUrl(): string {
  if (process.env.REFEREE_API_URL) return process.env.REFEREE_API_URL.replace(/\/$/, '');
  const found = readConnectionFile();
  if (found.state === 'running') return found.content.apiBaseUrl.replace(/\/$/, '');
  throw new OpsError(
    'api_unknown',
    'set REFEREE_API_URL (or run npm start) to name the API the export goes through',
  );
}

/** An API answer: an export (in either service's spelling) or a problem. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- read field by field below
type Answer = Record<string, any>;

/** The export as either service spells it. */
interface ExportView {
  id: string;
  state: string;
  rowsWritten: number;
  rowsInSnapshot: number;
  sizeBytes: number | null;
  sha256: string | null;
  error: string | null;
}

const view = (body: Answer): ExportView => ({
  id: body.id,
  state: body.state,
  rowsWritten: body.rows_written ?? body.rowsWritten,
  rowsInSnapshot: body.rows_in_snapshot ?? body.rowsInSnapshot,
  sizeBytes: body.size_bytes ?? body.sizeBytes ?? null,
  sha256: body.sha256,
  error: body.error,
});

export async function exportTasks(
  ctx: CommandContext,
  { options }: CommandInput<typeof declared.exportTasks>,
): Promise<void> {
  const key = process.env.REFEREE_API_KEY;
  if (!key)
    throw new UsageError('set REFEREE_API_KEY to an API key of the service (the export holds what it lists)');
  const math = options.service === 'math';
  const allowed: readonly Filter[] = math ? MATH_FILTERS : GENOMICS_FILTERS;
  const foreign = [...MATH_FILTERS, ...GENOMICS_FILTERS].filter(
    (f) => options[f] !== undefined && !allowed.includes(f),
  );
  if (foreign.length > 0)
    throw new UsageError(
      `--${foreign.join(', --')} ${foreign.length === 1 ? 'is' : 'are'} not a ${options.service} filter`,
    );
  const filters = Object.fromEntries(
    allowed.filter((f) => options[f] !== undefined).map((f) => [math ? f.replace(/-/g, '_') : f, options[f]]),
  );
  const base = `${apiBaseUrl()}${math ? '/api/math' : '/api/v1'}/exports`;
  const headers = { authorization: `Bearer ${key}` };
  const call = async (method: string, url: string, body?: unknown) => {
    const response = await fetch(url, {
      method,
      headers:
        body === undefined
          ? headers
          : {
              ...headers,
              'content-type': 'application/json',
              'idempotency-key': `cli-export-${randomUUID()}`,
            },
      body: body === undefined ? undefined : JSON.stringify(body),
    }).catch((error: unknown) => {
      throw new OpsError('api_unreachable', `cannot reach ${url}: ${(error as Error).message}`);
    });
    const parsed = (await response.json().catch(() => ({}))) as Answer;
    if (!response.ok)
      throw new OpsError(
        parsed.code ?? 'api_refused',
        `${method} ${url}: ${response.status} ${parsed.detail ?? ''}`.trim(),
        {
          status: response.status,
          problem: parsed,
        },
      );
    return parsed;
  };

  const created = view(
    await call('POST', base, {
      filters,
      format: options.format,
      [math ? 'include_events' : 'includeEvents']: options['include-events'],
    }),
  );
  const progress = progressReporter(ctx);
  let exp = created;
  progress(exp);
  while (exp.state === 'RUNNING') {
    await new Promise((r) => setTimeout(r, 500));
    exp = view(await call('GET', `${base}/${exp.id}`));
    progress(exp);
  }
  if (exp.state !== 'SUCCEEDED' || exp.sha256 === null || exp.sizeBytes === null)
    throw new OpsError(
      'export_failed',
      `export ${exp.id} ended ${exp.state}${exp.error ? `: ${exp.error}` : ''}`,
      { export: exp },
    );

  const out = resolve(options.out);
  const partial = join(dirname(out), `.${randomUUID()}.partial`);
  const response = await fetch(`${base}/${exp.id}/download`, { headers });
  if (!response.ok || !response.body) {
    const problem = (await response.json().catch(() => ({}))) as Answer;
    throw new OpsError(
      problem.code ?? 'download_refused',
      `download of export ${exp.id}: ${response.status} ${problem.detail ?? ''}`.trim(),
    );
  }
  const hash = createHash('sha256');
  let size = 0;
  try {
    await pipeline(
      Readable.fromWeb(response.body as ReadableStream),
      new Transform({
        transform(chunk: Buffer, _encoding, done) {
          hash.update(chunk);
          size += chunk.length;
          done(null, chunk);
        },
      }),
      createWriteStream(partial, { mode: 0o600 }),
    );
    const sha256 = hash.digest('hex');
    if (size !== exp.sizeBytes || sha256 !== exp.sha256)
      throw new OpsError(
        'digest_mismatch',
        `the download of export ${exp.id} is ${size} bytes with SHA-256 ${sha256}; the export recorded ${exp.sizeBytes} bytes with ${exp.sha256}; nothing was written`,
      );
    await rename(partial, out);
  } finally {
    await rm(partial, { force: true });
  }
  ctx.out.result(
    `Exported ${exp.rowsInSnapshot} tasks to ${out} (${formatBytes(size)}, SHA-256 ${exp.sha256}).`,
    {
      exportId: exp.id,
      file: out,
      rows: exp.rowsInSnapshot,
      sizeBytes: size,
      sha256: exp.sha256,
    },
  );
}

/** Progress on stderr: a redrawn bar on a terminal, JSON lines with --json, else a line per change. */
function progressReporter(ctx: CommandContext): (exp: ExportView) => void {
  let last = '';
  return (exp) => {
    const line = `${exp.state} ${exp.rowsWritten}/${exp.rowsInSnapshot}`;
    if (line === last) return;
    last = line;
    if (ctx.out.json) {
      process.stderr.write(
        `${JSON.stringify({ progress: { exportId: exp.id, state: exp.state, rowsWritten: exp.rowsWritten, rowsInSnapshot: exp.rowsInSnapshot } })}\n`,
      );
      return;
    }
    const fraction =
      exp.rowsInSnapshot > 0 ? exp.rowsWritten / exp.rowsInSnapshot : exp.state === 'RUNNING' ? 0 : 1;
    if (process.stderr.isTTY) {
      const cells = 30;
      const filled = Math.round(fraction * cells);
      process.stderr.write(
        `\r[${'#'.repeat(filled)}${'.'.repeat(cells - filled)}] ${String(Math.floor(fraction * 100)).padStart(3)}% ${exp.rowsWritten}/${exp.rowsInSnapshot} rows${exp.state === 'RUNNING' ? '' : '\n'}`,
      );
    } else {
      ctx.out.note(`export ${exp.id}: ${exp.state}, ${exp.rowsWritten}/${exp.rowsInSnapshot} rows`);
    }
  };
}
