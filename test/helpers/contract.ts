import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import type { OpenAPIV3_1 } from 'openapi-types';
import { genomicsService } from '../../api/genomics';
import { buildOpenApi } from '../../api/kernel/openapi';
import type { ServiceDefinition } from '../../api/kernel/operation';
import { mathService } from '../../api/math';

/**
 * Checks HTTP responses against the published OpenAPI contracts (the documents `/api/openapi.json` and
 * `/api/v1/openapi.json` serve), so a status, content type or field that drifts from the contract fails the
 * test that received it. Documents and validators are built once per test file (jest module registry).
 */

type Document = OpenAPIV3_1.Document;
type JsonObject = Record<string, unknown>;

interface Route {
  service: ServiceDefinition['name'];
  document: Document;
  method: string;
  template: string;
  pattern: RegExp;
  literalSegments: number;
  operation: JsonObject;
}

let routes: Route[] | null = null;
let documents: Record<string, Document> | null = null;
const ajv = new Ajv2020({ allErrors: true, strict: true, strictRequired: false, allowUnionTypes: true });
addFormats(ajv);
const validators = new Map<string, ValidateFunction>();

/** The published documents, built from the same declarations the server uses. */
export function contractDocuments(): Record<ServiceDefinition['name'], Document> {
  documents ??= { math: buildOpenApi(mathService), genomics: buildOpenApi(genomicsService) };
  return documents as Record<ServiceDefinition['name'], Document>;
}

function allRoutes(): Route[] {
  if (routes) return routes;
  routes = [];
  for (const [service, document] of Object.entries(contractDocuments())) {
    for (const [template, item] of Object.entries(document.paths ?? {})) {
      for (const [method, operation] of Object.entries(item ?? {})) {
        const segments = template.split('/').filter(Boolean);
        routes.push({
          service: service as Route['service'],
          document,
          method: method.toUpperCase(),
          template,
          pattern: new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+')}/?$`),
          literalSegments: segments.filter((s) => !s.startsWith('{')).length,
          operation: operation as JsonObject,
        });
      }
    }
  }
  // The most literal template wins (`/workflow/tasks/{id}` before `/{a}/tasks/{id}`).
  routes.sort((a, b) => b.literalSegments - a.literalSegments);
  return routes;
}

/** The contract's operation for a request, or null for routes outside the contracts (health, docs). */
export function findOperation(method: string, path: string): Route | null {
  const pathname = path.split('?')[0];
  return allRoutes().find((r) => r.method === method.toUpperCase() && r.pattern.test(pathname)) ?? null;
}

/** Inlines local `$ref`s so a fragment of the document compiles on its own. */
function resolveRefs(document: Document, value: unknown): unknown {
  if (Array.isArray(value)) return value.map((v) => resolveRefs(document, v));
  if (value === null || typeof value !== 'object') return value;
  const ref = (value as JsonObject).$ref;
  if (typeof ref === 'string' && ref.startsWith('#/')) {
    const target = ref
      .slice(2)
      .split('/')
      .reduce<unknown>(
        (node, part) => (node as JsonObject)[part.replace(/~1/g, '/').replace(/~0/g, '~')],
        document,
      );
    return resolveRefs(document, target);
  }
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, resolveRefs(document, v)]));
}

function validator(key: string, document: Document, schema: unknown): ValidateFunction {
  let validate = validators.get(key);
  if (!validate) {
    validate = ajv.compile(resolveRefs(document, schema) as object);
    validators.set(key, validate);
  }
  return validate;
}

const problemSchemaOf = (document: Document) => document.components?.schemas?.Problem;

const mediaType = (contentType: string | null) => (contentType ?? '').split(';')[0].trim().toLowerCase();

const matchesMedia = (documented: string, actual: string) => {
  if (documented === '*/*' || documented === actual) return true;
  return documented.endsWith('/*') && actual.startsWith(documented.slice(0, -1));
};

const isJsonMedia = (media: string) => media === 'application/json' || media.endsWith('+json');

export class ContractViolation extends Error {
  override name = 'ContractViolation';
}

export interface ReceivedResponse {
  status: number;
  contentType: string | null;
  /** The parsed JSON body, or the text of any other body. */
  body: unknown;
}

/**
 * Throws a `ContractViolation` when the response is not one the contract allows for this request: an
 * undocumented status, another content type, or a body its schema refuses. Errors outside any operation
 * (unknown route, wrong method) must still be problem+json.
 */
export function assertMatchesContract(method: string, path: string, response: ReceivedResponse): void {
  if (method.toUpperCase() === 'HEAD' || response.status === 304) return;
  const route = findOperation(method, path);
  const where = `${method.toUpperCase()} ${path} → ${response.status}`;
  const actual = mediaType(response.contentType);

  if (!route) {
    if (response.status < 400) return;
    const document = contractDocuments()[path.startsWith('/api/v1/') ? 'genomics' : 'math'];
    checkBody(where, `problem:${document.info.title}`, document, problemSchemaOf(document), response.body);
    if (actual !== 'application/problem+json')
      throw new ContractViolation(`${where}: an error must be application/problem+json, got "${actual}"`);
    return;
  }

  const responses = (route.operation.responses ?? {}) as Record<string, JsonObject>;
  const documentedStatus = [String(response.status), `${String(response.status)[0]}XX`, 'default'].find(
    (s) => s in responses,
  );
  if (!documentedStatus) {
    throw new ContractViolation(
      `${where}: ${route.operation.operationId as string} does not document status ${response.status} ` +
        `(documented: ${Object.keys(responses).join(', ')}). Declare it in the operation's \`errors\`, ` +
        'or fix the handler. Body: ' +
        JSON.stringify(response.body).slice(0, 500),
    );
  }
  const described = resolveRefs(route.document, responses[documentedStatus]) as JsonObject;
  const content = (described.content ?? {}) as Record<string, { schema?: unknown }>;
  const mediaTypes = Object.keys(content);
  if (mediaTypes.length === 0) return;
  const documentedMedia = mediaTypes.find((m) => matchesMedia(m, actual));
  if (!documentedMedia) {
    throw new ContractViolation(
      `${where}: content type "${actual}" is not documented (documented: ${mediaTypes.join(', ')})`,
    );
  }
  const schema = content[documentedMedia].schema;
  if (isJsonMedia(actual) && schema !== undefined) {
    const key = `${route.service} ${route.method} ${route.template} ${documentedStatus} ${documentedMedia}`;
    checkBody(where, key, route.document, schema, response.body);
  }
}

function checkBody(where: string, key: string, document: Document, schema: unknown, body: unknown): void {
  const validate = validator(key, document, schema);
  if (validate(body)) return;
  const problems = (validate.errors ?? [])
    .slice(0, 10)
    .map((e) => `  ${e.instancePath || '(body)'} ${e.message ?? ''} ${JSON.stringify(e.params)}`)
    .join('\n');
  throw new ContractViolation(
    `${where}: the body does not match the published contract:\n${problems}\nBody: ${JSON.stringify(body).slice(0, 1000)}`,
  );
}
