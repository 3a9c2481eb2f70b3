import Joi from 'joi';
import { webhookOperationsOf } from '../../shared/webhooks/operations';
import { presentDelivery } from '../../shared/webhooks/presenters';
import { selectDeliveries } from '../../../webhooks/managementQueries';
import { pageQuery } from '../shared/pagination';
import { decimalId, text } from '../shared/schemas';

/** The webhook resource (docs/webhooks.md) in the genomics service's conventions. */
export const webhookOperations = webhookOperationsOf({
  service: 'genomics',
  pathPrefix: '/api/v1',
  owner: 'workspace',
  casing: 'camelCase',
  bodyFields: 'all-required',
  text,
  decimalId,
  listKey: 'items',
  updateMethod: 'PUT',
  idempotency: 'required',
  deliveries: {
    query: pageQuery,
    response: (delivery) => Joi.object({ items: Joi.array().items(delivery).max(100).required() }),
    description: 'Deliveries; page on with `before`.',
    async page(deps, endpointId, query) {
      const rows = await selectDeliveries(deps.dataSource, endpointId, {
        limit: query.limit,
        beforeId: query.before,
      });
      return { items: rows.map(presentDelivery) };
    },
  },
  createExample: {
    name: 'decisions',
    summary: 'Reviews and decisions',
    value: {
      url: 'https://hooks.example.org/referee',
      description: 'Decision feed',
      eventTypes: ['genomics.topic.review_submitted', 'genomics.topic.decision_overridden'],
    },
  },
});
