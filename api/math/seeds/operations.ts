import { problems } from '../../kernel/errors';
import { defineOperation } from '../../kernel/operation';
import { pageOf } from '../shared/pagination';
import { presentReviewStatus } from '../shared/reviewStatus';
import { taskListPage } from '../tasks/operations';
import { taskListQuery, taskListSchema } from '../tasks/schemas';
import { findSeed, listSeeds, type SeedRow } from './queries';
import { seedListQuery, seedListSchema, seedParams, seedSchema } from './schemas';

const presentSeed = (s: SeedRow) => ({
  question_id: s.question_id,
  review_status: presentReviewStatus(s),
  run_ids: s.run_ids,
  topic_ids: s.topic_ids,
  updated_at: s.updated_at.toISOString(),
});

export const listSeedsOperation = defineOperation({
  operationId: 'math.listSeeds',
  summary: 'Tasks grouped by source question id; counts cover only the caller’s visible tasks.',
  method: 'GET',
  path: '/api/math/seeds',
  minRole: 'REVIEWER',
  reviewerScope: 'assigned-tasks',
  scopes: ['read'],
  idempotency: 'none',
  request: { query: seedListQuery },
  response: { status: 200, schema: seedListSchema, description: 'A page of seeds in question id order.' },
  async handler({ query, principal, deps }) {
    const { rows, total } = await listSeeds(deps.dataSource, principal, query.q, query);
    return { body: pageOf(rows.map(presentSeed), query, total) };
  },
});

export const getSeed = defineOperation({
  operationId: 'math.getSeed',
  summary: 'Seed summary over the caller’s visible tasks.',
  method: 'GET',
  path: '/api/math/seeds/:question_id',
  minRole: 'REVIEWER',
  reviewerScope: 'assigned-tasks',
  scopes: ['read'],
  idempotency: 'none',
  request: { params: seedParams },
  response: { status: 200, schema: seedSchema, description: 'The seed.' },
  errors: [404],
  async handler({ params, principal, deps }) {
    const seed = await findSeed(deps.dataSource, principal, params.question_id);
    if (!seed) throw problems.notFound(`Seed ${params.question_id}`);
    return { body: presentSeed(seed) };
  },
});

export const listSeedTasks = defineOperation({
  operationId: 'math.listSeedTasks',
  summary: 'The tasks of a seed; the other task filters apply; archived included by default.',
  method: 'GET',
  path: '/api/math/seeds/:question_id/tasks',
  minRole: 'REVIEWER',
  reviewerScope: 'assigned-tasks',
  scopes: ['read'],
  idempotency: 'none',
  request: { params: seedParams, query: taskListQuery('all', { questionIdInPath: true }) },
  response: { status: 200, schema: taskListSchema, description: 'A page of the seed’s tasks.' },
  errors: [404],
  async handler({ params, query, principal, deps }) {
    if (!(await findSeed(deps.dataSource, principal, params.question_id)))
      throw problems.notFound(`Seed ${params.question_id}`);
    return { body: await taskListPage(deps, principal, { ...query, question_id: params.question_id }) };
  },
});

export const seedOperations = [listSeedsOperation, getSeed, listSeedTasks];
