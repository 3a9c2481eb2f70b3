import Joi from 'joi';
import type { ServiceName } from '../../../entities/types';
import { WEBHOOK_DELIVERY_STATUSES } from '../../../entities/WebhookDelivery';
import { WEBHOOK_ENDPOINT_STATUSES } from '../../../entities/WebhookEndpoint';
import { WEBHOOK_EVENT_TYPES } from '../../../webhooks/events';
import { dateTime } from '../schemas';
import {
  DEFAULT_GRACE_HOURS,
  DEFAULT_MAX_IN_FLIGHT,
  MAX_ENDPOINTS_PER_SERVICE,
  MAX_GRACE_HOURS,
  MAX_MAX_IN_FLIGHT,
} from '../../../webhooks/management';

/*
 * The webhook resource's schemas, one set per service built from what differs between the two contracts: how a
 * service spells its inputs, whether its bodies omit fields or send them all, and its text and id rules. Records
 * (endpoints, deliveries) have one shape in both services (presenters.ts).
 */

/** How a service spells its path parameters and request body fields (math snake_case, genomics camelCase). */
export type InputCasing = 'snake_case' | 'camelCase';

/** The input names that differ with the casing; `url`, `description` and `status` are spelled alike. */
export interface WebhookInputNames {
  webhookId: string;
  deliveryId: string;
  eventTypes: string;
  gracePeriodHours: string;
  maxInFlight: string;
}

export const inputNamesOf = (casing: InputCasing): WebhookInputNames =>
  casing === 'snake_case'
    ? {
        webhookId: 'webhook_id',
        deliveryId: 'delivery_id',
        eventTypes: 'event_types',
        gracePeriodHours: 'grace_period_hours',
        maxInFlight: 'max_in_flight',
      }
    : {
        webhookId: 'webhookId',
        deliveryId: 'deliveryId',
        eventTypes: 'eventTypes',
        gracePeriodHours: 'gracePeriodHours',
        maxInFlight: 'maxInFlight',
      };

export interface WebhookSchemaConventions {
  service: ServiceName;
  casing: InputCasing;
  /**
   * `omittable`: a creation may leave out `description` and a rotation its grace period (24 hours), as math's
   * bodies do; `all-required`: every body field is sent, as genomics' creations are.
   */
  bodyFields: 'omittable' | 'all-required';
  /** The service's free-text rule (genomics refuses text PostgreSQL would not store exactly). */
  text: (max: number) => Joi.StringSchema;
  /** The service's rule for a decimal id (a delivery's). */
  decimalId: () => Joi.StringSchema;
  /** The name of the array in the endpoint list's answer (`webhooks` in math, `items` in genomics). */
  listKey: string;
}

/** Path parameters and bodies as validated, under the service's spelling (see {@link WebhookInputNames}). */
export type WebhookParams = Record<string, string>;
export type WebhookBody = Record<string, unknown>;

export type WebhookSchemas = ReturnType<typeof webhookSchemasOf>;

export function webhookSchemasOf(c: WebhookSchemaConventions) {
  const names = inputNamesOf(c.casing);
  const omittable = c.bodyFields === 'omittable';
  const eventTypes = WEBHOOK_EVENT_TYPES[c.service];
  const url = () =>
    Joi.string()
      .max(2048)
      .uri({ scheme: ['https', 'http'] });
  const subscribed = () =>
    Joi.array()
      .items(Joi.string().valid(...eventTypes))
      .min(1)
      .max(eventTypes.length)
      .unique();
  const description = () => c.text(500).allow('');
  const maxInFlight = () =>
    Joi.number()
      .integer()
      .min(1)
      .max(MAX_MAX_IN_FLIGHT)
      .description(
        `How many deliveries are sent to the endpoint at once, each of another subject (default ${DEFAULT_MAX_IN_FLIGHT}); omitted on update: unchanged.`,
      );

  const webhookId = () => Joi.string().uuid().required();
  const webhookParams = Joi.object<WebhookParams>({ [names.webhookId]: webhookId() });
  const deliveryParams = Joi.object<WebhookParams>({
    [names.webhookId]: webhookId(),
    [names.deliveryId]: c.decimalId().required(),
  });

  const createBody = Joi.object<WebhookBody>({
    url: url().required(),
    description: omittable ? description() : description().required(),
    [names.eventTypes]: subscribed().required(),
    [names.maxInFlight]: maxInFlight(),
  }).required();
  /** Every field but the in-flight bound required in both services: what is sent is what the endpoint becomes. */
  const updateBody = Joi.object<WebhookBody>({
    url: url().required(),
    description: description().required(),
    [names.eventTypes]: subscribed().required(),
    status: Joi.string().valid('ACTIVE', 'PAUSED').required(),
    [names.maxInFlight]: maxInFlight(),
  }).required();
  const graceHours = Joi.number().integer().min(0).max(MAX_GRACE_HOURS);
  const rotateBody = Joi.object<WebhookBody>({
    [names.gracePeriodHours]: omittable ? graceHours.default(DEFAULT_GRACE_HOURS) : graceHours.required(),
  }).required();

  const webhook = Joi.object({
    id: Joi.string().uuid().required(),
    url: Joi.string().required(),
    description: Joi.string().allow('').required(),
    event_types: Joi.array()
      .items(Joi.string().valid(...eventTypes))
      .required(),
    status: Joi.string()
      .valid(...WEBHOOK_ENDPOINT_STATUSES)
      .required(),
    disabled_reason: Joi.string()
      .allow(null)
      .required()
      .description(
        'Why it was disabled: `gone` (the receiver answered 410) or `failing` (5 days of failed attempts without a success).',
      ),
    previous_secret_expires_at: dateTime().allow(null).required(),
    max_in_flight: Joi.number().integer().min(1).max(MAX_MAX_IN_FLIGHT).required(),
    consecutive_failures: Joi.number()
      .integer()
      .min(0)
      .required()
      .description('Failed attempts since the last success; from 5 the circuit breaker sends only probes.'),
    failing_since: dateTime()
      .allow(null)
      .required()
      .description('The first failed attempt since the last success; 5 days of it disable the endpoint.'),
    last_success_at: dateTime().allow(null).required(),
    created_at: dateTime().required(),
    updated_at: dateTime().required(),
  });
  const attempt = Joi.object({
    attempted_at: dateTime().required(),
    status_code: Joi.number().integer().allow(null).required(),
    error: Joi.string().allow(null).required(),
    latency_ms: Joi.number().integer().min(0).required(),
    response_excerpt: Joi.string().allow('').required(),
  });
  const delivery = Joi.object({
    id: c.decimalId().required(),
    message_id: Joi.string().required(),
    event_type: Joi.string().required(),
    subject: Joi.string().required(),
    status: Joi.string()
      .valid(...WEBHOOK_DELIVERY_STATUSES)
      .required(),
    sequence: Joi.number()
      .integer()
      .min(1)
      .allow(null)
      .required()
      .description(
        'The body’s `sequence`: its number among its subject’s deliveries here; null until first sent.',
      ),
    attempt_count: Joi.number().integer().min(0).required(),
    next_attempt_at: dateTime().allow(null).required(),
    created_at: dateTime().required(),
    finished_at: dateTime().allow(null).required(),
    attempts: Joi.array().items(attempt).required(),
  });

  return {
    names,
    webhookParams,
    deliveryParams,
    createBody,
    updateBody,
    rotateBody,
    webhook,
    webhookList: Joi.object({
      [c.listKey]: Joi.array().items(webhook).max(MAX_ENDPOINTS_PER_SERVICE).required(),
    }),
    webhookWithSecret: webhook.keys({
      secret: Joi.string()
        .pattern(/^whsec_[A-Za-z0-9+/]+=*$/)
        .required(),
    }),
    deletedWebhook: Joi.object({
      id: Joi.string().uuid().required(),
      deleted: Joi.valid(true).required(),
    }),
    delivery,
  };
}
