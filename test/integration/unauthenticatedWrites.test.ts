import { randomBytes, randomUUID } from 'node:crypto';
import { request } from 'node:http';
import { insertSession, touchSession } from '../../access/consoleSessionsQueries';
import { hashSessionSecret } from '../../api/kernel/consoleSession';
import { http, mintKey, seedMembers, startStack, type TestStack } from '../helpers/stack';

/*
 * What a request without a valid credential may cost the service (docs/keys.md, "Failed authentication"): a
 * flood of bad credentials writes one counted identity audit record per group, not a row each, so the admin's view
 * of the audit keeps its real records; the audit pages back and purges past its retention; a session read live
 * just before it went idle is not revived by that request's touch; a session cookie sent twice is refused.
 */
let stack: TestStack;
let admin: string;

beforeAll(async () => {
  stack = await startStack({
    // Counts written only when the test flushes them, so each assertion sees whole intervals.
    env: { IDENTITY_AUDIT_RETENTION_DAYS: '30', AUTH_FAILURE_AUDIT_SECONDS: '300' },
  });
  await seedMembers(stack);
  admin = (await mintKey(stack, 'math', 'idp|ada')).token;
}, 120_000);

afterAll(async () => {
  await stack?.stop();
});

const auditCount = async (): Promise<number> =>
  (await stack.dataSource.query(`SELECT count(*)::int AS n FROM identity_audit`))[0].n;

/** A GET sent from a given loopback address (Linux answers every 127.0.0.0/8 address). */
function getFrom(
  localAddress: string,
  path: string,
  headers: Record<string, string>,
): Promise<{ status: number; headers: Record<string, string | string[] | undefined> }> {
  const url = new URL(path, stack.url);
  return new Promise((resolve, reject) => {
    const req = request(
      { host: url.hostname, port: url.port, path: url.pathname, method: 'GET', headers, localAddress },
      (res) => {
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers }));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

describe('failed authentication', () => {
  it('writes nothing per request: a flood leaves the newest real record in view and the table bounded', async () => {
    const created = await http(stack, 'POST', '/api/keys', {
      token: admin,
      body: { name: 'before the flood' },
    });
    expect(created.status).toBe(201);
    const before = await auditCount();
    const junk = 'x'.repeat(15_000);
    const sources = ['127.0.0.2', '127.0.0.3', '127.0.0.4'];
    for (let i = 0; i < 300; i += 30) {
      const replies = await Promise.all(
        Array.from({ length: 30 }, (_, j) =>
          getFrom(
            sources[(i + j) % sources.length],
            `/api/math/tasks/${junk}${i + j}`,
            (i + j) % 2 === 0
              ? { authorization: 'Bearer x' }
              : { cookie: `referee_session=${randomBytes(32).toString('base64url')}` },
          ),
        ),
      );
      expect(replies.map((r) => r.status)).toEqual(Array(30).fill(401));
    }
    // Nothing written by the requests themselves; the counts come with the next interval.
    expect(await auditCount()).toBe(before);
    await stack.server.deps.authFailures.flush();
    const added = (await auditCount()) - before;
    // One record per reason and source address: 2 reasons × 3 addresses.
    expect(added).toBe(6);

    const audit = await http(stack, 'GET', '/api/auth/audit', { token: admin });
    expect(audit.status).toBe(200);
    const records = audit.body.records as Array<{
      id: string;
      kind: string;
      key_id: string | null;
      detail: any;
    }>;
    expect(records.find((r) => r.kind === 'key_created' && r.key_id === created.body.id)).toBeDefined();
    const failures = records.filter((r) => r.kind === 'authentication_failed');
    expect(failures).toHaveLength(6);
    for (const failure of failures)
      expect(failure.detail).toMatchObject({
        method: 'GET',
        path: '/api/math/tasks/:task_id',
        source: expect.stringMatching(/^127\.0\.0\.[234]$/),
        count: 50,
      });
    expect(new Set(failures.map((f) => f.detail.reason))).toEqual(new Set(['malformed', 'session_unknown']));
    expect(JSON.stringify(records)).not.toContain(junk);
  }, 120_000);

  it('bounds the records one interval writes, however many routes and addresses a flood uses', async () => {
    const before = await auditCount();
    const replies = [];
    for (let i = 0; i < 120; i += 1) {
      // 120 addresses on 2 routes: past the interval's 50 groups, the rest count in one record per reason.
      replies.push(
        await getFrom(`127.0.1.${i + 1}`, i % 2 ? '/api/keys' : `/api/math/tasks/t${i}`, {
          authorization: 'Bearer x',
        }),
      );
    }
    expect(replies.every((r) => r.status === 401)).toBe(true);
    await stack.server.deps.authFailures.flush();
    expect((await auditCount()) - before).toBe(51);
    const [overflow] = await stack.dataSource.query(
      `SELECT detail FROM identity_audit WHERE detail->>'source' = '*' ORDER BY id DESC LIMIT 1`,
    );
    expect(overflow.detail).toMatchObject({ reason: 'malformed', path: '*', count: 70 });
  }, 120_000);
});

describe('the identity audit', () => {
  it('pages back with before, keeps one kind with kind, and refuses a bad cursor', async () => {
    for (let i = 0; i < 3; i += 1)
      await http(stack, 'POST', '/api/keys', { token: admin, body: { name: `page key ${i}` } });
    const first = await http(stack, 'GET', '/api/auth/audit', { token: admin });
    const ids = (first.body.records as Array<{ id: string }>).map((r) => BigInt(r.id));
    expect(ids.length).toBeGreaterThan(0);
    const oldestShown = ids[ids.length - 1];
    const next = await http(stack, 'GET', `/api/auth/audit?before=${oldestShown}`, { token: admin });
    expect(next.status).toBe(200);
    for (const record of next.body.records as Array<{ id: string }>)
      expect(BigInt(record.id) < oldestShown).toBe(true);
    const created = await http(stack, 'GET', '/api/auth/audit?kind=key_created', { token: admin });
    expect(created.body.records.length).toBeGreaterThanOrEqual(4);
    expect(new Set(created.body.records.map((r: { kind: string }) => r.kind))).toEqual(
      new Set(['key_created']),
    );
    expect((await http(stack, 'GET', '/api/auth/audit?before=abc', { token: admin })).status).toBe(400);
  });

  it('purges records past IDENTITY_AUDIT_RETENTION_DAYS, and sign-ins past their expiry', async () => {
    const [old] = await stack.dataSource.query(
      `INSERT INTO identity_audit (service, kind, detail, created_at)
            VALUES ('math', 'member_updated', '{}', now() - interval '31 days') RETURNING id::text`,
    );
    const [kept] = await stack.dataSource.query(
      `INSERT INTO identity_audit (service, kind, detail, created_at)
            VALUES ('math', 'member_updated', '{}', now() - interval '29 days') RETURNING id::text`,
    );
    await stack.dataSource.query(
      `INSERT INTO console_sign_ins (secret_hash, expires_at)
         SELECT sha256(i::text::bytea), now() - interval '1 second' FROM generate_series(1, 20) i
       UNION ALL SELECT sha256('fresh'::bytea), now() + interval '10 minutes'`,
    );
    await stack.server.housekeeping.runOnce();
    const left = await stack.dataSource.query(
      `SELECT id::text FROM identity_audit WHERE id = ANY($1::bigint[])`,
      [[old.id, kept.id]],
    );
    expect(left).toEqual([{ id: kept.id }]);
    const signIns = await stack.dataSource.query(`SELECT count(*)::int AS n FROM console_sign_ins`);
    expect(signIns[0].n).toBe(1);
  });
});

describe('console sessions', () => {
  const openSession = async () => {
    const secret = randomBytes(32).toString('base64url');
    const id = randomUUID();
    await insertSession(stack.dataSource, {
      id,
      secretHash: hashSessionSecret(secret),
      subject: 'idp|rui',
      absoluteSeconds: 3600,
    });
    return { id, secret };
  };
  const withCookie = (cookie: string) => fetch(`${stack.url}/api/math/tasks`, { headers: { cookie } });

  it('does not revive a session that went idle after a request read it', async () => {
    const { id, secret } = await openSession();
    expect((await withCookie(`referee_session=${secret}`)).status).toBe(200);
    // Idle now, as if the request above had read it just before the last minute of its idle time ran out.
    const idle = stack.config.consoleSession.idleSeconds;
    await stack.dataSource.query(
      `UPDATE console_sessions SET last_seen_at = now() - make_interval(secs => $2 + 1) WHERE id = $1`,
      [id, idle],
    );
    // That request's touch, arriving late.
    await touchSession(stack.dataSource, id, idle);
    const response = await withCookie(`referee_session=${secret}`);
    expect(response.status).toBe(401);
    const [row] = await stack.dataSource.query(`SELECT ended_reason FROM console_sessions WHERE id = $1`, [
      id,
    ]);
    expect(row.ended_reason).toBe('idle');
  });

  it('refuses a request carrying the session cookie twice, whichever comes first', async () => {
    const { secret } = await openSession();
    const tossed = randomBytes(32).toString('base64url');
    for (const cookie of [
      `referee_session=${secret}; referee_session=${tossed}`,
      `referee_session=${tossed}; referee_session=${secret}`,
    ]) {
      const response = await withCookie(cookie);
      expect(response.status).toBe(401);
      await expect(response.json()).resolves.toMatchObject({
        detail: expect.stringMatching(/more than once/),
      });
    }
    expect((await withCookie(`referee_session=${secret}`)).status).toBe(200);
  });
});

describe('idempotency receipts', () => {
  it('are scoped to the key that made them: another key of the member does not replay the answer', async () => {
    const first = await mintKey(stack, 'math', 'idp|olga');
    const second = await mintKey(stack, 'math', 'idp|olga');
    const request = {
      body: { name: 'Scoped receipt client' },
      headers: { 'idempotency-key': `scoped-${randomUUID()}` },
    };
    const created = await http(stack, 'POST', '/api/math/clients', { token: first.token, ...request });
    expect(created.status).toBe(201);
    const replay = await http(stack, 'POST', '/api/math/clients', { token: first.token, ...request });
    expect([replay.status, replay.body]).toEqual([201, created.body]);
    const other = await http(stack, 'POST', '/api/math/clients', { token: second.token, ...request });
    expect([other.status, other.body.code]).toEqual([409, 'idempotency_key_reused']);
    const rows = await stack.dataSource.query('SELECT count(*)::int AS n FROM math_clients WHERE name = $1', [
      request.body.name,
    ]);
    expect(rows).toEqual([{ n: 1 }]);
  });
});
