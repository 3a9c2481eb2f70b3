import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { callApi } from '../../bench/dataset';

/** A server answering each request with the next of `answers`, recording the Idempotency-Key of each. */
async function scriptedServer(
  answers: { status: number; headers?: Record<string, string>; body: unknown }[],
) {
  const keys: string[] = [];
  const server = http.createServer((req, res) => {
    keys.push(String(req.headers['idempotency-key']));
    const answer = answers[Math.min(keys.length - 1, answers.length - 1)];
    res.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers });
    res.end(JSON.stringify(answer.body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, keys, close: () => new Promise((resolve) => server.close(resolve)) };
}

const caller = { token: 'bench-token' } as Parameters<typeof callApi>[1];
const inProgress = {
  status: 409,
  headers: { 'retry-after': '1' },
  body: { code: 'idempotency_request_in_progress' },
};

test('retries a 409 request-in-progress and a 503 with the same Idempotency-Key', async () => {
  const server = await scriptedServer([
    inProgress,
    { status: 503, headers: { 'retry-after': '1' }, body: { code: 'temporal_unavailable' } },
    { status: 200, body: { ok: true } },
  ]);
  try {
    const answer = await callApi(server.url, caller, 'POST', '/x', { a: 1 }, 3);
    expect([answer.status, answer.body]).toEqual([200, { ok: true }]);
    expect(server.keys).toHaveLength(3);
    expect(new Set(server.keys).size).toBe(1);
  } finally {
    await server.close();
  }
});

test('returns any other conflict at once, and the last answer when retries run out', async () => {
  const other = await scriptedServer([{ status: 409, body: { code: 'version_conflict' } }]);
  const busy = await scriptedServer([inProgress]);
  try {
    expect((await callApi(other.url, caller, 'POST', '/x', {}, 3)).status).toBe(409);
    expect(other.keys).toHaveLength(1);
    const last = await callApi(busy.url, caller, 'POST', '/x', {}, 1);
    expect([last.status, busy.keys.length]).toEqual([409, 2]);
  } finally {
    await Promise.all([other.close(), busy.close()]);
  }
});
