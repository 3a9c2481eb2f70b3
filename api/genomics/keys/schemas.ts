import Joi from 'joi';
import { type Role, SCOPES, type Scope } from '../../../entities/types';
import { bigintString, dateTime, role, scope } from '../../shared/schemas';

export interface KeyParams {
  keyId: string;
}

export const keyParams = Joi.object<KeyParams>({ keyId: Joi.string().uuid().required() });

export interface CreateKeyBody {
  identityId: string;
  name: string;
  role: Role;
  scopes: Scope[];
  expiresInDays: number;
}

export const createKeyBody = Joi.object<CreateKeyBody>({
  identityId: Joi.string().max(128).required(),
  name: Joi.string().max(100).required(),
  role: role().required(),
  scopes: Joi.array().items(scope()).max(SCOPES.length).unique().required(),
  expiresInDays: Joi.number().integer().min(1).max(365).required(),
}).required();

/** The spec's "API key metadata"; secrets and their hashes are never part of it. */
export const keyMetadataSchema = Joi.object({
  id: Joi.string().uuid().required(),
  actor_id: bigintString().required(),
  identity_id: Joi.string().required(),
  name: Joi.string().required(),
  role: role().required(),
  scopes: Joi.array().items(scope()).required(),
  created_at: dateTime().required(),
  expires_at: dateTime().required(),
  revoked_at: dateTime().allow(null).required(),
  last_used_at: dateTime().allow(null).required(),
});

export const keyListSchema = Joi.object({ items: Joi.array().items(keyMetadataSchema).max(500).required() });

export const createdKeySchema = Joi.object({
  id: Joi.string().uuid().required(),
  token: Joi.string().required(),
  role: role().required(),
  scopes: Joi.array().items(scope()).required(),
});

export const revokedKeySchema = Joi.object({
  id: Joi.string().required(),
  revoked: Joi.valid(true).required(),
});
