import Joi from 'joi';
import { apiKeyOf } from '../../kernel/authenticate';
import { defineOperation } from '../../kernel/operation';
import { bigintString, dateTime, role, scope } from '../../shared/schemas';

const sessionSchema = Joi.object({
  member: Joi.object({
    id: bigintString().required(),
    identity_id: Joi.string().required(),
    username: Joi.string().required(),
    display_name: Joi.string().required(),
    email: Joi.string().allow(null).required(),
    role: role().required(),
    enabled: Joi.boolean().required(),
  }).required(),
  role: role().required(),
  scopes: Joi.array().items(scope()).required(),
  key: Joi.object({ id: Joi.string().uuid().required(), expires_at: dateTime().required() }).required(),
});

export const getSession = defineOperation({
  operationId: 'math.getSession',
  summary: 'Effective member role and key scopes of the calling API key.',
  method: 'GET',
  path: '/api/auth/session',
  minRole: 'REVIEWER',
  scopes: ['read'],
  idempotency: 'none',
  request: {},
  response: {
    status: 200,
    schema: sessionSchema,
    description: 'The caller, its effective role and its key scopes.',
  },
  async handler({ principal }) {
    const m = principal.member;
    const key = apiKeyOf(principal);
    return {
      body: {
        member: {
          id: m.id,
          identity_id: m.identityId,
          username: m.username,
          display_name: m.displayName,
          email: m.email,
          role: m.role,
          enabled: m.enabled,
        },
        role: principal.role,
        scopes: principal.scopes,
        key: { id: key.id, expires_at: key.expiresAt.toISOString() },
      },
    };
  },
});

export const sessionOperations = [getSession];
