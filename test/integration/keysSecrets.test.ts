import { hashSecret, parseToken } from '../../access/credentials';
import type { RunningServer } from '../../server';
import {
  assertionKeyPair,
  capturedLogger,
  httpVia,
  idempotencyKey,
  signAssertion,
  startExtraServer,
} from '../helpers/keys';
import { type HttpResult, mintKey, seedMembers, startStack, type TestStack } from '../helpers/stack';

let stack: TestStack;
let server: RunningServer;
const logs = capturedLogger('trace');
const tokens: string[] = [];
const assertions: string[] = [];
const responses: Array<HttpResult> = [];

const call = async (method: string, path: string, opts: Parameters<typeof httpVia>[4] = {}) => {
  const res = await httpVia(server, stack, method, path, opts);
  responses.push(res);
  return res;
};

beforeAll(async () => {
  stack = await startStack();
  await seedMembers(stack);
  const pair = assertionKeyPair();
  server = await startExtraServer(stack, { genomicsDashboardAssertionKey: pair.publicKeyPem }, logs.logger);

  const month = { expiresInMs: 30 * 86_400_000 };
  const mathAdmin = await mintKey(stack, 'math', 'idp|ada', month);
  const genomicsAdmin = await mintKey(stack, 'genomics', 'idp|ada', month);
  tokens.push(mathAdmin.token, genomicsAdmin.token);

  // Keys created through both APIs, used for reads and writes, replayed, revoked, refused.
  const mathCreated = await call('POST', '/api/keys', { token: mathAdmin.token, body: { name: 'ci' } });
  tokens.push(mathCreated.body.token);
  const replayKey = idempotencyKey('secrets');
  const genomicsBody = {
    identityId: 'idp|rui',
    name: 'pipeline',
    role: 'REVIEWER',
    scopes: ['read', 'keys:manage'],
    expiresInDays: 7,
  };
  const genomicsCreated = await call('POST', '/api/v1/keys', {
    token: genomicsAdmin.token,
    body: genomicsBody,
    headers: { 'idempotency-key': replayKey },
  });
  expect([mathCreated.status, genomicsCreated.status]).toEqual([201, 201]);
  tokens.push(genomicsCreated.body.token);
  await call('POST', '/api/v1/keys', {
    token: genomicsAdmin.token,
    body: genomicsBody,
    headers: { 'idempotency-key': replayKey },
  });
  for (const token of tokens) {
    await call('GET', '/api/auth/session', { token });
    await call('GET', '/api/v1/session', { token });
    await call('GET', `/api/auth/session?token=${token}`, { token });
    await call('POST', '/api/keys', { token, body: `{"name": "${token}"` });
  }
  await call('GET', '/api/keys', { token: mathAdmin.token });
  await call('GET', '/api/v1/keys', { token: genomicsAdmin.token });
  await call('GET', `/api/keys/${mathCreated.body.id}/events`, { token: mathAdmin.token });
  await call('DELETE', `/api/keys/${mathCreated.body.id}`, { token: mathAdmin.token });
  await call('DELETE', `/api/v1/keys/${genomicsCreated.body.id}`, { token: genomicsAdmin.token });
  await call('GET', '/api/keys', { token: mathCreated.body.token });
  await call('GET', '/api/v1/keys', { token: genomicsCreated.body.token });
  await call('GET', '/api/auth/audit', { token: mathAdmin.token });
  const truncated = mathAdmin.token.slice(0, -1);
  await call('GET', '/api/auth/session', { token: `${truncated}A` });
  await call('GET', '/api/auth/session', { headers: { authorization: `Basic ${mathAdmin.token}` } });

  // Dashboard assertions: one used, one replayed.
  const assertion = await signAssertion(
    pair.privateKey,
    { method: 'GET', path: '/api/v1/keys' },
    { sub: 'idp|olga', role: 'OWNER', scopes: ['keys:manage'] },
  );
  assertions.push(assertion);
  for (let i = 0; i < 2; i++) {
    await call('GET', '/api/v1/keys', { headers: { authorization: `Assertion ${assertion}` } });
  }
  await server.deps.lastUsed.flush();
});

afterAll(async () => {
  await server?.close();
  await stack?.stop();
});

/** Every form in which an issued credential could leak. */
function secretsOf(token: string): { plaintext: string[]; hashes: string[] } {
  const parsed = parseToken(token);
  if (!parsed) throw new Error(`not a token: ${token}`);
  const hash = hashSecret(parsed.secret);
  return {
    plaintext: [token, parsed.secret],
    hashes: [hash.toString('hex'), hash.toString('base64'), hash.toString('base64url')],
  };
}

async function dumpTables(): Promise<Record<string, string>> {
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

describe('secrets of API keys', () => {
  it('ran the flows this check depends on', () => {
    expect(tokens).toHaveLength(4);
    expect(responses.some((r) => r.status === 409)).toBe(true);
    expect(responses.filter((r) => r.status === 401).length).toBeGreaterThanOrEqual(4);
    expect(logs.lines.length).toBeGreaterThan(20);
    expect(logs.lines.some((line) => line.includes('"msg":"request"'))).toBe(true);
  });

  it('never writes a token, a secret or a secret hash to the logs', () => {
    const log = logs.lines.join('');
    expect(log).toContain(parseToken(tokens[0])!.keyId);
    for (const token of tokens) {
      const { plaintext, hashes } = secretsOf(token);
      for (const value of [...plaintext, ...hashes]) expect(log).not.toContain(value);
    }
    for (const assertion of assertions) expect(log).not.toContain(assertion);
  });

  it('stores no token or secret in any table, and a secret hash only in api_keys', async () => {
    const dump = await dumpTables();
    expect(dump.api_keys.split('\n').length).toBeGreaterThanOrEqual(4);
    expect(Object.keys(dump)).toEqual(expect.arrayContaining(['idempotency_records', 'identity_audit']));
    for (const token of tokens) {
      const { plaintext, hashes } = secretsOf(token);
      // The search finds what is there: the stored hash itself, as hex in the bytea column.
      expect(dump.api_keys).toContain(hashes[0]);
      for (const [table, text] of Object.entries(dump)) {
        for (const value of plaintext)
          expect({ table, leaked: text.includes(value) }).toEqual({ table, leaked: false });
        if (table === 'api_keys') continue;
        for (const value of hashes)
          expect({ table, leaked: text.includes(value) }).toEqual({ table, leaked: false });
      }
    }
  });

  it('returns a token only in the response that created it, and never a hash', () => {
    for (const token of tokens) {
      const { plaintext, hashes } = secretsOf(token);
      const carriers = responses.filter((r) => JSON.stringify(r.body).includes(plaintext[1]));
      expect(carriers.length).toBeLessThanOrEqual(1);
      for (const r of responses) {
        for (const value of hashes) expect(JSON.stringify(r.body)).not.toContain(value);
      }
    }
  });
});
