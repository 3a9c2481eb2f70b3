import net from 'node:net';
import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import type { Operation } from '../../api/kernel/operation';
import { ContractViolation, contractDocuments, findOperation } from '../helpers/contract';
import {
  bodyKindOf,
  type DemoWorld,
  fillPath,
  freshKey,
  pathValues,
  SERVICES,
  serviceOf,
  setupDemoWorld,
  snapshotDatabase,
} from '../helpers/reliability';
import { http, mintKey, startStack, type TestStack } from '../helpers/stack';

/**
 * The bad-input sweep, generated from the published contracts: for every operation, requests the contract
 * itself refuses (wrong types, missing and unknown fields, numbers out of range, over-long strings, pattern
 * and enum violations, malformed JSON, wrong content types, bodies where none is taken, oversize bodies, a
 * malformed Idempotency-Key, a huge header) must get a 4xx problem+json — never a 5xx — and change nothing.
 */

type Json = Record<string, any>;

let stack: TestStack;
let world: DemoWorld;
const tally = {
  tried: 0,
  edges: 0,
  serverErrors: 0,
  connectionClosed: 0,
  statuses: {} as Record<number, number>,
};
const findings: string[] = [];

beforeAll(async () => {
  stack = await startStack();
  world = await setupDemoWorld(stack);
}, 120_000);

afterAll(async () => {
  console.log(
    `bad-input sweep: ${tally.tried} bad inputs (+ ${tally.edges} edge values) tried over ${SERVICES.reduce((n, s) => n + s.operations.length, 0)} ` +
      `operations, ${tally.serverErrors} 5xx seen, ${findings.length} findings; statuses ` +
      `${JSON.stringify(tally.statuses)}, ${tally.connectionClosed} oversize bodies cut off before an answer`,
  );
  await stack?.stop();
});

// ---- the contract's view of an operation ----

const ajv = new Ajv2020({ strict: false, allowUnionTypes: true, validateFormats: true });
addFormats(ajv);

function resolveRefs(document: Json, value: unknown): any {
  if (Array.isArray(value)) return value.map((v) => resolveRefs(document, v));
  if (value === null || typeof value !== 'object') return value;
  const ref = (value as Json).$ref;
  if (typeof ref === 'string' && ref.startsWith('#/'))
    return resolveRefs(
      document,
      ref
        .slice(2)
        .split('/')
        .reduce<any>((node, part) => node[part], document),
    );
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, resolveRefs(document, v)]));
}

interface ContractOperation {
  bodySchema: Json | null;
  validateBody: ValidateFunction | null;
  query: Array<{ name: string; schema: Json }>;
  path: Array<{ name: string; schema: Json }>;
}

function contractOf(operation: Operation): ContractOperation {
  const document = contractDocuments()[serviceOf(operation)] as unknown as Json;
  const template = operation.path.replace(/:([A-Za-z0-9_]+)(\([^)]*\))?/g, '{$1}');
  const declared = resolveRefs(document, document.paths[template][operation.method.toLowerCase()]);
  const bodySchema = declared.requestBody?.content?.['application/json']?.schema ?? null;
  const parameters = (declared.parameters ?? []) as Array<{ name: string; in: string; schema: Json }>;
  return {
    bodySchema,
    validateBody: bodySchema ? ajv.compile(bodySchema) : null,
    query: parameters.filter((p) => p.in === 'query'),
    path: parameters.filter((p) => p.in === 'path'),
  };
}

// ---- values ----

const typesOf = (schema: Json): string[] => {
  if (schema.type) return [schema.type].flat();
  if (schema.const !== undefined) return [schema.const === null ? 'null' : typeof schema.const];
  if (schema.enum)
    return [...new Set(schema.enum.map((v: unknown) => (v === null ? 'null' : typeof v)))] as string[];
  if (schema.anyOf) return [...new Set(schema.anyOf.flatMap(typesOf))] as string[];
  return [];
};

/** Known patterns of the contracts, each with a value that matches it. */
const PATTERN_EXAMPLES: Array<[RegExp, string]> = [
  [/^\^\[1-9\]\[0-9\]\{0,18\}\$$/, '1'],
  [/^\^batch-/, 'batch-900'],
  [/\\d\{4\}-\\d\{2\}-\\d\{2\}/, new Date(Date.now() + 86_400_000).toISOString()],
  [/^\^\[0-9a-f\]\{64\}\$$/, '0'.repeat(64)],
  [/^\\S$/, 'text'],
];

/** A value the schema should accept, as far as a simple generator can tell (checked with ajv by callers). */
function sample(schema: Json): unknown {
  if (schema.const !== undefined) return schema.const;
  if (schema.enum) return schema.enum[0];
  if (schema.anyOf) return sample(schema.anyOf[0]);
  const type = typesOf(schema).find((t) => t !== 'null') ?? 'null';
  switch (type) {
    case 'string': {
      if (schema.format === 'uuid') return '00000000-0000-4000-8000-000000000000';
      if (schema.format === 'date-time') return new Date(Date.now() + 86_400_000).toISOString();
      const known = schema.pattern && PATTERN_EXAMPLES.find(([p]) => p.test(schema.pattern));
      if (known) return known[1];
      return 'v'.repeat(Math.max(1, schema.minLength ?? 1));
    }
    case 'integer':
    case 'number':
      return Math.min(schema.maximum ?? Infinity, Math.max(schema.minimum ?? 1, 1));
    case 'boolean':
      return true;
    case 'array':
      return schema.minItems ? Array.from({ length: schema.minItems }, () => sample(schema.items ?? {})) : [];
    case 'object':
      return Object.fromEntries(
        (schema.required ?? []).map((k: string) => [k, sample(schema.properties?.[k] ?? {})]),
      );
    default:
      return null;
  }
}

/** A value of a JSON type the property schema does not allow. */
function wrongType(schema: Json): unknown {
  const validate = ajv.compile(schema);
  return [{ nested: true }, [1, 2], true, 12345, 'text', null].find((v) => !validate(v));
}

const BIGINT_PATTERN = '^[1-9][0-9]{0,18}$';
/** 2^63: matches the bigint-string pattern, one past PostgreSQL's bigint. */
const BEYOND_BIGINT = '9223372036854775808';

/** Strings that break typical patterns. */
const PATTERN_BREAKERS = ['!', 'a b', '-', '\u0000', '../..', '0', 'Ω'];

interface BadBody {
  label: string;
  body: unknown;
}

/** Every single-fault variant of a plausible body that the contract refuses. */
function badBodies(contract: ContractOperation): BadBody[] {
  const schema = contract.bodySchema!;
  const validate = contract.validateBody!;
  const base = sample(schema) as Json;
  const candidates: BadBody[] = [
    { label: 'array instead of an object', body: [base] },
    { label: 'string instead of an object', body: 'text' },
    { label: 'number instead of an object', body: 42 },
    { label: 'null body', body: null },
    { label: 'unknown field', body: { ...base, unexpectedField: 1 } },
    { label: 'empty object', body: {} },
  ];
  for (const [name, property] of Object.entries((schema.properties ?? {}) as Record<string, Json>)) {
    candidates.push({ label: `${name}: wrong type`, body: { ...base, [name]: wrongType(property) } });
    if ((schema.required ?? []).includes(name)) {
      const { [name]: _dropped, ...rest } = base;
      candidates.push({ label: `${name}: missing`, body: rest });
    }
    const variants = [property, ...(property.anyOf ?? [])] as Json[];
    for (const v of variants) {
      if (v.maximum !== undefined)
        candidates.push({ label: `${name}: above maximum`, body: { ...base, [name]: v.maximum + 1 } });
      if (v.minimum !== undefined)
        candidates.push({ label: `${name}: below minimum`, body: { ...base, [name]: v.minimum - 1 } });
      if (typesOf(v).includes('integer'))
        candidates.push({ label: `${name}: fraction`, body: { ...base, [name]: 1.5 } });
      if (v.maxLength !== undefined)
        candidates.push({
          label: `${name}: over-long`,
          body: { ...base, [name]: 'x'.repeat(v.maxLength + 1) },
        });
      if (v.minLength) candidates.push({ label: `${name}: too short`, body: { ...base, [name]: '' } });
      if (v.pattern) {
        const re = new RegExp(v.pattern, 'u');
        const breaker = PATTERN_BREAKERS.find((s) => !re.test(s));
        if (breaker !== undefined)
          candidates.push({ label: `${name}: pattern`, body: { ...base, [name]: breaker } });
      }
      if (v.enum)
        candidates.push({ label: `${name}: not in enum`, body: { ...base, [name]: 'NOT_A_VALUE' } });
      if (v.maxItems !== undefined)
        candidates.push({
          label: `${name}: too many items`,
          body: {
            ...base,
            [name]: Array.from({ length: v.maxItems + 1 }, (_, i) => `${sample(v.items ?? {})}${i}`),
          },
        });
      if (v.type === 'array' && v.uniqueItems && v.items)
        candidates.push({
          label: `${name}: duplicates`,
          body: { ...base, [name]: [sample(v.items), sample(v.items)] },
        });
    }
  }
  // Only what the contract itself refuses is a bad input.
  return candidates.filter((c) => !validate(c.body));
}

interface BadRequest {
  label: string;
  path: string;
  body?: string | Buffer;
  headers?: Record<string, string>;
  /** Sent with fetch directly, unchecked against the contract: the answer may come from Node itself (431). */
  raw?: boolean;
  /** Sent as these exact bytes over a socket (after the request line's method): bytes fetch would refuse. */
  socket?: { target: string; headers: Buffer[]; body?: Buffer };
  /** Allowed by the contract's pattern (an edge value): any answer but a 5xx; a 2xx must change nothing either. */
  edge?: boolean;
}

function badRequests(operation: Operation, config: TestStack['config']): BadRequest[] {
  const contract = contractOf(operation);
  const kind = bodyKindOf(operation);
  const values = pathValues(world);
  const path = fillPath(operation, values);
  const ik: Record<string, string> =
    operation.idempotency !== 'none' ? { 'idempotency-key': freshKey() } : {};
  const json = { 'content-type': 'application/json', ...ik };
  const plausible = contract.bodySchema ? JSON.stringify(sample(contract.bodySchema)) : '{}';
  const requests: BadRequest[] = [];
  const withKey = (r: BadRequest): BadRequest => ({ ...r, headers: { ...ik, ...r.headers } });

  // Query strings.
  requests.push({ label: 'unknown query parameter', path: `${path}?unexpectedParameter=1` });
  for (const { name, schema } of contract.query) {
    const q = (value: string) => `${path}?${encodeURIComponent(name)}=${encodeURIComponent(value)}`;
    const types = typesOf(schema);
    if (types.includes('integer') || types.includes('number')) {
      requests.push({ label: `${name}: not a number`, path: q('abc') });
      if (schema.maximum !== undefined)
        requests.push({ label: `${name}: above maximum`, path: q(String(schema.maximum + 1)) });
      if (schema.minimum !== undefined)
        requests.push({ label: `${name}: below minimum`, path: q(String(schema.minimum - 1)) });
      if (types.includes('integer')) requests.push({ label: `${name}: fraction`, path: q('1.5') });
    }
    if (schema.maxLength !== undefined)
      requests.push({ label: `${name}: over-long`, path: q('x'.repeat(schema.maxLength + 1)) });
    if (schema.minLength) requests.push({ label: `${name}: empty`, path: q('') });
    if (schema.pattern) {
      const re = new RegExp(schema.pattern, 'u');
      const breaker = PATTERN_BREAKERS.find((s) => !re.test(s));
      if (breaker !== undefined) requests.push({ label: `${name}: pattern`, path: q(breaker) });
    }
    if (schema.enum) requests.push({ label: `${name}: not in enum`, path: q('NOT_A_VALUE') });
    requests.push({
      label: `${name}: repeated`,
      path: `${q(String(sample(schema)))}&${encodeURIComponent(name)}=${encodeURIComponent(String(sample(schema)))}`,
    });
  }

  // Path parameters.
  for (const { name, schema } of contract.path) {
    const at = (value: string) => fillPath(operation, { ...values, [name]: value });
    requests.push({
      label: `path ${name}: over-long`,
      path: at('x'.repeat(Math.max(300, (schema.maxLength ?? 0) + 1))),
    });
    if (schema.pattern || schema.format)
      requests.push({ label: `path ${name}: malformed`, path: at('not valid!') });
  }

  // Ids the contract's pattern allows but PostgreSQL's bigint cannot hold: a 4xx (or 404), never a 5xx.
  for (const { name, schema } of [...contract.path, ...contract.query]) {
    if (schema.pattern !== BIGINT_PATTERN && !(schema.pattern ?? '').includes('[1-9][0-9]{0,18}')) continue;
    const where = contract.path.some((p) => p.name === name) ? 'path' : 'query';
    requests.push({
      label: `${where} ${name}: beyond bigint`,
      path:
        where === 'path'
          ? fillPath(operation, { ...values, [name]: BEYOND_BIGINT })
          : `${path}?${encodeURIComponent(name)}=${BEYOND_BIGINT}`,
      headers: ik,
      edge: true,
    });
  }
  if (contract.bodySchema) {
    for (const [name, property] of Object.entries(
      (contract.bodySchema.properties ?? {}) as Record<string, Json>,
    )) {
      const variants = [property, ...(property.anyOf ?? [])] as Json[];
      if (!variants.some((v) => v.pattern === BIGINT_PATTERN)) continue;
      const base = sample(contract.bodySchema) as Json;
      requests.push({
        label: `body ${name}: beyond bigint`,
        path,
        body: JSON.stringify({ ...base, [name]: BEYOND_BIGINT }),
        headers: { ...json, 'idempotency-key': freshKey() },
        edge: true,
      });
    }
  }

  // Idempotency-Key.
  if (operation.idempotency !== 'none') {
    for (const key of ['short', 'has spaces in it, quite a few', 'k'.repeat(129)])
      requests.push({
        label: `Idempotency-Key ${key.slice(0, 12)}`,
        path,
        headers: { ...json, 'idempotency-key': key },
        body: kind === 'json' ? plausible : undefined,
      });
  }

  // Bodies.
  if (kind === 'json') {
    for (const { label, body } of badBodies(contract))
      requests.push({
        label: `body ${label}`,
        path,
        body: JSON.stringify(body),
        headers: { ...json, 'idempotency-key': freshKey() },
      });
    for (const text of ['{', '{"a":', '[1, 2', 'not json', '{"a": 1}}', "{'single': 'quotes'}", '\u0000'])
      requests.push(
        withKey({
          label: `malformed JSON ${JSON.stringify(text)}`,
          path,
          body: text,
          headers: { 'content-type': 'application/json' },
        }),
      );
    for (const type of [
      'text/plain',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
      'application/xml',
    ])
      requests.push(
        withKey({ label: `content type ${type}`, path, body: plausible, headers: { 'content-type': type } }),
      );
    requests.push(withKey({ label: 'no content type', path, body: Buffer.from(plausible) }));
    const limit = Math.max(config.jsonBodyLimitBytes, operation.request.minJsonBodyLimitBytes ?? 0);
    requests.push(
      withKey({
        label: 'oversize JSON body',
        path,
        body: `{"x":"${'a'.repeat(limit)}"}`,
        headers: { 'content-type': 'application/json' },
      }),
    );
  }
  if (kind === 'octet-stream') {
    requests.push(
      withKey({
        label: 'empty upload',
        path,
        body: Buffer.alloc(0),
        headers: { 'content-type': 'application/octet-stream' },
      }),
    );
    for (const type of ['application/json', 'text/plain', 'multipart/form-data; boundary=x'])
      requests.push(
        withKey({ label: `upload as ${type}`, path, body: '{"a":1}', headers: { 'content-type': type } }),
      );
    requests.push(
      withKey({
        label: 'X-Filename with a folder',
        path,
        body: Buffer.from('x'),
        headers: { 'content-type': 'application/octet-stream', 'x-filename': '..%2Fetc%2Fpasswd' },
      }),
    );
    requests.push(
      withKey({
        label: 'X-Filename over-long',
        path,
        body: Buffer.from('x'),
        headers: { 'content-type': 'application/octet-stream', 'x-filename': 'n'.repeat(300) },
      }),
    );
    requests.push(
      withKey({
        label: 'oversize upload',
        path,
        body: Buffer.alloc(16 * 1024 * 1024 + 1, 1),
        headers: { 'content-type': 'application/octet-stream' },
      }),
    );
  }
  if (kind === 'multipart') {
    const form = (parts: string[], boundary = 'sweep') =>
      `${parts.map((p) => `--${boundary}\r\n${p}\r\n`).join('')}--${boundary}--\r\n`;
    const field = (name: string, value: string) =>
      `Content-Disposition: form-data; name="${name}"\r\n\r\n${value}`;
    const multipart = { 'content-type': 'multipart/form-data; boundary=sweep' };
    requests.push(
      withKey({
        label: 'multipart as JSON',
        path,
        body: '{"description":"x"}',
        headers: { 'content-type': 'application/json' },
      }),
    );
    requests.push(
      withKey({
        label: 'multipart without boundary',
        path,
        body: form([field('description', 'x')]),
        headers: { 'content-type': 'multipart/form-data' },
      }),
    );
    requests.push(
      withKey({
        label: 'multipart truncated',
        path,
        body: `--sweep\r\n${field('description', 'x')}`,
        headers: multipart,
      }),
    );
    requests.push(
      withKey({
        label: 'multipart missing description',
        path,
        body: form([field('page_path', '/x')]),
        headers: multipart,
      }),
    );
    requests.push(
      withKey({
        label: 'multipart unknown field',
        path,
        body: form([field('description', 'x'), field('extra', 'y')]),
        headers: multipart,
      }),
    );
    requests.push(
      withKey({
        label: 'multipart over-long description',
        path,
        body: form([field('description', 'd'.repeat(10_001))]),
        headers: multipart,
      }),
    );
    requests.push(
      withKey({
        label: 'multipart bad page_path',
        path,
        body: form([field('description', 'x'), field('page_path', '//evil')]),
        headers: multipart,
      }),
    );
    requests.push(
      withKey({
        label: 'multipart picture not an image',
        path,
        body: form([
          field('description', 'x'),
          'Content-Disposition: form-data; name="picture"; filename="a.png"\r\nContent-Type: image/png\r\n\r\nnot a png',
        ]),
        headers: multipart,
      }),
    );
    requests.push(
      withKey({
        label: 'multipart oversize',
        path,
        body: form([
          field('description', 'x'),
          `Content-Disposition: form-data; name="picture"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n${'\x89PNG\r\n\x1a\n'}${'p'.repeat(9 * 1024 * 1024)}`,
        ]),
        headers: multipart,
      }),
    );
  }
  if (kind === 'none' && operation.method !== 'GET')
    requests.push(
      withKey({
        label: 'a body where none is taken',
        path,
        body: '{"a":1}',
        headers: { 'content-type': 'application/json' },
      }),
    );
  requests.push(
    withKey({ label: 'a 64 KiB header', path, headers: { 'x-padding': 'p'.repeat(64 * 1024) }, raw: true }),
  );
  requests.push(...hostileRequests(operation, contract, path, ik));
  return requests;
}

// ---- generated hostile inputs (issue 15): each refused with a 4xx problem+json, nothing changed ----

const PROTOTYPE_KEYS = ['__proto__', 'constructor', 'prototype'];

/** `{"<key>":{"x":1}}` nested `depth` levels down, alternating arrays and objects. */
function prototypeKeyAt(key: string, depth: number): string {
  let text = `{${JSON.stringify(key)}:{"x":1}}`;
  for (let i = 0; i < depth; i++) text = i % 2 ? `{"n":${text}}` : `[${text}]`;
  return text;
}

/** A JSON text of `base` with one more member written verbatim (so `__proto__` stays an own key). */
const withRawMember = (base: Json, name: string, valueText: string): string => {
  const rest = JSON.stringify(base);
  return `{${JSON.stringify(name)}:${valueText}${rest === '{}' ? '}' : `,${rest.slice(1)}`}`;
};

/** A path with one segment replaced by bytes that are not valid (or are surrogate) UTF-8, percent-encoded. */
function pathWithBytes(operation: Operation, name: string, encoded: string): string {
  return fillPath(operation, { ...pathValues(world), [name]: 'HOSTILE' }).replace('HOSTILE', encoded);
}

function hostileRequests(
  operation: Operation,
  contract: ContractOperation,
  path: string,
  ik: Record<string, string>,
): BadRequest[] {
  const kind = bodyKindOf(operation);
  const requests: BadRequest[] = [];
  const json = (label: string, body: string | Buffer, contentType = 'application/json') =>
    requests.push({
      label,
      path,
      body,
      headers: {
        'content-type': contentType,
        ...(ik['idempotency-key'] ? { 'idempotency-key': freshKey() } : {}),
      },
    });

  if (kind === 'json') {
    const base = (contract.bodySchema ? sample(contract.bodySchema) : {}) as Json;
    const safeBase = typeof base === 'object' && base !== null && !Array.isArray(base) ? base : {};
    for (const key of PROTOTYPE_KEYS) {
      for (const depth of [0, 1, 2, 5])
        json(
          `hostile: ${key} at depth ${depth}`,
          withRawMember(safeBase, depth ? 'n' : key, depth ? prototypeKeyAt(key, depth) : '{"x":1}'),
        );
    }
    json('hostile: 100,000 nested arrays', `${'['.repeat(100_000)}${']'.repeat(100_000)}`);
    json('hostile: 100,000 nested objects', `${'{"a":'.repeat(100_000)}1${'}'.repeat(100_000)}`);
    for (const name of Object.keys(safeBase)) {
      json(
        `hostile: ${name} = 1e400`,
        withRawMember(
          Object.fromEntries(Object.entries(safeBase).filter(([k]) => k !== name)),
          name,
          '1e400',
        ),
      );
      json(
        `hostile: ${name} = -1e400`,
        withRawMember(
          Object.fromEntries(Object.entries(safeBase).filter(([k]) => k !== name)),
          name,
          '-1e400',
        ),
      );
    }
    json(
      'hostile: a lone surrogate as a field name',
      // JSON.stringify writes a lone surrogate as the escape `"\\ud800"`: valid JSON, not valid Unicode.
      withRawMember(safeBase, '\ud800', '1'),
    );
    json(
      'hostile: invalid UTF-8 in a field name',
      Buffer.concat([
        Buffer.from('{"'),
        Buffer.from([0xff, 0xfe, 0xc3]),
        Buffer.from(`":1,${JSON.stringify(safeBase).slice(1)}`),
      ]),
    );
    for (const charset of ['utf-16', 'iso-8859-1', 'utf-32', 'x-unknown'])
      json(`hostile: charset=${charset}`, JSON.stringify(safeBase), `application/json; charset=${charset}`);
  }

  // Thousands of one query parameter, as many as fit Node's 16 KiB request head (beyond it: 431, sent raw).
  const name = contract.query[0]?.name ?? 'x';
  const copies = Math.floor(12_000 / (encodeURIComponent(name).length + 3));
  requests.push({
    label: `hostile: ${copies} copies of a query parameter`,
    path: `${path}?${Array.from({ length: copies }, () => `${encodeURIComponent(name)}=1`).join('&')}`,
    headers: ik,
  });
  requests.push({
    label: 'hostile: 20,000 copies of a query parameter',
    path: `${path}?${Array.from({ length: 20_000 }, () => 'x=1').join('&')}`,
    headers: ik,
    raw: true,
  });
  // Invalid UTF-8 and an encoded lone surrogate in the query and the path.
  for (const [what, encoded] of [
    ['invalid UTF-8', '%FF%FE'],
    ['a lone surrogate', '%ED%A0%80'],
  ]) {
    requests.push({ label: `hostile: ${what} as a query name`, path: `${path}?${encoded}=1`, headers: ik });
    // A free-text parameter may take any text (the bytes decode to U+FFFD): any answer but a 5xx.
    if (contract.query[0])
      requests.push({
        label: `hostile: ${what} in query ${name}`,
        path: `${path}?${name}=${encoded}`,
        headers: ik,
        edge: true,
      });
    for (const { name: param } of contract.path)
      requests.push({
        label: `hostile: ${what} in path ${param}`,
        path: pathWithBytes(operation, param, encoded),
        headers: ik,
      });
  }
  // Raw bytes fetch refuses to send: invalid UTF-8 and CR inside header values.
  const target = path;
  if (operation.idempotency !== 'none')
    requests.push({
      label: 'hostile: invalid UTF-8 in Idempotency-Key',
      path,
      socket: {
        target,
        headers: [
          Buffer.concat([
            Buffer.from('Idempotency-Key: key-'),
            Buffer.from([0xff, 0xfe, 0xed, 0xa0, 0x80]),
            Buffer.from('-0123456789'),
          ]),
        ],
      },
    });
  requests.push({
    label: 'hostile: a bare CR inside a header value',
    path,
    socket: { target, headers: [Buffer.from('X-Note: a\rb')] },
  });
  if (kind === 'octet-stream') {
    const upload = (label: string, filename: string) =>
      requests.push({
        label: `hostile: X-Filename ${label}`,
        path,
        body: Buffer.from('x'),
        headers: { 'content-type': 'application/octet-stream', 'x-filename': filename, ...ik },
      });
    upload('with an encoded CR/LF', 'a%0D%0AInjected%3A%201');
    upload('with an encoded NUL', 'a%00b');
    upload('climbing with quotes', '..%2F%22passwd%22');
    upload('as ..', '..');
    upload('with a backslash', '..%5C..%5Cwin.ini');
    upload('not percent-encoded UTF-8', '%FF%FE');
    upload('an encoded lone surrogate', '%ED%A0%80');
    requests.push({
      label: 'hostile: X-Filename with raw invalid UTF-8',
      path,
      socket: {
        target,
        headers: [
          Buffer.from('Content-Type: application/octet-stream'),
          Buffer.concat([Buffer.from('X-Filename: '), Buffer.from([0xff, 0x2f, 0x2e, 0x2e])]),
        ],
        body: Buffer.from('x'),
      },
    });
  }
  return requests;
}

// ---- sending ----

interface Outcome {
  status: number;
  contentType: string;
  body: unknown;
}

/** One HTTP/1.1 request written byte for byte; the answer's status, content type and body. */
function sendBytes(
  method: string,
  token: string,
  socketRequest: NonNullable<BadRequest['socket']>,
): Promise<Outcome> {
  const { hostname, port } = new URL(stack.url);
  const body = socketRequest.body ?? Buffer.alloc(0);
  const head = Buffer.concat([
    Buffer.from(
      `${method} ${socketRequest.target} HTTP/1.1\r\nHost: ${hostname}:${port}\r\nAuthorization: Bearer ${token}\r\n`,
    ),
    ...socketRequest.headers.flatMap((h) => [h, Buffer.from('\r\n')]),
    Buffer.from(`Content-Length: ${body.length}\r\nConnection: close\r\n\r\n`),
  ]);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname);
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const [headPart, ...rest] = text.split('\r\n\r\n');
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(headPart)?.[1] ?? 0);
      const contentType = /\r\ncontent-type: *([^\r]*)/i.exec(headPart)?.[1] ?? '';
      const payload = rest.join('\r\n\r\n');
      resolve({
        status,
        contentType,
        body: contentType.includes('json') && payload ? JSON.parse(payload) : payload,
      });
    });
    // Not end(): a half-closed socket makes Node's server drop the request unanswered.
    socket.write(Buffer.concat([head, body]));
  });
}

async function send(operation: Operation, token: string, request: BadRequest): Promise<Outcome> {
  if (request.socket) return sendBytes(operation.method, token, request.socket);
  const headers = { ...(request.headers ?? {}), authorization: `Bearer ${token}` };
  if (request.raw) {
    const response = await fetch(`${stack.url}${request.path}`, { method: operation.method, headers });
    return {
      status: response.status,
      contentType: response.headers.get('content-type') ?? '',
      body: await response.text(),
    };
  }
  const res = await http(stack, operation.method, request.path, { token, body: request.body, headers });
  return { status: res.status, contentType: res.headers.get('content-type') ?? '', body: res.body };
}

const operations = SERVICES.flatMap((s) => s.operations.map((o) => [o.operationId, o] as const));

describe('bad input never gets past validation, never fails the server, never changes anything', () => {
  it.each(operations)('%s', async (_id, operation) => {
    expect(findOperation(operation.method, fillPath(operation, pathValues(world)))).not.toBeNull();
    const { token } = await mintKey(stack, serviceOf(operation), 'idp|ada');
    const before = await snapshotDatabase(stack);
    const problems: string[] = [];
    for (const request of badRequests(operation, stack.config)) {
      if (request.edge) tally.edges += 1;
      else tally.tried += 1;
      const where = `${operation.operationId} [${request.label}]`;
      let outcome: Outcome;
      try {
        outcome = await send(operation, token, request);
      } catch (error) {
        if (error instanceof ContractViolation) {
          problems.push(`${where}: ${error.message.slice(0, 300)}`);
          continue;
        }
        // A server that answers before reading a huge body may close the connection under the client.
        if (
          request.label.startsWith('oversize') &&
          String((error as Error).cause ?? error).match(/EPIPE|ECONNRESET|other side closed|SocketError/)
        ) {
          tally.connectionClosed += 1;
          continue;
        }
        throw error;
      }
      tally.statuses[outcome.status] = (tally.statuses[outcome.status] ?? 0) + 1;
      if (outcome.status >= 500) tally.serverErrors += 1;
      const fine = request.edge
        ? outcome.status < 500
        : outcome.status >= 400 &&
          outcome.status < 500 &&
          outcome.contentType.startsWith('application/problem+json');
      if (!fine)
        problems.push(
          `${where}: ${outcome.status} ${outcome.contentType} ${JSON.stringify(outcome.body).slice(0, 200)}`,
        );
    }
    expect(await snapshotDatabase(stack)).toEqual(before);
    findings.push(...problems);
    expect(problems).toEqual([]);
  });
});
