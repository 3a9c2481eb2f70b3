import { type ChildProcess, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HeadObjectCommand, NotFound } from '@aws-sdk/client-s3';
import { purgeExpiredExports } from '../../activities/exports';
import { TS_SOURCE_LOADER } from '../../infra/processes';
import { projectRoot } from '../../infra/paths';
import { createLogger } from '../../logging/logger';
import type { RunningServer } from '../../server';
import { act, type ListsFixture, setupListsFixture } from '../helpers/math';
import {
  EXTRA_GENOMICS_MEMBERS,
  createTopic,
  g,
  type GenomicsActors,
  genomicsActors,
  ik,
  topicPath,
} from '../helpers/genomics';
import { generated, kill, removeGenerated, stackEnv } from '../helpers/imports';
import { referee } from '../helpers/npmStart';
import { describeInBrowser, launchChromium } from '../helpers/chromium';
import { httpVia, startExtraServer } from '../helpers/keys';
import { http, importBundle, seedMembers, startStack, type TestStack } from '../helpers/stack';

/*
 * Exports (docs/exports.md) against the real stack: the file is the list's pages at the moment the export
 * started, whatever changes meanwhile; a Reviewer's holds only their tasks; a worker killed mid-export finishes
 * with every row once and a matching SHA-256; bad input changes nothing.
 */

const PART_BYTES = 5 * 1024 * 1024;
/** Characters of each generated task's problem text: 1,500 tasks make a file of several parts. */
const PROBLEM_CHARS = 12_000;
let stack: TestStack;
let f: ListsFixture;
let a: GenomicsActors;
let generatedRun: string;
let generatedTaskIds: string[];

beforeAll(async () => {
  stack = await startStack({ env: { EXPORT_PART_BYTES: String(PART_BYTES) } });
  f = await setupListsFixture(stack);
  const bundle = await generated('math', 1500, { seed: 51 });
  await importBundle(stack, bundle.dir);
  generatedRun = bundle.id;
  const rows: Array<{ task_id: string }> = await stack.dataSource.query(
    'SELECT task_id FROM math_tasks WHERE run_id = $1 ORDER BY task_id',
    [generatedRun],
  );
  generatedTaskIds = rows.map((r) => r.task_id);
  // Long problems (as research tasks have), so the generated run's export spans several 5 MiB parts.
  await stack.dataSource.query(
    `UPDATE math_tasks SET problem = problem || repeat(' lorem ipsum', $2) WHERE run_id = $1`,
    [generatedRun, PROBLEM_CHARS / 12],
  );
  await seedMembers(stack, EXTRA_GENOMICS_MEMBERS);
  a = await genomicsActors(stack);
}, 300_000);

afterAll(async () => {
  await stack?.stop();
  await removeGenerated();
});

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/** Every page of GET /api/math/tasks with these filters, items in order. */
async function mathListPages(token: string, query: Record<string, string>): Promise<any[]> {
  const items: any[] = [];
  for (let page = 1; ; page++) {
    const qs = new URLSearchParams({ ...query, page: String(page), page_size: '100' });
    const res = await http(stack, 'GET', `/api/math/tasks?${qs}`, { token });
    expect(res.status).toBe(200);
    items.push(...res.body.items);
    if (items.length >= res.body.total) return items;
  }
}

/** Every page of GET /api/v1/tasks with these filters, items in order. */
async function genomicsListPages(token: string, query: Record<string, string>): Promise<any[]> {
  const items: any[] = [];
  let after: { batch: string; topic: number } | null = null;
  do {
    const qs = new URLSearchParams({ ...query, limit: '100' });
    if (after) {
      qs.set('afterBatch', after.batch);
      qs.set('afterTopic', String(after.topic));
    }
    const res = await g(stack, 'GET', `/api/v1/tasks?${qs}`, { token });
    expect(res.status).toBe(200);
    items.push(...res.body.items);
    after = res.body.next;
  } while (after);
  return items;
}

type Service = 'math' | 'genomics';
const base = (service: Service) => (service === 'math' ? '/api/math/exports' : '/api/v1/exports');
const call = (
  service: Service,
  method: 'GET' | 'POST' | 'DELETE',
  path: string,
  token: string,
  body?: unknown,
) =>
  service === 'math' ? http(stack, method, path, { token, body }) : g(stack, method, path, { token, body });

async function waitForExport(service: Service, token: string, id: string, timeoutMs = 120_000): Promise<any> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await call(service, 'GET', `${base(service)}/${id}`, token);
    // A poll under the load of a restarting worker may meet a busy database (503, retried as a client would).
    if (res.status !== 503) {
      expect(res.status).toBe(200);
      if (res.body.state !== 'RUNNING') return res.body;
    }
    if (Date.now() > deadline) throw new Error(`export ${id} still running: ${JSON.stringify(res.body)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The downloaded file, after checking its digest against the export's and the Repr-Digest header. */
async function download(service: Service, token: string, exp: any): Promise<Buffer> {
  const response = await fetch(`${stack.url}${base(service)}/${exp.id}/download`, {
    headers: { authorization: `Bearer ${token}` },
  });
  expect(response.status).toBe(200);
  const bytes = Buffer.from(await response.arrayBuffer());
  const size = service === 'math' ? exp.size_bytes : exp.sizeBytes;
  expect(bytes.length).toBe(size);
  expect(sha256(bytes)).toBe(exp.sha256);
  expect(response.headers.get('repr-digest')).toBe(
    `sha-256=:${Buffer.from(exp.sha256, 'hex').toString('base64')}:`,
  );
  return bytes;
}

const jsonLines = (bytes: Buffer): any[] =>
  bytes
    .toString('utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line));

const exportCount = async (): Promise<number> =>
  (await stack.dataSource.query('SELECT count(*)::int AS n FROM exports'))[0].n;

describe('POST /api/math/exports', () => {
  it('writes exactly the list’s pages read at its start, while transitions go on during the export', async () => {
    const filters = { run_id: generatedRun, sort: 'updated' };
    const pages = await mathListPages(f.owner, filters);
    expect(pages.length).toBe(1500);
    const created = await http(stack, 'POST', '/api/math/exports', {
      token: f.owner,
      body: { filters, format: 'jsonl' },
    });
    expect(created.status).toBe(202);
    expect(created.body).toMatchObject({ state: 'RUNNING', rows_in_snapshot: 1500, format: 'jsonl' });
    // Transitions that move tasks between the list's pages (newest update first) and change their rows.
    const moved = generatedTaskIds.slice(0, 12);
    await Promise.all(
      moved.map((taskId) => act(stack, f.owner, taskId, { action: 'assign', assignee_id: f.ids.rui })),
    );
    const done = await waitForExport('math', f.owner, created.body.id);
    expect(done).toMatchObject({ state: 'SUCCEEDED', rows_written: 1500, rows_in_snapshot: 1500 });
    expect(jsonLines(await download('math', f.owner, done))).toEqual(pages);
    // The list itself moved on: the export is its snapshot, not its present.
    expect(await mathListPages(f.owner, filters)).not.toEqual(pages);

    const described = await stack.temporal.workflow.getHandle(`export/math/${done.id}`).describe();
    expect(described.status.name).toBe('COMPLETED');
    expect(await described.staticSummary()).toBe(`Math export ${done.id}: 1500 tasks as jsonl`);
    const [{ left }] = await stack.dataSource.query(
      `SELECT (SELECT count(*) FROM export_rows WHERE export_id = $1)::int
            + (SELECT count(*) FROM export_parts WHERE export_id = $1)::int AS left`,
      [done.id],
    );
    expect(left).toBe(0);
  }, 240_000);

  it('holds only a Reviewer’s own tasks, and a filter on another reviewer finds none of theirs', async () => {
    const own = await http(stack, 'POST', '/api/math/exports', { token: f.sofia, body: {} });
    expect(own.status).toBe(202);
    const exp = await waitForExport('math', f.sofia, own.body.id);
    const rows = jsonLines(await download('math', f.sofia, exp));
    expect(rows.map((r) => r.task_id).sort()).toEqual(['la-02', 'la-04']);
    expect(rows).toEqual(await mathListPages(f.sofia, {}));

    const widened = await http(stack, 'POST', '/api/math/exports', {
      token: f.sofia,
      body: { filters: { reviewer_id: f.ids.rui } },
    });
    expect(widened.status).toBe(202);
    expect(widened.body.rows_in_snapshot).toBe(0);
    const empty = await waitForExport('math', f.sofia, widened.body.id);
    expect((await download('math', f.sofia, empty)).length).toBe(0);
  }, 120_000);

  it('writes CSV with a header and each task’s workflow events up to the snapshot', async () => {
    const created = await http(stack, 'POST', '/api/math/exports', {
      token: f.owner,
      body: { filters: { run_id: 'lists-run-a', sort: 'topic' }, format: 'csv', include_events: true },
    });
    expect(created.status).toBe(202);
    const exp = await waitForExport('math', f.owner, created.body.id);
    const text = (await download('math', f.owner, exp)).toString('utf8');
    const lines = text.split('\r\n').filter((line) => line !== '');
    expect(lines[0]).toBe(
      'task_id,run_id,topic_id,question_id,title,problem,report,review_state,decision,assignee_id,client_id,' +
        'archived,version,workflow,created_at,updated_at,events',
    );
    expect(lines.length - 1).toBe(exp.rows_in_snapshot);
    const workflow = await http(stack, 'GET', '/api/math/tasks/la-01/workflow', { token: f.owner });
    const row = lines.find((line) => line.startsWith('la-01,')) as string;
    const eventsCell = row.slice(row.lastIndexOf(',"[') + 2, -1).replace(/""/g, '"');
    expect(JSON.parse(eventsCell)).toEqual([...workflow.body.events].reverse());
  }, 120_000);

  it('refuses an unknown filter or format with a problem, and keeps nothing', async () => {
    const before = await exportCount();
    for (const body of [
      { filters: { assignee: 'me' } },
      { filters: { page: 2 } },
      { format: 'xml' },
      { filters: { review_state: 'DONE' } },
      { include_events: 'maybe' },
    ]) {
      const res = await http(stack, 'POST', '/api/math/exports', { token: f.owner, body });
      expect(res.status).toBe(400);
      expect(res.headers.get('content-type')).toContain('application/problem+json');
      expect(res.body.code).toBe('validation_failed');
    }
    expect(await exportCount()).toBe(before);
  });

  it('answers a retry with the same Idempotency-Key with the same export', async () => {
    const key = ik();
    const first = await http(stack, 'POST', '/api/math/exports', {
      token: f.owner,
      body: { filters: { run_id: 'lists-run-b' } },
      headers: { 'idempotency-key': key },
    });
    const again = await http(stack, 'POST', '/api/math/exports', {
      token: f.owner,
      body: { filters: { run_id: 'lists-run-b' } },
      headers: { 'idempotency-key': key },
    });
    expect(first.status).toBe(202);
    expect(again.body.id).toBe(first.body.id);
    await waitForExport('math', f.owner, first.body.id);
  });

  it('needs the read scope to start and files:read to download', async () => {
    expect((await http(stack, 'POST', '/api/math/exports', { token: f.ownerNoRead, body: {} })).status).toBe(
      403,
    );
    const readOnly = await http(stack, 'POST', '/api/math/exports', { token: f.ownerNoWrite, body: {} });
    expect(readOnly.status).toBe(202);
    await waitForExport('math', f.ownerNoWrite, readOnly.body.id);
    const refused = await http(stack, 'GET', `/api/math/exports/${readOnly.body.id}/download`, {
      token: f.ownerNoWrite,
    });
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ code: 'insufficient_scope', missing_scopes: ['files:read'] });
  });
});

describe('GET, DELETE /api/math/exports/{export_id}', () => {
  it('shows only the caller’s own exports: another member’s is not found', async () => {
    const created = await http(stack, 'POST', '/api/math/exports', { token: f.owner, body: {} });
    const exp = await waitForExport('math', f.owner, created.body.id);
    for (const path of [`/api/math/exports/${exp.id}`, `/api/math/exports/${exp.id}/download`]) {
      const res = await http(stack, 'GET', path, { token: f.rui });
      expect(res.status).toBe(404);
      expect(res.body.code).toBe('not_found');
    }
    expect((await http(stack, 'DELETE', `/api/math/exports/${exp.id}`, { token: f.rui })).status).toBe(404);
    const mine = await http(stack, 'GET', '/api/math/exports', { token: f.owner });
    expect(mine.body.items.map((e: any) => e.id)).toContain(exp.id);
    const theirs = await http(stack, 'GET', '/api/math/exports', { token: f.rui });
    expect(theirs.body.items.map((e: any) => e.id)).not.toContain(exp.id);
  });

  it('refuses an expired export with 410, and the purge deletes its file', async () => {
    const created = await http(stack, 'POST', '/api/math/exports', { token: f.owner, body: {} });
    const exp = await waitForExport('math', f.owner, created.body.id);
    await download('math', f.owner, exp);
    await stack.dataSource.query(
      `UPDATE exports SET expires_at = now() - interval '1 second' WHERE id = $1`,
      [exp.id],
    );
    const refused = await http(stack, 'GET', `/api/math/exports/${exp.id}/download`, { token: f.owner });
    expect(refused.status).toBe(410);
    expect(refused.body.code).toBe('export_expired');
    expect((await http(stack, 'GET', `/api/math/exports/${exp.id}`, { token: f.owner })).body.state).toBe(
      'EXPIRED',
    );
    const [{ object_key: key }] = await stack.dataSource.query(
      'SELECT object_key FROM exports WHERE id = $1',
      [exp.id],
    );
    await purgeExpiredExports(
      { dataSource: stack.dataSource, s3: stack.s3, bucket: stack.config.s3.bucket },
      createLogger('silent'),
    );
    await expect(
      stack.s3.send(new HeadObjectCommand({ Bucket: stack.config.s3.bucket, Key: key })),
    ).rejects.toBeInstanceOf(NotFound);
    const [row] = await stack.dataSource.query('SELECT state FROM exports WHERE id = $1', [exp.id]);
    expect(row.state).toBe('EXPIRED');
    expect(
      (await http(stack, 'GET', `/api/math/exports/${exp.id}/download`, { token: f.owner })).status,
    ).toBe(410);
  });

  it('deletes an export and its file', async () => {
    const created = await http(stack, 'POST', '/api/math/exports', { token: f.owner, body: {} });
    const exp = await waitForExport('math', f.owner, created.body.id);
    expect((await http(stack, 'DELETE', `/api/math/exports/${exp.id}`, { token: f.owner })).status).toBe(204);
    expect((await http(stack, 'GET', `/api/math/exports/${exp.id}`, { token: f.owner })).status).toBe(404);
    await expect(
      stack.s3.send(
        new HeadObjectCommand({ Bucket: stack.config.s3.bucket, Key: `exports/math/${exp.id}.jsonl` }),
      ),
    ).rejects.toBeInstanceOf(NotFound);
  });
});

describe('POST /api/v1/exports', () => {
  it('writes the /tasks pages at its start, in camelCase, and a Reviewer’s holds only their tasks', async () => {
    const uids: string[] = [];
    for (let i = 0; i < 3; i++) uids.push(await createTopic(stack, a.owner, { title: `export ${i}` }));
    const assigned = await g(stack, 'PUT', topicPath(uids[0], '/reviewer'), {
      token: a.owner,
      body: { reviewerId: a.ruiId, instructions: 'Check it.', dueAt: null },
    });
    expect(assigned.status).toBe(200);

    const pages = await genomicsListPages(a.owner, {});
    const created = await g(stack, 'POST', '/api/v1/exports', {
      token: a.owner,
      body: { filters: {}, includeEvents: false },
    });
    expect(created.status).toBe(202);
    expect(created.body).toMatchObject({
      state: 'RUNNING',
      rowsInSnapshot: pages.length,
      includeEvents: false,
    });
    await createTopic(stack, a.owner, { title: 'after the snapshot' });
    const exp = await waitForExport('genomics', a.owner, created.body.id);
    expect(jsonLines(await download('genomics', a.owner, exp))).toEqual(pages);

    const reviewer = await g(stack, 'POST', '/api/v1/exports', {
      token: a.reviewer,
      body: { filters: { search: '' }, includeEvents: true },
    });
    expect(reviewer.status).toBe(202);
    const reviewerExp = await waitForExport('genomics', a.reviewer, reviewer.body.id);
    const rows = jsonLines(await download('genomics', a.reviewer, reviewerExp));
    const ownTasks = await genomicsListPages(a.reviewer, {});
    expect(rows.map(({ events: _events, ...item }) => item)).toEqual(ownTasks);
    expect(rows.map((r) => r.uid)).toContain(uids[0]);
    const topicEvents = await g(stack, 'GET', topicPath(uids[0], '/events?limit=100'), { token: a.owner });
    expect(rows.find((r) => r.uid === uids[0]).events.map((e: any) => e.id)).toEqual(
      topicEvents.body.items.map((e: any) => e.id).reverse(),
    );
  }, 120_000);

  it('requires an Idempotency-Key and refuses an unknown filter, keeping nothing', async () => {
    const before = await exportCount();
    const noKey = await g(stack, 'POST', '/api/v1/exports', { token: a.owner, body: {}, key: null });
    expect(noKey.status).toBe(400);
    expect(noKey.body.code).toBe('idempotency_key_required');
    const unknown = await g(stack, 'POST', '/api/v1/exports', {
      token: a.owner,
      body: { filters: { afterBatch: 'batch-001' } },
    });
    expect(unknown.status).toBe(400);
    expect(unknown.body.code).toBe('validation_failed');
    expect(await exportCount()).toBe(before);
  });
});

describe('referee export', () => {
  it('writes the verified file of an export with the filters given as flags, with JSON progress lines', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'referee-export-cli-'));
    try {
      const out = join(dir, 'accepted.csv');
      const env = {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        REFEREE_API_URL: stack.url,
        REFEREE_API_KEY: f.owner,
      };
      const result = await referee(
        [
          'export',
          '--service',
          'math',
          '--run-id',
          'lists-run-a',
          '--decision',
          'ACCEPTED',
          '--format',
          'csv',
          '--out',
          out,
          '--json',
        ],
        env,
      );
      expect(result.code).toBe(0);
      const done = JSON.parse(result.stdout);
      const bytes = await readFile(out);
      expect(done).toMatchObject({ ok: true, rows: 2, sizeBytes: bytes.length, sha256: sha256(bytes) });
      const progress = result.stderr
        .split('\n')
        .filter((line) => line.startsWith('{'))
        .map((line) => JSON.parse(line).progress);
      expect(progress.at(-1)).toMatchObject({ state: 'SUCCEEDED', rowsWritten: 2, rowsInSnapshot: 2 });
      const lines = bytes.toString('utf8').split('\r\n').filter(Boolean);
      expect(
        lines
          .slice(1)
          .map((line) => line.split(',')[0])
          .sort(),
      ).toEqual(['la-01', 'la-05']);

      const refused = await referee(
        ['export', '--service', 'genomics', '--run-id', 'x', '--out', join(dir, 'no')],
        env,
      );
      expect(refused.code).toBe(2);
      expect(refused.stderr).toContain('--run-id is not a genomics filter');
      expect((await readdir(dir)).sort()).toEqual(['accepted.csv']);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 240_000);
});

describeInBrowser('the console’s Export button', () => {
  it('saves the verified file of the task list’s current filters', async () => {
    const browser = await launchChromium();
    try {
      const context = await browser.newContext({ acceptDownloads: true });
      const page = await context.newPage();
      await page.goto(`${stack.url}/console/math?decision=ACCEPTED&sort=topic`);
      await page.getByLabel('API key').fill(f.owner);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByTestId('counts').waitFor();
      const [saved] = await Promise.all([
        page.waitForEvent('download'),
        page.getByTestId('export-tasks').click(),
      ]);
      const bytes = await readFile((await saved.path()) as string);
      expect(jsonLines(bytes)).toEqual(await mathListPages(f.owner, { decision: 'ACCEPTED', sort: 'topic' }));
      await expect(page.getByTestId('export-status').textContent()).resolves.toContain(
        `SHA-256 ${sha256(bytes).slice(0, 12)}`,
      );
    } finally {
      await browser.close();
    }
  }, 120_000);
});

describe('an export whose worker is killed mid-export', () => {
  let server: RunningServer;
  let worker: ChildProcess | null = null;
  const queue = () => `${stack.config.temporal.taskQueue}-exports`;
  const spawnExportWorker = () =>
    spawn(process.execPath, [...TS_SOURCE_LOADER, 'worker.ts'], {
      cwd: projectRoot,
      env: { ...stackEnv(stack.config, queue()), EXPORT_PART_BYTES: String(PART_BYTES) },
      stdio: ['ignore', 'ignore', 'ignore'],
    });

  beforeAll(async () => {
    // The API of this test starts exports on a queue only the child worker polls.
    server = await startExtraServer(stack, {
      temporal: { ...stack.config.temporal, taskQueue: queue() },
    });
  });
  afterAll(async () => {
    if (worker) await kill(worker, 'SIGTERM');
    await server?.close();
  });

  it('resumes from the last recorded part: every row once, the digest matching, the snapshot unchanged', async () => {
    worker = spawnExportWorker();
    const filters = { run_id: generatedRun, sort: 'oldest' };
    const pages = await mathListPages(f.admin, filters);
    const created = await httpVia(server, stack, 'POST', '/api/math/exports', {
      token: f.admin,
      body: { filters, include_events: true },
    });
    expect(created.status).toBe(202);
    const id = created.body.id as string;
    const deadline = Date.now() + 120_000;
    let written = 0;
    while (written === 0) {
      if (Date.now() > deadline) throw new Error('the export wrote no part within 120 s');
      [{ rows_written: written }] = await stack.dataSource.query(
        'SELECT rows_written FROM exports WHERE id = $1',
        [id],
      );
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    await kill(worker);
    worker = null;
    const [progress] = await stack.dataSource.query(
      'SELECT rows_written, (SELECT count(*)::int FROM export_parts WHERE export_id = $1) AS parts FROM exports WHERE id = $1',
      [id],
    );
    expect(progress.rows_written).toBeLessThan(1500);
    expect(progress.parts).toBeGreaterThan(0);

    // While no worker runs: the export is not ready, more transitions land, and the limits hold.
    const early = await http(stack, 'GET', `/api/math/exports/${id}/download`, { token: f.admin });
    expect(early.status).toBe(409);
    expect(early.body.code).toBe('export_not_ready');
    for (const taskId of generatedTaskIds.slice(20, 26))
      await act(stack, f.owner, taskId, { action: 'assign', assignee_id: f.ids.sofia });
    const second = await httpVia(server, stack, 'POST', '/api/math/exports', { token: f.admin, body: {} });
    expect(second.status).toBe(202);
    const third = await httpVia(server, stack, 'POST', '/api/math/exports', { token: f.admin, body: {} });
    expect(third.status).toBe(429);
    expect(third.body.code).toBe('export_limit');
    expect(third.headers.get('retry-after')).toBe('30');
    expect(
      (await http(stack, 'DELETE', `/api/math/exports/${second.body.id}`, { token: f.admin })).status,
    ).toBe(204);

    worker = spawnExportWorker();
    const done = await waitForExport('math', f.admin, id, 240_000);
    expect(done).toMatchObject({ state: 'SUCCEEDED', rows_written: 1500 });
    const rows = jsonLines(await download('math', f.admin, done));
    expect(new Set(rows.map((r) => r.task_id)).size).toBe(1500);
    expect(rows.map(({ events: _events, ...item }) => item)).toEqual(pages);
    for (const row of rows) expect(row.events.length).toBe(row.workflow.event_count);
  }, 400_000);
});
