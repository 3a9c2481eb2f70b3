import type { Operation } from '../../api/kernel/operation';
import { atLeast } from '../../access/roles';
import { type Role, ROLES, SCOPES, type Scope, type ServiceName } from '../../entities/types';
import {
  bodyKindOf,
  type DemoWorld,
  fillPath,
  freshKey,
  MATH_TASK_IDS,
  pathValues,
  SERVICES,
  serviceOf,
  setupDemoWorld,
  snapshotDatabase,
} from '../helpers/reliability';
import { http, type HttpResult, mintKey, startStack, type TestStack } from '../helpers/stack';

/**
 * The authorization matrix, generated from the operation declarations of both services (OWASP API1/API5):
 * every role below an operation's minimum and every missing scope is refused with 403 before anything runs;
 * every role at or above it, with all scopes, gets through authorization; a Reviewer never reaches or counts
 * a task that is not assigned to them.
 */

let stack: TestStack;
let world: DemoWorld;
/** Keys of the Admin member with a lower key role (the effective role is the key's), all scopes. */
const roleKeys = {} as Record<ServiceName, Record<Role, string>>;
/** Admin keys with every scope but one. */
const scopeKeys = {} as Record<ServiceName, Record<Scope, string>>;
const cases = { operations: 0, roleCases: 0, scopeCases: 0, allowedCases: 0, reviewerCases: 0, listCases: 0 };

beforeAll(async () => {
  stack = await startStack();
  world = await setupDemoWorld(stack);
  for (const service of ['math', 'genomics'] as const) {
    roleKeys[service] = {} as Record<Role, string>;
    scopeKeys[service] = {} as Record<Scope, string>;
    for (const role of ROLES)
      roleKeys[service][role] = (await mintKey(stack, service, 'idp|ada', { role })).token;
    for (const scope of SCOPES) {
      const scopes = SCOPES.filter((s) => s !== scope);
      scopeKeys[service][scope] = (await mintKey(stack, service, 'idp|ada', { scopes })).token;
    }
  }
}, 120_000);

afterAll(async () => {
  console.log(
    `authorization matrix: ${cases.operations} operations × (roles: ${cases.roleCases} refused + ` +
      `${cases.allowedCases} allowed, scopes: ${cases.scopeCases} refused) = ` +
      `${cases.roleCases + cases.allowedCases + cases.scopeCases} cases; ` +
      `${cases.reviewerCases} Reviewer* task cases, ${cases.listCases} list cases`,
  );
  await stack?.stop();
});

/**
 * A request authorization can judge: real path values; for a body, one that validation refuses (an unknown
 * field), so an operation that got through authorization answers 400 and never runs its handler.
 */
async function probe(operation: Operation, token: string): Promise<HttpResult> {
  const headers: Record<string, string> = {};
  if (operation.idempotency !== 'none') headers['idempotency-key'] = freshKey();
  const kind = bodyKindOf(operation);
  let body: unknown;
  if (kind === 'json') body = { authorizationProbe: true };
  if (kind === 'octet-stream' || kind === 'multipart') {
    body = 'x';
    headers['content-type'] = 'text/plain';
  }
  return send(operation, fillPath(operation, pathValues(world)), { token, body, headers });
}

/** One request through the contract-checking client (a response outside the contract fails the test). */
function send(operation: Operation, path: string, opts: Parameters<typeof http>[3]): Promise<HttpResult> {
  return http(stack, operation.method, path, opts);
}

const AUTHZ_CODES = ['insufficient_role', 'insufficient_scope'];

const allOperations = SERVICES.flatMap((s) => s.operations.map((o) => [o.operationId, o] as const));

describe('every operation × every role and missing scope', () => {
  it.each(allOperations)('%s', async (_id, operation) => {
    const service = serviceOf(operation);
    cases.operations += 1;
    const before = await snapshotDatabase(stack);
    for (const role of ROLES) {
      const res = await probe(operation, roleKeys[service][role]);
      const where = `${operation.operationId} as ${role}`;
      if (atLeast(role, operation.minRole)) {
        cases.allowedCases += 1;
        expect({ where, status: res.status }).not.toEqual({ where, status: 401 });
        expect({ where, status: res.status, code: res.body?.code }).not.toEqual(
          expect.objectContaining({ status: 403 }),
        );
      } else {
        cases.roleCases += 1;
        expect({ where, status: res.status, code: res.body?.code }).toEqual({
          where,
          status: 403,
          code: 'insufficient_role',
        });
      }
    }
    for (const scope of operation.scopes) {
      cases.scopeCases += 1;
      const res = await probe(operation, scopeKeys[service][scope]);
      expect({ scope, status: res.status, code: res.body?.code, missing: res.body?.missing_scopes }).toEqual({
        scope,
        status: 403,
        code: 'insufficient_scope',
        missing: [scope],
      });
    }
    // Refused requests and probes change nothing (except DELETEs of records that do not exist: nothing).
    expect(await snapshotDatabase(stack)).toEqual(before);
    expect(AUTHZ_CODES).toHaveLength(2);
  });
});

/** A request a Reviewer may make on a task of theirs, pointed at sofia's task instead. */
function reviewerRequest(operation: Operation): {
  path: string;
  body?: unknown;
  headers?: Record<string, string>;
} {
  const values = {
    ...pathValues(world),
    task_id: 'demo-q2-a',
    question_id: 'q2',
    artifact_id: 'demo-art-q2-report',
    attachment_id: world.ids.attachmentId,
  };
  const path = fillPath(operation, values);
  const kind = bodyKindOf(operation);
  if (kind === 'none') return { path };
  if (kind === 'octet-stream')
    return { path, body: Buffer.from('bytes'), headers: { 'content-type': 'application/octet-stream' } };
  const bodies: Record<string, unknown> = {
    'math.applyTaskAction': { version: 1, action: 'feedback', comment: 'Not mine.' },
    'math.applyTaskActionWorkflowAlias': { version: 1, action: 'feedback', comment: 'Not mine.' },
    'math.applyDashboardTaskAction': { version: 1, action: 'feedback', comment: 'Not mine.' },
    'math.addTaskNote': { version: 1, comment: 'Not mine.' },
  };
  if (!(operation.operationId in bodies))
    throw new Error(`add a valid body for the Reviewer* operation ${operation.operationId} to this test`);
  return { path, body: bodies[operation.operationId] };
}

const reviewerScoped = allOperations.filter(([, o]) => o.reviewerScope === 'assigned-tasks');
const taskScoped = reviewerScoped.filter(([, o]) => o.path.includes('/:'));
const listScoped = reviewerScoped.filter(([, o]) => !o.path.includes('/:'));

describe('Reviewer* routes: a task not assigned to the Reviewer does not exist for them', () => {
  it.each(taskScoped)('%s', async (_id, operation) => {
    expect(serviceOf(operation)).toBe('math');
    cases.reviewerCases += 1;
    const before = await snapshotDatabase(stack);
    const { path, body, headers } = reviewerRequest(operation);
    const res = await http(stack, operation.method, path, { token: world.math.rui, body, headers });
    expect({ path, status: res.status }).toEqual({ path, status: 404 });
    expect(JSON.stringify(res.body)).not.toContain('Sofia was here');
    expect(await snapshotDatabase(stack)).toEqual(before);
    // The same request by the assigned Reviewer is not refused (reads only: the writes were checked above).
    if (operation.method === 'GET') {
      const own = await send(operation, path, { token: world.math.sofia });
      expect({ path, status: own.status }).toEqual({ path, status: 200 });
    }
  });
});

/** Every number in a response, by its JSON path. */
function numbersIn(value: unknown, at = ''): Array<[string, number]> {
  if (typeof value === 'number') return [[at, value]];
  if (Array.isArray(value)) return value.flatMap((v, i) => numbersIn(v, `${at}[${i}]`));
  if (value && typeof value === 'object')
    return Object.entries(value).flatMap(([k, v]) => numbersIn(v, at ? `${at}.${k}` : k));
  return [];
}

/** Paging and window parameters echoed back, not counts of anything. */
const NOT_COUNTS = /(^|\.)(page|page_size|days|limit)$/;

describe('Reviewer* lists: no item, count or total reveals a task that is not the Reviewer’s', () => {
  it.each(listScoped)('%s', async (_id, operation) => {
    cases.listCases += 1;
    const service = serviceOf(operation);
    const path = operation.path;
    const operator = await http(stack, 'GET', path, { token: world[service].owner });
    expect(operator.status).toBe(200);
    const nobody = await http(stack, 'GET', path, {
      token: service === 'math' ? world.math.tomas : world.genomics.vera,
    });
    expect(nobody.status).toBe(200);
    const text = JSON.stringify(nobody.body);
    for (const taskId of [...MATH_TASK_IDS, 'demo-run-001', 'Authz Client', world.topicUid, 'Sofia'])
      expect({ path, leaked: text.includes(taskId) ? taskId : null }).toEqual({ path, leaked: null });
    const counts = numbersIn(nobody.body).filter(([at]) => !NOT_COUNTS.test(at));
    expect({ path, nonZero: counts.filter(([, n]) => n !== 0) }).toEqual({ path, nonZero: [] });
    if (service === 'math' && operation.operationId !== 'math.listReviewers') {
      // A Reviewer with one task sees that task and nothing of the others'.
      const rui = JSON.stringify((await http(stack, 'GET', path, { token: world.math.rui })).body);
      for (const taskId of world.tasks.sofia)
        expect({ path, leaked: rui.includes(taskId) }).toEqual({ path, leaked: false });
    }
  });

  it('the operator views above did have something to hide', async () => {
    const tasks = await http(stack, 'GET', '/api/math/tasks', { token: world.math.owner });
    expect(tasks.body.total).toBe(4);
    const genomicsTasks = await http(stack, 'GET', '/api/v1/tasks', { token: world.genomics.owner });
    expect(genomicsTasks.body.items.length).toBeGreaterThan(0);
  });
});
