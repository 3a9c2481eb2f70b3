import { defineOperation } from '../../kernel/operation';
import { pageOf } from '../shared/pagination';
import { type ClientRow, createClient, findClient, listClients, updateClient } from './queries';
import {
  clientListQuery,
  clientListSchema,
  clientParams,
  clientSchema,
  clientSummaryListSchema,
  createClientBody,
  createdClientSchema,
  updateClientBody,
} from './schemas';

const presentClient = (c: ClientRow) => ({
  id: c.id,
  name: c.name,
  description: c.description,
  enabled: c.enabled,
  created_at: c.created_at.toISOString(),
  updated_at: c.updated_at.toISOString(),
  task_count: c.task_count,
  archived_task_count: c.archived_task_count,
});

const presentClientSummary = (c: ClientRow) => ({
  id: c.id,
  name: c.name,
  enabled: c.enabled,
  task_count: c.task_count,
});

export const listClientsOperation = defineOperation({
  operationId: 'math.listClients',
  summary: 'Clients by name with task counts; Reviewers see only clients linked to their assigned tasks.',
  method: 'GET',
  path: '/api/math/clients',
  minRole: 'REVIEWER',
  reviewerScope: 'assigned-tasks',
  scopes: ['read'],
  idempotency: 'none',
  request: { query: clientListQuery },
  response: { status: 200, schema: clientListSchema, description: 'A page of clients.' },
  async handler({ query, principal, deps }) {
    const { rows, total } = await listClients(deps.dataSource, principal, query.q, query);
    return { body: pageOf(rows.map(presentClient), query, total) };
  },
});

export const listDashboardClients = defineOperation({
  operationId: 'math.listDashboardClients',
  summary: 'Dashboard-compatible client summary (no descriptions or archived counts).',
  method: 'GET',
  path: '/api/clients',
  minRole: 'REVIEWER',
  reviewerScope: 'assigned-tasks',
  scopes: ['read'],
  idempotency: 'none',
  request: { query: clientListQuery },
  response: { status: 200, schema: clientSummaryListSchema, description: 'A page of client summaries.' },
  async handler({ query, principal, deps }) {
    const { rows, total } = await listClients(deps.dataSource, principal, query.q, query);
    return { body: pageOf(rows.map(presentClientSummary), query, total) };
  },
});

export const createClientOperation = defineOperation({
  operationId: 'math.createClient',
  summary: 'Create a client; the name is trimmed, 2 to 100 characters, unique ignoring case.',
  method: 'POST',
  path: '/api/math/clients',
  minRole: 'OWNER',
  scopes: ['write'],
  idempotency: 'optional',
  request: { body: createClientBody },
  response: {
    status: 201,
    schema: createdClientSchema,
    description: 'The creation receipt; read the client list to obtain updated_at.',
  },
  errors: [400, 409],
  async handler({ body, principal, transaction }) {
    const fields = { name: body.name, description: body.description ?? '', enabled: body.enabled ?? true };
    return transaction(async (tx) => {
      const id = await createClient(tx, principal.member.id, fields);
      return { status: 201, body: { id, ...fields } };
    });
  },
});

export const updateClientOperation = defineOperation({
  operationId: 'math.updateClient',
  summary: 'Update a client: all four fields, with the exact current updated_at.',
  method: 'POST',
  path: '/api/math/clients/:client_id',
  minRole: 'OWNER',
  scopes: ['write'],
  idempotency: 'optional',
  request: { params: clientParams, body: updateClientBody },
  response: { status: 200, schema: clientSchema, description: 'The client with its new updated_at.' },
  errors: [400, 404, 409],
  async handler({ params, body, principal, transaction }) {
    const { updated_at: expected, ...fields } = body;
    return transaction(async (tx) => {
      await updateClient(tx, principal.member.id, params.client_id, fields, expected);
      return { body: presentClient(await findClient(tx, principal, params.client_id)) };
    });
  },
});

export const clientOperations = [
  listClientsOperation,
  createClientOperation,
  updateClientOperation,
  listDashboardClients,
];
