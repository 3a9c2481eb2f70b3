import { STATUS_CODES } from 'node:http';
import type Joi from 'joi';
import type { OpenAPIV3_1 } from 'openapi-types';
import type { ServiceName } from '../../entities/types';
import { idempotencyKeySchema } from './idempotency';
import { type JoiConversionOptions, joiToJsonSchema, type JsonSchema, objectKeys } from './joiSchema';
import type { HttpMethod, Operation, ServiceDefinition } from './operation';

/**
 * The published OpenAPI 3.1 contract of a service, derived from its operation declarations only: the same
 * declarations route, authorise and validate every request, so the contract cannot drift from the code.
 * The result is deterministic: paths sorted, methods in a fixed order, schema keys in declaration order.
 */
export function buildOpenApi(
  service: ServiceDefinition,
  options: JoiConversionOptions = {},
): OpenAPIV3_1.Document {
  const used = { statuses: new Set<number>(), idempotency: new Set<'required' | 'optional'>() };
  const operations = [...service.operations].sort(
    (a, b) =>
      compare(openApiPath(a.path), openApiPath(b.path)) ||
      METHODS.indexOf(a.method) - METHODS.indexOf(b.method),
  );
  const paths: Record<string, Record<string, unknown>> = {};
  const tags = new Map<string, Set<string>>();
  for (const operation of operations) {
    const path = openApiPath(operation.path);
    const { tag, prefix } = tagOf(service.name, operation.path);
    tags.set(tag, (tags.get(tag) ?? new Set()).add(`${prefix}${tag}`));
    paths[path] ??= {};
    paths[path][operation.method.toLowerCase()] = operationObject(
      service.name,
      operation,
      tag,
      used,
      options,
    );
  }

  const statuses = [...used.statuses].sort((a, b) => a - b);
  const document = {
    openapi: '3.1.0',
    info: {
      title: service.title,
      version: service.version,
      description: SERVICE_DESCRIPTIONS[service.name],
    },
    servers: [{ url: '/', description: 'The server that publishes this document.' }],
    security: [{ ApiKey: [] }],
    tags: [...tags.keys()].sort(compare).map((name) => ({
      name,
      description: `Operations under ${[...(tags.get(name) ?? [])]
        .sort(compare)
        .map((p) => `\`${p}\``)
        .join(', ')}.`,
    })),
    paths,
    components: {
      schemas: { Problem: PROBLEM_SCHEMA },
      responses: Object.fromEntries(
        statuses.map((s) => [problemResponseName(s), problemResponse(service.name, s)]),
      ),
      parameters: Object.fromEntries(
        (['optional', 'required'] as const)
          .filter((kind) => used.idempotency.has(kind))
          .map((kind) => [IDEMPOTENCY_PARAMETER[kind], idempotencyParameter(kind)]),
      ),
      securitySchemes: {
        ApiKey: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: service.name === 'math' ? 'rfm_<key id>_<secret>' : 'rfg_<key id>_<secret>',
          description: SECURITY_DESCRIPTIONS[service.name],
        },
      },
    },
  };
  return document as unknown as OpenAPIV3_1.Document;
}

/** Koa path syntax (`/tasks/:task_id`) → OpenAPI path template (`/tasks/{task_id}`). */
export function openApiPath(koaPath: string): string {
  return koaPath.replace(/:([A-Za-z0-9_]+)(\([^)]*\))?\??/g, '{$1}');
}

const METHODS: HttpMethod[] = ['GET', 'PUT', 'POST', 'DELETE'];

const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

const SERVICE_PREFIXES: Record<ServiceName, string[]> = {
  math: ['/api/math/', '/api/'],
  genomics: ['/api/v1/'],
};

const SERVICE_DESCRIPTIONS: Record<ServiceName, string> = {
  math:
    'Imported math research runs, tasks and their versioned review workflow, reports and artifacts, ' +
    'clients, members and API keys. Generated from the service’s operation declarations. ' +
    'Errors are `application/problem+json`; their `type` URIs are explained at `/docs/problems`.',
  genomics:
    'The genomics review workspace: topics and tasks, measurements, storage paths, notes, reviews, ' +
    'decisions and dispositions, API keys. Contract version 1.0.0, generated from the service’s operation ' +
    'declarations. Errors are `application/problem+json`; their `type` URIs are explained at `/docs/problems`.',
};

const SECURITY_DESCRIPTION =
  'An API key of this service in `Authorization: Bearer <token>`. Each operation lists the minimum role ' +
  '(`x-min-role`) and the key scopes (`x-scopes`, also the security requirement’s list) it needs; a caller ' +
  'needs both.';

const SECURITY_DESCRIPTIONS: Record<ServiceName, string> = {
  math: SECURITY_DESCRIPTION,
  genomics:
    `${SECURITY_DESCRIPTION} The dashboard may instead send a request-bound dashboard assertion, ` +
    '`Authorization: Assertion <compact JWS>`, subject to the same role and scope checks.',
};

/** Operations are grouped by the first path segment after the service prefix (`tasks`, `keys`, ...). */
function tagOf(service: ServiceName, path: string): { tag: string; prefix: string } {
  const prefix = SERVICE_PREFIXES[service].find((p) => path.startsWith(p)) ?? '/';
  return { tag: path.slice(prefix.length).split('/')[0] || 'root', prefix };
}

interface Used {
  statuses: Set<number>;
  idempotency: Set<'required' | 'optional'>;
}

function operationObject(
  service: ServiceName,
  operation: Operation,
  tag: string,
  used: Used,
  options: JoiConversionOptions,
): Record<string, unknown> {
  const convert = (schema: Joi.Schema, where: string) =>
    joiToJsonSchema(schema, withContext(options, operation, where));
  const parameters: unknown[] = [
    ...pathParameters(operation, options),
    ...(operation.request.query
      ? objectKeys(operation.request.query, withContext(options, operation, 'query')).map((p) => ({
          name: p.name,
          in: 'query',
          required: p.required,
          ...(p.description ? { description: p.description } : {}),
          schema: p.schema,
        }))
      : []),
    ...(operation.request.headers
      ? objectKeys(operation.request.headers, withContext(options, operation, 'headers')).map((p) => ({
          name: headerName(p.name),
          in: 'header',
          required: p.required,
          ...(p.description ? { description: p.description } : {}),
          schema: p.schema,
        }))
      : []),
  ];
  if (operation.idempotency !== 'none') {
    used.idempotency.add(operation.idempotency);
    parameters.push({ $ref: `#/components/parameters/${IDEMPOTENCY_PARAMETER[operation.idempotency]}` });
  }

  const statuses = errorStatuses(service, operation);
  for (const s of statuses) used.statuses.add(s);
  const success: Record<string, unknown> = { description: operation.response.description };
  if (operation.idempotency !== 'none')
    success.headers = { 'Idempotent-Replayed': IDEMPOTENT_REPLAYED_HEADER };
  const contentType = operation.response.contentType ?? 'application/json';
  if (operation.response.schema) {
    success.content = { [contentType]: { schema: convert(operation.response.schema, 'response') } };
  } else if (operation.response.contentType) {
    const binary = contentType.includes('*') ? {} : { contentMediaType: contentType };
    success.content = { [contentType]: { schema: { type: 'string', ...binary } } };
  }

  const requestBody = requestBodyObject(operation, convert);
  const roleText = describeAccess(operation);
  return {
    operationId: operation.operationId,
    summary: operation.summary,
    description: roleText,
    tags: [tag],
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(requestBody ? { requestBody } : {}),
    responses: {
      [String(operation.response.status)]: success,
      ...Object.fromEntries(
        statuses.map((s) => [String(s), { $ref: `#/components/responses/${problemResponseName(s)}` }]),
      ),
    },
    security: [{ ApiKey: [...operation.scopes] }],
    'x-min-role': operation.minRole,
    'x-scopes': [...operation.scopes],
    ...(operation.reviewerScope ? { 'x-reviewer-scope': operation.reviewerScope } : {}),
    'x-idempotency': operation.idempotency,
  };
}

const withContext = (
  options: JoiConversionOptions,
  operation: Operation,
  where: string,
): JoiConversionOptions => ({
  onUnsupported: options.onUnsupported
    ? (at, what) => options.onUnsupported?.(`${operation.operationId} ${where}${at}`, what)
    : undefined,
});

function pathParameters(operation: Operation, options: JoiConversionOptions): unknown[] {
  const declared = operation.request.params
    ? objectKeys(operation.request.params, withContext(options, operation, 'params'))
    : [];
  const names = [...operation.path.matchAll(/:([A-Za-z0-9_]+)/g)].map((m) => m[1]);
  return names.map((name) => {
    const p = declared.find((d) => d.name === name);
    return {
      name,
      in: 'path',
      required: true,
      ...(p?.description ? { description: p.description } : {}),
      schema: p?.schema ?? { type: 'string' },
    };
  });
}

function requestBodyObject(
  operation: Operation,
  convert: (schema: Joi.Schema, where: string) => JsonSchema,
): Record<string, unknown> | null {
  const { body } = operation.request;
  const kind = operation.request.bodyKind ?? (body ? 'json' : 'none');
  switch (kind) {
    case 'none':
      return null;
    case 'json':
      return {
        required: true,
        content: {
          'application/json': {
            schema: body ? convert(body, 'body') : { type: 'object' },
            ...(operation.examples ? { examples: operation.examples } : {}),
          },
        },
      };
    case 'octet-stream':
      return {
        required: true,
        description: 'The raw bytes.',
        content: {
          'application/octet-stream': {
            schema: { type: 'string', contentMediaType: 'application/octet-stream' },
          },
        },
      };
    case 'multipart':
      return {
        required: true,
        content: { 'multipart/form-data': { schema: body ? convert(body, 'body') : { type: 'object' } } },
      };
  }
}

function describeAccess(operation: Operation): string {
  const scopes = operation.scopes.map((s) => `\`${s}\``).join(', ');
  const lines = [
    `**Access:** role ${operation.minRole} or higher` +
      (operation.reviewerScope
        ? ' (Reviewer*: a Reviewer sees and acts only on tasks assigned to them)'
        : '') +
      `; key scopes: ${scopes || 'none'}.`,
  ];
  if (operation.idempotency === 'required') lines.push('**Idempotency-Key:** required.');
  if (operation.idempotency === 'optional') lines.push('**Idempotency-Key:** optional; honoured when sent.');
  if (operation.idempotentReplay === 'conflict')
    lines.push('A repeated request with a used Idempotency-Key is refused with 409 rather than replayed.');
  return lines.join('\n\n');
}

/** Error statuses the operation may answer. */
export function errorStatuses(service: ServiceName, operation: Operation): number[] {
  // Any authenticated request may meet the key's rate limit (429) or a dependency that is down (503).
  const statuses = new Set<number>([400, 401, 403, 429, 503, ...(operation.errors ?? [])]);
  const kind = operation.request.bodyKind ?? (operation.request.body ? 'json' : 'none');
  if (kind !== 'none') {
    statuses.add(413);
    statuses.add(415);
  }
  if (operation.idempotency !== 'none') statuses.add(409);
  // A path parameter names something that may not exist, or not be visible to the caller.
  if (/:[A-Za-z]/.test(operation.path)) statuses.add(404);
  // The genomics spec: "Every operation may answer with the statuses below."
  if (service === 'genomics') for (const s of [404, 409, 413, 422, 429, 503]) statuses.add(s);
  return [...statuses].sort((a, b) => a - b);
}

/** Error responses are shared components, one per status, named after the status. */
const problemResponseName = (status: number): string =>
  PROBLEM_RESPONSES[status]?.name ??
  (STATUS_CODES[status] ?? `Status ${status}`).replace(/[^A-Za-z0-9]/g, '');

const PROBLEM_RESPONSES: Record<number, { name: string; math: string; genomics: string }> = {
  400: { name: 'BadRequest', math: 'Invalid request.', genomics: 'Invalid request.' },
  401: {
    name: 'Unauthorized',
    math: 'Missing or invalid credential.',
    genomics: 'Missing or invalid credential.',
  },
  403: {
    name: 'Forbidden',
    math: 'Permission denied: role, key scope, or a task not assigned to the Reviewer.',
    genomics: 'Permission denied.',
  },
  404: {
    name: 'NotFound',
    math: 'Not found, or not visible to the caller.',
    genomics: 'Not found in your workspace.',
  },
  409: {
    name: 'Conflict',
    math: 'Conflict: a stale version or timestamp, a duplicate, or an Idempotency-Key reused for another request.',
    genomics: 'State or idempotency conflict.',
  },
  413: { name: 'PayloadTooLarge', math: 'Payload too large.', genomics: 'Payload too large.' },
  415: { name: 'UnsupportedMediaType', math: 'Unsupported media type.', genomics: 'Unsupported media type.' },
  422: {
    name: 'UnprocessableContent',
    math: 'Unprocessable request: a referenced member or client cannot be used.',
    genomics: 'Evidence validation failed.',
  },
  429: {
    name: 'TooManyRequests',
    math: 'Too many requests.',
    genomics: 'Rate or file concurrency limit.',
  },
  502: {
    name: 'BadGateway',
    math: 'A stored object failed verification (missing, or not the recorded size and SHA-256); nothing is served.',
    genomics: 'A stored object failed verification; nothing is served.',
  },
  503: {
    name: 'ServiceUnavailable',
    math: 'A dependency is unavailable; retry after `Retry-After` seconds.',
    genomics: 'Maintenance, unavailable authority or dependency.',
  },
};

function problemResponse(service: ServiceName, status: number): Record<string, unknown> {
  const headers: Record<string, unknown> = {};
  if (status === 401) {
    headers['WWW-Authenticate'] = {
      description: 'The expected scheme: `Bearer`.',
      schema: { type: 'string' },
    };
  }
  if (status === 429 || status === 503) {
    headers['Retry-After'] = {
      description: 'Seconds to wait before retrying.',
      schema: { type: 'string', pattern: '^[0-9]+$' },
    };
  }
  if (status === 429) Object.assign(headers, RATE_LIMIT_HEADERS);
  return {
    description: PROBLEM_RESPONSES[status]?.[service] ?? `${STATUS_CODES[status] ?? `Status ${status}`}.`,
    ...(Object.keys(headers).length > 0 ? { headers } : {}),
    content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } },
  };
}

/** draft-ietf-httpapi-ratelimit-headers, on every response counted against a key's rate limit (docs/limits.md). */
const RATE_LIMIT_HEADERS = {
  'RateLimit-Limit': {
    description: 'Requests a full bucket allows at once (the burst).',
    schema: { type: 'string', pattern: '^[0-9]+$' },
  },
  'RateLimit-Remaining': {
    description: 'Requests still allowed right now.',
    schema: { type: 'string', pattern: '^[0-9]+$' },
  },
  'RateLimit-Reset': {
    description: 'Seconds until the bucket is full again.',
    schema: { type: 'string', pattern: '^[0-9]+$' },
  },
};

/** RFC 9457 problem details, as `ApiError.toProblem` renders them (api/kernel/errors.ts). */
const PROBLEM_SCHEMA = {
  type: 'object',
  description:
    'RFC 9457 problem details. `code` is the stable machine-readable reason; `type` links to its explanation. ' +
    'Some problems carry further members (for example `current_version` on a stale version).',
  properties: {
    type: { type: 'string', format: 'uri-reference', examples: ['/docs/problems#validation_failed'] },
    title: { type: 'string' },
    status: { type: 'integer', minimum: 400, maximum: 599 },
    detail: { type: 'string' },
    code: { type: 'string', pattern: '^[a-z][a-z0-9_]*$' },
    instance: { type: 'string', description: 'The request path.' },
    errors: {
      type: 'array',
      description: 'Validation failures, one per offending field.',
      items: {
        type: 'object',
        properties: {
          path: { type: 'string', examples: ['body.version'] },
          message: { type: 'string' },
        },
        required: ['path', 'message'],
        additionalProperties: false,
      },
    },
  },
  required: ['type', 'title', 'status', 'detail', 'code'],
};

const IDEMPOTENCY_PARAMETER = {
  required: 'IdempotencyKey',
  optional: 'IdempotencyKeyOptional',
} as const;

/** `x-filename` → `X-Filename`: declarations use Node's lower-case names, the contract the usual spelling. */
const headerName = (name: string): string =>
  name.replace(/(^|-)([a-z])/g, (_m, dash: string, c: string) => dash + c.toUpperCase());

function idempotencyParameter(kind: 'required' | 'optional'): Record<string, unknown> {
  return {
    name: 'Idempotency-Key',
    in: 'header',
    required: kind === 'required',
    description:
      'Makes the request safe to retry: the same key with the same request returns the stored receipt; ' +
      'the same key with a different request is a 409. Format: 16 to 128 characters of `A-Z a-z 0-9 . _ : -` ' +
      '(for example a UUID).' +
      (kind === 'required' ? ' Required.' : ' Optional; honoured when sent.'),
    schema: joiToJsonSchema(idempotencyKeySchema),
  };
}

const IDEMPOTENT_REPLAYED_HEADER = {
  description: '`true` when this response is the stored receipt of an earlier request with the same key.',
  schema: { type: 'string', const: 'true' },
};
