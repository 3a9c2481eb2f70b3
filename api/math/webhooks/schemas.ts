import Joi from 'joi';
import { WEBHOOK_DELIVERY_STATUSES } from '../../../entities/WebhookDelivery';
import { WEBHOOK_ENDPOINT_STATUSES } from '../../../entities/WebhookEndpoint';
import { WEBHOOK_EVENT_TYPES } from '../../../webhooks/events';
import { bigintString, dateTime } from '../../shared/schemas';
import { DEFAULT_GRACE_HOURS, MAX_ENDPOINTS_PER_SERVICE, MAX_GRACE_HOURS } from '../../shared/webhooks';
import { type PageQuery, pageQueryKeys, pageSchema } from '../shared/pagination';

export interface WebhookParams {
  webhook_id: string;
}
export const webhookParams = Joi.object<WebhookParams>({ webhook_id: Joi.string().uuid().required() });

export interface DeliveryParams extends WebhookParams {
  delivery_id: string;
}
export const deliveryParams = Joi.object<DeliveryParams>({
  webhook_id: Joi.string().uuid().required(),
  delivery_id: bigintString().required(),
});

const url = () =>
  Joi.string()
    .max(2048)
    .uri({ scheme: ['https', 'http'] });
const eventTypes = () =>
  Joi.array()
    .items(Joi.string().valid(...WEBHOOK_EVENT_TYPES.math))
    .min(1)
    .max(WEBHOOK_EVENT_TYPES.math.length)
    .unique();
const description = () => Joi.string().allow('').max(500);

export interface CreateWebhookBody {
  url: string;
  event_types: string[];
  description?: string;
}
export const createWebhookBody = Joi.object<CreateWebhookBody>({
  url: url().required(),
  event_types: eventTypes().required(),
  description: description(),
}).required();

/** Every field required, as the math service updates its resources (clients): what is sent is what it becomes. */
export interface UpdateWebhookBody {
  url: string;
  description: string;
  event_types: string[];
  status: 'ACTIVE' | 'PAUSED';
}
export const updateWebhookBody = Joi.object<UpdateWebhookBody>({
  url: url().required(),
  description: description().required(),
  event_types: eventTypes().required(),
  status: Joi.string().valid('ACTIVE', 'PAUSED').required(),
}).required();

export interface RotateSecretBody {
  grace_period_hours?: number;
}
export const rotateSecretBody = Joi.object<RotateSecretBody>({
  grace_period_hours: Joi.number().integer().min(0).max(MAX_GRACE_HOURS).default(DEFAULT_GRACE_HOURS),
}).required();

export type DeliveryQuery = PageQuery;
export const deliveryQuery = Joi.object<DeliveryQuery>(pageQueryKeys);

export const webhookSchema = Joi.object({
  id: Joi.string().uuid().required(),
  url: Joi.string().required(),
  description: Joi.string().allow('').required(),
  event_types: Joi.array()
    .items(Joi.string().valid(...WEBHOOK_EVENT_TYPES.math))
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
  webhooks: Joi.array().items(webhookSchema).max(MAX_ENDPOINTS_PER_SERVICE).required(),
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
  id: bigintString().required(),
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
export const deliveryPageSchema = pageSchema(deliverySchema);
