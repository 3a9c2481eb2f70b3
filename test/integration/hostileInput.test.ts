import { createServer, type Server } from 'node:http';
import { type AddressInfo, connect } from 'node:net';
import { Writable } from 'node:stream';
import Joi from 'joi';
import { createApp } from '../../api/kernel/app';
import { answerClientError } from '../../api/kernel/errorTranslation';
import { createLogger } from '../../logging/logger';
import { defineOperation, type ServiceDefinition } from '../../api/kernel/operation';
import { mathOpenApi } from '../../api/math/openapi';
import { mathProblemTypes } from '../../api/math/problems';
import { freshKey, setupDemoWorld, snapshotDatabase } from '../helpers/reliability';
import { http, mintKey, startStack, type TestStack } from '../helpers/stack';

/**
 * The issue-15 reproductions: a body with a `__proto__` key answered 500 in both services and logged the raw
 * body. Now every prototype key is a 400 before any handler, and nothing changes.
 */

let stack: TestStack;

beforeAll(async () => {
  stack = await startStack();
  await setupDemoWorld(stack);
}, 120_000);

afterAll(async () => {
  await stack?.stop();
});

describe('prototype keys in JSON bodies', () => {
  const tokens = { math: '', genomics: '' };
  beforeAll(async () => {
    tokens.math = (await mintKey(stack, 'math', 'idp|ada')).token;
    tokens.genomics = (await mintKey(stack, 'genomics', 'idp|ada')).token;
  });
  const send = async (service: 'math' | 'genomics', method: string, path: string, body: string) => {
    return http(stack, method, path, {
      token: tokens[service],
      body,
      headers: { 'content-type': 'application/json', 'idempotency-key': freshKey() },
    });
  };

  it.each([
    ['math', 'POST', '/api/math/clients', '{"__proto__":{"x":1},"name":"ab"}'],
    ['math', 'POST', '/api/math/clients', '{"name":"ab","constructor":{"prototype":{"x":1}}}'],
    ['math', 'POST', '/api/math/tasks/demo-q1-a', '{"__proto__":null}'],
    ['math', 'POST', '/api/math/tasks/demo-q1-a', '{"action":"start","version":1,"prototype":1}'],
    ['genomics', 'POST', '/api/v1/topics', '{"__proto__":{"x":1},"name":"ab"}'],
    ['genomics', 'POST', '/api/v1/topics', '{"batchId":"batch-900","topics":[{"a":{"b":{"__proto__":{}}}}]}'],
    ['genomics', 'PUT', '/api/v1/topics/batch-001:1/tags', '{"tags":[],"constructor":{}}'],
  ] as const)('%s %s %s %s → 400 malformed_json, nothing changed', async (service, method, path, body) => {
    const before = await snapshotDatabase(stack);
    const res = await send(service, method, path, body);
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(res.body.code).toBe('malformed_json');
    expect(await snapshotDatabase(stack)).toEqual(before);
  });

  it('refuses 100,000 levels of nesting with 400, in both services', async () => {
    const deepArrays = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
    const deepObjects = `${'{"a":'.repeat(100_000)}1${'}'.repeat(100_000)}`;
    for (const body of [deepArrays, deepObjects]) {
      expect((await send('math', 'POST', '/api/math/clients', body)).body.code).toBe('malformed_json');
      expect((await send('genomics', 'POST', '/api/v1/topics', body)).body.code).toBe('malformed_json');
    }
  });

  it('refuses JSON declared in another charset with 415', async () => {
    const { token } = await mintKey(stack, 'math', 'idp|ada');
    const res = await http(stack, 'POST', '/api/math/clients', {
      token,
      body: '{"name":"ab"}',
      headers: { 'content-type': 'application/json; charset=iso-8859-1' },
    });
    expect([res.status, res.body.code]).toEqual([415, 'unsupported_media_type']);
  });
});

describe('the kernel hands a handler only what its declaration lists', () => {
  const lines: string[] = [];
  let server: Server;
  let url: string;

  beforeAll(async () => {
    const logger = loggerInto(lines);
    const echoHeaders = defineOperation<
      Record<string, never>,
      Record<string, never>,
      undefined,
      { 'x-declared'?: string }
    >({
      operationId: 'test.echoHeaders',
      summary: 'Echoes what the handler can read of its headers.',
      method: 'GET',
      path: '/api/test/headers',
      minRole: 'REVIEWER',
      scopes: [],
      idempotency: 'none',
      request: { headers: Joi.object({ 'x-declared': Joi.string().max(20) }) },
      response: { status: 200, description: 'What the handler saw.' },
      async handler({ headers }) {
        // @ts-expect-error an undeclared header is not part of the handler's type
        const undeclared: unknown = headers['x-undeclared'];
        // @ts-expect-error nor is the credential
        const authorization: unknown = headers.authorization;
        return {
          body: {
            declared: headers['x-declared'] ?? null,
            undeclared,
            authorization,
            keys: Object.keys(headers),
          },
        };
      },
    });
    const leakyFailure = defineOperation({
      operationId: 'test.fails',
      summary: 'Fails with an error that carries a request body, as co-body does.',
      method: 'POST',
      path: '/api/test/fails',
      minRole: 'REVIEWER',
      scopes: [],
      idempotency: 'none',
      request: { body: Joi.object({ secret: Joi.string() }) },
      response: { status: 200, description: 'Never.' },
      async handler({ body }) {
        throw Object.assign(new Error('a failure nobody classified'), { body: JSON.stringify(body) });
      },
    });
    const service: ServiceDefinition = {
      name: 'math',
      title: 'test',
      version: '0',
      openApi: mathOpenApi,
      problemTypes: mathProblemTypes,
      operations: [echoHeaders, leakyFailure],
    };
    const app = createApp({ ...stack.server.deps, logger }, [service]);
    server = await new Promise((resolve) => {
      const s = app.listen(0, '127.0.0.1', () => resolve(s));
    });
    server.on('clientError', answerClientError);
    const address = server.address();
    url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  });

  afterAll(async () => {
    await new Promise((resolve) => server?.close(resolve));
  });

  it('reads a declared header, and an undeclared one (or the credential) is absent', async () => {
    const { token } = await mintKey(stack, 'math', 'idp|ada');
    const res = await fetch(`${url}/api/test/headers`, {
      headers: { authorization: `Bearer ${token}`, 'x-declared': 'yes', 'x-undeclared': 'secret' },
    });
    expect(res.status).toBe(200);
    // undefined members vanish in JSON: the handler saw neither the undeclared header nor the credential.
    expect(await res.json()).toEqual({ declared: 'yes', keys: ['x-declared'] });
  });

  it('validates a declared header (400 naming it)', async () => {
    const { token } = await mintKey(stack, 'math', 'idp|ada');
    const res = await fetch(`${url}/api/test/headers`, {
      headers: { authorization: `Bearer ${token}`, 'x-declared': 'y'.repeat(21) },
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { errors: Array<{ path: string }> }).errors[0].path).toBe(
      'headers.x-declared',
    );
  });

  it('logs an unclassified error as a bare 500 without the request body it carries', async () => {
    const { token } = await mintKey(stack, 'math', 'idp|ada');
    const res = await fetch(`${url}/api/test/fails`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ secret: 'hunter2-in-the-body' }),
    });
    expect(res.status).toBe(500);
    expect(((await res.json()) as { code: string }).code).toBe('internal_error');
    const log = lines.join('');
    expect(log).toContain('a failure nobody classified');
    expect(log).not.toContain('hunter2-in-the-body');
  });

  it('answers a request head over 16 KiB with 431 problem+json', async () => {
    const res = await fetch(`${url}/api/test/headers`, { headers: { 'x-padding': 'p'.repeat(64 * 1024) } });
    expect(res.status).toBe(431);
    expect(res.headers.get('content-type')).toBe('application/problem+json');
    expect(((await res.json()) as { code: string }).code).toBe('headers_too_large');
  });

  it('answers a request head that never completes with 408 problem+json, and logs the parser code', async () => {
    // Node's own timeouts shortened (60 s for a head by default) on a server over the same app.
    const lines: string[] = [];
    const logger = loggerInto(lines);
    const slow = createServer(
      { connectionsCheckingInterval: 50, headersTimeout: 200, requestTimeout: 400 },
      (_req, res) => res.end(),
    );
    slow.on('clientError', (error: NodeJS.ErrnoException, socket) =>
      answerClientError(error, socket, logger),
    );
    await new Promise<void>((resolve) => slow.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = slow.address() as AddressInfo;
      const answer = await new Promise<string>((resolve, reject) => {
        const socket = connect(port, '127.0.0.1', () => socket.write('GET / HTTP/1.1\r\nHost: x\r\n'));
        let received = '';
        socket.on('data', (chunk) => (received += chunk.toString()));
        socket.on('close', () => resolve(received));
        socket.on('error', reject);
      });
      expect(answer).toMatch(/^HTTP\/1\.1 408 Request Timeout\r\n/);
      expect(answer).toContain('Content-Type: application/problem+json');
      expect(JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4))).toMatchObject({
        status: 408,
        code: 'request_timeout',
      });
      expect(lines.join('')).toContain('"code":"ERR_HTTP_REQUEST_TIMEOUT"');
    } finally {
      await new Promise((resolve) => slow.close(resolve));
    }
  });
});

// Type-level: a handler of an operation that declares no headers cannot name one.
defineOperation({
  operationId: 'test.typeOnly',
  summary: 'Never mounted.',
  method: 'GET',
  path: '/api/test/type-only',
  minRole: 'REVIEWER',
  scopes: [],
  idempotency: 'none',
  request: {},
  response: { status: 204, description: 'Never.' },
  async handler({ headers }) {
    // @ts-expect-error no header is declared, so none is readable
    void headers['x-filename'];
    return { status: 204 };
  },
});

/** A logger whose JSON lines are kept in `lines`, for asserting what was (and was not) logged. */
function loggerInto(lines: string[]) {
  return createLogger(
    'info',
    new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(chunk.toString());
        done();
      },
    }),
  );
}
