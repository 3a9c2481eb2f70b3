import Joi from 'joi';
import { SCOPES } from '../../entities/types';
import { typed } from '../kernel/typedSchema';
import { bigintString, dateTime, role, scope } from './schemas';

/** The field naming the member a key acts for: `member_id` in the math spec, `actor_id` in the genomics spec. */
export type KeyMemberField = 'member_id' | 'actor_id';

/** A key's id in a path (both services). */
export const keyId = () => typed.string().uuid();

/** The longest life a new key may ask for (both specs). */
export const MAX_EXPIRY_DAYS = 365;

/** How many days a new key lives, from 1 to {@link MAX_EXPIRY_DAYS}. */
export const keyExpiryDaysInput = () => typed.number().integer().min(1).max(MAX_EXPIRY_DAYS);

/** The scopes a new key asks for: each one at most once. */
export const keyScopesInput = () => typed.array(scope()).max(SCOPES.length).unique();

/** A key record as both specs list it, the member field named as the service's spec names it; never a secret. */
export const keyRecordSchema = (memberField: KeyMemberField) =>
  Joi.object({
    id: Joi.string().uuid().required(),
    [memberField]: bigintString().required(),
    identity_id: Joi.string().required(),
    name: Joi.string().required(),
    role: role().required(),
    scopes: Joi.array().items(scope()).required(),
    created_at: dateTime().required(),
    expires_at: dateTime().required(),
    revoked_at: dateTime().allow(null).required(),
    last_used_at: dateTime().allow(null).required(),
  });
