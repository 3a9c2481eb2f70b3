import { randomBytes } from 'node:crypto';
import net from 'node:net';
import { requestFingerprint } from '../../api/kernel/idempotency';
import { completeReceipt, insertReceiptClaim, retakeAbandonedClaim } from '../../access/idempotencyQueries';
import type { RunningServer } from '../../server';
import { createTopic, topicPath } from '../helpers/genomics';
import { httpVia, startExtraServer } from '../helpers/keys';
import { http, memberId, mintKey, seedMembers, startStack, type TestStack } from '../helpers/stack';

let stack: TestStack;
let first: RunningServer;
let second: RunningServer;

/** Low enough to reach in a few requests; one token back every 10 s, so the test never sees a refill. */
const LIMIT = { perSecond: 0.1, burst: 10 };

beforeAll(async () => {
  stack = await startStack();
  await seedMembers(stack);
  [first, second] = await Promise.all([
    startExtraServer(stack, { rateLimit: LIMIT }),
    startExtraServer(stack, { rateLimit: LIMIT }),
  ]);
});

afterAll(async () => {
  await Promise.all([first?.close(), second?.close()]);
  await stack?.stop();
});

describe('per-key request rate limit', () => {
  it('has generous documented defaults', () => {
    expect(stack.config.rateLimit).toEqual({ perSecond: 100, burst: 1000 });
  });

  it('shares one budget between two API processes, then answers 429 with Retry-After', async () => {
    const { token } = await mintKey(stack, 'math', 'idp|olga');
    const statuses: number[] = [];
    let refusal = null;
    for (let i = 0; i < 24; i++) {
      const res = await httpVia(i % 2 ? second : first, stack, 'GET', '/api/auth/session', { token });
      statuses.push(res.status);
      if (res.status === 429) refusal ??= res;
      // Requests a few milliseconds apart, as a client would send them; each process syncs within 200 ms.
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    const admitted = statuses.filter((s) => s === 200).length;
    // Two processes with their own budgets would admit 20; the documented tolerance allows one sync's worth.
    expect(admitted).toBeGreaterThanOrEqual(LIMIT.burst);
    expect(admitted).toBeLessThanOrEqual(LIMIT.burst + 2);
    expect(statuses.slice(-8).every((s) => s === 429)).toBe(true);
    expect(refusal!.body).toMatchObject({ status: 429, code: 'rate_limited' });
    expect(refusal!.headers.get('content-type')).toContain('application/problem+json');
    expect(Number(refusal!.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(Number(refusal!.headers.get('retry-after'))).toBeLessThanOrEqual(10);
    expect(refusal!.headers.get('ratelimit-limit')).toBe('10');
    expect(refusal!.headers.get('ratelimit-remaining')).toBe('0');
    expect(Number(refusal!.headers.get('ratelimit-reset'))).toBeGreaterThan(90);
  });

  it('counts each key on its own, and tells an admitted request what is left', async () => {
    const { token } = await mintKey(stack, 'genomics', 'idp|rui');
    const res = await httpVia(first, stack, 'GET', '/api/v1/session', { token });
    expect(res.status).toBe(200);
    expect(res.headers.get('ratelimit-limit')).toBe('10');
    expect(res.headers.get('ratelimit-remaining')).toBe('9');
    expect(res.headers.get('ratelimit-reset')).toBe('10');
    await first.deps.rateLimiter!.flush();
    const again = await httpVia(second, stack, 'GET', '/api/v1/session', { token });
    expect(again.headers.get('ratelimit-remaining')).toBe('8');
  });

  it('refuses writes too, before they change anything', async () => {
    const { token } = await mintKey(stack, 'math', 'idp|ada');
    for (let i = 0; i < LIMIT.burst; i++) await httpVia(first, stack, 'GET', '/api/auth/session', { token });
    await first.deps.rateLimiter!.flush();
    const before = await stack.dataSource.query('SELECT count(*)::int AS n FROM math_clients');
    const res = await httpVia(second, stack, 'POST', '/api/math/clients', { token, body: { name: 'Late' } });
    expect(res.status).toBe(429);
    expect(await stack.dataSource.query('SELECT count(*)::int AS n FROM math_clients')).toEqual(before);
  });

  it('leaves requests without a credential to authentication (401, no rate-limit headers)', async () => {
    const res = await http({ ...stack, url: first.url }, 'GET', '/api/auth/session');
    expect(res.status).toBe(401);
    expect(res.headers.get('ratelimit-limit')).toBeNull();
  });
});

describe('shutting an API process down', () => {
  it('answers the request in flight, closes its keep-alive connection after it, and does not wait for idle ones', async () => {
    const { token } = await mintKey(stack, 'math', 'idp|olga');
    const server = await startExtraServer(stack);
    const { hostname, port } = new URL(server.url);
    // An idle keep-alive connection, and one whose request is in flight (its body not sent yet) when close starts.
    const idle = await fetch(`${server.url}/api/auth/session`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(idle.status).toBe(200);
    const body = JSON.stringify({ name: 'Sent while the API drains' });
    const socket = net.connect(Number(port), hostname);
    await new Promise((resolve) => socket.once('connect', resolve));
    socket.write(
      `POST /api/math/clients HTTP/1.1\r\nHost: ${hostname}:${port}\r\nAuthorization: Bearer ${token}\r\n` +
        `Content-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`,
    );
    let answer = '';
    socket.on('data', (chunk: Buffer) => (answer += chunk.toString('utf8')));
    const socketClosed = new Promise((resolve) => socket.once('close', resolve));
    await new Promise((resolve) => setTimeout(resolve, 200));

    const started = Date.now();
    const closed = server.close();
    socket.write(body);
    await Promise.all([closed, socketClosed]);
    // Far below the 65 s an idle keep-alive connection is otherwise kept open.
    expect(Date.now() - started).toBeLessThan(20_000);
    expect(answer).toMatch(/^HTTP\/1\.1 201 /);
    expect(answer.toLowerCase()).toContain('connection: close');
  }, 60_000);

  it('still answers a request a client sends on an idle keep-alive connection as the stop begins', async () => {
    const server = await startExtraServer(stack);
    const { hostname, port } = new URL(server.url);
    const socket = net.connect(Number(port), hostname);
    await new Promise((resolve) => socket.once('connect', resolve));
    let answer = '';
    socket.on('data', (chunk: Buffer) => (answer += chunk.toString('utf8')));
    const socketClosed = new Promise((resolve) => socket.once('close', resolve));
    const get = `GET /healthz HTTP/1.1\r\nHost: ${hostname}:${port}\r\n\r\n`;
    socket.write(get);
    await waitFor(() => /\r\n\r\n\{.*\}/s.test(answer));
    const firstAnswer = answer;
    expect(firstAnswer).toMatch(/^HTTP\/1\.1 200 /);
    expect(firstAnswer.toLowerCase()).toContain('connection: keep-alive');

    // The client picked this idle connection for its next request just as the process was told to stop.
    const closed = server.close();
    await new Promise((resolve) => setTimeout(resolve, 300));
    socket.write(get);
    await Promise.all([closed, socketClosed]);
    const secondAnswer = answer.slice(firstAnswer.length);
    expect(secondAnswer).toMatch(/^HTTP\/1\.1 200 /);
    expect(secondAnswer.toLowerCase()).toContain('connection: close');
  }, 60_000);
});

async function waitFor(condition: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('an Idempotency-Key claim that names no holder', () => {
  it('is taken over once the claim has lapsed, and the request runs exactly once', async () => {
    const { id: keyId, token } = await mintKey(stack, 'math', 'idp|olga');
    const key = 'abandoned-claim-0000001';
    const body = { name: 'Claimed by the dead' };
    // An IN_PROGRESS claim nobody will complete, made while its process had no liveness session.
    await stack.dataSource.query(
      `INSERT INTO idempotency_records (service, member_id, idempotency_key, operation_id, request_hash, state, locked_until)
       VALUES ('math', $1, $2, 'math.createClient', $3, 'IN_PROGRESS', now() + interval '1 second')`,
      [
        await memberId(stack, 'math', 'idp|olga'),
        key,
        requestFingerprint('POST', '/api/math/clients', body, `key:${keyId}`),
      ],
    );
    const headers = { 'idempotency-key': key };
    const early = await http(stack, 'POST', '/api/math/clients', { token, body, headers });
    expect([early.status, early.body.code]).toEqual([409, 'idempotency_request_in_progress']);
    expect(early.headers.get('retry-after')).toBe('1');
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const taken = await http(stack, 'POST', '/api/math/clients', { token, body, headers });
    expect(taken.status).toBe(201);
    const replay = await http(stack, 'POST', '/api/math/clients', { token, body, headers });
    expect([replay.status, replay.body]).toEqual([201, taken.body]);
    const rows = await stack.dataSource.query('SELECT count(*)::int AS n FROM math_clients WHERE name = $1', [
      body.name,
    ]);
    expect(rows).toEqual([{ n: 1 }]);
  });
});

describe('a write and its receipt commit together', () => {
  /** Makes storing the receipt of one Idempotency-Key fail as a serialization failure (a retryable 503). */
  async function failReceiptOf(key: string): Promise<() => Promise<void>> {
    const name = `fail_receipt_${key.replace(/-/g, '_')}`;
    await stack.dataSource.query(
      `CREATE FUNCTION ${name}() RETURNS trigger LANGUAGE plpgsql AS $$
         BEGIN RAISE EXCEPTION 'receipt refused by the test' USING ERRCODE = '40001'; END $$`,
    );
    await stack.dataSource.query(
      `CREATE TRIGGER ${name} BEFORE UPDATE ON idempotency_records
         FOR EACH ROW WHEN (NEW.idempotency_key = '${key}' AND NEW.state = 'COMPLETED')
         EXECUTE FUNCTION ${name}()`,
    );
    return async () => {
      await stack.dataSource.query(`DROP TRIGGER ${name} ON idempotency_records`);
      await stack.dataSource.query(`DROP FUNCTION ${name}()`);
    };
  }

  const cases = [
    {
      name: 'a genomics note',
      async request(key: string) {
        const token = (await mintKey(stack, 'genomics', 'idp|olga')).token;
        const uid = await createTopic(stack, token);
        const body = { body: `note under ${key}`, campaignId: null };
        const send = () =>
          http(stack, 'POST', topicPath(uid, '/notes'), { token, body, headers: { 'idempotency-key': key } });
        const count = async () =>
          (
            await stack.dataSource.query('SELECT count(*)::int AS n FROM genomics_notes WHERE body = $1', [
              body.body,
            ])
          )[0].n as number;
        return { send, count };
      },
    },
    {
      name: 'a math client',
      async request(key: string) {
        const token = (await mintKey(stack, 'math', 'idp|olga')).token;
        const body = { name: `Client ${key.slice(-8)}` };
        const send = () =>
          http(stack, 'POST', '/api/math/clients', { token, body, headers: { 'idempotency-key': key } });
        const count = async () =>
          (
            await stack.dataSource.query('SELECT count(*)::int AS n FROM math_clients WHERE name = $1', [
              body.name,
            ])
          )[0].n as number;
        return { send, count };
      },
    },
  ];

  it.each(cases)(
    '$name: a receipt that cannot be stored leaves no write, and the retry writes once',
    async (c) => {
      const key = `receipt-fails-${randomBytes(6).toString('hex')}`;
      const { send, count } = await c.request(key);
      const restore = await failReceiptOf(key);
      let refused;
      try {
        refused = await send();
      } finally {
        await restore();
      }
      // Before, the write committed on its own and the retry, finding no receipt, wrote it again.
      expect([refused.status, refused.body.code]).toEqual([503, 'dependency_unavailable']);
      expect(await count()).toBe(0);
      const answered = await send();
      expect(answered.status).toBe(201);
      const replayed = await send();
      expect([replayed.status, replayed.body, replayed.headers.get('idempotent-replayed')]).toEqual([
        201,
        answered.body,
        'true',
      ]);
      expect(await count()).toBe(1);
    },
  );

  it('a live holder whose claim ran out loses it, and cannot complete it, so its write rolls back', async () => {
    const receipt = { service: 'math' as const, memberId: await memberId(stack, 'math', 'idp|olga') };
    const key = { ...receipt, key: `taken-over-${randomBytes(6).toString('hex')}` };
    const holder = stack.server.deps.liveness.holder;
    expect(holder).not.toBeNull();
    const first = await insertReceiptClaim(stack.dataSource, {
      ...key,
      operationId: 'math.createClient',
      fingerprint: 'f',
      claimSeconds: 60,
      holder,
    });
    expect(first).not.toBeNull();
    // The first holder, alive, stalls past its claim; another process takes the key over.
    await stack.dataSource.query(
      `UPDATE idempotency_records SET locked_until = now() - interval '1 second' WHERE idempotency_key = $1`,
      [key.key],
    );
    const second = await retakeAbandonedClaim(stack.dataSource, key, 60, null);
    expect(second).not.toBeNull();
    expect(second).not.toBe(first);
    expect(await completeReceipt(stack.dataSource, key, first!, { status: 201, body: { late: true } })).toBe(
      false,
    );
    expect(await completeReceipt(stack.dataSource, key, second!, { status: 201, body: { on: 'time' } })).toBe(
      true,
    );
    const [row] = await stack.dataSource.query(
      'SELECT state, response_body FROM idempotency_records WHERE idempotency_key = $1',
      [key.key],
    );
    expect(row).toEqual({ state: 'COMPLETED', response_body: { on: 'time' } });
  });
});

interface AutocannonResult {
  requests: { average: number; total: number };
  non2xx: number;
  errors: number;
}
type Autocannon = (options: {
  url: string;
  connections: number;
  duration: number;
  headers: Record<string, string>;
}) => Promise<AutocannonResult>;

/**
 * The limiter's cost on the hot path, by hand: `BENCH_RATE_LIMIT=1 npx jest test/integration/reliability.test.ts`.
 * Interleaved autocannon runs of GET /api/auth/session against a process without the limiter and one with
 * a limit too high to reach (full bookkeeping, no refusal); prints requests per second and their ratio.
 */
(process.env.BENCH_RATE_LIMIT ? describe : describe.skip)(
  'rate limiter throughput (BENCH_RATE_LIMIT=1)',
  () => {
    it('costs little on the hot path', async () => {
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const autocannon = require('autocannon') as Autocannon;
      const { startServer } = await import('../../server');
      const off = await startServer({ ...stack.config, rateLimit: { perSecond: 0, burst: 1 } });
      const on = await startServer({
        ...stack.config,
        rateLimit: { perSecond: 1_000_000, burst: 10_000_000 },
      });
      const { token } = await mintKey(stack, 'math', 'idp|olga');
      const run = async (server: RunningServer) => {
        const result = await autocannon({
          url: `${server.url}/api/auth/session`,
          connections: 10,
          duration: Number(process.env.BENCH_SECONDS ?? 5),
          headers: { authorization: `Bearer ${token}` },
        });
        expect(result.non2xx + result.errors).toBe(0);
        return result.requests.average;
      };
      const rates: { off: number[]; on: number[] } = { off: [], on: [] };
      try {
        await run(off); // warm-up
        for (let round = 0; round < 3; round++) {
          rates.off.push(await run(off));
          rates.on.push(await run(on));
        }
      } finally {
        await Promise.all([off.close(), on.close()]);
      }
      const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
      const ratio = median(rates.on) / median(rates.off);
      console.log(
        `rate limiter throughput: without ${rates.off.join(', ')} req/s, with ${rates.on.join(', ')} req/s; ` +
          `median ratio ${ratio.toFixed(3)}`,
      );
      expect(ratio).toBeGreaterThan(0.8);
    }, 120_000);
  },
);
