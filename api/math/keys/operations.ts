import { apiKeyOf } from '../../kernel/authenticate';
import { problems } from '../../kernel/errors';
import { defineOperation } from '../../kernel/operation';
import { findVisibleKey, listVisibleKeys, visibleKeyEvents } from '../../../access/keys';
import { daysFrom, issueApiKey, requireMayIssueFor, revokeKeyOfCaller } from '../../shared/keys';
import { presentKey, presentKeyEvent } from './presenters';
import {
  createdKeySchema,
  createKeyBody,
  DEFAULT_EXPIRY_DAYS,
  keyEventListSchema,
  keyListSchema,
  keyParams,
  keySchema,
} from './schemas';

export const listKeys = defineOperation({
  operationId: 'math.listKeys',
  summary:
    'Up to 500 keys, newest first, expired and revoked ones included: own keys, or the workspace’s for an Admin.',
  method: 'GET',
  path: '/api/keys',
  minRole: 'REVIEWER',
  scopes: ['keys:manage'],
  idempotency: 'none',
  request: {},
  response: { status: 200, schema: keyListSchema, description: 'Key metadata; never a secret or hash.' },
  async handler({ principal, deps }) {
    return { body: { keys: (await listVisibleKeys(deps.dataSource, principal)).map(presentKey) } };
  },
});

export const createKey = defineOperation({
  operationId: 'math.createKey',
  summary: 'Create a key; its token is returned once. Defaults: yourself, your role and scopes, 90 days.',
  method: 'POST',
  path: '/api/keys',
  minRole: 'REVIEWER',
  scopes: ['keys:manage'],
  idempotency: 'optional',
  idempotentReplay: 'conflict',
  request: { body: createKeyBody },
  response: {
    status: 201,
    schema: createdKeySchema,
    description: 'The new key and its token (shown this once).',
  },
  errors: [
    'forbidden',
    'not_found',
    'active_key_limit',
    'key_outlives_issuer',
    'key_exceeds_member',
    'member_disabled',
  ],
  async handler({ body, principal, transaction }) {
    const recipientId = body.member_id ?? principal.member.id;
    requireMayIssueFor(principal, recipientId === principal.member.id);
    const issuerKey = apiKeyOf(principal);
    const now = Date.now();
    const expiresAt =
      body.expires_in_days !== undefined
        ? daysFrom(now, body.expires_in_days)
        : new Date(Math.min(daysFrom(now, DEFAULT_EXPIRY_DAYS).getTime(), issuerKey.expiresAt.getTime()));
    return transaction(async (tx) => {
      const issued = await issueApiKey(tx, principal, {
        recipientId,
        name: body.name ?? 'API key',
        role: body.role,
        scopes: body.scopes,
        expiresAt,
      });
      const record = await findVisibleKey(tx, principal, issued.id);
      if (!record) throw problems.internal();
      return { status: 201, body: { ...presentKey(record), token: issued.token } };
    });
  },
});

export const getKey = defineOperation({
  operationId: 'math.getKey',
  summary: 'One key: your own, or any of the workspace’s for an Admin.',
  method: 'GET',
  path: '/api/keys/:key_id',
  minRole: 'REVIEWER',
  scopes: ['keys:manage'],
  idempotency: 'none',
  request: { params: keyParams },
  response: { status: 200, schema: keySchema, description: 'Key metadata.' },
  errors: [404],
  async handler({ params, principal, deps }) {
    const key = await findVisibleKey(deps.dataSource, principal, params.key_id);
    if (!key) throw problems.notFound(`Key ${params.key_id}`);
    return { body: presentKey(key) };
  },
});

export const revokeKey = defineOperation({
  operationId: 'math.revokeKey',
  summary: 'Revoke a key at once, in every API process; a repeated revocation keeps the first revoked_at.',
  method: 'DELETE',
  path: '/api/keys/:key_id',
  minRole: 'REVIEWER',
  scopes: ['keys:manage'],
  idempotency: 'none',
  request: { params: keyParams },
  response: { status: 200, schema: keySchema, description: 'The revoked key.' },
  errors: [404],
  async handler({ params, principal, deps }) {
    const key = await revokeKeyOfCaller(deps, principal, params.key_id);
    if (!key) throw problems.notFound(`Key ${params.key_id}`);
    return { body: presentKey(key) };
  },
});

export const listKeyEvents = defineOperation({
  operationId: 'math.listKeyEvents',
  summary: 'Latest 100 events of a key (creation, revocation, write requests); empty for an unavailable key.',
  method: 'GET',
  path: '/api/keys/:key_id/events',
  minRole: 'REVIEWER',
  scopes: ['keys:manage'],
  idempotency: 'none',
  request: { params: keyParams },
  response: {
    status: 200,
    schema: keyEventListSchema,
    description: 'Events, newest first; reads show only in the key’s last_used_at.',
  },
  async handler({ params, principal, deps }) {
    const events = await visibleKeyEvents(deps.dataSource, principal, params.key_id);
    return { body: { events: events.map(presentKeyEvent) } };
  },
});

export const keyOperations = [listKeys, createKey, getKey, revokeKey, listKeyEvents];
