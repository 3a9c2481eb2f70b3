import { randomUUID } from 'node:crypto';
import type { Transactional } from '../../entities/queryable';
import type { ServiceName } from '../../entities/types';
import { WEBHOOK_EVENT_TYPES } from '../../webhooks/events';
import { generateWebhookSecret, parseSealingKey, sealSecret } from '../../webhooks/secrets';
import {
  checkTargetAddresses,
  checkTargetUrl,
  type TargetPolicy,
  WebhookTargetRefused,
} from '../../webhooks/targets';
import {
  WAKE_WEBHOOK_ENDPOINT_SIGNAL,
  WEBHOOK_ENDPOINT_WORKFLOW_TYPE,
  webhookEndpointWorkflowId,
} from '../../webhooks/endpointWorkflow';
import type { Principal } from '../kernel/authenticate';
import type { AppDeps } from '../kernel/deps';
import { type ApiError, problems } from '../kernel/errors';
import {
  countLiveEndpoints,
  deleteEndpoint,
  type EndpointRow,
  insertEndpoint,
  reopenDelivery,
  rotateEndpointSecret,
  selectEndpoint,
  updateEndpoint,
} from './webhookQueries';

export {
  countDeliveries,
  type DeliveryRow,
  type EndpointRow,
  selectDeliveries,
  selectDelivery,
  selectEndpoint,
  selectEndpoints,
} from './webhookQueries';

/** Live endpoints per service: enough for a team's receivers; each one is a long-running workflow. */
export const MAX_ENDPOINTS_PER_SERVICE = 20;
/** Rotation: the previous secret keeps signing for this long by default, and at most a week. */
export const DEFAULT_GRACE_HOURS = 24;
export const MAX_GRACE_HOURS = 168;

export const eventTypesOf = (service: ServiceName): readonly string[] => WEBHOOK_EVENT_TYPES[service];

/** A refused target as each service answers it: math 422 (its convention), genomics 400 (422 means evidence). */
function targetRefused(service: ServiceName, refusal: WebhookTargetRefused): ApiError {
  const problem =
    service === 'math'
      ? problems.unprocessable('webhook_target_refused', refusal.message)
      : problems.badRequest('webhook_target_refused', refusal.message);
  return Object.assign(problem, { extensions: { reason: refusal.reason } });
}

const policyOf = (deps: AppDeps): TargetPolicy => ({
  allowPrivate: deps.config.webhooks.allowPrivateTargets,
});

/** Refuses a URL the worker would refuse to call: its form, and every address its host resolves to now. */
async function checkTarget(deps: AppDeps, service: ServiceName, url: string): Promise<void> {
  try {
    await checkTargetAddresses(checkTargetUrl(url, policyOf(deps)), policyOf(deps));
  } catch (error) {
    if (error instanceof WebhookTargetRefused) throw targetRefused(service, error);
    throw error;
  }
}

function sealingKey(deps: AppDeps): Buffer {
  if (!deps.config.webhooks.secretKey) throw problems.webhooksNotConfigured();
  return parseSealingKey(deps.config.webhooks.secretKey);
}

/**
 * Starts the endpoint's workflow if it is not running, and wakes it: called after every change commits. A failure
 * is logged, not answered: the change is committed, and the next change (or the worker's wake-up) retries it.
 */
export async function wakeEndpointWorkflow(deps: AppDeps, endpointId: string): Promise<void> {
  try {
    await deps.temporal.client.withDeadline(Date.now() + deps.config.temporal.callTimeoutMs, () =>
      deps.temporal.client.workflow.signalWithStart(WEBHOOK_ENDPOINT_WORKFLOW_TYPE, {
        workflowId: webhookEndpointWorkflowId(endpointId),
        taskQueue: deps.config.temporal.taskQueue,
        args: [{ endpointId }],
        signal: WAKE_WEBHOOK_ENDPOINT_SIGNAL,
        staticSummary: `Webhook endpoint ${endpointId}`,
      }),
    );
  } catch (error) {
    deps.logger.warn(
      { err: error, endpointId },
      'webhook endpoint workflow not started; the next change retries',
    );
  }
}

export interface EndpointInput {
  url: string;
  description: string;
  eventTypes: string[];
}

/** Creates an endpoint with a new secret (returned this once) in the caller's transaction. */
export async function createEndpoint(
  deps: AppDeps,
  tx: Transactional,
  principal: Principal,
  input: EndpointInput,
): Promise<{ endpoint: EndpointRow; secret: string }> {
  const key = sealingKey(deps);
  await checkTarget(deps, principal.service, input.url);
  if ((await countLiveEndpoints(tx, principal.service)) >= MAX_ENDPOINTS_PER_SERVICE) {
    throw problems.conflict(
      'webhook_endpoint_limit',
      `The service has ${MAX_ENDPOINTS_PER_SERVICE} webhook endpoints already; delete one first.`,
    );
  }
  const id = randomUUID();
  const secret = generateWebhookSecret();
  const endpoint = await insertEndpoint(tx, {
    id,
    service: principal.service,
    url: input.url,
    description: input.description,
    eventTypes: [...new Set(input.eventTypes)],
    secretSealed: sealSecret(secret, key, id),
    memberId: principal.member.id,
  });
  return { endpoint, secret };
}

export async function changeEndpoint(
  deps: AppDeps,
  tx: Transactional,
  service: ServiceName,
  id: string,
  change: EndpointInput & { status: 'ACTIVE' | 'PAUSED' },
): Promise<EndpointRow> {
  const current = await selectEndpoint(tx, service, id, true);
  if (!current) throw problems.notFound(`Webhook endpoint ${id}`);
  if (change.url !== current.url) await checkTarget(deps, service, change.url);
  const changed = await updateEndpoint(tx, service, id, {
    ...change,
    eventTypes: [...new Set(change.eventTypes)],
  });
  if (!changed) throw problems.notFound(`Webhook endpoint ${id}`);
  return changed;
}

export async function removeEndpoint(tx: Transactional, service: ServiceName, id: string): Promise<void> {
  if (!(await deleteEndpoint(tx, service, id))) throw problems.notFound(`Webhook endpoint ${id}`);
}

/** A new secret (returned this once); the previous one keeps signing for `graceHours`. */
export async function rotateSecret(
  deps: AppDeps,
  tx: Transactional,
  service: ServiceName,
  id: string,
  graceHours: number,
): Promise<{ endpoint: EndpointRow; secret: string }> {
  const key = sealingKey(deps);
  const secret = generateWebhookSecret();
  const endpoint = await rotateEndpointSecret(
    tx,
    service,
    id,
    sealSecret(secret, key, id),
    graceHours * 3600,
  );
  if (!endpoint) throw problems.notFound(`Webhook endpoint ${id}`);
  return { endpoint, secret };
}

export async function redeliver(
  tx: Transactional,
  service: ServiceName,
  endpointId: string,
  deliveryId: string,
): Promise<void> {
  if (!(await selectEndpoint(tx, service, endpointId)))
    throw problems.notFound(`Webhook endpoint ${endpointId}`);
  const outcome = await reopenDelivery(tx, endpointId, deliveryId);
  if (outcome === null) throw problems.notFound(`Delivery ${deliveryId}`);
  if (outcome === 'withdrawn') {
    throw problems.conflict(
      'event_withdrawn',
      `Delivery ${deliveryId} carries a withdrawn event: its transition never took effect, so it is not sent again.`,
    );
  }
  if (outcome === 'pending') {
    throw problems.conflict(
      'delivery_pending',
      `Delivery ${deliveryId} is still pending; it has not ended yet.`,
    );
  }
}
