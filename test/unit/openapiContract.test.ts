import { assertMatchesContract, ContractViolation, findOperation } from '../helpers/contract';

/** The response check every integration test runs through `http()`: it must catch a response that drifts. */

const session = {
  user: {
    id: '12',
    username: 'ada',
    display_name: 'Ada',
    email: null,
    enabled: true,
    role: 'ADMIN',
    identityId: 'idp|ada',
  },
  workspace: { id: 'ws_genomics', environment: 'production' },
  apiKeyId: '0b6b3cf4-6f0d-4f57-9c57-7f2b7d1b2a10',
};
const JSON_TYPE = 'application/json; charset=utf-8';
const PROBLEM_TYPE = 'application/problem+json; charset=utf-8';
const problem = (status: number, code: string) => ({
  type: `/docs/problems#${code}`,
  title: 'Problem',
  status,
  detail: 'Something.',
  code,
  instance: '/x',
});

const check =
  (method: string, path: string, status: number, contentType: string | null, body: unknown) => () =>
    assertMatchesContract(method, path, { status, contentType, body });

describe('assertMatchesContract', () => {
  it('finds the operation of a request, the most literal template first', () => {
    expect(findOperation('GET', '/api/v1/session?x=1')?.template).toBe('/api/v1/session');
    expect(findOperation('GET', '/api/math/tasks/demo-q1-a')?.template).toBe('/api/math/tasks/{task_id}');
    expect(findOperation('POST', '/api/math/workflow/tasks/demo-q1-a')?.template).toBe(
      '/api/math/workflow/tasks/{task_id}',
    );
    expect(findOperation('GET', '/healthz')).toBeNull();
  });

  it('accepts a response the contract describes', () => {
    expect(check('GET', '/api/v1/session', 200, JSON_TYPE, session)).not.toThrow();
    expect(check('GET', '/api/v1/session', 401, PROBLEM_TYPE, problem(401, 'unauthenticated'))).not.toThrow();
    expect(check('GET', '/healthz', 200, JSON_TYPE, { status: 'ok' })).not.toThrow();
  });

  it('refuses a body whose fields drift from the schema', () => {
    expect(check('GET', '/api/v1/session', 200, JSON_TYPE, { ...session, extra: 1 })).toThrow(
      ContractViolation,
    );
    const { apiKeyId: _dropped, ...missing } = session;
    expect(check('GET', '/api/v1/session', 200, JSON_TYPE, missing)).toThrow(/apiKeyId/);
    const renamed = { ...session, user: { ...session.user, id: 12 } };
    expect(check('GET', '/api/v1/session', 200, JSON_TYPE, renamed)).toThrow(/\/user\/id must be string/);
  });

  it('refuses an undocumented status and a wrong content type', () => {
    expect(check('GET', '/api/auth/session', 418, PROBLEM_TYPE, problem(418, 'teapot'))).toThrow(
      /math\.getSession does not document status 418/,
    );
    expect(check('GET', '/api/v1/session', 200, 'text/plain', 'hello')).toThrow(/content type "text\/plain"/);
    expect(check('GET', '/api/v1/session', 404, JSON_TYPE, problem(404, 'not_found'))).toThrow(
      ContractViolation,
    );
  });

  it('holds errors outside any operation to problem+json', () => {
    expect(check('GET', '/nowhere', 404, PROBLEM_TYPE, problem(404, 'route_not_found'))).not.toThrow();
    expect(check('GET', '/nowhere', 404, 'text/html', '<h1>Not found</h1>')).toThrow(ContractViolation);
    const { code: _code, ...withoutCode } = problem(405, 'method_not_allowed');
    expect(check('DELETE', '/api/v1/session', 405, PROBLEM_TYPE, withoutCode)).toThrow(/code/);
  });
});
