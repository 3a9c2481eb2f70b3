import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { genomicsService } from '../../api/genomics';
import type { Operation, ServiceDefinition } from '../../api/kernel/operation';
import { mathService } from '../../api/math';
import type { ServiceName } from '../../entities/types';
import { projectRoot } from '../../infra/paths';
import { freePort } from '../../infra/ports';
import { type ManagedProcess, spawnManaged, TS_SOURCE_LOADER } from '../../infra/processes';
import { EXTRA_GENOMICS_MEMBERS, g, importGenomicsBundle } from './genomics';
import { act, createClient } from './math';
import { http, importBundle, memberId, mintKey, seedMembers, type TestStack } from './stack';
import { readTestEnv } from './testEnv';

export const SERVICES: ServiceDefinition[] = [mathService, genomicsService];

export const serviceOf = (operation: Operation): ServiceName =>
  mathService.operations.includes(operation) ? 'math' : 'genomics';

/**
 * The demo data of both services, with a little review state: math tasks assigned to two reviewers (rui:
 * demo-q1-a; sofia: the rest), a client linked to sofia's demo-q2-a, an attachment on it; a genomics
 * reviewer planned on topic 1 with a note. `tomas` (math) and `vera` (genomics) are Reviewers with no task.
 */
export interface DemoWorld {
  math: { admin: string; owner: string; rui: string; sofia: string; tomas: string };
  genomics: { admin: string; owner: string; rui: string; vera: string };
  ids: {
    rui: string;
    sofia: string;
    tomas: string;
    clientId: string;
    attachmentId: string;
    genomicsRui: string;
    noteId: string;
    assignmentId: string;
  };
  /** Every math task id of the demo, and who is assigned. */
  tasks: { all: string[]; rui: string[]; sofia: string[] };
  topicUid: string;
}

export const MATH_TASK_IDS = ['demo-q1-a', 'demo-q2-a', 'demo-q2-b', 'demo-q3-a'];

export async function setupDemoWorld(stack: TestStack): Promise<DemoWorld> {
  await seedMembers(stack, {
    math: [
      {
        identity_id: 'idp|tomas',
        username: 'tomas',
        display_name: 'Tomas Reviewer',
        email: null,
        role: 'REVIEWER',
        enabled: true,
      },
    ],
    ...EXTRA_GENOMICS_MEMBERS,
  });
  await Promise.all([importBundle(stack), importGenomicsBundle(stack)]);
  const key = async (service: ServiceName, identity: string) =>
    (await mintKey(stack, service, identity, { expiresInMs: 30 * 86_400_000 })).token;
  const world: DemoWorld = {
    math: {
      admin: await key('math', 'idp|ada'),
      owner: await key('math', 'idp|olga'),
      rui: await key('math', 'idp|rui'),
      sofia: await key('math', 'idp|sofia'),
      tomas: await key('math', 'idp|tomas'),
    },
    genomics: {
      admin: await key('genomics', 'idp|ada'),
      owner: await key('genomics', 'idp|olga'),
      rui: await key('genomics', 'idp|rui'),
      vera: await key('genomics', 'idp|vera'),
    },
    ids: {
      rui: await memberId(stack, 'math', 'idp|rui'),
      sofia: await memberId(stack, 'math', 'idp|sofia'),
      tomas: await memberId(stack, 'math', 'idp|tomas'),
      clientId: '',
      attachmentId: '',
      genomicsRui: await memberId(stack, 'genomics', 'idp|rui'),
      noteId: '',
      assignmentId: '',
    },
    tasks: { all: MATH_TASK_IDS, rui: ['demo-q1-a'], sofia: ['demo-q2-a', 'demo-q2-b', 'demo-q3-a'] },
    topicUid: 'batch-001:1',
  };
  const { owner } = world.math;
  await act(stack, owner, 'demo-q1-a', { action: 'assign', assignee_id: world.ids.rui });
  for (const taskId of world.tasks.sofia)
    await act(stack, owner, taskId, { action: 'assign', assignee_id: world.ids.sofia });
  world.ids.clientId = await createClient(stack, owner, 'Authz Client');
  await act(stack, owner, 'demo-q2-a', { action: 'client', client_id: world.ids.clientId });
  await act(stack, world.math.sofia, 'demo-q2-a', { action: 'feedback', comment: 'Sofia was here.' });
  const upload = await http(stack, 'POST', '/api/math/tasks/demo-q2-a/attachments', {
    token: owner,
    body: Buffer.from('attachment of sofia’s task'),
    headers: { 'content-type': 'application/octet-stream', 'x-filename': 'notes.txt' },
  });
  if (upload.status !== 201) throw new Error(`upload: ${upload.status} ${JSON.stringify(upload.body)}`);
  world.ids.attachmentId = upload.body.attachment_id;

  const reviewer = await g(stack, 'PUT', `/api/v1/topics/${world.topicUid}/reviewer`, {
    token: world.genomics.owner,
    body: { reviewerId: world.ids.genomicsRui, instructions: 'Please review.', dueAt: null },
  });
  if (reviewer.status !== 200)
    throw new Error(`reviewer: ${reviewer.status} ${JSON.stringify(reviewer.body)}`);
  world.ids.assignmentId = reviewer.body.assignmentId;
  const note = await g(stack, 'POST', `/api/v1/topics/${world.topicUid}/notes`, {
    token: world.genomics.owner,
    body: { body: 'A note.', campaignId: null },
  });
  if (note.status !== 201) throw new Error(`note: ${note.status} ${JSON.stringify(note.body)}`);
  world.ids.noteId = note.body.recordId;
  return world;
}

/** Values for every path parameter of both services, naming existing demo records where one exists. */
export function pathValues(world: DemoWorld): Record<string, string> {
  return {
    task_id: 'demo-q1-a',
    question_id: 'q1',
    run_id: 'demo-run-001',
    client_id: world.ids.clientId,
    key_id: randomUUID(),
    artifact_id: 'demo-art-q1-report',
    attachment_id: '999999',
    report_id: '999999',
    keyId: randomUUID(),
    topicUid: world.topicUid,
    noteId: world.ids.noteId,
    // No endpoint has these ids: a permitted call reads 404, which the matrix and the sweep accept.
    webhook_id: randomUUID(),
    webhookId: randomUUID(),
    delivery_id: '999999',
    deliveryId: '999999',
    export_id: '999999',
    exportId: '999999',
  };
}

/** The operation's path with its parameters filled in (values URL-encoded). */
export function fillPath(operation: Operation, values: Record<string, string>): string {
  return operation.path.replace(/:([A-Za-z0-9_]+)(\([^)]*\))?/g, (_m, name: string) => {
    const value = values[name];
    if (value === undefined)
      throw new Error(`no value for path parameter ${name} of ${operation.operationId}`);
    return encodeURIComponent(value);
  });
}

export const bodyKindOf = (operation: Operation) =>
  operation.request.bodyKind ?? (operation.request.body ? 'json' : 'none');

/** A fresh Idempotency-Key. */
export const freshKey = (): string => `rel-${randomUUID()}`;

/**
 * A snapshot of the database's content: per table, the row count and a digest of every row, leaving out
 * request bookkeeping that any request may write (write-request key events, last_used_at, rate-limit
 * buckets, identity audit of refused credentials, transfer slots in flight).
 */
export async function snapshotDatabase(stack: TestStack): Promise<Record<string, string>> {
  const tables: Array<{ table_name: string }> = await stack.dataSource.query(
    `SELECT table_name FROM information_schema.tables
      WHERE table_schema = 'public' AND table_type = 'BASE TABLE' AND table_name NOT IN ('migrations')
      ORDER BY table_name`,
  );
  const bookkeeping: Record<string, string> = {
    rate_limit_buckets: 'FALSE',
    // A download's transfer slot is released just after its response closes, so a snapshot may see it.
    file_transfer_leases: 'FALSE',
    key_events: `t.kind <> 'write_request'`,
    identity_audit: `t.kind <> 'authentication_failed'`,
  };
  const snapshot: Record<string, string> = {};
  for (const { table_name } of tables) {
    const where = bookkeeping[table_name] ?? 'TRUE';
    const row = table_name === 'api_keys' ? `(to_jsonb(t) - 'last_used_at')::text` : 't::text';
    const [{ n, digest }]: Array<{ n: number; digest: string | null }> = await stack.dataSource.query(
      `SELECT count(*)::int AS n, md5(string_agg(${row}, E'\\n' ORDER BY ${row})) AS digest
         FROM "${table_name}" t WHERE ${where}`,
    );
    snapshot[table_name] = `${n} ${digest ?? '-'}`;
  }
  return snapshot;
}

/** Every row of every table as text, for searching (secrets). */
export async function dumpDatabase(stack: TestStack): Promise<Record<string, string>> {
  const tables: Array<{ table_name: string }> = await stack.dataSource.query(
    "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE'",
  );
  const dump: Record<string, string> = {};
  for (const { table_name } of tables) {
    const rows: Array<{ row: string }> = await stack.dataSource.query(
      `SELECT t::text AS row FROM "${table_name}" t`,
    );
    dump[table_name] = rows.map((r) => r.row).join('\n');
  }
  return dump;
}

/** The environment that makes `server.ts` / `worker.ts`, run as programs, use the stack's resources. */
export function processEnv(stack: TestStack, overrides: Record<string, string> = {}): NodeJS.ProcessEnv {
  const c = stack.config;
  return {
    ...process.env,
    HOST: '127.0.0.1',
    DATABASE_URL: c.databaseUrl,
    DATABASE_POOL_SIZE: '5',
    TEMPORAL_ADDRESS: c.temporal.address,
    TEMPORAL_NAMESPACE: c.temporal.namespace,
    TEMPORAL_TASK_QUEUE: c.temporal.taskQueue,
    TEMPORAL_CALL_TIMEOUT_MS: String(c.temporal.callTimeoutMs),
    S3_ENDPOINT: c.s3.endpoint ?? '',
    S3_ACCESS_KEY_ID: c.s3.accessKeyId ?? '',
    S3_SECRET_ACCESS_KEY: c.s3.secretAccessKey ?? '',
    S3_BUCKET: c.s3.bucket,
    LOG_LEVEL: 'warn',
    REFEREE_WORKFLOW_BUNDLE: readTestEnv().workflowBundlePath,
    ...overrides,
  };
}

/** `server.ts` or `worker.ts` as its own Node process (through tsx's hook, no wrapper process to outlive). */
export function spawnProgram(
  program: 'server.ts' | 'worker.ts',
  env: NodeJS.ProcessEnv,
  logFile: string,
): ManagedProcess {
  return spawnManaged(process.execPath, [...TS_SOURCE_LOADER, join(projectRoot, program)], {
    name: program,
    env,
    cwd: projectRoot,
    logFile,
  });
}

/** `server.ts` as its own program on a port of its own, with the stack's resources, once it answers. */
export async function startApiProgram(
  stack: TestStack,
  logFile: string,
  timeoutMs?: number,
): Promise<{ proc: ManagedProcess; url: string }> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const proc = spawnProgram('server.ts', processEnv(stack, { PORT: String(port) }), logFile);
  await untilHealthy(url, proc, timeoutMs);
  return { proc, url };
}

/** SIGKILL: no shutdown hook runs, in-flight work is lost mid-way. */
export async function killHard(proc: ManagedProcess): Promise<void> {
  try {
    process.kill(proc.pid, 'SIGKILL');
  } catch {
    // already gone
  }
  await proc.exited;
}

/** Resolves once `url` answers `/healthz`. */
export async function untilHealthy(url: string, proc: ManagedProcess, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let exited = false;
  void proc.exited.then(() => (exited = true));
  for (;;) {
    if (exited) throw new Error(`the process serving ${url} exited during start-up`);
    try {
      if ((await fetch(`${url}/healthz`)).ok) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`${url} not healthy within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** A small seeded PRNG (mulberry32), so a soak run can be repeated from its printed seed. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
