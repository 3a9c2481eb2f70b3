import Joi from 'joi';
import { typed } from '../../kernel/typedSchema';
import { keyExpiryDaysInput, keyId, keyRecordSchema, keyScopesInput } from '../../shared/keySchemas';
import { bigintString, dateTime, role } from '../../shared/schemas';

export const keyParams = typed.object({ key_id: keyId().required() });

export const DEFAULT_EXPIRY_DAYS = 90;

/** Every field optional: the key is the caller's own, with the caller's role and scopes, for 90 days. */
export const createKeyBody = typed
  .object({
    member_id: bigintString(),
    name: typed.string().trim().min(1).max(100),
    role: role(),
    scopes: keyScopesInput(),
    expires_in_days: keyExpiryDaysInput(),
  })
  .required();

export const keySchema = keyRecordSchema('member_id');

export const createdKeySchema = keySchema.keys({ token: Joi.string().required() });

export const keyListSchema = Joi.object({ keys: Joi.array().items(keySchema).max(500).required() });

export const keyEventSchema = Joi.object({
  id: bigintString().required(),
  kind: Joi.string().valid('created', 'revoked', 'write_request').required(),
  method: Joi.string().allow(null).required(),
  path: Joi.string().allow(null).required(),
  status: Joi.number().integer().allow(null).required(),
  detail: Joi.object().unknown(true).required(),
  created_at: dateTime().required(),
});

export const keyEventListSchema = Joi.object({
  events: Joi.array().items(keyEventSchema).max(100).required(),
});
