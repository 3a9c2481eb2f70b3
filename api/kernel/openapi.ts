import { STATUS_CODES } from 'node:http';
import type Joi from 'joi';
import type { OpenAPIV3_1 } from 'openapi-types';
import { statusOfCode } from './errors';
import { idempotencyKeySchema } from './idempotency';
import { type JoiConversionOptions, joiToJsonSchema, type JsonSchema, objectKeys } from './joiSchema';
import type { HttpMethod, Operation, OutgoingWebhook, ServiceDefinition } from './operation';

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
    const { tag, prefix } = tagOf(service, operation.path);
    tags.set(tag, (tags.get(tag) ?? new Set()).add(`${prefix}${tag}`));
    paths[path] ??= {};
    paths[path][operation.method.toLowerCase()] = operationObject(service, operation, tag, used, options);
  }

  const statuses = [...used.statuses].sort((a, b) => a - b);
  const document = {
    openapi: '3.1.0',
    info: {
      title: service.title,
      version: service.version,
      description: service.openApi.description,
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
    ...(service.openApi.webhooks ? { webhooks: webhooksObject(service.openApi.webhooks, options) } : {}),
    components: {
      schemas: { Problem: PROBLEM_SCHEMA },
      responses: Object.fromEntries(
        statuses.map((s) => [problemResponseName(s), problemResponse(service, s)]),
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
          bearerFormat: service.openApi.bearerFormat,
          description: service.openApi.securityDescription,
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

/** How the API key security scheme works in every service; a service may add to it (`openApi.securityDescription`). */
export const API_KEY_SECURITY_DESCRIPTION =
  'An API key of this service in `Authorization: Bearer <token>`. Each operation lists the minimum role ' +
  '(`x-min-role`) and the key scopes (`x-scopes`, also the security requirement’s list) it needs; a caller ' +
  'needs both.';

/** Operations are grouped by the first path segment after the service prefix (`tasks`, `keys`, ...). */
function tagOf(service: ServiceDefinition, path: string): { tag: string; prefix: string } {
  const prefix = service.openApi.pathPrefixes.find((p) => path.startsWith(p)) ?? '/';
  return { tag: path.slice(prefix.length).split('/')[0] || 'root', prefix };
}

interface Used {
  statuses: Set<number>;
  idempotency: Set<'required' | 'optional'>;
}

function operationObject(
  service: ServiceDefinition,
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
    description: operation.extension ? `${EXTENSION_NOTE}\n\n${roleText}` : roleText,
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
    ...(operation.extension ? { 'x-extension': true } : {}),
  };
}

/** The headers every webhook request carries (Standard Webhooks). */
const WEBHOOK_HEADERS = [
  {
    name: 'webhook-id',
    description:
      'The message id: the same on every attempt and redelivery of this event (deduplicate on it).',
    schema: { type: 'string', pattern: '^msg_[0-9a-f]{32}$' },
  },
  {
    name: 'webhook-timestamp',
    description:
      'Seconds since the Unix epoch when this attempt was signed; refuse one too far from your clock.',
    schema: { type: 'string', pattern: '^[0-9]+$' },
  },
  {
    name: 'webhook-signature',
    description:
      'Space-separated `v1,<base64 HMAC-SHA256>` of `<webhook-id>.<webhook-timestamp>.<body>` under each ' +
      'current secret (two during a rotation’s grace period); one valid signature suffices.',
    schema: { type: 'string' },
  },
];

function webhooksObject(
  webhooks: Record<string, OutgoingWebhook>,
  options: JoiConversionOptions,
): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(webhooks).map(([type, hook]) => [
      type,
      {
        post: {
          operationId: `webhook.${type}`,
          summary: hook.summary,
          description: `${EXTENSION_NOTE}\n\n${hook.recipients ?? `Sent to every endpoint subscribed to \`${type}\``}, signed per Standard Webhooks.`,
          tags: ['webhooks'],
          'x-extension': true,
          parameters: WEBHOOK_HEADERS.map((header) => ({ ...header, in: 'header', required: true })),
          requestBody: {
            required: true,
            content: {
              'application/json': {
                schema: joiToJsonSchema(hook.schema, options),
                examples: { [type]: { summary: hook.summary, value: hook.example } },
              },
            },
          },
          responses: {
            '2XX': { description: 'Received: the delivery succeeded.' },
            '410': { description: 'Gone: the endpoint is disabled and receives nothing more until resumed.' },
            default: {
              description:
                'Any other answer, or none within 15 s: the delivery is retried on its schedule (`Retry-After` honoured).',
            },
          },
        },
      },
    ]),
  );
}

/** What an extension operation says first: the service's spec does not describe it. */
export const EXTENSION_NOTE =
  '**Extension:** not part of the service’s published contract; an addition of this server (docs/webhooks.md).';

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
export function errorStatuses(service: ServiceDefinition, operation: Operation): number[] {
  // Any authenticated request may meet the key's rate limit (429) or a dependency that is down (503).
  const declared = (operation.errors ?? []).map((e) =>
    typeof e === 'number' ? e : statusOfCode(service.problemTypes, e),
  );
  const statuses = new Set<number>([400, 401, 403, 429, 503, ...declared]);
  const kind = operation.request.bodyKind ?? (operation.request.body ? 'json' : 'none');
  if (kind !== 'none') {
    statuses.add(413);
    statuses.add(415);
  }
  if (operation.idempotency !== 'none') statuses.add(409);
  // A path parameter names something that may not exist, or not be visible to the caller.
  if (/:[A-Za-z]/.test(operation.path)) statuses.add(404);
  // Statuses the service's contract lets every operation answer with.
  for (const s of service.openApi.everyOperationMayAnswer ?? []) statuses.add(s);
  return [...statuses].sort((a, b) => a - b);
}

/** Error responses are shared components, one per status, named after the status. */
const problemResponseName = (status: number): string =>
  PROBLEM_RESPONSE_NAMES[status] ?? (STATUS_CODES[status] ?? `Status ${status}`).replace(/[^A-Za-z0-9]/g, '');

const PROBLEM_RESPONSE_NAMES: Record<number, string> = {
  400: 'BadRequest',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'NotFound',
  409: 'Conflict',
  413: 'PayloadTooLarge',
  415: 'UnsupportedMediaType',
  422: 'UnprocessableContent',
  429: 'TooManyRequests',
  502: 'BadGateway',
  503: 'ServiceUnavailable',
};

function problemResponse(service: ServiceDefinition, status: number): Record<string, unknown> {
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
  if (status === 409) {
    headers['Retry-After'] = {
      description:
        'Sent with `idempotency_request_in_progress` only: seconds to wait before retrying with the same Idempotency-Key.',
      schema: { type: 'string', pattern: '^[0-9]+$' },
    };
  }
  if (status === 429) Object.assign(headers, RATE_LIMIT_HEADERS);
  return {
    description:
      service.openApi.problemDescriptions[status] ?? `${STATUS_CODES[status] ?? `Status ${status}`}.`,
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
