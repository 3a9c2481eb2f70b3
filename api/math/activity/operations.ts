import { typed } from '../../kernel/typedSchema';
import { defineOperation } from '../../kernel/operation';
import { pageOf, pageQueryKeys, pageSchema } from '../shared/pagination';
import { activitySchema, presentActivity } from './presenters';
import { ACTIVITY_KINDS, countActivity, listActivity } from './queries';

export const listActivityOperation = defineOperation({
  operationId: 'math.listActivity',
  summary: 'Visible task workflow events and client audit events, newest first.',
  method: 'GET',
  path: '/api/math/activity',
  minRole: 'REVIEWER',
  reviewerScope: 'assigned-tasks',
  scopes: ['read'],
  idempotency: 'none',
  request: {
    query: typed.object({ kind: typed.string().valid(...ACTIVITY_KINDS), ...pageQueryKeys }),
  },
  response: { status: 200, schema: pageSchema(activitySchema), description: 'A page of activity.' },
  async handler({ query, principal, deps }) {
    const [rows, total] = await Promise.all([
      listActivity(deps.dataSource, principal, query.kind, query),
      countActivity(deps.dataSource, principal, query.kind),
    ]);
    return { body: pageOf(rows.map(presentActivity), query, total) };
  },
});

export const activityOperations = [listActivityOperation];
