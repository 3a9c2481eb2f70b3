import { Runtime } from '@temporalio/worker';
import { hashSecret, parseToken } from '../../access/credentials';
import type { RunningServer } from '../../server';
import { type RunningWorker, startWorker } from '../../worker';
import { pictures, postBugReport } from '../helpers/files';
import { createTopic, g, topicPath } from '../helpers/genomics';
import { capturedLogger, idempotencyKey, startExtraServer } from '../helpers/keys';
import { act } from '../helpers/math';
import { dumpDatabase, setupDemoWorld } from '../helpers/reliability';
import { http, mintKey, startStack, type TestStack } from '../helpers/stack';
import { readTestEnv } from '../helpers/testEnv';

/**
 * Secrets over a full run of both services: every token issued during the run (minted, or created through
 * either API) is searched for in every log line the API, the worker and the Temporal SDK wrote, in every
 * column of every table, and in every workflow history (payloads decoded). None may contain one.
 * (test/integration/keysSecrets.test.ts covers the key flows themselves in more detail.)
 */

let stack: TestStack;
let server: RunningServer;
let worker: RunningWorker;
const serverLogs = capturedLogger('trace');
const workerLogs = capturedLogger('trace');
const sdkLines: string[] = [];
const tokens: string[] = [];
let via: TestStack;

beforeAll(async () => {
  stack = await startStack();
  // All work of this run goes through a worker and an API process whose logs are captured.
  await stack.worker.shutdown();
  worker = await startWorker(
    stack.config,
    { workflowBundle: { codePath: readTestEnv().workflowBundlePath } },
    { logger: workerLogs.logger },
  );
  server = await startExtraServer(stack, {}, serverLogs.logger);
  via = { ...stack, url: server.url };
  teeSdkLogs();

  const world = await setupDemoWorld(via);
  tokens.push(...Object.values(world.math), ...Object.values(world.genomics));

  // Math: workflow actions with and without Idempotency-Key, a note, files, keys made through the API.
  const { owner, rui } = world.math;
  await act(via, rui, 'demo-q1-a', { action: 'start' });
  const version = (await http(via, 'GET', '/api/math/tasks/demo-q1-a', { token: rui })).body.version;
  const verdict = { version, action: 'verdict', decision: 'ACCEPTED', comment: 'Fine.' };
  for (let i = 0; i < 2; i++)
    await http(via, 'POST', '/api/math/tasks/demo-q1-a', {
      token: rui,
      body: verdict,
      headers: { 'idempotency-key': 'secrets-verdict-000001' },
    });
  await http(via, 'GET', `/api/math/tasks/demo-q2-a/attachments/${world.ids.attachmentId}/download`, {
    token: owner,
  });
  const report = await postBugReport(via, owner, {
    description: 'A bug.',
    picture: { bytes: pictures.png(), type: 'image/png', name: 'bug.png' },
  });
  await http(via, 'GET', `/api/bug-reports/${report.body.report_id}/screenshot`, { token: owner });
  const created = await http(via, 'POST', '/api/keys', { token: world.math.admin, body: { name: 'ci' } });
  expect(created.status).toBe(201);
  tokens.push(created.body.token);
  await http(via, 'GET', '/api/math/tasks', { token: created.body.token });
  await http(via, 'DELETE', `/api/keys/${created.body.id}`, { token: world.math.admin });
  await http(via, 'GET', '/api/math/tasks', { token: created.body.token });

  // Genomics: a topic through its workflow, a key made through the API, replayed and revoked.
  const uid = await createTopic(via, world.genomics.owner);
  await g(via, 'PUT', topicPath(uid, '/reviewer'), {
    token: world.genomics.owner,
    body: { reviewerId: world.ids.genomicsRui, instructions: 'Look.', dueAt: null },
  });
  const keyBody = {
    identityId: 'idp|rui',
    name: 'pipeline',
    role: 'REVIEWER',
    scopes: ['read'],
    expiresInDays: 1,
  };
  const ik = idempotencyKey('secrets');
  const genomicsKey = await g(via, 'POST', '/api/v1/keys', {
    token: world.genomics.admin,
    body: keyBody,
    key: ik,
  });
  expect(genomicsKey.status).toBe(201);
  tokens.push(genomicsKey.body.token);
  await g(via, 'POST', '/api/v1/keys', { token: world.genomics.admin, body: keyBody, key: ik });
  await g(via, 'GET', '/api/v1/tasks', { token: genomicsKey.body.token });

  // Misuse: the wrong service, a truncated token, a token where none belongs.
  const extra = await mintKey(stack, 'math', 'idp|olga');
  tokens.push(extra.token);
  await http(via, 'GET', '/api/v1/session', { token: extra.token });
  await http(via, 'GET', '/api/auth/session', { token: extra.token.slice(0, -2) });
  await http(via, 'GET', `/api/math/tasks?token=${extra.token}`, { token: extra.token });
  await http(via, 'POST', '/api/math/clients', { token: extra.token, body: `{"name": "${extra.token}"` });
  await server.deps.lastUsed.flush();
  await server.deps.rateLimiter?.flush();
}, 180_000);

afterAll(async () => {
  await server?.close();
  await worker?.shutdown();
  await stack?.stop();
});

/** The SDK's own log (workflow and activity lines, task failures) goes to the process-wide runtime logger. */
function teeSdkLogs(): void {
  const logger = Runtime.instance().logger as {
    log: (level: string, message: string, meta?: object) => void;
  };
  const original = logger.log.bind(logger);
  logger.log = (level, message, meta) => {
    sdkLines.push(
      JSON.stringify({ level, message, meta }, (_k, v) => (typeof v === 'bigint' ? String(v) : v)),
    );
    original(level, message, meta);
  };
}

/** A token, its secret, and the hash forms of the secret. */
function formsOf(token: string): { plaintext: string[]; hashes: string[] } {
  const parsed = parseToken(token);
  if (!parsed) throw new Error(`not a token: ${token}`);
  const hash = hashSecret(parsed.secret);
  return {
    plaintext: [token, parsed.secret],
    hashes: [hash.toString('hex'), hash.toString('base64'), hash.toString('base64url')],
  };
}

/** A plain copy with every byte field as UTF-8 text (JSON.stringify alone would use protobufjs's base64). */
function decoded(value: unknown): unknown {
  if (value instanceof Uint8Array) return Buffer.from(value).toString('utf8');
  if (Array.isArray(value)) return value.map(decoded);
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, decoded(v)]));
  return typeof value === 'bigint' ? String(value) : value;
}

/** Every workflow history of the run, with payload bytes decoded to text. */
async function historiesText(): Promise<string> {
  const texts: string[] = [];
  for await (const execution of stack.temporal.workflow.list()) {
    const history = await stack.temporal.workflow
      .getHandle(execution.workflowId, execution.runId)
      .fetchHistory();
    texts.push(JSON.stringify(decoded(history)));
  }
  return texts.join('\n');
}

describe('secrets over a full run', () => {
  it('ran the flows and captured their logs', () => {
    expect(new Set(tokens).size).toBe(tokens.length);
    expect(tokens.length).toBeGreaterThanOrEqual(12);
    expect(serverLogs.lines.filter((l) => l.includes('"msg":"request"')).length).toBeGreaterThan(30);
    expect(workerLogs.lines.some((l) => l.includes('worker polling'))).toBe(true);
    const log = serverLogs.lines.join('');
    for (const token of tokens.slice(0, 3)) expect(log).toContain(parseToken(token)!.keyId);
  });

  it('never writes a token, a secret or a secret hash to any log', () => {
    const logs = {
      api: serverLogs.lines.join(''),
      worker: workerLogs.lines.join(''),
      sdk: sdkLines.join('\n'),
    };
    for (const token of tokens) {
      const { plaintext, hashes } = formsOf(token);
      for (const [where, text] of Object.entries(logs))
        for (const value of [...plaintext, ...hashes])
          expect({ where, leaked: text.includes(value) }).toEqual({ where, leaked: false });
    }
  });

  it('stores no token or secret in any column of any table, and a secret hash only in api_keys', async () => {
    const dump = await dumpDatabase(stack);
    expect(Object.keys(dump).length).toBeGreaterThan(20);
    for (const token of tokens) {
      const { plaintext, hashes } = formsOf(token);
      for (const [table, text] of Object.entries(dump)) {
        for (const value of plaintext)
          expect({ table, leaked: text.includes(value) }).toEqual({ table, leaked: false });
        if (table === 'api_keys') continue;
        for (const value of hashes)
          expect({ table, leaked: text.includes(value) }).toEqual({ table, leaked: false });
      }
    }
  });

  it('puts no token or secret in any workflow history', async () => {
    const text = await historiesText();
    // Payloads are searched decoded: a comment travels only inside an update's payload.
    expect(text).toContain('Sofia was here.');
    for (const token of tokens) {
      const { plaintext, hashes } = formsOf(token);
      for (const value of [...plaintext, ...hashes]) expect(text.includes(value)).toBe(false);
    }
  });
});
