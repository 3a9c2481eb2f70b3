import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import type Joi from 'joi';
import { genomicsService } from '../../api/genomics';
import { statusOfCode } from '../../api/kernel/errors';
import { buildOpenApi, errorStatuses, openApiPath } from '../../api/kernel/openapi';
import type { Operation, ServiceDefinition } from '../../api/kernel/operation';
import { mathService } from '../../api/math';

type JsonObject = Record<string, any>;

const services: ServiceDefinition[] = [mathService, genomicsService];
const unsupported: string[] = [];
const documents = Object.fromEntries(
  services.map((s) => [
    s.name,
    buildOpenApi(s, { onUnsupported: (at, what) => unsupported.push(`${at}: ${what}`) }) as JsonObject,
  ]),
) as Record<'math' | 'genomics', JsonObject>;

const operationIn = (document: JsonObject, operation: Operation): JsonObject =>
  document.paths[openApiPath(operation.path)]?.[operation.method.toLowerCase()];

/** Every schema object the document holds, with where it is. */
function schemasOf(document: JsonObject): Array<[string, unknown]> {
  const out: Array<[string, unknown]> = [
    ['#/components/schemas/Problem', document.components.schemas.Problem],
  ];
  for (const [path, item] of Object.entries<JsonObject>(document.paths)) {
    for (const [method, op] of Object.entries<JsonObject>(item)) {
      const at = `${method.toUpperCase()} ${path}`;
      for (const p of op.parameters ?? []) if (p.schema) out.push([`${at} parameter ${p.name}`, p.schema]);
      for (const [media, c] of Object.entries<JsonObject>(op.requestBody?.content ?? {}))
        out.push([`${at} request ${media}`, c.schema]);
      for (const [status, r] of Object.entries<JsonObject>(op.responses))
        for (const [media, c] of Object.entries<JsonObject>(r.content ?? {}))
          out.push([`${at} ${status} ${media}`, c.schema]);
    }
  }
  return out;
}

/** Calls `visit` on every object inside a schema. */
function walk(value: unknown, visit: (node: JsonObject) => void): void {
  if (Array.isArray(value)) value.forEach((v) => walk(v, visit));
  else if (value && typeof value === 'object') {
    visit(value as JsonObject);
    Object.values(value).forEach((v) => walk(v, visit));
  }
}

describe.each(services.map((s) => [s.name, s] as const))('buildOpenApi(%s)', (name, service) => {
  const document = documents[name];

  it('is an OpenAPI 3.1 document with relative servers, Bearer ApiKey security and the service version', () => {
    expect(document.openapi).toBe('3.1.0');
    expect(document.info).toMatchObject({ title: service.title, version: '1.0.0' });
    expect(document.servers).toEqual([{ url: '/', description: expect.any(String) }]);
    expect(document.security).toEqual([{ ApiKey: [] }]);
    expect(document.components.securitySchemes.ApiKey).toMatchObject({ type: 'http', scheme: 'bearer' });
  });

  it('is deterministic: the same declarations give the same bytes, with paths in sorted order', () => {
    expect(JSON.stringify(buildOpenApi(service))).toBe(JSON.stringify(document));
    const paths = Object.keys(document.paths);
    expect(paths).toEqual([...paths].sort());
  });

  it('holds every declared operation once, with its id, summary, role, scopes and Idempotency-Key', () => {
    const ids = service.operations.map((o) => o.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    for (const operation of service.operations) {
      const op = operationIn(document, operation);
      expect(op).toMatchObject({
        operationId: operation.operationId,
        summary: operation.summary,
        security: [{ ApiKey: operation.scopes }],
        'x-min-role': operation.minRole,
        'x-scopes': operation.scopes,
      });
      expect(op['x-reviewer-scope']).toBe(operation.reviewerScope);
      expect(op.description).toContain(`role ${operation.minRole} or higher`);
      for (const scope of operation.scopes) expect(op.description).toContain(`\`${scope}\``);
      const key = (op.parameters ?? []).find((p: JsonObject) => p.$ref?.includes('Idempotency'));
      if (operation.idempotency === 'none') expect(key).toBeUndefined();
      else {
        const parameter = document.components.parameters[key.$ref.split('/').pop()];
        expect(parameter).toMatchObject({
          name: 'Idempotency-Key',
          in: 'header',
          required: operation.idempotency === 'required',
          schema: { type: 'string', pattern: '^[A-Za-z0-9._:-]{16,128}$' },
        });
      }
    }
  });

  it('documents every path parameter of the Koa path, required', () => {
    for (const operation of service.operations) {
      const names = [...operation.path.matchAll(/:(\w+)/g)].map((m) => m[1]);
      const declared = (operationIn(document, operation).parameters ?? []).filter(
        (p: JsonObject) => p.in === 'path',
      );
      expect(declared.map((p: JsonObject) => p.name)).toEqual(names);
      for (const p of declared) expect(p.required).toBe(true);
    }
  });

  it('documents a problem code an operation lists under the status of its catalogue, and refuses an unknown one', () => {
    const [operation] = service.operations;
    const withCode = (code: string) =>
      buildOpenApi({ ...service, operations: [{ ...operation, errors: [code] }] }) as JsonObject;
    const op = operationIn(withCode('request_timeout'), operation);
    expect(Object.keys(op.responses)).toContain('408');
    expect(() => withCode('no_such_code')).toThrow('Problem code no_such_code is in no catalogue');
  });

  it('documents the success response and problem+json errors through the shared Problem schema', () => {
    for (const operation of service.operations) {
      const op = operationIn(document, operation);
      expect(op.responses[String(operation.response.status)].description).toBe(
        operation.response.description,
      );
      const errors = Object.keys(op.responses)
        .filter((s) => s !== String(operation.response.status))
        .map(Number);
      expect(errors).toEqual(errorStatuses(service, operation));
      const declared = (operation.errors ?? []).map((e) =>
        typeof e === 'number' ? e : statusOfCode(service.problemTypes, e),
      );
      expect(errors).toEqual(expect.arrayContaining([400, 401, 403, ...declared]));
      for (const status of errors) {
        const component = document.components.responses[op.responses[status].$ref.split('/').pop()];
        expect(component.content).toEqual({
          'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } },
        });
      }
    }
    expect(document.components.schemas.Problem.required).toEqual([
      'type',
      'title',
      'status',
      'detail',
      'code',
    ]);
  });

  it('closes JSON request bodies whose joi object rejects unknown fields', () => {
    for (const operation of service.operations) {
      const body = operation.request.body as Joi.Schema | undefined;
      if (!body || (operation.request.bodyKind ?? 'json') !== 'json') continue;
      const described = body.describe() as { keys?: object; flags?: { unknown?: boolean } };
      const schema = operationIn(document, operation).requestBody.content['application/json'].schema;
      if (described.keys && !described.flags?.unknown) expect(schema.additionalProperties).toBe(false);
    }
  });

  it('compiles every schema with ajv as JSON Schema 2020-12 (strict mode)', () => {
    const ajv = new Ajv2020({ strict: true, strictRequired: false, allowUnionTypes: true });
    addFormats(ajv);
    for (const [at, schema] of schemasOf(document)) {
      expect(() => ajv.compile(schema as object)).not.toThrow();
      expect(at).toBeTruthy();
    }
  });

  it('publishes bigint-strings as pattern-checked strings', () => {
    let found = 0;
    for (const [, schema] of schemasOf(document)) {
      walk(schema, (node) => {
        if (node.pattern !== '^[1-9][0-9]{0,18}$') return;
        found += 1;
        expect([node.type].flat()).toContain('string');
      });
    }
    expect(found).toBeGreaterThan(0);
  });
});

describe('the published contracts', () => {
  it('leave out no joi construct of any registered operation', () => {
    expect(unsupported).toEqual([]);
  });

  it('list every status the genomics spec gives for every genomics operation', () => {
    for (const operation of genomicsService.operations) {
      const statuses = Object.keys(operationIn(documents.genomics, operation).responses).map(Number);
      expect(statuses).toEqual(expect.arrayContaining([400, 401, 403, 404, 409, 413, 422, 429, 503]));
    }
  });

  it('mark the math Reviewer* operations with x-reviewer-scope', () => {
    const getTask = mathService.operations.find((o) => o.operationId === 'math.getTask')!;
    expect(operationIn(documents.math, getTask)).toMatchObject({
      'x-min-role': 'REVIEWER',
      'x-reviewer-scope': 'assigned-tasks',
      'x-scopes': ['read'],
    });
    expect(operationIn(documents.math, getTask).description).toContain('Reviewer*');
  });

  it('convert Koa paths to OpenAPI templates', () => {
    expect(openApiPath('/api/math/tasks/:task_id/attachments/:attachment_id')).toBe(
      '/api/math/tasks/{task_id}/attachments/{attachment_id}',
    );
    expect(openApiPath('/api/v1/topics/:topicUid(.*)')).toBe('/api/v1/topics/{topicUid}');
  });
});
