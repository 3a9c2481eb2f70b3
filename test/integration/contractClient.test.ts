import createClient, { type Client, type Middleware } from 'openapi-fetch';
import { genomicsService } from '../../api/genomics';
import { buildOpenApi } from '../../api/kernel/openapi';
import { mathService } from '../../api/math';
import type { paths as GenomicsPaths } from '../../console/src/contract/genomics';
import type { paths as MathPaths } from '../../console/src/contract/math';
import { assertMatchesContract } from '../helpers/contract';
import {
  http,
  importBundle,
  memberId,
  mintKey,
  seedMembers,
  startStack,
  type TestStack,
} from '../helpers/stack';

/**
 * The published contracts as a client sees them: the documents served at start-up, and the typed client
 * generated from them (console/src/contract, through openapi-fetch) doing real work against the real stack.
 */

let stack: TestStack;
let math: Client<MathPaths>;
let genomics: Client<GenomicsPaths>;
let reviewerToken: string;
let rui: string;

/** Every response the typed client receives is checked against the contract, like `http()` does. */
const contractCheck: Middleware = {
  async onResponse({ request, response }) {
    const url = new URL(request.url);
    const type = response.headers.get('content-type');
    const text = await response.clone().text();
    const body = type?.includes('json') && text ? JSON.parse(text) : text;
    assertMatchesContract(request.method, url.pathname, { status: response.status, contentType: type, body });
    return response;
  },
};

function typedClient<Paths extends object>(token: string): Client<Paths> {
  const client = createClient<Paths>({ baseUrl: stack.url, headers: { Authorization: `Bearer ${token}` } });
  client.use(contractCheck);
  return client;
}

beforeAll(async () => {
  stack = await startStack();
  await seedMembers(stack);
  await importBundle(stack);
  math = typedClient<MathPaths>((await mintKey(stack, 'math', 'idp|olga')).token);
  genomics = typedClient<GenomicsPaths>((await mintKey(stack, 'genomics', 'idp|ada')).token);
  reviewerToken = (await mintKey(stack, 'math', 'idp|rui')).token;
  rui = await memberId(stack, 'math', 'idp|rui');
});

afterAll(async () => {
  await stack?.stop();
});

describe('GET /api/openapi.json and GET /api/v1/openapi.json', () => {
  it.each([
    ['/api/openapi.json', mathService],
    ['/api/v1/openapi.json', genomicsService],
  ])('%s serves the contract built from the declarations, without a credential', async (path, service) => {
    const response = await http(stack, 'GET', path);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(response.body).toEqual(JSON.parse(JSON.stringify(buildOpenApi(service))));
    const again = await http(stack, 'GET', path, {
      headers: { 'if-none-match': response.headers.get('etag')! },
    });
    expect(again.status).toBe(304);
  });

  it('publishes contract version 1.0.0 for genomics', async () => {
    expect((await http(stack, 'GET', '/api/v1/openapi.json')).body.info.version).toBe('1.0.0');
  });
});

describe('/docs', () => {
  it('serves the reference page and the renderer from the project’s own files, with a strict CSP', async () => {
    const page = await http(stack, 'GET', '/docs');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(page.body).toContain('data-openapi-url="/api/openapi.json"');
    expect(page.body).toContain('data-openapi-url="/api/v1/openapi.json"');
    expect(page.body).not.toMatch(/https?:\/\//);
    const bundle = await http(stack, 'GET', '/docs/assets/swagger-ui-bundle.js');
    expect(bundle.status).toBe(200);
    expect(bundle.headers.get('content-type')).toMatch(/^application\/javascript/);
  });

  it('lists the error types and answers unknown assets with a 404 problem', async () => {
    const problems = await http(stack, 'GET', '/docs/problems');
    expect(problems.body).toContain('id="stale_version"');
    const missing = await http(stack, 'GET', '/docs/assets/..%2Fpackage.json');
    expect(missing.status).toBe(404);
    expect(missing.body.code).toBe('route_not_found');
  });
});

describe('the typed client (openapi-fetch over the generated types)', () => {
  it('reads the session of the math and genomics keys', async () => {
    const { data, response } = await math.GET('/api/auth/session');
    expect(response.status).toBe(200);
    expect(data?.member.identity_id).toBe('idp|olga');
    expect(data?.scopes).toContain('write');
    const session = await genomics.GET('/api/v1/session');
    expect(session.data?.workspace).toEqual({ id: 'ws_genomics', environment: 'production' });
  });

  it('reads a task, assigns it and starts the review through a workflow action', async () => {
    const params = { path: { task_id: 'demo-q1-a' } };
    const task = await math.GET('/api/math/tasks/{task_id}', { params });
    expect(task.data?.task_id).toBe('demo-q1-a');
    const version = task.data!.version;

    const assigned = await math.POST('/api/math/tasks/{task_id}', {
      params,
      body: { version, action: 'assign', assignee_id: rui },
    });
    expect(assigned.response.status).toBe(200);
    expect(assigned.data?.task).toMatchObject({
      review_state: 'ASSIGNED',
      assignee_id: rui,
      version: version + 1,
    });

    const reviewer = typedClient<MathPaths>(reviewerToken);
    const started = await reviewer.POST('/api/math/tasks/{task_id}/workflow', {
      params: { ...params, header: { 'Idempotency-Key': `contract-client-start-${version}` } },
      body: { version: version + 1, action: 'start' },
    });
    expect(started.data?.workflow.review_state).toBe('IN_REVIEW');
    expect(started.data?.workflow.events[0]).toMatchObject({ action: 'start', actor_id: rui });
  });

  it('receives errors as typed problem+json bodies', async () => {
    const stale = await math.POST('/api/math/tasks/{task_id}', {
      params: { path: { task_id: 'demo-q1-a' } },
      body: { version: 0, action: 'start' },
    });
    expect(stale.response.status).toBe(409);
    expect(stale.error).toMatchObject({ code: 'stale_version', type: '/docs/problems#stale_version' });

    const missing = await math.GET('/api/math/tasks/{task_id}', {
      params: { path: { task_id: 'no-such-task' } },
    });
    expect(missing.response.status).toBe(404);
    expect(missing.error?.code).toBe('not_found');
  });
});
