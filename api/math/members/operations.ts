import { defineOperation } from '../../kernel/operation';
import { presentAuditRecord, presentReviewer, presentUser } from './presenters';
import { allMembers, identityAuditPage, reviewerChoices } from './queries';
import {
  auditListSchema,
  auditQuerySchema,
  reviewerListSchema,
  userListSchema,
  viewableUsersSchema,
} from './schemas';

export const listReviewers = defineOperation({
  operationId: 'math.listReviewers',
  summary:
    'Reviewer: own member record. Operators: member choices without the primary admin; check `enabled`.',
  method: 'GET',
  path: '/api/reviewers',
  minRole: 'REVIEWER',
  reviewerScope: 'assigned-tasks',
  scopes: ['read'],
  idempotency: 'none',
  request: {},
  response: { status: 200, schema: reviewerListSchema, description: 'Members to assign, by display name.' },
  async handler({ principal, deps }) {
    return { body: { reviewers: (await reviewerChoices(deps.dataSource, principal)).map(presentReviewer) } };
  },
});

export const listUsers = defineOperation({
  operationId: 'math.listUsers',
  summary: 'Read-only local member projections of the central identity service.',
  method: 'GET',
  path: '/api/users',
  minRole: 'ADMIN',
  scopes: ['read'],
  idempotency: 'none',
  request: {},
  response: { status: 200, schema: userListSchema, description: 'Every math member, enabled or not.' },
  async handler({ deps }) {
    return { body: { users: (await allMembers(deps.dataSource)).map(presentUser) } };
  },
});

export const listIdentityAudit = defineOperation({
  operationId: 'math.listIdentityAudit',
  summary:
    'Latest 100 identity audit records: key creation and revocation, member sync, failed authentication. ' +
    '`before` (a record id) pages back; `kind` keeps one kind.',
  method: 'GET',
  path: '/api/auth/audit',
  minRole: 'ADMIN',
  scopes: ['read'],
  idempotency: 'none',
  request: { query: auditQuerySchema },
  response: {
    status: 200,
    schema: auditListSchema,
    description:
      'Records newest first, each with an event-specific `detail`: the 100 latest, or the 100 before `before`.',
  },
  async handler({ query, deps }) {
    const rows = await identityAuditPage(deps.dataSource, { before: query.before, kind: query.kind });
    return { body: { records: rows.map(presentAuditRecord) } };
  },
});

export const listViewableUsers = defineOperation({
  operationId: 'math.listViewableUsers',
  summary: 'Dashboard compatibility: users viewable through the session; always empty with an API key.',
  method: 'GET',
  path: '/api/auth/viewable-users',
  minRole: 'ADMIN',
  scopes: ['read'],
  idempotency: 'none',
  request: {},
  response: { status: 200, schema: viewableUsersSchema, description: 'An empty `users` list.' },
  async handler() {
    return { body: { users: [] } };
  },
});

export const memberOperations = [listReviewers, listUsers, listIdentityAudit, listViewableUsers];
