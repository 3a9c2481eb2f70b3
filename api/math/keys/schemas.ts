import Joi from 'joi';
import type { Role, Scope } from '../../../entities/types';
import { keyExpiryDaysInput, keyId, keyRecordSchema, keyScopesInput } from '../../shared/keySchemas';
import { bigintString, dateTime, role } from '../../shared/schemas';

export interface KeyParams {
  key_id: string;
}

export const keyParams = Joi.object<KeyParams>({ key_id: keyId().required() });

/** Every field optional: the key is the caller's own, with the caller's role and scopes, for 90 days. */
export interface CreateKeyBody {
  member_id?: string;
  name?: string;
  role?: Role;
  scopes?: Scope[];
  expires_in_days?: number;
}

export const DEFAULT_EXPIRY_DAYS = 90;

export const createKeyBody = Joi.object<CreateKeyBody>({
  member_id: bigintString(),
  name: Joi.string().trim().min(1).max(100),
  role: role(),
  scopes: keyScopesInput(),
  expires_in_days: keyExpiryDaysInput(),
}).required();

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
