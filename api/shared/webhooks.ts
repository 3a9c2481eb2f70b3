import * as management from '../../access/webhooks';
import type { Transactional } from '../../entities/queryable';
import type { ServiceName } from '../../entities/types';
import { WEBHOOK_EVENT_TYPES } from '../../webhooks/events';
import {
  WAKE_WEBHOOK_ENDPOINT_SIGNAL,
  WEBHOOK_ENDPOINT_WORKFLOW_TYPE,
  webhookEndpointWorkflowStart,
} from '../../webhooks/endpointWorkflow';
import type { Principal } from '../kernel/authenticate';
import type { AppDeps } from '../kernel/deps';
import { type ApiError, problems } from '../kernel/errors';
import { sharedProblems } from './problems';
import type { EndpointRow } from '../../access/webhookQueries';

export {
  countDeliveries,
  type DeliveryRow,
  type EndpointRow,
  selectDeliveries,
  selectDelivery,
  selectEndpoint,
  selectEndpoints,
} from '../../access/webhookQueries';
export { DEFAULT_GRACE_HOURS, MAX_ENDPOINTS_PER_SERVICE, MAX_GRACE_HOURS } from '../../access/webhooks';

/*
 * The webhook management of access/webhooks.ts as both APIs answer it: refusals become each service's problem
 * documents, and every committed change wakes (or starts) the endpoint's workflow.
 */

export const eventTypesOf = (service: ServiceName): readonly string[] => WEBHOOK_EVENT_TYPES[service];

/** A refusal as both services answer it. */
function problemOf(refusal: management.WebhookRefusal): ApiError {
  switch (refusal.code) {
    case 'endpoint_not_found':
    case 'delivery_not_found':
      return problems.notFound(refusal.detail.missing ?? 'The resource');
    case 'webhooks_not_configured':
      return problems.webhooksNotConfigured();
    case 'webhook_target_refused':
      return sharedProblems.badRequest('webhook_target_refused', refusal.message, {
        reason: refusal.detail.reason,
      });
    default:
      return sharedProblems.conflict(refusal.code, refusal.message);
  }
}

async function answered<T>(change: () => Promise<T>): Promise<T> {
  try {
    return await change();
  } catch (error) {
    if (error instanceof management.WebhookRefusal) throw problemOf(error);
    throw error;
  }
}

const settingsOf = (deps: AppDeps): management.WebhookSettings => deps.config.webhooks;

/**
 * Starts the endpoint's workflow if it is not running, and wakes it: called after every change commits. A failure
 * is logged, not answered: the change is committed, and the next change or the worker's sweep
 * (activities/webhookSweep.ts) starts it.
 */
export async function wakeEndpointWorkflow(deps: AppDeps, endpointId: string): Promise<void> {
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

export type EndpointInput = management.EndpointInput;

/** Creates an endpoint with a new secret (returned this once) in the caller's transaction. */
export const createEndpoint = (
  deps: AppDeps,
  tx: Transactional,
  principal: Principal,
  input: EndpointInput,
): Promise<{ endpoint: EndpointRow; secret: string }> =>
  answered(() =>
    management.createEndpoint(settingsOf(deps), tx, principal.service, principal.member.id, input),
  );

export const changeEndpoint = (
  deps: AppDeps,
  tx: Transactional,
  service: ServiceName,
  id: string,
  change: EndpointInput & { status: 'ACTIVE' | 'PAUSED' },
): Promise<EndpointRow> =>
  answered(() => management.changeEndpoint(settingsOf(deps), tx, service, id, change));

export const removeEndpoint = (tx: Transactional, service: ServiceName, id: string): Promise<void> =>
  answered(() => management.removeEndpoint(tx, service, id));

/** A new secret (returned this once); the previous one keeps signing for `graceHours`. */
export const rotateSecret = (
  deps: AppDeps,
  tx: Transactional,
  service: ServiceName,
  id: string,
  graceHours: number,
): Promise<{ endpoint: EndpointRow; secret: string }> =>
  answered(() => management.rotateSecret(settingsOf(deps), tx, service, id, graceHours));

export const redeliver = (
  tx: Transactional,
  service: ServiceName,
  endpointId: string,
  deliveryId: string,
): Promise<void> => answered(() => management.redeliver(tx, service, endpointId, deliveryId));
