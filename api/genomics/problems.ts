import { composeCatalogues, type ProblemCatalogue, serviceProblems } from '../kernel/errors';
import { SHARED_PROBLEM_TYPES } from '../shared/problems';

/** The genomics service's own problem codes (the kernel's and the shared ones aside), each with its one status. */
const GENOMICS_OWN_PROBLEM_TYPES = {
  unknown_campaign: { status: 400, description: 'No such campaign.' },
  topic_exists: {
    status: 409,
    description: 'A topic with this batch and topic number exists already.',
  },
  note_body_changed: {
    status: 409,
    description: 'The note changed since it was read: `expectedBodySha256` does not match its current body.',
  },
  decision_conflict: {
    status: 409,
    description: '`expectedDecision` is not the current decision; `current_decision` is.',
  },
  disposition_conflict: {
    status: 409,
    description: 'The expected disposition is not the current one, `current_disposition`.',
  },
  topic_closed: { status: 409, description: 'The task’s disposition is not ACTIVE: set it to ACTIVE first.' },
  assignment_not_active: { status: 409, description: 'The review assignment is no longer active.' },
  no_submitted_review: { status: 409, description: 'There is no submitted review to reopen.' },
  not_due: { status: 409, description: 'The assignment is not past its due date yet.' },
} as const satisfies ProblemCatalogue;

/** Every code the genomics service answers with besides the kernel's. */
export const genomicsProblemTypes = composeCatalogues(SHARED_PROBLEM_TYPES, GENOMICS_OWN_PROBLEM_TYPES);

export const genomicsProblems = serviceProblems(genomicsProblemTypes);
