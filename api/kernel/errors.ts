/**
 * The error catalogue: every failure the API reports, each with exactly one HTTP status and a stable
 * machine `code`, rendered as RFC 9457 problem+json. Library errors are translated here, nowhere else.
 */

/** Codes of `problems.badRequest`: 400, a request the pipeline cannot read or that misses a required part. */
export type BadRequestCode =
  | 'idempotency_key_required'
  | 'unexpected_body'
  | 'client_closed_request'
  | 'bad_request'
  | 'invalid_value'
  | 'upload_incomplete';

/** Codes of `problems.forbidden`: 403, the caller may not do this. */
export type ForbiddenCode = 'forbidden';

/** Codes of `problems.conflict`: 409, an idempotency or uniqueness conflict. */
export type ConflictCode =
  'idempotency_key_reused' | 'idempotency_request_in_progress' | 'idempotent_replay_refused' | 'duplicate';

/** Codes of `problems.storedObjectInvalid`: 502, stored bytes missing or not the recorded ones. */
export type StoredObjectCode = 'stored_object_missing' | 'stored_object_mismatch';

/**
 * Every code the kernel answers with; `api/docs/problemTypes.ts` describes each, exhaustively. Each service declares
 * its own codes beside it (`serviceProblems`) and lists them in its `ServiceDefinition.problemTypes`.
 */
export type KernelProblemCode =
  | 'validation_failed'
  | 'malformed_json'
  | 'unsupported_media_type'
  | 'payload_too_large'
  | 'headers_too_large'
  | 'request_timeout'
  | 'unauthenticated'
  | 'insufficient_role'
  | 'insufficient_scope'
  | 'not_found'
  | 'route_not_found'
  | 'method_not_allowed'
  | 'rate_limited'
  | 'dependency_unavailable'
  | 'webhooks_not_configured'
  | 'internal_error'
  | BadRequestCode
  | ForbiddenCode
  | ConflictCode
  | StoredObjectCode;

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

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: ProblemCode,
    readonly title: string,
    readonly detail: string,
    readonly extensions: Record<string, unknown> = {},
    readonly headers: Record<string, string> = {},
  ) {
    super(detail);
    this.name = 'ApiError';
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

/** Named factories; a handler throws one of these and never builds a status by hand. */
export const problems = {
  validation: (errors: FieldError[]) =>
    new ApiError(400, 'validation_failed', 'Invalid request', errors.map((e) => e.message).join('; '), {
      errors,
    }),
  malformedJson: (detail: string) => new ApiError(400, 'malformed_json', 'Malformed JSON body', detail),
  badRequest: (code: BadRequestCode, detail: string) => new ApiError(400, code, 'Invalid request', detail),
  unsupportedMediaType: (expected: string) =>
    new ApiError(
      415,
      'unsupported_media_type',
      'Unsupported media type',
      `The request body must be ${expected}.`,
    ),
  payloadTooLarge: (limitBytes: number) =>
    new ApiError(
      413,
      'payload_too_large',
      'Payload too large',
      `The request body exceeds ${limitBytes} bytes.`,
    ),
  /** Answered by the HTTP layer before any operation: the request head exceeds Node's header size limit. */
  headersTooLarge: () =>
    new ApiError(431, 'headers_too_large', 'Request headers too large', 'The request headers are too large.'),
  /** Answered by the HTTP layer: the request head or body did not arrive within Node's request timeouts. */
  requestTimeout: () =>
    new ApiError(408, 'request_timeout', 'Request timeout', 'The request did not arrive in time.'),
  unauthenticated: (detail: string) =>
    new ApiError(
      401,
      'unauthenticated',
      'Missing or invalid credential',
      detail,
      {},
      { 'WWW-Authenticate': 'Bearer' },
    ),
  forbidden: (detail: string) =>
    new ApiError(403, 'forbidden' satisfies ForbiddenCode, 'Permission denied', detail),
  insufficientRole: (required: string) =>
    new ApiError(
      403,
      'insufficient_role',
      'Permission denied',
      `This operation needs the ${required} role or higher.`,
    ),
  insufficientScope: (missing: string[]) =>
    new ApiError(
      403,
      'insufficient_scope',
      'Permission denied',
      `The API key lacks the scope(s): ${missing.join(', ')}.`,
      {
        missing_scopes: missing,
      },
    ),
  notFound: (what: string) => new ApiError(404, 'not_found', 'Not found', `${what} was not found.`),
  routeNotFound: (method: string, path: string) =>
    new ApiError(404, 'route_not_found', 'Not found', `No operation ${method} ${path}.`),
  methodNotAllowed: (allowed: string[]) =>
    new ApiError(
      405,
      'method_not_allowed',
      'Method not allowed',
      `Allowed methods: ${allowed.join(', ')}.`,
      {},
      {
        Allow: allowed.join(', '),
      },
    ),
  conflict: (
    code: ConflictCode,
    detail: string,
    extensions: Record<string, unknown> = {},
    headers: Record<string, string> = {},
  ) => new ApiError(409, code, 'Conflict', detail, extensions, headers),
  tooManyRequests: (detail: string, retryAfterSeconds: number, headers: Record<string, string> = {}) =>
    new ApiError(
      429,
      'rate_limited',
      'Too many requests',
      detail,
      {},
      { ...headers, 'Retry-After': String(retryAfterSeconds) },
    ),
  unavailable: (dependency: string, retryAfterSeconds = 5) =>
    new ApiError(
      503,
      'dependency_unavailable',
      'Service unavailable',
      `A dependency (${dependency}) is unavailable; retry shortly.`,
      { dependency },
      { 'Retry-After': String(retryAfterSeconds) },
    ),
  /** Webhook signing secrets cannot be sealed: the operator has not set `WEBHOOK_SECRET_KEY`. */
  webhooksNotConfigured: () =>
    new ApiError(
      503,
      'webhooks_not_configured',
      'Service unavailable',
      'Webhooks are not configured on this server (WEBHOOK_SECRET_KEY is unset); ask its operator.',
    ),
  /** A stored object is missing or not the recorded bytes: nothing is served, retrying will not help. */
  storedObjectInvalid: (code: StoredObjectCode, detail: string, extensions: Record<string, unknown> = {}) =>
    new ApiError(502, code, 'Stored object failed verification', detail, extensions),
  internal: () => new ApiError(500, 'internal_error', 'Internal error', 'The request failed unexpectedly.'),
};

/** The codes a service adds to the code-taking factories, per factory. */
export interface ServiceCodes {
  badRequest?: string;
  forbidden?: string;
  conflict?: string;
  unprocessable?: string;
}

/**
 * The code-taking factories for a service's own codes (declared in the service's folder), with the statuses and
 * titles of the kernel's factories: a code the service did not declare fails the type check.
 */
export function serviceProblems<C extends ServiceCodes>() {
  return {
    badRequest: (code: NonNullable<C['badRequest']>, detail: string) =>
      new ApiError(400, code, 'Invalid request', detail),
    forbidden: (code: NonNullable<C['forbidden']>, detail: string) =>
      new ApiError(403, code, 'Permission denied', detail),
    conflict: (code: NonNullable<C['conflict']>, detail: string, extensions: Record<string, unknown> = {}) =>
      new ApiError(409, code, 'Conflict', detail, extensions),
    /** 422, for services whose error table does not reserve 422 for a meaning of its own. */
    unprocessable: (code: NonNullable<C['unprocessable']>, detail: string) =>
      new ApiError(422, code, 'Unprocessable request', detail),
  };
}

/** A service's problem codes for the /docs/problems page: one example per code and status, and what each means. */
export interface ServiceProblemTypes {
  errors: ApiError[];
  descriptions: Record<string, string>;
}
