import { type ApiError, problems } from '../kernel/errors';

/** One problem `type` (`/docs/problems#<code>`): status and title come from the catalogue factory itself. */
export interface ProblemTypeDoc {
  code: string;
  status: number;
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

type Entry = [error: ApiError, description: string];

/**
 * Every code the API answers with, per factory of `problems` (api/kernel/errors.ts). A unit test checks that
 * every factory has an entry and that every literal code passed to a code-taking factory is listed here.
 */
export const PROBLEM_CATALOGUE: Record<string, Entry[]> = {
  validation: [
    [
      problems.validation([]),
      'A path parameter, query parameter, header or body field is invalid or unknown. `errors` lists each ' +
        'offending field as `{path, message}`, for example `body.version`.',
    ],
  ],
  malformedJson: [[problems.malformedJson(''), 'The request body is not valid JSON.']],
  badRequest: [
    [
      problems.badRequest('idempotency_key_required', ''),
      'The operation requires an `Idempotency-Key` header.',
    ],
    [problems.badRequest('unexpected_body', ''), 'The operation takes no request body, and one was sent.'],
    [
      problems.badRequest('comment_required', ''),
      '`feedback`, `verdict` and `reopen` need a nonblank comment.',
    ],
    [problems.badRequest('client_closed_request', ''), 'The client went away before the answer was ready.'],
    [
      problems.badRequest('bad_request', ''),
      'The request could not be read (for example a malformed header).',
    ],
    [problems.badRequest('empty_body', ''), 'An upload has no bytes.'],
    [problems.badRequest('invalid_content_length', ''), '`Content-Length` is not a byte count.'],
    [problems.badRequest('upload_incomplete', ''), 'The body ended before its declared length or last byte.'],
    [problems.badRequest('malformed_multipart', ''), 'The `multipart/form-data` body is malformed.'],
    [problems.badRequest('too_many_fields', ''), 'The form has more fields than the operation takes.'],
    [problems.badRequest('too_many_parts', ''), 'The form has more parts than the operation takes.'],
  ],
  unsupportedMediaType: [
    [problems.unsupportedMediaType(''), 'The request body has a content type the operation does not take.'],
  ],
  payloadTooLarge: [[problems.payloadTooLarge(0), 'The request body exceeds the operation’s limit.']],
  unauthenticated: [
    [
      problems.unauthenticated(''),
      'No credential, or one that is unknown, malformed, expired, revoked, of the other service, or whose ' +
        'member is disabled.',
    ],
  ],
  forbidden: [
    [
      problems.forbidden(''),
      'The caller may not do this: for example a Reviewer acting on a task not assigned to them, or an ' +
        'action only an Owner or Admin may take.',
    ],
  ],
  insufficientRole: [[problems.insufficientRole(''), 'The operation needs a higher role (`x-min-role`).']],
  insufficientScope: [
    [
      problems.insufficientScope([]),
      'The API key lacks a scope the operation needs (`x-scopes`); `missing_scopes` names them.',
    ],
  ],
  notFound: [[problems.notFound(''), 'The resource does not exist, or is not visible to the caller.']],
  routeNotFound: [[problems.routeNotFound('', ''), 'No operation has this path.']],
  methodNotAllowed: [
    [problems.methodNotAllowed([]), 'The path exists, but not with this method; `Allow` lists the methods.'],
  ],
  conflict: [
    [
      problems.conflict('stale_version', ''),
      'The task changed since the client read it: `current_version` is the version to re-read and retry with.',
    ],
    [problems.conflict('task_archived', ''), 'The task is archived: restore it before any other change.'],
    [problems.conflict('not_archived', ''), '`restore` on a task that is not archived.'],
    [
      problems.conflict('review_completed', ''),
      'The review is completed: reopen it before reassigning or judging.',
    ],
    [
      problems.conflict('invalid_transition', ''),
      'The action is not allowed in the task’s current review state.',
    ],
    [
      problems.conflict('duplicate_client_name', ''),
      'A client with this name exists already (names ignore case).',
    ],
    [
      problems.conflict('stale_client', ''),
      'The client changed since it was read: `current_updated_at` is the value to retry with.',
    ],
    [problems.conflict('active_key_limit', ''), 'The member already has the maximum number of active keys.'],
    [problems.conflict('attachment_limit_reached', ''), 'The task already has 200 active attachments.'],
    [problems.conflict('topic_exists', ''), 'A topic with this batch and topic number exists already.'],
    [
      problems.conflict('note_body_changed', ''),
      'The note changed since it was read: `expectedBodySha256` does not match its current body.',
    ],
    [
      problems.conflict('decision_conflict', ''),
      '`expectedDecision` is not the current decision; `current_decision` is.',
    ],
    [
      problems.conflict('disposition_conflict', ''),
      'The expected disposition is not the current one, `current_disposition`.',
    ],
    [problems.conflict('topic_closed', ''), 'The task’s disposition is not ACTIVE: set it to ACTIVE first.'],
    [problems.conflict('assignment_not_active', ''), 'The review assignment is no longer active.'],
    [problems.conflict('no_submitted_review', ''), 'There is no submitted review to reopen.'],
    [
      problems.conflict('idempotency_key_reused', ''),
      'The `Idempotency-Key` was already used for a different request: use a new key.',
    ],
    [
      problems.conflict('idempotency_request_in_progress', ''),
      'A request with this `Idempotency-Key` is still being processed: retry shortly.',
    ],
    [
      problems.conflict('idempotent_replay_refused', ''),
      'The request was already made with this `Idempotency-Key`, and its answer (a secret) is not repeated.',
    ],
  ],
  unprocessable: [
    [problems.unprocessable('unknown_member', ''), 'No such member, or one that may not be assigned.'],
    [problems.unprocessable('member_disabled', ''), 'The member is disabled.'],
    [problems.unprocessable('unknown_client', ''), 'No such client.'],
    [problems.unprocessable('client_disabled', ''), 'The client is disabled.'],
    [problems.unprocessable('unknown_campaign', ''), 'No such campaign.'],
    [
      problems.unprocessable('key_outlives_issuer', ''),
      'A new key may not expire after the key creating it.',
    ],
    [
      problems.unprocessable('key_exceeds_member', ''),
      'A key may not carry a role or scopes above its issuer’s or its member’s.',
    ],
  ],
  tooManyRequests: [
    [problems.tooManyRequests('', 1), 'Too many requests: retry after `Retry-After` seconds.'],
  ],
  unavailable: [
    [
      problems.unavailable(''),
      'A dependency (Temporal, object storage) did not answer in time: retry after `Retry-After` seconds.',
    ],
  ],
  storedObjectInvalid: [
    [
      problems.storedObjectInvalid('stored_object_missing', ''),
      'The stored object is missing; nothing was served and the incident was recorded.',
    ],
    [
      problems.storedObjectInvalid('stored_object_mismatch', ''),
      'The stored object does not match its recorded size and SHA-256; nothing was served.',
    ],
  ],
  internal: [[problems.internal(), 'An unexpected failure; the response carries no further detail.']],
};

/** The catalogue as a flat list, one entry per code, in catalogue order. */
export function problemTypes(): ProblemTypeDoc[] {
  const seen = new Set<string>();
  const out: ProblemTypeDoc[] = [];
  for (const entries of Object.values(PROBLEM_CATALOGUE)) {
    for (const [error, description] of entries) {
      if (seen.has(error.code)) continue;
      seen.add(error.code);
      out.push({ code: error.code, status: error.status, title: error.title, description });
    }
  }
  return out;
}
