import { composeCatalogues, type ProblemCatalogue, serviceProblems } from '../kernel/errors';
import { SHARED_PROBLEM_TYPES } from '../shared/problems';

/** The math service's own problem codes (the kernel's and the shared ones aside), each with its one status. */
const MATH_OWN_PROBLEM_TYPES = {
  comment_required: {
    status: 400,
    description: '`feedback`, `verdict` and `reopen` need a nonblank comment.',
  },
  empty_body: { status: 400, description: 'An upload has no bytes.' },
  invalid_content_length: { status: 400, description: '`Content-Length` is not a byte count.' },
  malformed_multipart: { status: 400, description: 'The `multipart/form-data` body is malformed.' },
  too_many_fields: { status: 400, description: 'The form has more fields than the operation takes.' },
  too_many_parts: { status: 400, description: 'The form has more parts than the operation takes.' },
  stale_version: {
    status: 409,
    description:
      'The task changed since the client read it: `current_version` is the version to re-read and retry with.',
  },
  task_archived: { status: 409, description: 'The task is archived: restore it before any other change.' },
  not_archived: { status: 409, description: '`restore` on a task that is not archived.' },
  review_completed: {
    status: 409,
    description: 'The review is completed: reopen it before reassigning or judging.',
  },
  invalid_transition: {
    status: 409,
    description: 'The action is not allowed in the task’s current review state.',
  },
  duplicate_client_name: {
    status: 409,
    description: 'A client with this name exists already (names ignore case).',
  },
  stale_client: {
    status: 409,
    description: 'The client changed since it was read: `current_updated_at` is the value to retry with.',
  },
  attachment_limit_reached: { status: 409, description: 'The task already has 200 active attachments.' },
  unknown_client: { status: 422, description: 'No such client.' },
  client_disabled: { status: 422, description: 'The client is disabled.' },
} as const satisfies ProblemCatalogue;

/** Every code the math service answers with besides the kernel's. */
export const mathProblemTypes = composeCatalogues(SHARED_PROBLEM_TYPES, MATH_OWN_PROBLEM_TYPES);

export const mathProblems = serviceProblems(mathProblemTypes);
