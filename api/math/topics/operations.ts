import Joi from 'joi';
import { typed } from '../../kernel/typedSchema';
import { defineOperation } from '../../kernel/operation';
import { businessId, dateTime, iso } from '../../shared/schemas';
import { pageOf, pageQueryKeys, pageSchema } from '../shared/pagination';
import { presentReviewStatus, reviewStatusSchema } from '../shared/reviewStatus';
import { searchQuery } from '../shared/search';
import { listTopics, type TopicRow } from './queries';

const topicSchema = Joi.object({
  topic_id: businessId().required(),
  title: Joi.string().allow('').required(),
  latest_run: Joi.object({
    run_id: businessId().required(),
    title: Joi.string().allow('').required(),
    imported_at: dateTime().required(),
    completed_at: dateTime().allow(null).required(),
  }).required(),
  review_status: reviewStatusSchema.required(),
  updated_at: dateTime().required(),
});

const presentTopic = (t: TopicRow) => ({
  topic_id: t.topic_id,
  title: t.title,
  latest_run: {
    run_id: t.run_id,
    title: t.run_title,
    imported_at: t.imported_at.toISOString(),
    completed_at: iso(t.completed_at),
  },
  review_status: presentReviewStatus(t),
  updated_at: t.updated_at.toISOString(),
});

export const listTopicsOperation = defineOperation({
  operationId: 'math.listTopics',
  summary: 'The latest imported run per topic; q searches titles, topic ids, run ids and problem text.',
  method: 'GET',
  path: '/api/math/topics',
  minRole: 'OWNER',
  scopes: ['read'],
  idempotency: 'none',
  request: { query: typed.object({ q: searchQuery(), ...pageQueryKeys }) },
  response: {
    status: 200,
    schema: pageSchema(topicSchema),
    description: 'A page of topics, most recently imported first.',
  },
  async handler({ query, principal, deps }) {
    const { rows, total } = await listTopics(deps.dataSource, principal, query.q, query);
    return { body: pageOf(rows.map(presentTopic), query, total) };
  },
});

export const topicOperations = [listTopicsOperation];
