import { genomicsService } from '../../api/genomics';
import { buildOpenApi } from '../../api/kernel/openapi';
import type { Operation } from '../../api/kernel/operation';
import { mathService } from '../../api/math';
import type { Role, Scope } from '../../entities/types';

/**
 * The published contracts against the specs' endpoint tables and Limits tables
 * (/work/shared/specs/*.md): every row's operation is published and matches the row exactly.
 */

type JsonObject = Record<string, any>;

const documents = {
  math: buildOpenApi(mathService) as JsonObject,
  genomics: buildOpenApi(genomicsService) as JsonObject,
};

const MATH_ROWS: Array<[method: string, path: string, scopes: string, roles: string]> = [
  ['GET', '/api/auth/session', 'read', 'Reviewer, Owner, Admin'],
  ['GET', '/api/math/seeds', 'read', 'Reviewer*, Owner, Admin'],
  ['GET', '/api/math/seeds/{question_id}', 'read', 'Reviewer*, Owner, Admin'],
  ['GET', '/api/math/seeds/{question_id}/tasks', 'read', 'Reviewer*, Owner, Admin'],
  ['GET', '/api/math/topics', 'read', 'Owner, Admin'],
  ['GET', '/api/math/tasks', 'read', 'Reviewer*, Owner, Admin'],
  ['GET', '/api/math/tasks/{task_id}', 'read', 'Reviewer*, Owner, Admin'],
  ['POST', '/api/math/tasks/{task_id}', 'write', 'Reviewer*, Owner, Admin'],
  ['GET', '/api/math/tasks/{task_id}/workflow', 'read', 'Reviewer*, Owner, Admin'],
  ['GET', '/api/math/tasks/{task_id}/notes', 'read', 'Reviewer*, Owner, Admin'],
  ['POST', '/api/math/tasks/{task_id}/notes', 'write', 'Reviewer*, Owner, Admin'],
  ['GET', '/api/math/runs', 'read', 'Owner, Admin'],
  ['GET', '/api/math/runs/{run_id}', 'read', 'Owner, Admin'],
  ['GET', '/api/math/reports', 'read', 'Owner, Admin'],
  ['GET', '/api/math/workflow/tasks/{task_id}/evidence', 'files:read', 'Reviewer*, Owner, Admin'],
  ['GET', '/api/math/tasks/{task_id}/paths', 'paths:read', 'Reviewer*, Owner, Admin'],
  ['GET', '/api/math/runs/{run_id}/paths', 'paths:read', 'Owner, Admin'],
  ['GET', '/api/math/artifacts/{artifact_id}/download', 'files:read', 'Reviewer*, Owner, Admin'],
  ['GET', '/api/math/tasks/{task_id}/attachments', 'files:read', 'Reviewer*, Owner, Admin'],
  ['POST', '/api/math/tasks/{task_id}/attachments', 'files:write', 'Reviewer*, Owner, Admin'],
  ['GET', '/api/math/tasks/{task_id}/attachments/{attachment_id}', 'files:read', 'Reviewer*, Owner, Admin'],
  [
    'DELETE',
    '/api/math/tasks/{task_id}/attachments/{attachment_id}',
    'files:write',
    'Reviewer*, Owner, Admin',
  ],
  [
    'GET',
    '/api/math/tasks/{task_id}/attachments/{attachment_id}/download',
    'files:read',
    'Reviewer*, Owner, Admin',
  ],
  ['GET', '/api/math/monitor', 'read', 'Reviewer*, Owner, Admin'],
  ['GET', '/api/math/activity', 'read', 'Reviewer*, Owner, Admin'],
  ['GET', '/api/math/analytics', 'read', 'Reviewer*, Owner, Admin'],
  ['GET', '/api/math/clients', 'read', 'Reviewer*, Owner, Admin'],
  ['POST', '/api/math/clients', 'write', 'Owner, Admin'],
  ['POST', '/api/math/clients/{client_id}', 'write', 'Owner, Admin'],
  ['GET', '/api/reviewers', 'read', 'Reviewer*, Owner, Admin'],
  ['GET', '/api/users', 'read', 'Admin'],
  ['GET', '/api/auth/audit', 'read', 'Admin'],
  ['GET', '/api/keys', 'keys:manage', 'Reviewer, Owner, Admin'],
  ['POST', '/api/keys', 'keys:manage', 'Reviewer, Owner, Admin'],
  ['GET', '/api/keys/{key_id}', 'keys:manage', 'Reviewer, Owner, Admin'],
  ['DELETE', '/api/keys/{key_id}', 'keys:manage', 'Reviewer, Owner, Admin'],
  ['GET', '/api/keys/{key_id}/events', 'keys:manage', 'Reviewer, Owner, Admin'],
  ['GET', '/api/bug-reports', 'read', 'Reviewer, Owner, Admin'],
  ['POST', '/api/bug-reports', 'write and files:write', 'Reviewer, Owner, Admin'],
  ['GET', '/api/bug-reports/{report_id}/screenshot', 'files:read', 'Reviewer*, Owner, Admin'],
  ['POST', '/api/math/tasks/{task_id}/workflow', 'write', 'Reviewer*, Owner, Admin'],
  ['GET', '/api/math/workflow', 'read', 'Reviewer*, Owner, Admin'],
  ['GET', '/api/math/workflow/tasks/{task_id}', 'read', 'Reviewer*, Owner, Admin'],
  ['POST', '/api/math/workflow/tasks/{task_id}', 'write', 'Reviewer*, Owner, Admin'],
  ['GET', '/api/clients', 'read', 'Reviewer*, Owner, Admin'],
  ['GET', '/api/auth/viewable-users', 'read', 'Admin'],
];

const GENOMICS_ROWS: Array<[method: string, path: string, role: Role, scopes: string, ik: boolean]> = [
  ['GET', '/api/v1/session', 'REVIEWER', 'read', false],
  ['GET', '/api/v1/keys', 'REVIEWER', 'keys:manage', false],
  ['POST', '/api/v1/keys', 'OWNER', 'keys:manage', true],
  ['DELETE', '/api/v1/keys/{keyId}', 'OWNER', 'keys:manage', false],
  ['GET', '/api/v1/tasks', 'REVIEWER', 'read', false],
  ['GET', '/api/v1/topics', 'REVIEWER', 'read', false],
  ['POST', '/api/v1/topics', 'OWNER', 'write', true],
  ['GET', '/api/v1/topics/{topicUid}', 'REVIEWER', 'read, paths:read', false],
  ['PUT', '/api/v1/topics/{topicUid}', 'OWNER', 'write', true],
  ['GET', '/api/v1/topics/{topicUid}/measurements', 'REVIEWER', 'read', false],
  ['GET', '/api/v1/topics/{topicUid}/paths', 'REVIEWER', 'paths:read', false],
  ['GET', '/api/v1/topics/{topicUid}/notes', 'REVIEWER', 'read', false],
  ['POST', '/api/v1/topics/{topicUid}/notes', 'REVIEWER', 'write', true],
  ['PUT', '/api/v1/topics/{topicUid}/notes/{noteId}', 'REVIEWER', 'write', true],
  ['GET', '/api/v1/topics/{topicUid}/events', 'REVIEWER', 'read', false],
  ['GET', '/api/v1/topics/{topicUid}/reports', 'REVIEWER', 'read, paths:read', false],
  ['GET', '/api/v1/topics/{topicUid}/revisions', 'REVIEWER', 'read, paths:read', false],
  ['POST', '/api/v1/topics/{topicUid}/revisions', 'REVIEWER', 'write', true],
  ['GET', '/api/v1/topics/{topicUid}/assignments', 'REVIEWER', 'read', false],
  ['PUT', '/api/v1/topics/{topicUid}/tags', 'OWNER', 'write', true],
  ['PUT', '/api/v1/topics/{topicUid}/reviewer', 'OWNER', 'write', true],
  ['POST', '/api/v1/topics/{topicUid}/reviews', 'REVIEWER', 'write', true],
  ['POST', '/api/v1/topics/{topicUid}/decision', 'OWNER', 'write', true],
  ['POST', '/api/v1/topics/{topicUid}/reopen', 'OWNER', 'write', true],
  ['PUT', '/api/v1/topics/{topicUid}/disposition', 'OWNER', 'write', true],
];

/** Rows whose "Reviewer*" the spec's own note restricts by submitter rather than by task assignment. */
const REVIEWER_STAR_BY_SUBMITTER: Record<string, string> = {
  'GET /api/bug-reports/{report_id}/screenshot': 'Only the submitter or an Admin gets the verified image.',
};

const scopeList = (text: string) => text.split(/,| and /).map((s) => s.trim()) as Scope[];
const sorted = <T>(list: T[]) => [...list].sort();

const operationAt = (service: 'math' | 'genomics', method: string, path: string): JsonObject | undefined =>
  documents[service].paths[path]?.[method.toLowerCase()];

describe('math spec operations table', () => {
  describe.each(MATH_ROWS)('%s %s', (method, path, scopes, roles) => {
    const op = operationAt('math', method, path);
    const minRole: Role = roles.startsWith('Reviewer')
      ? 'REVIEWER'
      : roles.startsWith('Owner')
        ? 'OWNER'
        : 'ADMIN';
    it(`has role ${roles} and scopes ${scopes}`, () => {
      expect(op).toBeDefined();
      expect(op!['x-min-role']).toBe(minRole);
      const reviewerScope = roles.startsWith('Reviewer*') ? 'assigned-tasks' : undefined;
      if (`${method} ${path}` in REVIEWER_STAR_BY_SUBMITTER)
        expect([reviewerScope, undefined]).toContain(op!['x-reviewer-scope']);
      else expect(op!['x-reviewer-scope']).toBe(reviewerScope);
      expect(sorted(op!['x-scopes'])).toEqual(sorted(scopeList(scopes)));
      expect(sorted(op!.security[0].ApiKey)).toEqual(sorted(scopeList(scopes)));
    });
  });
});

describe('genomics spec endpoints table', () => {
  describe.each(GENOMICS_ROWS)('%s %s', (method, path, role, scopes, ik) => {
    const op = operationAt('genomics', method, path);
    it(`has role ${role}, scopes ${scopes}, Idempotency-Key ${ik ? 'required' : 'none'}`, () => {
      expect(op).toBeDefined();
      expect(op!['x-min-role']).toBe(role);
      expect(sorted(op!['x-scopes'])).toEqual(sorted(scopeList(scopes)));
      expect(op!['x-idempotency']).toBe(ik ? 'required' : 'none');
    });
  });
});

/** The schema of a parameter or of a top-level JSON body field. */
function fieldSchema(
  op: JsonObject,
  location: 'query' | 'path' | 'body',
  name: string,
): JsonObject | undefined {
  if (location === 'body') return op.requestBody?.content?.['application/json']?.schema?.properties?.[name];
  return op.parameters?.find((p: JsonObject) => p.in === location && p.name === name)?.schema;
}

const nullable = (type: string) => ({ type: expect.arrayContaining([type, 'null']) });
const LIST = { type: 'integer', minimum: 1, maximum: 100 };
const BEFORE = { type: 'string', pattern: '^[1-9][0-9]{0,18}$' };
const TOPIC = '/api/v1/topics/{topicUid}';
const DECISIONS = ['READY', 'MINOR_REPAIR', 'MAJOR_REPAIR', 'REJECTED'];

type LimitRow = [
  method: string,
  path: string,
  where: 'query' | 'path' | 'body',
  name: string,
  schema: JsonObject,
];

const GENOMICS_LIMITS: LimitRow[] = [
  ['GET', '/api/v1/tasks', 'query', 'limit', LIST],
  ['GET', '/api/v1/tasks', 'query', 'search', { type: 'string', maxLength: 200 }],
  [
    'GET',
    '/api/v1/tasks',
    'query',
    'disposition',
    { enum: ['ACTIVE', 'REJECTED', 'DISCARDED', 'TIMED_OUT'] },
  ],
  ['GET', '/api/v1/tasks', 'query', 'afterBatch', { type: 'string', pattern: '^batch-[0-9]{3,6}$' }],
  ['GET', '/api/v1/tasks', 'query', 'afterTopic', { type: 'integer', minimum: 1, maximum: 2147483647 }],
  ['GET', '/api/v1/topics', 'query', 'limit', LIST],
  ['GET', '/api/v1/topics', 'query', 'search', { type: 'string', maxLength: 200 }],
  ['GET', '/api/v1/topics', 'query', 'afterBatch', { type: 'string', maxLength: 30 }],
  ['GET', '/api/v1/topics', 'query', 'afterTopic', { type: 'integer', minimum: 1 }],
  ...['notes', 'events', 'reports', 'revisions', 'assignments'].flatMap((list): LimitRow[] => [
    ['GET', `${TOPIC}/${list}`, 'query', 'limit', LIST],
    ['GET', `${TOPIC}/${list}`, 'query', 'before', BEFORE],
  ]),
  ['GET', TOPIC, 'path', 'topicUid', { type: 'string', maxLength: 256 }],
  ['POST', '/api/v1/topics', 'body', 'batch', { type: 'string', pattern: '^batch-[0-9]{3,6}$' }],
  ['POST', '/api/v1/topics', 'body', 'topic', { type: 'integer', minimum: 1, maximum: 2147483647 }],
  ['POST', '/api/v1/topics', 'body', 'title', { type: 'string', maxLength: 500 }],
  ['POST', '/api/v1/topics', 'body', 'category', { type: 'string', maxLength: 200 }],
  ['POST', '/api/v1/topics', 'body', 'markdown', { type: 'string', maxLength: 2000000 }],
  ['PUT', TOPIC, 'body', 'title', { type: 'string', maxLength: 180 }],
  ['PUT', TOPIC, 'body', 'category', { type: 'string', maxLength: 180 }],
  ['POST', `${TOPIC}/notes`, 'body', 'body', { type: 'string', maxLength: 50000 }],
  ['POST', `${TOPIC}/notes`, 'body', 'campaignId', { ...nullable('string'), maxLength: 256 }],
  ['PUT', `${TOPIC}/notes/{noteId}`, 'path', 'noteId', BEFORE],
  ['PUT', `${TOPIC}/notes/{noteId}`, 'body', 'body', { type: 'string', maxLength: 50000 }],
  [
    'PUT',
    `${TOPIC}/notes/{noteId}`,
    'body',
    'expectedBodySha256',
    { type: 'string', pattern: '^[0-9a-f]{64}$' },
  ],
  ['POST', `${TOPIC}/revisions`, 'body', 'campaignId', { type: 'string', maxLength: 256 }],
  ['POST', `${TOPIC}/revisions`, 'body', 'notes', { type: 'string', maxLength: 10000 }],
  [
    'PUT',
    `${TOPIC}/tags`,
    'body',
    'tags',
    { type: 'array', maxItems: 50, items: { type: 'string', maxLength: 64 } },
  ],
  [
    'PUT',
    `${TOPIC}/reviewer`,
    'body',
    'reviewerId',
    { ...nullable('string'), pattern: '^[1-9][0-9]{0,18}$' },
  ],
  ['PUT', `${TOPIC}/reviewer`, 'body', 'instructions', { type: 'string', maxLength: 10000 }],
  ['POST', `${TOPIC}/reviews`, 'body', 'assignmentId', BEFORE],
  [
    'POST',
    `${TOPIC}/reviews`,
    'body',
    'verdict',
    { enum: ['COMMENT', 'READY_AS_IS', 'MINOR_REPAIR', 'MAJOR_REPAIR', 'REJECTED'] },
  ],
  ['POST', `${TOPIC}/reviews`, 'body', 'body', { type: 'string', maxLength: 50000 }],
  ['POST', `${TOPIC}/decision`, 'body', 'expectedDecision', { enum: DECISIONS }],
  ['POST', `${TOPIC}/decision`, 'body', 'decision', { enum: DECISIONS }],
  ['POST', `${TOPIC}/decision`, 'body', 'campaignId', { type: 'string', maxLength: 256 }],
  ['POST', `${TOPIC}/decision`, 'body', 'reason', { type: 'string', maxLength: 2000 }],
  ['POST', `${TOPIC}/reopen`, 'body', 'expectedDecision', { type: 'string', maxLength: 30 }],
  ['POST', `${TOPIC}/reopen`, 'body', 'campaignId', { type: 'string', maxLength: 256 }],
  ['POST', `${TOPIC}/reopen`, 'body', 'reason', { type: 'string', maxLength: 2000 }],
  ['POST', '/api/v1/keys', 'body', 'identityId', { type: 'string', maxLength: 128 }],
  ['POST', '/api/v1/keys', 'body', 'name', { type: 'string', maxLength: 100 }],
  ['POST', '/api/v1/keys', 'body', 'role', { enum: ['REVIEWER', 'OWNER', 'ADMIN'] }],
  ['POST', '/api/v1/keys', 'body', 'scopes', { type: 'array', maxItems: 6 }],
  ['POST', '/api/v1/keys', 'body', 'expiresInDays', { type: 'integer', minimum: 1, maximum: 365 }],
  ['DELETE', '/api/v1/keys/{keyId}', 'path', 'keyId', { type: 'string', format: 'uuid' }],
];

describe('genomics spec limits, as published', () => {
  describe.each(GENOMICS_LIMITS)('%s %s: %s %s', (method, path, where, name, expected) => {
    const op = operationAt('genomics', method, path);
    it(`has the bounds of the spec`, () => {
      expect(fieldSchema(op!, where, name)).toMatchObject(expected);
    });
  });

  it('asks for the Idempotency-Key pattern of the spec on every IK operation', () => {
    const key = documents.genomics.components.parameters?.IdempotencyKey;
    expect(key).toMatchObject({ required: true, schema: { pattern: '^[A-Za-z0-9._:-]{16,128}$' } });
  });
});

describe('math spec limits, as published', () => {
  const paginated = mathService.operations.filter((o: Operation) => o.request.query?.describe().keys?.page);

  it('gives every paginated list page (default 1, 1 to 100000) and page_size (default 25, 1 to 100)', () => {
    expect(paginated.length).toBeGreaterThan(0);
    for (const operation of paginated) {
      const op = operationAt('math', operation.method, operation.path.replace(/:(\w+)/g, '{$1}'))!;
      expect(fieldSchema(op, 'query', 'page')).toEqual({
        type: 'integer',
        minimum: 1,
        maximum: 100000,
        default: 1,
      });
      expect(fieldSchema(op, 'query', 'page_size')).toEqual({
        type: 'integer',
        minimum: 1,
        maximum: 100,
        default: 25,
      });
    }
  });
});

// Extensions (webhooks, marked `x-extension`) come on top of the contracts' operations.
describe('operation counts of the issue’s done-when (25 genomics, 46 math including aliases)', () => {
  const math = mathService.operations.filter((o) => !o.extension).length;
  const genomics = genomicsService.operations.filter((o) => !o.extension).length;
  it('publishes all 46 math operations', () => {
    expect(math).toBe(46);
    expect(
      Object.values<JsonObject>(documents.math.paths)
        .flatMap((item) => Object.values<JsonObject>(item))
        .filter((op) => !op['x-extension']),
    ).toHaveLength(46);
    for (const [method, path] of MATH_ROWS) expect(operationAt('math', method, path)).toBeDefined();
  });
  it('publishes all 25 genomics operations', () => {
    expect(genomics).toBe(25);
    for (const [method, path] of GENOMICS_ROWS) expect(operationAt('genomics', method, path)).toBeDefined();
  });
});
