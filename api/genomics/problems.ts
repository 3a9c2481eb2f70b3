import { type ServiceProblemTypes, serviceProblems } from '../kernel/errors';
import { SHARED_PROBLEM_DESCRIPTIONS, sharedProblems } from '../shared/problems';

/** The genomics service's own problem codes, per factory (the kernel's and the shared ones aside). */
interface GenomicsCodes {
  badRequest: 'unknown_campaign' | 'unknown_member' | 'member_disabled';
  conflict:
    | 'topic_exists'
    | 'note_body_changed'
    | 'decision_conflict'
    | 'disposition_conflict'
    | 'topic_closed'
    | 'assignment_not_active'
    | 'no_submitted_review'
    | 'not_due';
}

export const genomicsProblems = serviceProblems<GenomicsCodes>();

type GenomicsOwnCode = Exclude<GenomicsCodes[keyof GenomicsCodes], keyof typeof SHARED_PROBLEM_DESCRIPTIONS>;

const GENOMICS_PROBLEM_DESCRIPTIONS: Record<GenomicsOwnCode, string> = {
  unknown_campaign: 'No such campaign (genomics: 400).',
  topic_exists: 'A topic with this batch and topic number exists already.',
  note_body_changed:
    'The note changed since it was read: `expectedBodySha256` does not match its current body.',
  decision_conflict: '`expectedDecision` is not the current decision; `current_decision` is.',
  disposition_conflict: 'The expected disposition is not the current one, `current_disposition`.',
  topic_closed: 'The task’s disposition is not ACTIVE: set it to ACTIVE first.',
  assignment_not_active: 'The review assignment is no longer active.',
  no_submitted_review: 'There is no submitted review to reopen.',
  not_due: 'The assignment is not past its due date yet.',
};

/** Every code the genomics service answers with besides the kernel's, with the status it answers it with. */
export const genomicsProblemTypes: ServiceProblemTypes = {
  errors: [
    ...(['unknown_campaign', 'unknown_member', 'member_disabled'] as const).map((code) =>
      genomicsProblems.badRequest(code, ''),
    ),
    sharedProblems.badRequest('webhook_target_refused', ''),
    ...(['key_outlives_issuer', 'key_exceeds_member'] as const).map((code) =>
      sharedProblems.forbidden(code, ''),
    ),
    ...(
      [
        'topic_exists',
        'note_body_changed',
        'decision_conflict',
        'disposition_conflict',
        'topic_closed',
        'assignment_not_active',
        'no_submitted_review',
        'not_due',
      ] as const
    ).map((code) => genomicsProblems.conflict(code, '')),
    ...(['active_key_limit', 'webhook_endpoint_limit', 'delivery_pending', 'event_withdrawn'] as const).map(
      (code) => sharedProblems.conflict(code, ''),
    ),
  ],
  descriptions: { ...SHARED_PROBLEM_DESCRIPTIONS, ...GENOMICS_PROBLEM_DESCRIPTIONS },
};
