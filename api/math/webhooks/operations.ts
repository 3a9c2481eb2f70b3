import Joi from 'joi';
import { typed } from '../../kernel/typedSchema';
import { bigintString } from '../../shared/schemas';
import { webhookOperationsOf } from '../../shared/webhooks/operations';
import { presentDelivery } from '../../shared/webhooks/presenters';
import { countDeliveries, selectDeliveries } from '../../../webhooks/managementQueries';
import { limitOffset, pageOf, pageQueryKeys, pageSchema } from '../shared/pagination';

/** The webhook resource (docs/webhooks.md) in the math service's conventions. */
export const webhookOperations = webhookOperationsOf({
  service: 'math',
  pathPrefix: '/api',
  owner: 'service',
  casing: 'snake_case',
  bodyFields: 'omittable',
  text: (max) => Joi.string().max(max),
  decimalId: bigintString,
  listKey: 'webhooks',
  updateMethod: 'POST',
  idempotency: 'optional',
  deliveries: {
    query: typed.object(pageQueryKeys),
    response: (delivery) => pageSchema(delivery),
    description: 'A page of deliveries.',
    async page(deps, endpointId, query) {
      const [limit, offset] = limitOffset(query);
      const [rows, total] = await Promise.all([
        selectDeliveries(deps.dataSource, endpointId, { limit, offset }),
        countDeliveries(deps.dataSource, endpointId),
      ]);
      return pageOf(rows.map(presentDelivery), query, total);
    },
  },
  createExample: {
    name: 'tasks',
    summary: 'Every task transition',
    value: {
      url: 'https://hooks.example.org/referee',
      event_types: ['math.task.assigned', 'math.task.verdict_recorded', 'math.task.reopened'],
      description: 'Review dashboard',
    },
  },
});
