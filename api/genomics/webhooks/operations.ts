import { problems } from '../../kernel/errors';
import { defineOperation } from '../../kernel/operation';
import {
  changeEndpoint,
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
import { presentDelivery, presentWebhook } from '../../shared/webhookPresenters';
import {
  type CreateWebhookBody,
  createWebhookBody,
  deletedWebhookSchema,
  deliveryListSchema,
  type DeliveryParams,
  deliveryParams,
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

// Managing webhooks hands out signing secrets and sends data out: an ADMIN with `keys:manage` (docs/webhooks.md).

export const listWebhooks = defineOperation({
  operationId: 'genomics.listWebhooks',
  summary: 'The workspace’s webhook endpoints (at most 20), oldest first; never a secret.',
  method: 'GET',
  path: '/api/v1/webhooks',
  minRole: 'ADMIN',
  scopes: ['keys:manage'],
  extension: true,
  idempotency: 'none',
  request: {},
  response: { status: 200, schema: webhookListSchema, description: 'Endpoints.' },
  async handler({ deps }) {
    return { body: { items: (await selectEndpoints(deps.dataSource, 'genomics')).map(presentWebhook) } };
  },
});

export const createWebhook = defineOperation<Record<string, never>, Record<string, never>, CreateWebhookBody>(
  {
    operationId: 'genomics.createWebhook',
    summary: 'Register an endpoint for event types; its signing secret is returned this once.',
    method: 'POST',
    path: '/api/v1/webhooks',
    minRole: 'ADMIN',
    scopes: ['keys:manage'],
    extension: true,
    idempotency: 'required',
    idempotentReplay: 'conflict',
    request: { body: createWebhookBody },
    response: {
      status: 201,
      schema: webhookWithSecretSchema,
      description: 'The endpoint and its secret (shown once).',
    },
    examples: {
      decisions: {
        summary: 'Reviews and decisions',
        value: {
          url: 'https://hooks.example.org/referee',
          description: 'Decision feed',
          eventTypes: ['genomics.topic.review_submitted', 'genomics.topic.decision_overridden'],
        },
      },
    },
    async handler({ body, principal, deps, transaction }) {
      const created = await transaction(async (tx) => {
        const { endpoint, secret } = await createEndpoint(deps, tx, principal, body);
        return { status: 201, body: { ...presentWebhook(endpoint), secret } };
      });
      await wakeEndpointWorkflow(deps, (created.body as { id: string }).id);
      return created;
    },
  },
);

export const getWebhook = defineOperation<WebhookParams>({
  operationId: 'genomics.getWebhook',
  summary: 'One webhook endpoint.',
  method: 'GET',
  path: '/api/v1/webhooks/:webhookId',
  minRole: 'ADMIN',
  scopes: ['keys:manage'],
  extension: true,
  idempotency: 'none',
  request: { params: webhookParams },
  response: { status: 200, schema: webhookSchema, description: 'The endpoint.' },
  async handler({ params, deps }) {
    const endpoint = await selectEndpoint(deps.dataSource, 'genomics', params.webhookId);
    if (!endpoint) throw problems.notFound(`Webhook endpoint ${params.webhookId}`);
    return { body: presentWebhook(endpoint) };
  },
});

export const updateWebhook = defineOperation<WebhookParams, Record<string, never>, UpdateWebhookBody>({
  operationId: 'genomics.updateWebhook',
  summary:
    'Replace URL, description, event types and status: PAUSED pauses, ACTIVE resumes (also after a 410).',
  method: 'PUT',
  path: '/api/v1/webhooks/:webhookId',
  minRole: 'ADMIN',
  scopes: ['keys:manage'],
  extension: true,
  idempotency: 'required',
  request: { params: webhookParams, body: updateWebhookBody },
  response: { status: 200, schema: webhookSchema, description: 'The endpoint as changed.' },
  async handler({ params, body, deps, transaction }) {
    const response = await transaction(async (tx) => ({
      body: presentWebhook(await changeEndpoint(deps, tx, 'genomics', params.webhookId, body)),
    }));
    await wakeEndpointWorkflow(deps, params.webhookId);
    return response;
  },
});

export const deleteWebhook = defineOperation<WebhookParams>({
  operationId: 'genomics.deleteWebhook',
  summary: 'Delete an endpoint: nothing more is sent to it; its pending deliveries end as FAILED.',
  method: 'DELETE',
  path: '/api/v1/webhooks/:webhookId',
  minRole: 'ADMIN',
  scopes: ['keys:manage'],
  extension: true,
  idempotency: 'none',
  request: { params: webhookParams },
  response: { status: 200, schema: deletedWebhookSchema, description: 'The endpoint is deleted.' },
  async handler({ params, deps, transaction }) {
    const response = await transaction(async (tx) => {
      await removeEndpoint(tx, 'genomics', params.webhookId);
      return { body: { id: params.webhookId, deleted: true } };
    });
    await wakeEndpointWorkflow(deps, params.webhookId);
    return response;
  },
});

export const rotateWebhookSecret = defineOperation<WebhookParams, Record<string, never>, RotateSecretBody>({
  operationId: 'genomics.rotateWebhookSecret',
  summary:
    'A new signing secret (returned this once); the previous one also signs for gracePeriodHours (0 to 168).',
  method: 'POST',
  path: '/api/v1/webhooks/:webhookId/rotate-secret',
  minRole: 'ADMIN',
  scopes: ['keys:manage'],
  extension: true,
  idempotency: 'required',
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
        'genomics',
        params.webhookId,
        body.gracePeriodHours,
      );
      return { body: { ...presentWebhook(endpoint), secret } };
    });
  },
});

export const listWebhookDeliveries = defineOperation<WebhookParams, DeliveryQuery>({
  operationId: 'genomics.listWebhookDeliveries',
  summary:
    'An endpoint’s deliveries, newest first, each with its attempts (status, latency, response excerpt).',
  method: 'GET',
  path: '/api/v1/webhooks/:webhookId/deliveries',
  minRole: 'ADMIN',
  scopes: ['keys:manage'],
  extension: true,
  idempotency: 'none',
  request: { params: webhookParams, query: deliveryQuery },
  response: { status: 200, schema: deliveryListSchema, description: 'Deliveries; page on with `before`.' },
  async handler({ params, query, deps }) {
    const endpoint = await selectEndpoint(deps.dataSource, 'genomics', params.webhookId);
    if (!endpoint) throw problems.notFound(`Webhook endpoint ${params.webhookId}`);
    const rows = await selectDeliveries(deps.dataSource, endpoint.id, {
      limit: query.limit,
      beforeId: query.before,
    });
    return { body: { items: rows.map(presentDelivery) } };
  },
});

export const redeliverWebhookDelivery = defineOperation<DeliveryParams>({
  operationId: 'genomics.redeliverWebhookDelivery',
  summary: 'Send an ended delivery again, with the same webhook-id and a fresh retry schedule.',
  method: 'POST',
  path: '/api/v1/webhooks/:webhookId/deliveries/:deliveryId/redeliver',
  minRole: 'ADMIN',
  scopes: ['keys:manage'],
  extension: true,
  idempotency: 'required',
  request: { params: deliveryParams },
  response: { status: 202, schema: deliverySchema, description: 'The delivery, pending again.' },
  async handler({ params, deps, transaction }) {
    const response = await transaction(async (tx) => {
      await redeliver(tx, 'genomics', params.webhookId, params.deliveryId);
      const delivery = await selectDelivery(tx, params.webhookId, params.deliveryId);
      if (!delivery) throw problems.internal();
      return { status: 202, body: presentDelivery(delivery) };
    });
    await wakeEndpointWorkflow(deps, params.webhookId);
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
