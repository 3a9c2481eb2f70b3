import { problems } from '../../kernel/errors';
import { defineOperation } from '../../kernel/operation';
import { listVisibleKeys } from '../../../access/keys';
import { daysFrom, issueApiKey, requireMayIssueFor, revokeKeyOfCaller } from '../../shared/keys';
import { memberIdByIdentity } from '../../../access/members';
import { presentKeyMetadata } from './presenters';
import { createdKeySchema, createKeyBody, keyListSchema, keyParams, revokedKeySchema } from './schemas';

export const listKeys = defineOperation({
  operationId: 'genomics.listKeys',
  summary: 'API key metadata: your own keys, or every workspace key for an ADMIN (newest first, up to 500).',
  method: 'GET',
  path: '/api/v1/keys',
  minRole: 'REVIEWER',
  scopes: ['keys:manage'],
  idempotency: 'none',
  request: {},
  response: {
    status: 200,
    schema: keyListSchema,
    description: 'Key metadata, revoked and expired included.',
  },
  async handler({ principal, deps }) {
    return { body: { items: (await listVisibleKeys(deps.dataSource, principal)).map(presentKeyMetadata) } };
  },
});

export const createKey = defineOperation({
  operationId: 'genomics.createKey',
  summary:
    'Create an API key (an OWNER for themselves, an ADMIN for any enabled member); the token is shown once.',
  method: 'POST',
  path: '/api/v1/keys',
  minRole: 'OWNER',
  scopes: ['keys:manage'],
  idempotency: 'required',
  idempotentReplay: 'conflict',
  request: { body: createKeyBody },
  examples: {
    key: {
      summary: 'A read-only key for a member, for 30 days',
      value: {
        identityId: 'idp|rui',
        name: 'dashboard reader',
        role: 'REVIEWER',
        scopes: ['read'],
        expiresInDays: 30,
      },
    },
  },
  response: {
    status: 201,
    schema: createdKeySchema,
    description: 'The new key; its token is never shown again.',
  },
  errors: [403, 404, 409],
  async handler({ body, principal, deps, transaction }) {
    const forSelf = body.identityId === principal.member.identityId;
    requireMayIssueFor(principal, forSelf);
    const recipientId = forSelf
      ? principal.member.id
      : await memberIdByIdentity(deps.dataSource, 'genomics', body.identityId);
    if (!recipientId) throw problems.notFound(`Member ${body.identityId}`);
    return transaction(async (tx) => {
      const issued = await issueApiKey(tx, principal, {
        recipientId,
        name: body.name,
        role: body.role,
        scopes: body.scopes,
        expiresAt: daysFrom(Date.now(), body.expiresInDays),
      });
      return {
        status: 201,
        body: { id: issued.id, token: issued.token, role: issued.role, scopes: issued.scopes },
      };
    });
  },
});

export const revokeKey = defineOperation({
  operationId: 'genomics.revokeKey',
  summary: 'Revoke a key immediately: an OWNER their own keys, an ADMIN any workspace key.',
  method: 'DELETE',
  path: '/api/v1/keys/:keyId',
  minRole: 'OWNER',
  scopes: ['keys:manage'],
  idempotency: 'none',
  request: { params: keyParams },
  response: {
    status: 200,
    schema: revokedKeySchema,
    description: 'The key is revoked (again, if it already was).',
  },
  errors: [404],
  async handler({ params, principal, deps }) {
    const key = await revokeKeyOfCaller(deps, principal, params.keyId);
    if (!key) throw problems.notFound(`Key ${params.keyId}`);
    return { body: { id: key.id, revoked: true } };
  },
});

export const keyOperations = [listKeys, createKey, revokeKey];
