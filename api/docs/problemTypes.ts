import {
  type ApiError,
  type KernelProblemCode,
  type ProblemCode,
  problems,
  type ServiceProblemTypes,
} from '../kernel/errors';

/** One problem `type` (`/docs/problems#<code>`): status and title come from the catalogue factory itself. */
export interface ProblemTypeDoc {
  code: ProblemCode;
  /** The first status listed; `statuses` has every one (a code some services answer differently). */
  status: number;
  statuses: number[];
  title: string;
  description: string;
}

/** Kernel factories whose first argument is the problem code (every other one has a fixed code). */
export const CODE_TAKING_FACTORIES = ['badRequest', 'conflict', 'storedObjectInvalid'] as const;

/**
 * Every error the kernel answers with, per factory of `problems` (api/kernel/errors.ts): status and title come from
 * the factory itself. The services' own codes come with each service (`ServiceDefinition.problemTypes`).
 */
export const PROBLEM_CATALOGUE: Record<keyof typeof problems, ApiError[]> = {
  validation: [problems.validation([])],
  malformedJson: [problems.malformedJson('')],
  badRequest: [
    problems.badRequest('idempotency_key_required', ''),
    problems.badRequest('unexpected_body', ''),
    problems.badRequest('client_closed_request', ''),
    problems.badRequest('bad_request', ''),
    problems.badRequest('upload_incomplete', ''),
    problems.badRequest('invalid_value', ''),
  ],
  unsupportedMediaType: [problems.unsupportedMediaType('')],
  payloadTooLarge: [problems.payloadTooLarge(0)],
  headersTooLarge: [problems.headersTooLarge()],
  requestTimeout: [problems.requestTimeout()],
  unauthenticated: [problems.unauthenticated('')],
  forbidden: [problems.forbidden('')],
  insufficientRole: [problems.insufficientRole('')],
  insufficientScope: [problems.insufficientScope([])],
  notFound: [problems.notFound('')],
  routeNotFound: [problems.routeNotFound('', '')],
  methodNotAllowed: [problems.methodNotAllowed([])],
  conflict: [
    problems.conflict('idempotency_key_reused', ''),
    problems.conflict('idempotency_request_in_progress', ''),
    problems.conflict('idempotent_replay_refused', ''),
    problems.conflict('duplicate', ''),
  ],
  tooManyRequests: [problems.tooManyRequests('', 1)],
  unavailable: [problems.unavailable('')],
  webhooksNotConfigured: [problems.webhooksNotConfigured()],
  storedObjectInvalid: [
    problems.storedObjectInvalid('stored_object_missing', ''),
    problems.storedObjectInvalid('stored_object_mismatch', ''),
  ],
  internal: [problems.internal()],
};

/** One sentence per kernel code; a `Record` over the union, so a new code without a description fails the type check. */
export const PROBLEM_DESCRIPTIONS: Record<KernelProblemCode, string> = {
  validation_failed:
    'A path parameter, query parameter, header or body field is invalid or unknown. `errors` lists each ' +
    'offending field as `{path, message}`, for example `body.version`.',
  malformed_json:
    'The request body is not valid JSON, nests deeper than 64 levels, or has a `__proto__`, `constructor` ' +
    'or `prototype` key.',
  idempotency_key_required: 'The operation requires an `Idempotency-Key` header.',
  unexpected_body: 'The operation takes no request body, and one was sent.',
  client_closed_request: 'The client went away before the answer was ready.',
  bad_request: 'The request could not be read (for example a malformed header).',
  upload_incomplete: 'The body ended before its declared length or last byte.',
  invalid_value: 'A value the database cannot hold (out of range, or not valid text).',
  unsupported_media_type: 'The request body has a content type the operation does not take.',
  payload_too_large: 'The request body exceeds the operation’s limit.',
  headers_too_large: 'The request headers exceed 16 KiB (answered before any operation is chosen).',
  request_timeout:
    'The request head did not arrive within 60 s, or the whole request within 300 s (answered before any ' +
    'operation is chosen).',
  unauthenticated:
    'No credential, or one that is unknown, malformed, expired, revoked, of the other service, or whose ' +
    'member is disabled.',
  forbidden:
    'The caller may not do this: for example a Reviewer acting on a task not assigned to them, or an ' +
    'action only an Owner or Admin may take.',
  insufficient_role: 'The operation needs a higher role (`x-min-role`).',
  insufficient_scope:
    'The API key lacks a scope the operation needs (`x-scopes`); `missing_scopes` names them.',
  not_found: 'The resource does not exist, or is not visible to the caller.',
  route_not_found: 'No operation has this path.',
  method_not_allowed: 'The path exists, but not with this method; `Allow` lists the methods.',
  webhooks_not_configured: 'The server has no `WEBHOOK_SECRET_KEY`, so webhook secrets cannot be sealed.',
  idempotency_key_reused: 'The `Idempotency-Key` was already used for a different request: use a new key.',
  idempotency_request_in_progress:
    'A request with this `Idempotency-Key` is still being processed: retry after `Retry-After` seconds.',
  idempotent_replay_refused:
    'The request was already made with this `Idempotency-Key`, and its answer (a secret) is not repeated.',
  duplicate: 'The request would create a record that exists already.',
  rate_limited: 'Too many requests: retry after `Retry-After` seconds.',
  dependency_unavailable:
    'A dependency (PostgreSQL, Temporal, object storage) did not answer in time: retry after `Retry-After` seconds.',
  stored_object_missing: 'The stored object is missing; nothing was served and the incident was recorded.',
  stored_object_mismatch:
    'The stored object does not match its recorded size and SHA-256; nothing was served.',
  internal_error: 'An unexpected failure; the response carries no further detail.',
};

/**
 * The kernel's catalogue and then each service's codes as a flat list, one entry per code (with every status it is
 * answered with), in catalogue order.
 */
export function problemTypes(services: ServiceProblemTypes[] = []): ProblemTypeDoc[] {
  const descriptions: Record<string, string> = Object.assign(
    {},
    ...services.map((s) => s.descriptions),
    PROBLEM_DESCRIPTIONS,
  );
  const byCode = new Map<ProblemCode, ProblemTypeDoc>();
  for (const errors of [...Object.values(PROBLEM_CATALOGUE), ...services.map((s) => s.errors)]) {
    for (const error of errors) {
      const seen = byCode.get(error.code);
      if (seen) {
        if (!seen.statuses.includes(error.status)) seen.statuses.push(error.status);
        continue;
      }
      byCode.set(error.code, {
        code: error.code,
        status: error.status,
        statuses: [error.status],
        title: error.title,
        description: descriptions[error.code],
      });
    }
  }
  return [...byCode.values()];
}
