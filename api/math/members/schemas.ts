import Joi from 'joi';
import { typed } from '../../kernel/typedSchema';
import { bigintString, dateTime, role } from '../../shared/schemas';

export const reviewerSchema = Joi.object({
  id: bigintString().required(),
  identity_id: Joi.string().required(),
  username: Joi.string().required(),
  display_name: Joi.string().required(),
  role: role().required(),
  enabled: Joi.boolean().required(),
});

export const reviewerListSchema = Joi.object({ reviewers: Joi.array().items(reviewerSchema).required() });

export const userSchema = reviewerSchema.keys({
  email: Joi.string().allow(null).required(),
  primary_admin: Joi.boolean().required(),
  created_at: dateTime().required(),
  updated_at: dateTime().required(),
});

export const userListSchema = Joi.object({ users: Joi.array().items(userSchema).required() });

/** No user is viewable through an API key; the list is always empty here. */
export const viewableUsersSchema = Joi.object({ users: Joi.array().max(0).required() });

export const auditRecordSchema = Joi.object({
  id: bigintString().required(),
  /** key_created, key_revoked, member_created, member_updated, member_disabled, authentication_failed. */
  kind: Joi.string().required(),
  member_id: bigintString().allow(null).required(),
  key_id: Joi.string().uuid().allow(null).required(),
  detail: Joi.object().unknown(true).required(),
  created_at: dateTime().required(),
});

export const auditListSchema = Joi.object({
  records: Joi.array().items(auditRecordSchema).max(100).required(),
});

/** A page of the identity audit: the 100 records before `before` (a record id), of one `kind` if given. */
export const auditQuerySchema = typed.object({
  before: bigintString().description('Records older than this record id (the last id of the page before).'),
  kind: typed
    .string()
    .pattern(/^[a-z_]{1,64}$/)
    .description('Only records of this kind, e.g. `key_created` or `authentication_failed`.'),
});
