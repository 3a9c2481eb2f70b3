import { type ServiceProblemTypes, serviceProblems } from '../kernel/errors';
import { SHARED_PROBLEM_DESCRIPTIONS, sharedProblems } from '../shared/problems';

/** The math service's own problem codes, per factory (the kernel's and the shared ones aside). */
interface MathCodes {
  badRequest:
    | 'unknown_member'
    | 'member_disabled'
    | 'comment_required'
    | 'empty_body'
    | 'invalid_content_length'
    | 'malformed_multipart'
    | 'too_many_fields'
    | 'too_many_parts';
  conflict:
    | 'stale_version'
    | 'task_archived'
    | 'not_archived'
    | 'review_completed'
    | 'invalid_transition'
    | 'duplicate_client_name'
    | 'stale_client'
    | 'attachment_limit_reached';
  unprocessable: 'unknown_client' | 'client_disabled';
}

export const mathProblems = serviceProblems<MathCodes>();

type MathOwnCode = Exclude<MathCodes[keyof MathCodes], keyof typeof SHARED_PROBLEM_DESCRIPTIONS>;

const MATH_PROBLEM_DESCRIPTIONS: Record<MathOwnCode, string> = {
  comment_required: '`feedback`, `verdict` and `reopen` need a nonblank comment.',
  empty_body: 'An upload has no bytes.',
  invalid_content_length: '`Content-Length` is not a byte count.',
  malformed_multipart: 'The `multipart/form-data` body is malformed.',
  too_many_fields: 'The form has more fields than the operation takes.',
  too_many_parts: 'The form has more parts than the operation takes.',
  stale_version:
    'The task changed since the client read it: `current_version` is the version to re-read and retry with.',
  task_archived: 'The task is archived: restore it before any other change.',
  not_archived: '`restore` on a task that is not archived.',
  review_completed: 'The review is completed: reopen it before reassigning or judging.',
  invalid_transition: 'The action is not allowed in the task’s current review state.',
  duplicate_client_name: 'A client with this name exists already (names ignore case).',
  stale_client: 'The client changed since it was read: `current_updated_at` is the value to retry with.',
  attachment_limit_reached: 'The task already has 200 active attachments.',
  unknown_client: 'No such client.',
  client_disabled: 'The client is disabled.',
};

/** Every code the math service answers with besides the kernel's, with the status it answers it with. */
export const mathProblemTypes: ServiceProblemTypes = {
  errors: [
    ...(
      [
        'unknown_member',
        'member_disabled',
        'comment_required',
        'empty_body',
        'invalid_content_length',
        'malformed_multipart',
        'too_many_fields',
        'too_many_parts',
      ] as const
    ).map((code) => mathProblems.badRequest(code, '')),
    ...(
      [
        'stale_version',
        'task_archived',
        'not_archived',
        'review_completed',
        'invalid_transition',
        'duplicate_client_name',
        'stale_client',
        'attachment_limit_reached',
      ] as const
    ).map((code) => mathProblems.conflict(code, '')),
    ...(['active_key_limit', 'webhook_endpoint_limit', 'delivery_pending', 'event_withdrawn'] as const).map(
      (code) => sharedProblems.conflict(code, ''),
    ),
    sharedProblems.badRequest('webhook_target_refused', ''),
    ...(['key_outlives_issuer', 'key_exceeds_member'] as const).map((code) =>
      sharedProblems.forbidden(code, ''),
    ),
    ...(['unknown_client', 'client_disabled'] as const).map((code) => mathProblems.unprocessable(code, '')),
  ],
  descriptions: { ...SHARED_PROBLEM_DESCRIPTIONS, ...MATH_PROBLEM_DESCRIPTIONS },
};
