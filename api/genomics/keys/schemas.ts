import Joi from 'joi';
import type { Role, Scope } from '../../../entities/types';
import { keyExpiryDaysInput, keyId, keyRecordSchema, keyScopesInput } from '../../shared/keySchemas';
import { role, scope } from '../../shared/schemas';

export interface KeyParams {
  keyId: string;
}

export const keyParams = Joi.object<KeyParams>({ keyId: keyId().required() });

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
  scopes: keyScopesInput().required(),
  expiresInDays: keyExpiryDaysInput().required(),
}).required();

/** The spec's "API key metadata"; secrets and their hashes are never part of it. */
export const keyMetadataSchema = keyRecordSchema('actor_id');

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
