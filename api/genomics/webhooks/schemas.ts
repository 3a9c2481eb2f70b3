import Joi from 'joi';
import { WEBHOOK_DELIVERY_STATUSES } from '../../../entities/WebhookDelivery';
import { WEBHOOK_ENDPOINT_STATUSES } from '../../../entities/WebhookEndpoint';
import { WEBHOOK_EVENT_TYPES } from '../../../webhooks/events';
import { dateTime } from '../../shared/schemas';
import { MAX_ENDPOINTS_PER_SERVICE, MAX_GRACE_HOURS } from '../../shared/webhooks';
import { decimalId, type PageQuery, pageQuery, text } from '../schemas';

// As the genomics service writes its inputs: path parameters and request bodies in camelCase, records in snake_case.

export interface WebhookParams {
  webhookId: string;
}
export const webhookParams = Joi.object<WebhookParams>({ webhookId: Joi.string().uuid().required() });

export interface DeliveryParams extends WebhookParams {
  deliveryId: string;
}
export const deliveryParams = Joi.object<DeliveryParams>({
  webhookId: Joi.string().uuid().required(),
  deliveryId: decimalId().required(),
});

const url = () =>
  Joi.string()
    .max(2048)
    .uri({ scheme: ['https', 'http'] });
const eventTypes = () =>
  Joi.array()
    .items(Joi.string().valid(...WEBHOOK_EVENT_TYPES.genomics))
    .min(1)
    .max(WEBHOOK_EVENT_TYPES.genomics.length)
    .unique();

/** All required, no extra fields, as the service's other creations (keys). */
export interface CreateWebhookBody {
  url: string;
  description: string;
  eventTypes: string[];
}
export const createWebhookBody = Joi.object<CreateWebhookBody>({
  url: url().required(),
  description: text(500).allow('').required(),
  eventTypes: eventTypes().required(),
}).required();

/** PUT replaces what an Admin may change: every field required. */
export interface UpdateWebhookBody extends CreateWebhookBody {
  status: 'ACTIVE' | 'PAUSED';
}
export const updateWebhookBody = Joi.object<UpdateWebhookBody>({
  url: url().required(),
  description: text(500).allow('').required(),
  eventTypes: eventTypes().required(),
  status: Joi.string().valid('ACTIVE', 'PAUSED').required(),
}).required();

export interface RotateSecretBody {
  gracePeriodHours: number;
}
export const rotateSecretBody = Joi.object<RotateSecretBody>({
  gracePeriodHours: Joi.number().integer().min(0).max(MAX_GRACE_HOURS).required(),
}).required();

export type DeliveryQuery = PageQuery;
export const deliveryQuery = pageQuery;

export const webhookSchema = Joi.object({
  id: Joi.string().uuid().required(),
  url: Joi.string().required(),
  description: Joi.string().allow('').required(),
  event_types: Joi.array()
    .items(Joi.string().valid(...WEBHOOK_EVENT_TYPES.genomics))
    .required(),
  status: Joi.string()
    .valid(...WEBHOOK_ENDPOINT_STATUSES)
    .required(),
  disabled_reason: Joi.string().allow(null).required(),
  previous_secret_expires_at: dateTime().allow(null).required(),
  created_at: dateTime().required(),
  updated_at: dateTime().required(),
});
export const webhookListSchema = Joi.object({
  items: Joi.array().items(webhookSchema).max(MAX_ENDPOINTS_PER_SERVICE).required(),
});
export const webhookWithSecretSchema = webhookSchema.keys({
  secret: Joi.string()
    .pattern(/^whsec_[A-Za-z0-9+/]+=*$/)
    .required(),
});
export const deletedWebhookSchema = Joi.object({
  id: Joi.string().uuid().required(),
  deleted: Joi.valid(true).required(),
});

const attemptSchema = Joi.object({
  attempted_at: dateTime().required(),
  status_code: Joi.number().integer().allow(null).required(),
  error: Joi.string().allow(null).required(),
  latency_ms: Joi.number().integer().min(0).required(),
  response_excerpt: Joi.string().allow('').required(),
});
export const deliverySchema = Joi.object({
  id: decimalId().required(),
  message_id: Joi.string().required(),
  event_type: Joi.string().required(),
  subject: Joi.string().required(),
  status: Joi.string()
    .valid(...WEBHOOK_DELIVERY_STATUSES)
    .required(),
  attempt_count: Joi.number().integer().min(0).required(),
  next_attempt_at: dateTime().allow(null).required(),
  created_at: dateTime().required(),
  finished_at: dateTime().allow(null).required(),
  attempts: Joi.array().items(attemptSchema).required(),
});
export const deliveryListSchema = Joi.object({
  items: Joi.array().items(deliverySchema).max(100).required(),
});
