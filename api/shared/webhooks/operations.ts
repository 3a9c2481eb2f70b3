import type Joi from 'joi';
import {
  changeEndpoint,
  createEndpoint,
  DEFAULT_GRACE_HOURS,
  MAX_ENDPOINTS_PER_SERVICE,
  MAX_GRACE_HOURS,
  redeliver,
  removeEndpoint,
  rotateSecret,
} from '../../../webhooks/management';
import { selectDelivery, selectEndpoint, selectEndpoints } from '../../../webhooks/managementQueries';
import {
  WAKE_WEBHOOK_ENDPOINT_SIGNAL,
  WEBHOOK_ENDPOINT_WORKFLOW_TYPE,
  webhookEndpointWorkflowStart,
} from '../../../webhooks/endpointWorkflow';
import type { AppDeps } from '../../kernel/deps';
import { problems } from '../../kernel/errors';
import { defineOperation, type Operation } from '../../kernel/operation';
import { presentDelivery, presentWebhook } from './presenters';
import { answerRefusals } from './refusals';
import {
  type WebhookBody,
  type WebhookParams,
  type WebhookSchemaConventions,
  webhookSchemasOf,
} from './schemas';

/*
 * The webhook resource of both services (docs/webhooks.md), declared once. Each service passes what its contract
 * does differently: path prefix, input casing, update method, Idempotency-Key rule, paging of deliveries, texts.
 * Managing webhooks hands out signing secrets and sends data out: an Admin with `keys:manage`.
 */

/** How a service pages an endpoint's deliveries (math: page/page_size with a total; genomics: limit/before). */
export interface DeliveryPaging<Q> {
  query: Joi.ObjectSchema<Q>;
  /** The answer's schema around one delivery's. */
  response: (delivery: Joi.ObjectSchema) => Joi.ObjectSchema;
  description: string;
  /** One page of the endpoint's deliveries, newest first, presented and wrapped as the service answers lists. */
  page(deps: AppDeps, endpointId: string, query: Q): Promise<unknown>;
}

export interface WebhookConventions<Q> extends WebhookSchemaConventions {
  /** Where the service's paths start (`/api`, `/api/v1`). */
  pathPrefix: string;
  /** Who owns the endpoints, in the list's summary (`service`, `workspace`). */
  owner: string;
  /** How the service updates a resource whose every field is sent (math POST, genomics PUT). */
  updateMethod: 'POST' | 'PUT';
  /** Whether the service's writes take or require an Idempotency-Key. */
  idempotency: 'optional' | 'required';
  deliveries: DeliveryPaging<Q>;
  /** The create operation's documented example, spelled as the service spells its bodies. */
  createExample: { name: string; summary: string; value: WebhookBody };
}

/**
 * Starts the endpoint's workflow if it is not running, and wakes it: called after every change commits. A failure
 * is logged, not answered: the change is committed, and the next change or the worker's sweep
 * (activities/webhookSweep.ts) starts it.
 */
async function wakeEndpointWorkflow(deps: AppDeps, endpointId: string): Promise<void> {
  try {
    await deps.temporal.client.withDeadline(Date.now() + deps.config.temporal.callTimeoutMs, () =>
      deps.temporal.client.workflow.signalWithStart(WEBHOOK_ENDPOINT_WORKFLOW_TYPE, {
        ...webhookEndpointWorkflowStart(endpointId, deps.config.temporal.taskQueue),
        signal: WAKE_WEBHOOK_ENDPOINT_SIGNAL,
      }),
    );
  } catch (error) {
    deps.logger.warn(
      { err: error, endpointId },
      'webhook endpoint workflow not started; the next change retries',
    );
  }
}

export function webhookOperationsOf<Q>(c: WebhookConventions<Q>): Operation[] {
  const schemas = webhookSchemasOf(c);
  const { names } = schemas;
  const base = `${c.pathPrefix}/webhooks`;
  const one = `${base}/:${names.webhookId}`;
  const id = (params: WebhookParams) => params[names.webhookId];
  const endpointInput = (body: WebhookBody) => ({
    url: body.url as string,
    description: (body.description as string | undefined) ?? '',
    eventTypes: body[names.eventTypes] as string[],
    maxInFlight: body[names.maxInFlight] as number | undefined,
  });
  const declared: Pick<Operation, 'minRole' | 'scopes' | 'extension'> = {
    minRole: 'ADMIN',
    scopes: ['keys:manage'],
    extension: true,
  };

  const listWebhooks = defineOperation({
    ...declared,
    operationId: `${c.service}.listWebhooks`,
    summary: `The ${c.owner}’s webhook endpoints (at most ${MAX_ENDPOINTS_PER_SERVICE}), oldest first; never a secret.`,
    method: 'GET',
    path: base,
    idempotency: 'none',
    request: {},
    response: { status: 200, schema: schemas.webhookList, description: 'Endpoints.' },
    async handler({ deps }) {
      const endpoints = await selectEndpoints(deps.dataSource, c.service);
      return { body: { [c.listKey]: endpoints.map(presentWebhook) } };
    },
  });

  const createWebhook = defineOperation<Record<string, never>, Record<string, never>, WebhookBody>({
    ...declared,
    // The answer carries a secret: a retry with a used key gets 409, and no receipt keeps the secret.
    idempotentReplay: 'conflict',
    operationId: `${c.service}.createWebhook`,
    summary: 'Register an endpoint for event types; its signing secret is returned this once.',
    method: 'POST',
    path: base,
    idempotency: c.idempotency,
    request: { body: schemas.createBody },
    response: {
      status: 201,
      schema: schemas.webhookWithSecret,
      description: 'The endpoint and its secret (shown once).',
    },
    errors: ['webhook_endpoint_limit', 'webhook_target_refused'],
    examples: { [c.createExample.name]: { summary: c.createExample.summary, value: c.createExample.value } },
    async handler({ body, principal, deps, transaction }) {
      let endpointId = '';
      const response = await transaction(async (tx) => {
        const { endpoint, secret } = await answerRefusals(() =>
          createEndpoint(
            deps.config.webhooks,
            tx,
            principal.service,
            principal.member.id,
            endpointInput(body),
          ),
        );
        endpointId = endpoint.id;
        return { status: 201, body: { ...presentWebhook(endpoint), secret } };
      });
      await wakeEndpointWorkflow(deps, endpointId);
      return response;
    },
  });

  const getWebhook = defineOperation<WebhookParams>({
    ...declared,
    operationId: `${c.service}.getWebhook`,
    summary: 'One webhook endpoint.',
    method: 'GET',
    path: one,
    idempotency: 'none',
    request: { params: schemas.webhookParams },
    response: { status: 200, schema: schemas.webhook, description: 'The endpoint.' },
    async handler({ params, deps }) {
      const endpoint = await selectEndpoint(deps.dataSource, c.service, id(params));
      if (!endpoint) throw problems.notFound(`Webhook endpoint ${id(params)}`);
      return { body: presentWebhook(endpoint) };
    },
  });

  const updateWebhook = defineOperation<WebhookParams, Record<string, never>, WebhookBody>({
    ...declared,
    operationId: `${c.service}.updateWebhook`,
    summary:
      c.updateMethod === 'PUT'
        ? 'Replace URL, description, event types and status: PAUSED pauses, ACTIVE resumes (also after a 410).'
        : 'Change URL, description, event types; pause (PAUSED) or resume (ACTIVE, also after a 410 disabled it).',
    method: c.updateMethod,
    path: one,
    idempotency: c.idempotency,
    request: { params: schemas.webhookParams, body: schemas.updateBody },
    response: { status: 200, schema: schemas.webhook, description: 'The endpoint as changed.' },
    errors: ['webhook_target_refused'],
    async handler({ params, body, deps, transaction }) {
      const status = body.status as 'ACTIVE' | 'PAUSED';
      const response = await transaction(async (tx) => ({
        body: presentWebhook(
          await answerRefusals(() =>
            changeEndpoint(deps.config.webhooks, tx, c.service, id(params), {
              ...endpointInput(body),
              status,
            }),
          ),
        ),
      }));
      await wakeEndpointWorkflow(deps, id(params));
      return response;
    },
  });

  const deleteWebhook = defineOperation<WebhookParams>({
    ...declared,
    operationId: `${c.service}.deleteWebhook`,
    summary: 'Delete an endpoint: nothing more is sent to it; its pending deliveries end as FAILED.',
    method: 'DELETE',
    path: one,
    idempotency: 'none',
    request: { params: schemas.webhookParams },
    response: { status: 200, schema: schemas.deletedWebhook, description: 'The endpoint is deleted.' },
    async handler({ params, deps, transaction }) {
      const response = await transaction(async (tx) => {
        await answerRefusals(() => removeEndpoint(tx, c.service, id(params)));
        return { body: { id: id(params), deleted: true } };
      });
      await wakeEndpointWorkflow(deps, id(params));
      return response;
    },
  });

  const graceBounds =
    c.bodyFields === 'omittable'
      ? `default ${DEFAULT_GRACE_HOURS}, max ${MAX_GRACE_HOURS}`
      : `0 to ${MAX_GRACE_HOURS}`;
  const rotateWebhookSecret = defineOperation<WebhookParams, Record<string, never>, WebhookBody>({
    ...declared,
    // The answer carries a secret: a retry with a used key gets 409, and no receipt keeps the secret.
    idempotentReplay: 'conflict',
    operationId: `${c.service}.rotateWebhookSecret`,
    summary: `A new signing secret (returned this once); the previous one also signs for ${names.gracePeriodHours} (${graceBounds}).`,
    method: 'POST',
    path: `${one}/rotate-secret`,
    idempotency: c.idempotency,
    request: { params: schemas.webhookParams, body: schemas.rotateBody },
    response: {
      status: 200,
      schema: schemas.webhookWithSecret,
      description: 'The endpoint, with the new secret (shown once) and until when the previous one signs.',
    },
    async handler({ params, body, deps, transaction }) {
      return transaction(async (tx) => {
        const graceHours = body[names.gracePeriodHours] as number;
        const { endpoint, secret } = await answerRefusals(() =>
          rotateSecret(deps.config.webhooks, tx, c.service, id(params), graceHours),
        );
        return { body: { ...presentWebhook(endpoint), secret } };
      });
    },
  });

  const listWebhookDeliveries = defineOperation<WebhookParams, Q>({
    ...declared,
    operationId: `${c.service}.listWebhookDeliveries`,
    summary:
      'An endpoint’s deliveries, newest first, each with its attempts (status, latency, response excerpt).',
    method: 'GET',
    path: `${one}/deliveries`,
    idempotency: 'none',
    request: { params: schemas.webhookParams, query: c.deliveries.query },
    response: {
      status: 200,
      schema: c.deliveries.response(schemas.delivery),
      description: c.deliveries.description,
    },
    async handler({ params, query, deps }) {
      const endpoint = await selectEndpoint(deps.dataSource, c.service, id(params));
      if (!endpoint) throw problems.notFound(`Webhook endpoint ${id(params)}`);
      return { body: await c.deliveries.page(deps, endpoint.id, query) };
    },
  });

  const redeliverWebhookDelivery = defineOperation<WebhookParams>({
    ...declared,
    operationId: `${c.service}.redeliverWebhookDelivery`,
    summary: 'Send an ended delivery again, with the same webhook-id and a fresh retry schedule.',
    method: 'POST',
    path: `${one}/deliveries/:${names.deliveryId}/redeliver`,
    idempotency: c.idempotency,
    request: { params: schemas.deliveryParams },
    response: { status: 202, schema: schemas.delivery, description: 'The delivery, pending again.' },
    errors: [409],
    async handler({ params, deps, transaction }) {
      const deliveryId = params[names.deliveryId];
      const response = await transaction(async (tx) => {
        await answerRefusals(() => redeliver(tx, c.service, id(params), deliveryId));
        const delivery = await selectDelivery(tx, id(params), deliveryId);
        if (!delivery) throw problems.internal();
        return { status: 202, body: presentDelivery(delivery) };
      });
      await wakeEndpointWorkflow(deps, id(params));
      return response;
    },
  });

  return [
    listWebhooks,
    createWebhook,
    getWebhook,
    updateWebhook,
    deleteWebhook,
    rotateWebhookSecret,
    listWebhookDeliveries,
    redeliverWebhookDelivery,
  ];
}
