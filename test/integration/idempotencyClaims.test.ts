import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import {
  type ClaimHolder,
  findReceipt,
  insertReceiptClaim,
  openLivenessSession,
  retakeAbandonedClaim,
} from '../../access/idempotencyQueries';
import type { ManagedProcess } from '../../infra/processes';
import { createTopic, topicPath } from '../helpers/genomics';
import { waitFor } from '../helpers/imports';
import { startExtraServer } from '../helpers/keys';
import { freshKey, killHard, startApiProgram } from '../helpers/reliability';
import { http, memberId, mintKey, seedMembers, startStack, type TestStack } from '../helpers/stack';

/*
 * An Idempotency-Key claim ends with the API process that holds it (docs/decisions-system.md, "Idempotency-Key after a
 * crash"): a claim names its process's liveness session, and a request that meets a claim whose holder's session
 * PostgreSQL no longer has takes it over at once; a live holder keeps its claim until its lease runs out. The
 * killed holder here is a real process: server.ts spawned as its own program and SIGKILLed mid-request.
 */
let stack: TestStack;
let child: ManagedProcess;
let childUrl: string;
let logDir: string;
let mathToken: string;
let genomicsToken: string;

/** The claim's lease: a retry served well before it was served because its holder was seen dead. */
const LEASE_MS = 60_000;
const SERVED_WITHIN_MS = 10_000;

beforeAll(async () => {
  stack = await startStack();
  await seedMembers(stack);
  logDir = await mkdtemp(join(tmpdir(), 'referee-claims-'));
  ({ proc: child, url: childUrl } = await startApiProgram(stack, join(logDir, 'api.log'), 150_000));
  mathToken = (await mintKey(stack, 'math', 'idp|olga')).token;
  genomicsToken = (await mintKey(stack, 'genomics', 'idp|olga')).token;
}, 180_000);

afterAll(async () => {
  if (child) await killHard(child);
  await stack?.stop();
  if (logDir) await rm(logDir, { recursive: true, force: true });
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Holds every insert into `table` (reads go on) until the returned function is called: a request that writes
 * there waits inside its transaction, after its claim, until then.
 */
async function holdInserts(table: 'math_clients' | 'genomics_notes'): Promise<() => Promise<void>> {
  const runner = stack.dataSource.createQueryRunner();
  await runner.connect();
  await runner.startTransaction();
  await runner.query(`LOCK TABLE ${table} IN EXCLUSIVE MODE`);
  return async () => {
    await runner.rollbackTransaction();
    await runner.release();
  };
}

/** Resolves once `count` sessions of this stack's database wait for a lock. */
const untilWaitingForLocks = (count: number) =>
  waitFor(
    `${count} requests waiting for a lock`,
    async () => {
      const [{ waiting }]: Array<{ waiting: number }> = await stack.dataSource.query(
        `SELECT count(DISTINCT l.pid)::int AS waiting FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
          WHERE NOT l.granted AND a.datname = current_database()`,
      );
      return waiting >= count;
    },
    30_000,
    20,
  );

const createClient = (url: string, name: string, key: string) =>
  http({ ...stack, url }, 'POST', '/api/math/clients', {
    token: mathToken,
    body: { name },
    headers: { 'idempotency-key': key },
  });

const count = async (sql: string, value: string) =>
  ((await stack.dataSource.query(sql, [value])) as Array<{ n: number }>)[0].n;

describe('an Idempotency-Key claim held by an API process', () => {
  it('is refused while its process lives, taken over as soon as it is killed, and the request runs once', async () => {
    const key = freshKey();
    const name = `Claimed by ${key}`;
    const release = await holdInserts('math_clients');
    let cutOff;
    try {
      cutOff = createClient(childUrl, name, key).catch((error: unknown) => error);
      await untilWaitingForLocks(1);
      // The claim names the child's liveness session, not a session of this process.
      const [holder]: Array<{ application_name: string; pid: number }> = await stack.dataSource.query(
        `SELECT a.application_name, a.pid FROM idempotency_records r
           JOIN pg_stat_activity a ON a.pid = r.holder_pid AND a.backend_start = r.holder_started
          WHERE r.idempotency_key = $1`,
        [key],
      );
      expect(holder.application_name).toBe('referee-liveness');
      expect(holder.pid).not.toBe(stack.server.deps.liveness.holder?.pid);
      const early = await createClient(stack.url, name, key);
      expect([early.status, early.body.code]).toEqual([409, 'idempotency_request_in_progress']);
      await killHard(child);
    } finally {
      await release();
    }
    const killedAt = Date.now();
    // Its connection died with it.
    expect(await cutOff).toMatchObject({ message: 'fetch failed' });
    let retried = await createClient(stack.url, name, key);
    while (retried.status === 409 && Date.now() - killedAt < LEASE_MS) {
      await sleep(100);
      retried = await createClient(stack.url, name, key);
    }
    const servedAfterMs = Date.now() - killedAt;
    expect(retried.status).toBe(201);
    expect(servedAfterMs).toBeLessThan(SERVED_WITHIN_MS);
    const replay = await createClient(stack.url, name, key);
    expect([replay.status, replay.body, replay.headers.get('idempotent-replayed')]).toEqual([
      201,
      retried.body,
      'true',
    ]);
    expect(await count('SELECT count(*)::int AS n FROM math_clients WHERE name = $1', name)).toBe(1);
  }, 120_000);

  it('is lost when its liveness session drops: a retry takes it over, and the cut-off request writes nothing', async () => {
    const first = await startExtraServer(stack);
    try {
      const uid = await createTopic(stack, genomicsToken);
      const key = freshKey();
      const body = { body: `note under ${key}`, campaignId: null };
      const addNote = (url: string) =>
        http({ ...stack, url }, 'POST', topicPath(uid, '/notes'), {
          token: genomicsToken,
          body,
          headers: { 'idempotency-key': key },
        });
      const release = await holdInserts('genomics_notes');
      let cutOff;
      let retry;
      try {
        cutOff = addNote(first.url);
        await untilWaitingForLocks(1);
        const lost = first.deps.liveness.holder!;
        expect(lost).not.toBeNull();
        await stack.dataSource.query('SELECT pg_terminate_backend($1, 5000)', [lost.pid]);
        // The process reconnects as a new holder.
        await waitFor(
          'a new liveness session',
          async () => (first.deps.liveness.holder?.pid ?? lost.pid) !== lost.pid,
          10_000,
          20,
        );
        // Through another process: takes the claim over, then waits for the held inserts too.
        retry = addNote(stack.url);
        await untilWaitingForLocks(2);
      } finally {
        await release();
      }
      const [cut, served] = await Promise.all([cutOff, retry]);
      expect([cut.status, cut.body.code]).toEqual([409, 'idempotency_request_in_progress']);
      expect(served!.status).toBe(201);
      expect(await count('SELECT count(*)::int AS n FROM genomics_notes WHERE body = $1', body.body)).toBe(1);
      const replay = await addNote(first.url);
      expect([replay.status, replay.body]).toEqual([201, served!.body]);
    } finally {
      await first.close();
    }
  }, 60_000);
});

describe('whether a claim’s holder counts as gone', () => {
  const claimWith = async (holder: ClaimHolder | null) => {
    const key = {
      service: 'math' as const,
      memberId: await memberId(stack, 'math', 'idp|olga'),
      key: freshKey(),
    };
    const claim = await insertReceiptClaim(stack.dataSource, {
      ...key,
      operationId: 'math.createClient',
      fingerprint: 'f',
      claimSeconds: 60,
      holder,
    });
    expect(claim).not.toBeNull();
    return { key, claim: claim! };
  };

  it('a live holder keeps its claim while its lease runs', async () => {
    const live = stack.server.deps.liveness.holder;
    expect(live).not.toBeNull();
    const { key } = await claimWith(live);
    expect((await findReceipt(stack.dataSource, key))?.abandoned).toBe(false);
    expect(await retakeAbandonedClaim(stack.dataSource, key, 60, null)).toBeNull();
  });

  const endedSession = async (): Promise<ClaimHolder> => {
    const client = new pg.Client({ connectionString: stack.config.databaseUrl });
    await client.connect();
    const holder = await openLivenessSession(client);
    await client.end();
    await waitFor(
      'the ended session to leave pg_stat_activity',
      async () =>
        count('SELECT count(*)::int AS n FROM pg_stat_activity WHERE pid = $1', String(holder.pid)).then(
          (n) => n === 0,
        ),
      10_000,
      20,
    );
    return holder;
  };

  it.each([
    { name: 'a holder whose session ended', holder: endedSession },
    {
      // A pid PostgreSQL gave to a later session: the start time tells it from the holder's.
      name: 'a holder whose pid now names another session',
      holder: async () => ({ ...stack.server.deps.liveness.holder!, started: '2000-01-01 00:00:00+00' }),
    },
  ])('$name is gone: its claim is taken over at once', async ({ holder }) => {
    const { key, claim } = await claimWith(await holder());
    expect((await findReceipt(stack.dataSource, key))?.abandoned).toBe(true);
    const taken = await retakeAbandonedClaim(stack.dataSource, key, 60, stack.server.deps.liveness.holder);
    expect(taken).not.toBeNull();
    expect(taken).not.toBe(claim);
    expect((await findReceipt(stack.dataSource, key))?.abandoned).toBe(false);
  });
});
