import { randomUUID } from 'node:crypto';
import type { Transactional } from '../entities/queryable';
import type { ServiceName } from '../entities/types';
import type { WebhookEndpointStatus } from '../entities/WebhookEndpoint';
import { generateWebhookSecret, parseSealingKey, sealSecret } from './secrets';
import { checkTargetAddresses, checkTargetUrl, type TargetPolicy, WebhookTargetRefused } from './targets';
import {
  countLiveEndpoints,
  deleteEndpoint,
  type EndpointRow,
  insertEndpoint,
  reopenDelivery,
  rotateEndpointSecret,
  selectEndpoint,
  updateEndpoint,
} from './managementQueries';

/**
 * Managing webhook endpoints (docs/webhooks.md), shared by both APIs and the CLI (`referee webhooks`): each caller
 * answers a refusal in its own terms (the services' problem documents, the CLI's error codes).
 */

/** Live endpoints per service: enough for a team's receivers; each one is a long-running workflow. */
export const MAX_ENDPOINTS_PER_SERVICE = 20;
/** Rotation: the previous secret keeps signing for this long by default, and at most a week. */
export const DEFAULT_GRACE_HOURS = 24;
export const MAX_GRACE_HOURS = 168;
/** Deliveries one endpoint is sent at once (each of another subject), unless its Admin sets another bound. */
export const DEFAULT_MAX_IN_FLIGHT = 16;
export const MAX_MAX_IN_FLIGHT = 100;

/** What the caller's configuration says about webhooks: the sealing key and whether private targets are allowed. */
export interface WebhookSettings {
  secretKey?: string;
  allowPrivateTargets: boolean;
}

export type WebhookRefusalCode =
  | 'endpoint_not_found'
  | 'delivery_not_found'
  | 'webhook_target_refused'
  | 'webhook_endpoint_limit'
  | 'delivery_pending'
  | 'event_withdrawn'
  | 'webhooks_not_configured';

/**
 * A management change refused, with why: `reason` names a refused target's fault, `missing` what was not found
 * (`Webhook endpoint <id>`, `Delivery <id>`).
 */
export class WebhookRefusal extends Error {
  constructor(
    readonly code: WebhookRefusalCode,
    message: string,
    readonly detail: { reason?: string; missing?: string } = {},
  ) {
    super(message);
  }
}

const policyOf = (settings: WebhookSettings): TargetPolicy => ({
  allowPrivate: settings.allowPrivateTargets,
});

/** Refuses a URL the worker would refuse to call: its form, and every address its host resolves to now. */
async function checkTarget(settings: WebhookSettings, url: string): Promise<void> {
  try {
    await checkTargetAddresses(checkTargetUrl(url, policyOf(settings)), policyOf(settings));
  } catch (error) {
    if (error instanceof WebhookTargetRefused)
      throw new WebhookRefusal('webhook_target_refused', error.message, { reason: error.reason });
    throw error;
  }
}

function sealingKey(settings: WebhookSettings): Buffer {
  if (!settings.secretKey) {
    throw new WebhookRefusal(
      'webhooks_not_configured',
      'WEBHOOK_SECRET_KEY is not set, so webhook secrets cannot be sealed.',
    );
  }
  return parseSealingKey(settings.secretKey);
}

const endpointNotFound = (id: string) =>
  new WebhookRefusal('endpoint_not_found', `Webhook endpoint ${id} was not found.`, {
    missing: `Webhook endpoint ${id}`,
  });

export interface EndpointInput {
  url: string;
  description: string;
  eventTypes: string[];
  /** Unset: the default on creation, unchanged on update. */
  maxInFlight?: number;
}

/** Creates an endpoint with a new secret (returned this once) in the caller's transaction. */
export async function createEndpoint(
  settings: WebhookSettings,
  tx: Transactional,
  service: ServiceName,
  createdBy: string | null,
  input: EndpointInput,
): Promise<{ endpoint: EndpointRow; secret: string }> {
  const key = sealingKey(settings);
  await checkTarget(settings, input.url);
  if ((await countLiveEndpoints(tx, service)) >= MAX_ENDPOINTS_PER_SERVICE) {
    throw new WebhookRefusal(
      'webhook_endpoint_limit',
      `The service has ${MAX_ENDPOINTS_PER_SERVICE} webhook endpoints already; delete one first.`,
    );
  }
  const id = randomUUID();
  const secret = generateWebhookSecret();
  const endpoint = await insertEndpoint(tx, {
    id,
    service,
    url: input.url,
    description: input.description,
    eventTypes: [...new Set(input.eventTypes)],
    secretSealed: sealSecret(secret, key, id),
    memberId: createdBy,
    maxInFlight: input.maxInFlight ?? DEFAULT_MAX_IN_FLIGHT,
  });
  return { endpoint, secret };
}

export async function changeEndpoint(
  settings: WebhookSettings,
  tx: Transactional,
  service: ServiceName,
  id: string,
  /** DISABLED only to keep a disabled endpoint so (the CLI's update); the APIs set ACTIVE or PAUSED. */
  change: EndpointInput & { status: WebhookEndpointStatus },
): Promise<EndpointRow> {
  const current = await selectEndpoint(tx, service, id, true);
  if (!current) throw endpointNotFound(id);
  if (change.url !== current.url) await checkTarget(settings, change.url);
  const changed = await updateEndpoint(tx, service, id, {
    ...change,
    eventTypes: [...new Set(change.eventTypes)],
    maxInFlight: change.maxInFlight ?? null,
  });
  if (!changed) throw endpointNotFound(id);
  return changed;
}

export async function removeEndpoint(tx: Transactional, service: ServiceName, id: string): Promise<void> {
  if (!(await deleteEndpoint(tx, service, id))) throw endpointNotFound(id);
}

/** A new secret (returned this once); the previous one keeps signing for `graceHours`. */
export async function rotateSecret(
  settings: WebhookSettings,
  tx: Transactional,
  service: ServiceName,
  id: string,
  graceHours: number,
): Promise<{ endpoint: EndpointRow; secret: string }> {
  const key = sealingKey(settings);
  const secret = generateWebhookSecret();
  const endpoint = await rotateEndpointSecret(
    tx,
    service,
    id,
    sealSecret(secret, key, id),
    graceHours * 3600,
  );
  if (!endpoint) throw endpointNotFound(id);
  return { endpoint, secret };
}

export async function redeliver(
  tx: Transactional,
  service: ServiceName,
  endpointId: string,
  deliveryId: string,
): Promise<void> {
  if (!(await selectEndpoint(tx, service, endpointId))) throw endpointNotFound(endpointId);
  const outcome = await reopenDelivery(tx, endpointId, deliveryId);
  if (outcome === null)
    throw new WebhookRefusal('delivery_not_found', `Delivery ${deliveryId} was not found.`, {
      missing: `Delivery ${deliveryId}`,
    });
  if (outcome === 'withdrawn') {
    throw new WebhookRefusal(
      'event_withdrawn',
      `Delivery ${deliveryId} carries a withdrawn event: its transition never took effect, so it is not sent again.`,
    );
  }
  if (outcome === 'pending') {
    throw new WebhookRefusal(
      'delivery_pending',
      `Delivery ${deliveryId} is still pending; it has not ended yet.`,
    );
  }
}
