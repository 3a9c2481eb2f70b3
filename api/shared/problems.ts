import { type ProblemCatalogue, serviceProblems } from '../kernel/errors';

/**
 * The problem codes of what both services share (API keys, members, webhooks), each with its one status. The
 * genomics error table gives 422 to evidence, so a reference or key that cannot be used is 400 or 403 in both
 * services (docs/decisions.md, "One status per problem code").
 */
export const SHARED_PROBLEM_TYPES = {
  unknown_member: { status: 400, description: 'No such member, or one that may not be assigned.' },
  member_disabled: { status: 400, description: 'The member is disabled.' },
  webhook_target_refused: {
    status: 400,
    description:
      'The webhook URL is refused: not an absolute https URL (http only where the operator allows private ' +
      'targets), carries credentials, does not resolve, or resolves to a loopback, private, link-local or ' +
      'metadata address. `reason` names which.',
  },
  key_outlives_issuer: { status: 403, description: 'A new key may not expire after the key creating it.' },
  key_exceeds_member: { status: 403, description: 'A key may not carry a role above its member’s.' },
  active_key_limit: {
    status: 409,
    description: 'The member already has the maximum number of active keys.',
  },
  webhook_endpoint_limit: {
    status: 409,
    description: 'The service already has the maximum number of webhook endpoints (20): delete one first.',
  },
  delivery_pending: {
    status: 409,
    description:
      'The delivery is still pending: it will be attempted on its schedule; redeliver it once it ended.',
  },
  event_withdrawn: {
    status: 409,
    description:
      'The delivery’s event was withdrawn (its transition was replaced as unacknowledged): it is never sent again.',
  },
  export_not_ready: {
    status: 409,
    description: 'The export is still running (or failed): download it once its `state` is `SUCCEEDED`.',
  },
  export_expired: {
    status: 410,
    description: 'The export is past its expiry and its file was (or is being) deleted: start a new export.',
  },
  export_limit: {
    status: 429,
    description:
      'Too many exports are running, the caller’s or everyone’s (docs/exports.md): retry after `Retry-After` seconds.',
  },
} as const satisfies ProblemCatalogue;

export const sharedProblems = serviceProblems(SHARED_PROBLEM_TYPES);
