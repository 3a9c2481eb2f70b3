import { serviceProblems } from '../kernel/errors';

/** The problem codes of what both services share (API keys, members, webhooks), per factory. */
export interface SharedCodes {
  badRequest: 'unknown_member' | 'member_disabled' | 'webhook_target_refused';
  forbidden: 'key_outlives_issuer' | 'key_exceeds_member';
  conflict: 'active_key_limit' | 'webhook_endpoint_limit' | 'delivery_pending' | 'event_withdrawn';
}

export type SharedCode = SharedCodes[keyof SharedCodes];

export const sharedProblems = serviceProblems<SharedCodes>();

/** One sentence per shared code; each service lists the ones it answers with in its problem types. */
export const SHARED_PROBLEM_DESCRIPTIONS: Record<SharedCode, string> = {
  unknown_member: 'No such member, or one that may not be assigned.',
  member_disabled: 'The member is disabled.',
  key_outlives_issuer: 'A new key may not expire after the key creating it.',
  key_exceeds_member: 'A key may not carry a role above its member’s.',
  active_key_limit: 'The member already has the maximum number of active keys.',
  webhook_target_refused:
    'The webhook URL is refused: not an absolute https URL (http only where the operator allows private ' +
    'targets), carries credentials, does not resolve, or resolves to a loopback, private, link-local or ' +
    'metadata address. `reason` names which.',
  webhook_endpoint_limit:
    'The service already has the maximum number of webhook endpoints (20): delete one first.',
  delivery_pending:
    'The delivery is still pending: it will be attempted on its schedule; redeliver it once it ended.',
  event_withdrawn:
    'The delivery’s event was withdrawn (its transition was replaced as unacknowledged): it is never sent again.',
};
