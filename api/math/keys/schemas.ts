import Joi from 'joi';
import { type Role, SCOPES, type Scope } from '../../../entities/types';
import { bigintString, dateTime, role, scope } from '../../shared/schemas';

export interface KeyParams {
  key_id: string;
}

export const keyParams = Joi.object<KeyParams>({ key_id: Joi.string().uuid().required() });

/** Every field optional: the key is the caller's own, with the caller's role and scopes, for 90 days. */
export interface CreateKeyBody {
  member_id?: string;
  name?: string;
  role?: Role;
  scopes?: Scope[];
  expires_in_days?: number;
}

export const DEFAULT_EXPIRY_DAYS = 90;
export const MAX_EXPIRY_DAYS = 365;

export const createKeyBody = Joi.object<CreateKeyBody>({
  member_id: bigintString(),
  name: Joi.string().trim().min(1).max(100),
  role: role(),
  scopes: Joi.array().items(scope()).max(SCOPES.length).unique(),
  expires_in_days: Joi.number().integer().min(1).max(MAX_EXPIRY_DAYS),
}).required();

export const keySchema = Joi.object({
  id: Joi.string().uuid().required(),
  member_id: bigintString().required(),
  identity_id: Joi.string().required(),
  name: Joi.string().required(),
  role: role().required(),
  scopes: Joi.array().items(scope()).required(),
  created_at: dateTime().required(),
  expires_at: dateTime().required(),
  revoked_at: dateTime().allow(null).required(),
  last_used_at: dateTime().allow(null).required(),
});

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
