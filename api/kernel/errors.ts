/**
 * The error catalogue: every failure the API reports has a stable machine `code` answered with exactly one HTTP
 * status, written once in a catalogue (the kernel's below, the shared one in `api/shared/problems.ts`, each
 * service's in `api/<service>/problems.ts`) and rendered as RFC 9457 problem+json by `ApiError.toProblem`. The
 * factories, the `/docs/problems` page and the statuses an operation documents derive from the catalogues.
 * Library errors are translated to it in `errorTranslation.ts`, nowhere else.
 */

/** One problem type: the status its code is always answered with, its title, and what it means. */
export interface ProblemType {
  readonly status: number;
  /** The problem's `title`; by default the one of its status (`DEFAULT_TITLES`). */
  readonly title?: string;
  /** One sentence for the `/docs/problems` page (backticks mark code). */
  readonly description: string;
}

/** Problem types by code: each code written once, with its one status. */
export type ProblemCatalogue = Readonly<Record<string, ProblemType>>;

/** The codes of a catalogue answered with `status`. */
export type CodesWithStatus<C extends ProblemCatalogue, S extends number> = {
  [K in keyof C]: C[K]['status'] extends S ? K : never;
}[keyof C] &
  string;

/** A machine `code`: the kernel's own, or one a service declares. */
export type ProblemCode = string;

export interface FieldError {
  path: string;
  message: string;
}

export interface ProblemBody {
  type: string;
  title: string;
  status: number;
  detail: string;
  code: ProblemCode;
  instance?: string;
  errors?: FieldError[];
  [extension: string]: unknown;
}

/** The title of a problem whose type names none. */
const DEFAULT_TITLES: Readonly<Record<number, string>> = {
  400: 'Invalid request',
  401: 'Missing or invalid credential',
  403: 'Permission denied',
  404: 'Not found',
  405: 'Method not allowed',
  408: 'Request timeout',
  409: 'Conflict',
  413: 'Payload too large',
  415: 'Unsupported media type',
  422: 'Unprocessable request',
  429: 'Too many requests',
  431: 'Request headers too large',
  500: 'Internal error',
  503: 'Service unavailable',
};

export const titleOf = (type: Pick<ProblemType, 'status' | 'title'>): string =>
  type.title ?? DEFAULT_TITLES[type.status] ?? `Status ${type.status}`;

/** What a problem carries besides its status and code: members of its body, and headers of its response. */
export interface ProblemExtras {
  extensions?: Record<string, unknown>;
  headers?: Record<string, string>;
}

export interface ApiErrorOptions extends ProblemExtras {
  status: number;
  code: ProblemCode;
  /** By default the title of the status. */
  title?: string;
  detail: string;
}

export class ApiError extends Error {
  readonly status: number;
  readonly code: ProblemCode;
  readonly title: string;
  readonly detail: string;
  readonly extensions: Record<string, unknown>;
  readonly headers: Record<string, string>;

  constructor(options: ApiErrorOptions) {
    super(options.detail);
    this.name = 'ApiError';
    this.status = options.status;
    this.code = options.code;
    this.title = titleOf(options);
    this.detail = options.detail;
    this.extensions = options.extensions ?? {};
    this.headers = options.headers ?? {};
  }

  toProblem(instance?: string): ProblemBody {
    return {
      type: `/docs/problems#${this.code}`,
      title: this.title,
      status: this.status,
      detail: this.detail,
      code: this.code,
      ...(instance ? { instance } : {}),
      ...this.extensions,
    };
  }
}

/** The problem of a catalogue's code: status and title come from its entry. */
export function problemOf<C extends ProblemCatalogue>(
  catalogue: C,
  code: keyof C & string,
  detail: string,
  extras: ProblemExtras = {},
): ApiError {
  const type = catalogue[code];
  return new ApiError({ status: type.status, code, title: type.title, detail, ...extras });
}

/** A factory for the codes of one status: a code of another status, or of no catalogue, fails the type check. */
type CodeFactory<C extends ProblemCatalogue, S extends number> = (
  code: CodesWithStatus<C, S>,
  detail: string,
  extensions?: Record<string, unknown>,
  headers?: Record<string, string>,
) => ApiError;

const codeFactory =
  <C extends ProblemCatalogue, S extends number>(catalogue: C): CodeFactory<C, S> =>
  (code, detail, extensions, headers) =>
    problemOf(catalogue, code, detail, { extensions, headers });

/**
 * A catalogue made of others. The same code in two of them must be the same entry (one code, one status): anything
 * else throws when the module loads.
 */
export function composeCatalogues<T extends readonly ProblemCatalogue[]>(...parts: T): Composed<T> {
  const composed: Record<string, ProblemType> = {};
  for (const part of parts) {
    for (const [code, type] of Object.entries(part)) {
      if (Object.hasOwn(composed, code) && composed[code] !== type)
        throw new Error(`Problem code ${code} is declared twice: declare it once, in one catalogue`);
      composed[code] = type;
    }
  }
  return composed as Composed<T>;
}

type Composed<T extends readonly unknown[]> = T extends readonly [infer H, ...infer R]
  ? H & Composed<R>
  : unknown;

/** The factories of a service's catalogue (its own codes and the shared ones), one per status they use. */
export function serviceProblems<C extends ProblemCatalogue>(catalogue: C) {
  return {
    badRequest: codeFactory<C, 400>(catalogue),
    forbidden: codeFactory<C, 403>(catalogue),
    conflict: codeFactory<C, 409>(catalogue),
    unprocessable: codeFactory<C, 422>(catalogue),
  };
}

/**
 * Every code the kernel answers with, whichever service is asked. Each service declares its own codes beside it
 * (`ServiceDefinition.problemTypes`); the kernel names none of them.
 */
export const KERNEL_PROBLEM_TYPES = {
  validation_failed: {
    status: 400,
    description:
      'A path parameter, query parameter, header or body field is invalid or unknown. `errors` lists each ' +
      'offending field as `{path, message}`, for example `body.version`.',
  },
  malformed_json: {
    status: 400,
    title: 'Malformed JSON body',
    description:
      'The request body is not valid JSON, nests deeper than 64 levels, or has a `__proto__`, `constructor` ' +
      'or `prototype` key.',
  },
  idempotency_key_required: {
    status: 400,
    description: 'The operation requires an `Idempotency-Key` header.',
  },
  unexpected_body: { status: 400, description: 'The operation takes no request body, and one was sent.' },
  client_closed_request: { status: 400, description: 'The client went away before the answer was ready.' },
  bad_request: {
    status: 400,
    description: 'The request could not be read (for example a malformed header).',
  },
  upload_incomplete: { status: 400, description: 'The body ended before its declared length or last byte.' },
  invalid_value: {
    status: 400,
    description: 'A value the database cannot hold (out of range, or not valid text).',
  },
  unauthenticated: {
    status: 401,
    description:
      'No credential, or one that is unknown, malformed, expired, revoked, of the other service, or whose ' +
      'member is disabled.',
  },
  forbidden: {
    status: 403,
    description:
      'The caller may not do this: for example a Reviewer acting on a task not assigned to them, or an ' +
      'action only an Owner or Admin may take.',
  },
  insufficient_role: { status: 403, description: 'The operation needs a higher role (`x-min-role`).' },
  insufficient_scope: {
    status: 403,
    description: 'The API key lacks a scope the operation needs (`x-scopes`); `missing_scopes` names them.',
  },
  not_found: { status: 404, description: 'The resource does not exist, or is not visible to the caller.' },
  route_not_found: { status: 404, description: 'No operation has this path.' },
  method_not_allowed: {
    status: 405,
    description: 'The path exists, but not with this method; `Allow` lists the methods.',
  },
  request_timeout: {
    status: 408,
    description:
      'The request head did not arrive within 60 s, or the whole request within 300 s (answered before any ' +
      'operation is chosen).',
  },
  idempotency_key_reused: {
    status: 409,
    description: 'The `Idempotency-Key` was already used for a different request: use a new key.',
  },
  idempotency_request_in_progress: {
    status: 409,
    description:
      'A request with this `Idempotency-Key` is still being processed: retry after `Retry-After` seconds.',
  },
  idempotent_replay_refused: {
    status: 409,
    description:
      'The request was already made with this `Idempotency-Key`, and its answer (a secret) is not repeated.',
  },
  duplicate: { status: 409, description: 'The request would create a record that exists already.' },
  payload_too_large: { status: 413, description: 'The request body exceeds the operation’s limit.' },
  unsupported_media_type: {
    status: 415,
    description: 'The request body has a content type the operation does not take.',
  },
  rate_limited: { status: 429, description: 'Too many requests: retry after `Retry-After` seconds.' },
  headers_too_large: {
    status: 431,
    description: 'The request headers exceed 16 KiB (answered before any operation is chosen).',
  },
  internal_error: {
    status: 500,
    description: 'An unexpected failure; the response carries no further detail.',
  },
  stored_object_missing: {
    status: 502,
    title: 'Stored object failed verification',
    description: 'The stored object is missing; nothing was served and the incident was recorded.',
  },
  stored_object_mismatch: {
    status: 502,
    title: 'Stored object failed verification',
    description: 'The stored object does not match its recorded size and SHA-256; nothing was served.',
  },
  dependency_unavailable: {
    status: 503,
    description:
      'A dependency (PostgreSQL, Temporal, object storage) did not answer in time: retry after `Retry-After` seconds.',
  },
  webhooks_not_configured: {
    status: 503,
    description: 'The server has no `WEBHOOK_SECRET_KEY`, so webhook secrets cannot be sealed.',
  },
} as const satisfies ProblemCatalogue;

export type KernelProblemCode = keyof typeof KERNEL_PROBLEM_TYPES;

const kernelProblem = (code: KernelProblemCode, detail: string, extras?: ProblemExtras) =>
  problemOf(KERNEL_PROBLEM_TYPES, code, detail, extras);

/** The kernel's codes a factory of its own builds, with what they carry: `badRequest` does not take them. */
type OwnFactoryCode = 'validation_failed' | 'malformed_json';

/** Named factories; a handler throws one of these and never builds a status by hand. */
export const problems = {
  validation: (errors: FieldError[]) =>
    kernelProblem('validation_failed', errors.map((e) => e.message).join('; '), { extensions: { errors } }),
  malformedJson: (detail: string) => kernelProblem('malformed_json', detail),
  badRequest: codeFactory<Omit<typeof KERNEL_PROBLEM_TYPES, OwnFactoryCode>, 400>(KERNEL_PROBLEM_TYPES),
  unsupportedMediaType: (expected: string) =>
    kernelProblem('unsupported_media_type', `The request body must be ${expected}.`),
  payloadTooLarge: (limitBytes: number) =>
    kernelProblem('payload_too_large', `The request body exceeds ${limitBytes} bytes.`),
  /** Answered by the HTTP layer before any operation: the request head exceeds Node's header size limit. */
  headersTooLarge: () => kernelProblem('headers_too_large', 'The request headers are too large.'),
  /** Answered by the HTTP layer: the request head or body did not arrive within Node's request timeouts. */
  requestTimeout: () => kernelProblem('request_timeout', 'The request did not arrive in time.'),
  unauthenticated: (detail: string) =>
    kernelProblem('unauthenticated', detail, { headers: { 'WWW-Authenticate': 'Bearer' } }),
  forbidden: (detail: string) => kernelProblem('forbidden', detail),
  insufficientRole: (required: string) =>
    kernelProblem('insufficient_role', `This operation needs the ${required} role or higher.`),
  insufficientScope: (missing: string[]) =>
    kernelProblem('insufficient_scope', `The API key lacks the scope(s): ${missing.join(', ')}.`, {
      extensions: { missing_scopes: missing },
    }),
  notFound: (what: string) => kernelProblem('not_found', `${what} was not found.`),
  routeNotFound: (method: string, path: string) =>
    kernelProblem('route_not_found', `No operation ${method} ${path}.`),
  methodNotAllowed: (allowed: string[]) =>
    kernelProblem('method_not_allowed', `Allowed methods: ${allowed.join(', ')}.`, {
      headers: { Allow: allowed.join(', ') },
    }),
  conflict: codeFactory<typeof KERNEL_PROBLEM_TYPES, 409>(KERNEL_PROBLEM_TYPES),
  tooManyRequests: (detail: string, retryAfterSeconds: number, headers: Record<string, string> = {}) =>
    kernelProblem('rate_limited', detail, {
      headers: { ...headers, 'Retry-After': String(retryAfterSeconds) },
    }),
  unavailable: (dependency: string, retryAfterSeconds = 5) =>
    kernelProblem('dependency_unavailable', `A dependency (${dependency}) is unavailable; retry shortly.`, {
      extensions: { dependency },
      headers: { 'Retry-After': String(retryAfterSeconds) },
    }),
  /** Webhook signing secrets cannot be sealed: the operator has not set `WEBHOOK_SECRET_KEY`. */
  webhooksNotConfigured: () =>
    kernelProblem(
      'webhooks_not_configured',
      'Webhooks are not configured on this server (WEBHOOK_SECRET_KEY is unset); ask its operator.',
    ),
  /** A stored object is missing or not the recorded bytes: nothing is served, retrying will not help. */
  storedObjectInvalid: codeFactory<typeof KERNEL_PROBLEM_TYPES, 502>(KERNEL_PROBLEM_TYPES),
  internal: () => kernelProblem('internal_error', 'The request failed unexpectedly.'),
};

/** The factories of `problems` whose first argument is the code (every other one has a fixed code). */
export const CODE_TAKING_FACTORIES = ['badRequest', 'conflict', 'storedObjectInvalid'] as const;

/** One row of the `/docs/problems` page. */
export interface ProblemTypeDoc {
  code: ProblemCode;
  status: number;
  title: string;
  description: string;
}

/** The kernel's problem types and then each service's, one row per code, in catalogue order. */
export function problemTypeDocs(services: ProblemCatalogue[] = []): ProblemTypeDoc[] {
  return Object.entries(composeCatalogues(KERNEL_PROBLEM_TYPES, ...services)).map(([code, type]) => ({
    code,
    status: type.status,
    title: titleOf(type),
    description: type.description,
  }));
}

/** The status a catalogue answers a code with: the kernel's codes, then the service's. */
export function statusOfCode(service: ProblemCatalogue, code: ProblemCode): number {
  const type = Object.hasOwn(KERNEL_PROBLEM_TYPES, code)
    ? KERNEL_PROBLEM_TYPES[code as KernelProblemCode]
    : Object.hasOwn(service, code)
      ? service[code]
      : undefined;
  if (!type) throw new Error(`Problem code ${code} is in no catalogue`);
  return type.status;
}
