import { defineOperation } from '../../kernel/operation';
import {
  changeEndpoint,
  countDeliveries,
  createEndpoint,
  redeliver,
  removeEndpoint,
  rotateSecret,
  selectDeliveries,
  selectDelivery,
  selectEndpoint,
  selectEndpoints,
  wakeEndpointWorkflow,
} from '../../shared/webhooks';
import { problems } from '../../kernel/errors';
import { limitOffset, pageOf } from '../shared/pagination';
import { presentDelivery, presentWebhook } from '../../shared/webhookPresenters';
import {
  type CreateWebhookBody,
  createWebhookBody,
  deletedWebhookSchema,
  type DeliveryParams,
  deliveryParams,
  deliveryPageSchema,
  type DeliveryQuery,
  deliveryQuery,
  deliverySchema,
  type RotateSecretBody,
  rotateSecretBody,
  type UpdateWebhookBody,
  updateWebhookBody,
  type WebhookParams,
  webhookListSchema,
  webhookParams,
  webhookSchema,
  webhookWithSecretSchema,
} from './schemas';

// Managing webhooks hands out signing secrets and sends data out: an Admin with `keys:manage` (docs/webhooks.md).

export const listWebhooks = defineOperation({
  operationId: 'math.listWebhooks',
  summary: 'The service’s webhook endpoints (at most 20), oldest first; never a secret.',
  method: 'GET',
  path: '/api/webhooks',
  minRole: 'ADMIN',
  scopes: ['keys:manage'],
  extension: true,
  idempotency: 'none',
  request: {},
  response: { status: 200, schema: webhookListSchema, description: 'Endpoints.' },
  async handler({ deps }) {
    return { body: { webhooks: (await selectEndpoints(deps.dataSource, 'math')).map(presentWebhook) } };
  },
});

export const createWebhook = defineOperation<Record<string, never>, Record<string, never>, CreateWebhookBody>(
  {
    operationId: 'math.createWebhook',
    summary: 'Register an endpoint for event types; its signing secret is returned this once.',
    method: 'POST',
    path: '/api/webhooks',
    minRole: 'ADMIN',
    scopes: ['keys:manage'],
    extension: true,
    idempotency: 'optional',
    idempotentReplay: 'conflict',
    request: { body: createWebhookBody },
    response: {
      status: 201,
      schema: webhookWithSecretSchema,
      description: 'The endpoint and its secret (shown once).',
    },
    errors: [409, 422],
    examples: {
      tasks: {
        summary: 'Every task transition',
        value: {
          url: 'https://hooks.example.org/referee',
          event_types: ['math.task.assigned', 'math.task.verdict_recorded', 'math.task.reopened'],
          description: 'Review dashboard',
        },
      },
    },
    async handler({ body, principal, deps, transaction }) {
      const created = await transaction(async (tx) => {
        const { endpoint, secret } = await createEndpoint(deps, tx, principal, {
          url: body.url,
          description: body.description ?? '',
          eventTypes: body.event_types,
        });
        return { status: 201, body: { ...presentWebhook(endpoint), secret } };
      });
      await wakeEndpointWorkflow(deps, (created.body as { id: string }).id);
      return created;
    },
  },
);

export const getWebhook = defineOperation<WebhookParams>({
  operationId: 'math.getWebhook',
  summary: 'One webhook endpoint.',
  method: 'GET',
  path: '/api/webhooks/:webhook_id',
  minRole: 'ADMIN',
  scopes: ['keys:manage'],
  extension: true,
  idempotency: 'none',
  request: { params: webhookParams },
  response: { status: 200, schema: webhookSchema, description: 'The endpoint.' },
  async handler({ params, deps }) {
    const endpoint = await selectEndpoint(deps.dataSource, 'math', params.webhook_id);
    if (!endpoint) throw problems.notFound(`Webhook endpoint ${params.webhook_id}`);
    return { body: presentWebhook(endpoint) };
  },
});

export const updateWebhook = defineOperation<WebhookParams, Record<string, never>, UpdateWebhookBody>({
  operationId: 'math.updateWebhook',
  summary:
    'Change URL, description, event types; pause (PAUSED) or resume (ACTIVE, also after a 410 disabled it).',
  method: 'POST',
  path: '/api/webhooks/:webhook_id',
  minRole: 'ADMIN',
  scopes: ['keys:manage'],
  extension: true,
  idempotency: 'optional',
  request: { params: webhookParams, body: updateWebhookBody },
  response: { status: 200, schema: webhookSchema, description: 'The endpoint as changed.' },
  errors: [422],
  async handler({ params, body, deps, transaction }) {
    const response = await transaction(async (tx) => ({
      body: presentWebhook(
        await changeEndpoint(deps, tx, 'math', params.webhook_id, {
          url: body.url,
          description: body.description,
          eventTypes: body.event_types,
          status: body.status,
        }),
      ),
    }));
    await wakeEndpointWorkflow(deps, params.webhook_id);
    return response;
  },
});

export const deleteWebhook = defineOperation<WebhookParams>({
  operationId: 'math.deleteWebhook',
  summary: 'Delete an endpoint: nothing more is sent to it; its pending deliveries end as FAILED.',
  method: 'DELETE',
  path: '/api/webhooks/:webhook_id',
  minRole: 'ADMIN',
  scopes: ['keys:manage'],
  extension: true,
  idempotency: 'none',
  request: { params: webhookParams },
  response: { status: 200, schema: deletedWebhookSchema, description: 'The endpoint is deleted.' },
  async handler({ params, deps, transaction }) {
    const response = await transaction(async (tx) => {
      await removeEndpoint(tx, 'math', params.webhook_id);
      return { body: { id: params.webhook_id, deleted: true } };
    });
    await wakeEndpointWorkflow(deps, params.webhook_id);
    return response;
  },
});

export const rotateWebhookSecret = defineOperation<WebhookParams, Record<string, never>, RotateSecretBody>({
  operationId: 'math.rotateWebhookSecret',
  summary:
    'A new signing secret (returned this once); the previous one also signs for grace_period_hours (default 24, max 168).',
  method: 'POST',
  path: '/api/webhooks/:webhook_id/rotate-secret',
  minRole: 'ADMIN',
  scopes: ['keys:manage'],
  extension: true,
  idempotency: 'optional',
  idempotentReplay: 'conflict',
  request: { params: webhookParams, body: rotateSecretBody },
  response: {
    status: 200,
    schema: webhookWithSecretSchema,
    description: 'The endpoint, with the new secret (shown once) and until when the previous one signs.',
  },
  async handler({ params, body, deps, transaction }) {
    return transaction(async (tx) => {
      const { endpoint, secret } = await rotateSecret(
        deps,
        tx,
        'math',
        params.webhook_id,
        body.grace_period_hours ?? 24,
      );
      return { body: { ...presentWebhook(endpoint), secret } };
    });
  },
});

export const listWebhookDeliveries = defineOperation<WebhookParams, DeliveryQuery>({
  operationId: 'math.listWebhookDeliveries',
  summary:
    'An endpoint’s deliveries, newest first, each with its attempts (status, latency, response excerpt).',
  method: 'GET',
  path: '/api/webhooks/:webhook_id/deliveries',
  minRole: 'ADMIN',
  scopes: ['keys:manage'],
  extension: true,
  idempotency: 'none',
  request: { params: webhookParams, query: deliveryQuery },
  response: { status: 200, schema: deliveryPageSchema, description: 'A page of deliveries.' },
  async handler({ params, query, deps }) {
    const endpoint = await selectEndpoint(deps.dataSource, 'math', params.webhook_id);
    if (!endpoint) throw problems.notFound(`Webhook endpoint ${params.webhook_id}`);
    const [limit, offset] = limitOffset(query);
    const [rows, total] = await Promise.all([
      selectDeliveries(deps.dataSource, endpoint.id, { limit, offset }),
      countDeliveries(deps.dataSource, endpoint.id),
    ]);
    return { body: pageOf(rows.map(presentDelivery), query, total) };
  },
});

export const redeliverWebhookDelivery = defineOperation<DeliveryParams>({
  operationId: 'math.redeliverWebhookDelivery',
  summary: 'Send an ended delivery again, with the same webhook-id and a fresh retry schedule.',
  method: 'POST',
  path: '/api/webhooks/:webhook_id/deliveries/:delivery_id/redeliver',
  minRole: 'ADMIN',
  scopes: ['keys:manage'],
  extension: true,
  idempotency: 'optional',
  request: { params: deliveryParams },
  response: { status: 202, schema: deliverySchema, description: 'The delivery, pending again.' },
  errors: [409],
  async handler({ params, deps, transaction }) {
    const response = await transaction(async (tx) => {
      await redeliver(tx, 'math', params.webhook_id, params.delivery_id);
      const delivery = await selectDelivery(tx, params.webhook_id, params.delivery_id);
      if (!delivery) throw problems.internal();
      return { status: 202, body: presentDelivery(delivery) };
    });
    await wakeEndpointWorkflow(deps, params.webhook_id);
    return response;
  },
});

export const webhookOperations = [
  listWebhooks,
  createWebhook,
  getWebhook,
  updateWebhook,
  deleteWebhook,
  rotateWebhookSecret,
  listWebhookDeliveries,
  redeliverWebhookDelivery,
];
