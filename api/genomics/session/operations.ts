import Joi from 'joi';
import { defineOperation } from '../../kernel/operation';
import { bigintString, role } from '../../shared/schemas';

export const WORKSPACE = { id: 'ws_genomics', environment: 'production' } as const;

const sessionSchema = Joi.object({
  user: Joi.object({
    id: bigintString().required(),
    username: Joi.string().required(),
    display_name: Joi.string().required(),
    email: Joi.string().allow(null).required(),
    enabled: Joi.boolean().required(),
    role: role().required(),
    identityId: Joi.string().required(),
  }).required(),
  workspace: Joi.object({
    id: Joi.valid(WORKSPACE.id).required(),
    environment: Joi.valid(WORKSPACE.environment).required(),
  }).required(),
  apiKeyId: Joi.string().allow(null).required(),
});

export const getSession = defineOperation({
  operationId: 'genomics.getSession',
  summary: 'The session user, the workspace and the API key in use.',
  method: 'GET',
  path: '/api/v1/session',
  minRole: 'REVIEWER',
  scopes: ['read'],
  idempotency: 'none',
  request: {},
  response: { status: 200, schema: sessionSchema, description: 'Session user, workspace and key id.' },
  async handler({ principal }) {
    const m = principal.member;
    return {
      body: {
        user: {
          id: m.id,
          username: m.username,
          display_name: m.displayName,
          email: m.email,
          enabled: m.enabled,
          role: principal.role,
          identityId: m.identityId,
        },
        workspace: WORKSPACE,
        apiKeyId: principal.key?.id ?? null,
      },
    };
  },
});

export const sessionOperations = [getSession];
