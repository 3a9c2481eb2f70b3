import Joi from 'joi';
import { typed } from '../../kernel/typedSchema';
import { keyExpiryDaysInput, keyId, keyRecordSchema, keyScopesInput } from '../../shared/keySchemas';
import { role, scope } from '../../shared/schemas';

export const keyParams = typed.object({ keyId: keyId().required() });

export const createKeyBody = typed
  .object({
    identityId: typed.string().max(128).required(),
    name: typed.string().max(100).required(),
    role: role().required(),
    scopes: keyScopesInput().required(),
    expiresInDays: keyExpiryDaysInput().required(),
  })
  .required();

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
