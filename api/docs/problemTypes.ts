import { type ApiError, type ProblemCode, problems } from '../kernel/errors';

/** One problem `type` (`/docs/problems#<code>`): status and title come from the catalogue factory itself. */
export interface ProblemTypeDoc {
  code: ProblemCode;
  /** The first status listed; `statuses` has every one (a code some services answer differently). */
  status: number;
  statuses: number[];
  title: string;
  description: string;
}

/** Factories whose first argument is the problem code (every other factory has a fixed code). */
export const CODE_TAKING_FACTORIES = [
  'badRequest',
  'conflict',
  'unprocessable',
  'storedObjectInvalid',
] as const;

/**
 * Every error the API answers with, per factory of `problems` (api/kernel/errors.ts): status and title come from
 * the factory itself. A code may appear under two factories when the services answer it with different statuses.
 */
export const PROBLEM_CATALOGUE: Record<keyof typeof problems, ApiError[]> = {
  validation: [problems.validation([])],
  malformedJson: [problems.malformedJson('')],
  badRequest: [
    problems.badRequest('idempotency_key_required', ''),
    problems.badRequest('unexpected_body', ''),
    problems.badRequest('comment_required', ''),
    problems.badRequest('client_closed_request', ''),
    problems.badRequest('bad_request', ''),
    problems.badRequest('empty_body', ''),
    problems.badRequest('invalid_content_length', ''),
    problems.badRequest('upload_incomplete', ''),
    problems.badRequest('malformed_multipart', ''),
    problems.badRequest('too_many_fields', ''),
    problems.badRequest('too_many_parts', ''),
    problems.badRequest('invalid_value', ''),
    problems.badRequest('unknown_campaign', ''),
    problems.badRequest('unknown_member', ''),
    problems.badRequest('member_disabled', ''),
    problems.badRequest('webhook_target_refused', ''),
  ],
  unsupportedMediaType: [problems.unsupportedMediaType('')],
  payloadTooLarge: [problems.payloadTooLarge(0)],
  headersTooLarge: [problems.headersTooLarge()],
  requestTimeout: [problems.requestTimeout()],
  unauthenticated: [problems.unauthenticated('')],
  forbidden: [
    problems.forbidden(''),
    problems.forbidden('', 'key_outlives_issuer'),
    problems.forbidden('', 'key_exceeds_member'),
  ],
  insufficientRole: [problems.insufficientRole('')],
  insufficientScope: [problems.insufficientScope([])],
  notFound: [problems.notFound('')],
  routeNotFound: [problems.routeNotFound('', '')],
  methodNotAllowed: [problems.methodNotAllowed([])],
  conflict: [
    problems.conflict('stale_version', ''),
    problems.conflict('task_archived', ''),
    problems.conflict('not_archived', ''),
    problems.conflict('review_completed', ''),
    problems.conflict('invalid_transition', ''),
    problems.conflict('duplicate_client_name', ''),
    problems.conflict('stale_client', ''),
    problems.conflict('active_key_limit', ''),
    problems.conflict('attachment_limit_reached', ''),
    problems.conflict('topic_exists', ''),
    problems.conflict('note_body_changed', ''),
    problems.conflict('decision_conflict', ''),
    problems.conflict('disposition_conflict', ''),
    problems.conflict('topic_closed', ''),
    problems.conflict('assignment_not_active', ''),
    problems.conflict('no_submitted_review', ''),
    problems.conflict('not_due', ''),
    problems.conflict('idempotency_key_reused', ''),
    problems.conflict('idempotency_request_in_progress', ''),
    problems.conflict('idempotent_replay_refused', ''),
    problems.conflict('duplicate', ''),
    problems.conflict('webhook_endpoint_limit', ''),
    problems.conflict('delivery_pending', ''),
    problems.conflict('event_withdrawn', ''),
  ],
  unprocessable: [
    problems.unprocessable('unknown_member', ''),
    problems.unprocessable('member_disabled', ''),
    problems.unprocessable('unknown_client', ''),
    problems.unprocessable('client_disabled', ''),
    problems.unprocessable('key_outlives_issuer', ''),
    problems.unprocessable('key_exceeds_member', ''),
    problems.unprocessable('webhook_target_refused', ''),
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

/** One sentence per code; a `Record` over the union, so a new code without a description fails the type check. */
export const PROBLEM_DESCRIPTIONS: Record<ProblemCode, string> = {
  validation_failed:
    'A path parameter, query parameter, header or body field is invalid or unknown. `errors` lists each ' +
    'offending field as `{path, message}`, for example `body.version`.',
  malformed_json:
    'The request body is not valid JSON, nests deeper than 64 levels, or has a `__proto__`, `constructor` ' +
    'or `prototype` key.',
  idempotency_key_required: 'The operation requires an `Idempotency-Key` header.',
  unexpected_body: 'The operation takes no request body, and one was sent.',
  comment_required: '`feedback`, `verdict` and `reopen` need a nonblank comment.',
  client_closed_request: 'The client went away before the answer was ready.',
  bad_request: 'The request could not be read (for example a malformed header).',
  empty_body: 'An upload has no bytes.',
  invalid_content_length: '`Content-Length` is not a byte count.',
  upload_incomplete: 'The body ended before its declared length or last byte.',
  malformed_multipart: 'The `multipart/form-data` body is malformed.',
  too_many_fields: 'The form has more fields than the operation takes.',
  too_many_parts: 'The form has more parts than the operation takes.',
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
  stale_version:
    'The task changed since the client read it: `current_version` is the version to re-read and retry with.',
  task_archived: 'The task is archived: restore it before any other change.',
  webhook_target_refused:
    'The webhook URL is refused: not an absolute https URL (http only where the operator allows private ' +
    'targets), carries credentials, does not resolve, or resolves to a loopback, private, link-local or ' +
    'metadata address (math: 422; genomics: 400). `reason` names which.',
  webhook_endpoint_limit:
    'The service already has the maximum number of webhook endpoints (20): delete one first.',
  delivery_pending:
    'The delivery is still pending: it will be attempted on its schedule; redeliver it once it ended.',
  event_withdrawn:
    'The delivery’s event was withdrawn (its transition was replaced as unacknowledged): it is never sent again.',
  webhooks_not_configured: 'The server has no `WEBHOOK_SECRET_KEY`, so webhook secrets cannot be sealed.',
  not_archived: '`restore` on a task that is not archived.',
  review_completed: 'The review is completed: reopen it before reassigning or judging.',
  invalid_transition: 'The action is not allowed in the task’s current review state.',
  duplicate_client_name: 'A client with this name exists already (names ignore case).',
  stale_client: 'The client changed since it was read: `current_updated_at` is the value to retry with.',
  active_key_limit: 'The member already has the maximum number of active keys.',
  attachment_limit_reached: 'The task already has 200 active attachments.',
  topic_exists: 'A topic with this batch and topic number exists already.',
  note_body_changed:
    'The note changed since it was read: `expectedBodySha256` does not match its current body.',
  decision_conflict: '`expectedDecision` is not the current decision; `current_decision` is.',
  disposition_conflict: 'The expected disposition is not the current one, `current_disposition`.',
  topic_closed: 'The task’s disposition is not ACTIVE: set it to ACTIVE first.',
  assignment_not_active: 'The review assignment is no longer active.',
  no_submitted_review: 'There is no submitted review to reopen.',
  not_due: 'The assignment is not past its due date yet.',
  idempotency_key_reused: 'The `Idempotency-Key` was already used for a different request: use a new key.',
  idempotency_request_in_progress:
    'A request with this `Idempotency-Key` is still being processed: retry shortly.',
  idempotent_replay_refused:
    'The request was already made with this `Idempotency-Key`, and its answer (a secret) is not repeated.',
  duplicate: 'The request would create a record that exists already.',
  unknown_member: 'No such member, or one that may not be assigned (math: 422; genomics: 400).',
  member_disabled: 'The member is disabled (math: 422; genomics: 400).',
  unknown_client: 'No such client.',
  client_disabled: 'The client is disabled.',
  unknown_campaign: 'No such campaign (genomics: 400).',
  key_outlives_issuer: 'A new key may not expire after the key creating it (math: 422; genomics: 403).',
  key_exceeds_member: 'A key may not carry a role above its member’s (math: 422; genomics: 403).',
  rate_limited: 'Too many requests: retry after `Retry-After` seconds.',
  dependency_unavailable:
    'A dependency (PostgreSQL, Temporal, object storage) did not answer in time: retry after `Retry-After` seconds.',
  stored_object_missing: 'The stored object is missing; nothing was served and the incident was recorded.',
  stored_object_mismatch:
    'The stored object does not match its recorded size and SHA-256; nothing was served.',
  internal_error: 'An unexpected failure; the response carries no further detail.',
};

/** The catalogue as a flat list, one entry per code (with every status it is answered with), in catalogue order. */
export function problemTypes(): ProblemTypeDoc[] {
  const byCode = new Map<ProblemCode, ProblemTypeDoc>();
  for (const errors of Object.values(PROBLEM_CATALOGUE)) {
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
        description: PROBLEM_DESCRIPTIONS[error.code],
      });
    }
  }
  return [...byCode.values()];
}
