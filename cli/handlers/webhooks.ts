import { Client, Connection } from '@temporalio/client';
import type { DataSource } from 'typeorm';
import {
  countDeliveries,
  type DeliveryRow,
  type EndpointRow,
  selectDeliveries,
  selectEndpoint,
  selectEndpoints,
} from '../../webhooks/managementQueries';
import {
  changeEndpoint,
  createEndpoint,
  redeliver,
  removeEndpoint,
  rotateSecret,
  WebhookRefusal,
  type WebhookSettings,
} from '../../webhooks/management';
import type { ServiceName } from '../../entities/types';
import {
  WAKE_WEBHOOK_ENDPOINT_SIGNAL,
  WEBHOOK_ENDPOINT_WORKFLOW_TYPE,
  webhookEndpointWorkflowStart,
} from '../../webhooks/endpointWorkflow';
import { WEBHOOK_EVENT_TYPES } from '../../webhooks/events';
import type { CommandContext } from '../kernel/context';
import { openDatabase } from '../kernel/database';
import { OpsError, plural, UsageError } from '../kernel/output';

/**
 * `referee webhooks …`: the webhook management operations of both APIs (docs/webhooks.md), run as the operator
 * against the database, through the same code as the API (webhooks/management.ts). A change wakes the endpoint's
 * workflow in Temporal, as the API does; secrets are printed once, by create and rotate.
 */

export type WebhookCommand =
  | 'list'
  | 'create'
  | 'read'
  | 'update'
  | 'pause'
  | 'resume'
  | 'delete'
  | 'rotate'
  | 'deliveries'
  | 'redeliver';

/**
 * What a `webhooks` command takes. Its declaration (cli/commands/webhooks.ts) checked which options it takes,
 * the service, the numbers' ranges and that its ids are there; the rest is checked here, before any connection.
 */
export interface WebhookInput {
  service: ServiceName;
  'endpoint-id'?: string;
  'delivery-id'?: string;
  url?: string;
  events?: string;
  description?: string;
  'grace-hours'?: number;
  'max-in-flight'?: number;
  limit?: number;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function parseArguments(command: WebhookCommand, input: WebhookInput) {
  const { service, 'endpoint-id': endpointId, 'delivery-id': deliveryId } = input;
  if (endpointId !== undefined && !UUID.test(endpointId))
    throw new UsageError(`"${endpointId}" is not an endpoint id (a UUID, see "referee webhooks list")`);
  if (deliveryId !== undefined && !/^[1-9][0-9]{0,18}$/.test(deliveryId))
    throw new UsageError(`"${deliveryId}" is not a delivery id (see "referee webhooks deliveries")`);
  if (input.description !== undefined && input.description.length > 500)
    throw new UsageError('--description is at most 500 characters');
  if (input.url !== undefined && input.url.length > 2048)
    throw new UsageError('--url is at most 2048 characters');
  return {
    command,
    service,
    endpointId: endpointId?.toLowerCase(),
    deliveryId,
    url: input.url,
    description: input.description,
    eventTypes: input.events === undefined ? undefined : parseEventTypes(service, input.events),
    graceHours: input['grace-hours'],
    maxInFlight: input['max-in-flight'],
    limit: input.limit,
  };
}

function parseEventTypes(service: ServiceName, value: string): string[] {
  const known: readonly string[] = WEBHOOK_EVENT_TYPES[service];
  if (value.trim() === 'all') return [...known];
  const types = [
    ...new Set(
      value
        .split(',')
        .map((t) => t.trim())
        .filter(Boolean),
    ),
  ];
  if (types.length === 0) throw new UsageError(`--events is empty; list event types or say "all"`);
  const unknown = types.filter((t) => !known.includes(t));
  if (unknown.length > 0) {
    throw new UsageError(
      `unknown ${service} event type ${unknown.join(', ')}; the types are ${known.join(', ')} (or "all")`,
    );
  }
  return types;
}

const describeEndpoint = (service: ServiceName, e: EndpointRow) =>
  `${e.id}  ${service.padEnd(8)} ${e.status.padEnd(8)} ${e.url}` +
  (e.disabled_reason ? `  (disabled: ${e.disabled_reason})` : '') +
  (e.description ? `  "${e.description}"` : '') +
  `\n    events: ${e.event_types.join(', ')}` +
  `\n    up to ${e.max_in_flight} in flight` +
  (e.failing_since
    ? `; failing since ${e.failing_since.toISOString()} (${plural(e.consecutive_failures, 'failed attempt')} in a row)`
    : '') +
  (e.previous_secret_expires_at
    ? `\n    previous secret signs until ${e.previous_secret_expires_at.toISOString()}`
    : '');

const describeDelivery = (d: DeliveryRow) => {
  const last = d.attempts.at(-1);
  const outcome = last ? (last.status_code ?? last.error) : 'not attempted';
  return (
    `${d.id.padStart(6)}  ${d.status.padEnd(9)} ${d.event_type}  ${d.subject}  ${d.message_id}  ` +
    `${plural(d.attempt_count, 'attempt')}, last ${outcome}  ${d.created_at.toISOString()}`
  );
};

const endpointJson = (service: ServiceName, e: EndpointRow) => ({ service, ...e });

/** Starts the endpoint's workflow if it is not running, and wakes it, as the API does after a change. */
async function wakeEndpointWorkflow(ctx: CommandContext, endpointId: string): Promise<void> {
  const { config } = ctx.system({ temporal: true });
  let connection: Connection | undefined;
  try {
    connection = await Connection.connect({
      address: config.temporal.address,
      connectTimeout: '5 seconds',
    });
    const client = new Client({ connection, namespace: config.temporal.namespace });
    await client.workflow.signalWithStart(WEBHOOK_ENDPOINT_WORKFLOW_TYPE, {
      ...webhookEndpointWorkflowStart(endpointId, config.temporal.taskQueue),
      signal: WAKE_WEBHOOK_ENDPOINT_SIGNAL,
    });
  } catch (error) {
    // The change is committed; the next change to the endpoint (API or CLI) starts or wakes it again.
    ctx.out.note(
      `referee: the endpoint's workflow was not woken (${(error as Error).message}); ` +
        'the change is saved, and the next change to this endpoint tries again',
    );
  } finally {
    await connection?.close();
  }
}

async function withRefusals<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof WebhookRefusal) {
      throw new OpsError(
        error.code,
        error.message,
        error.detail.reason ? { reason: error.detail.reason } : {},
      );
    }
    throw error;
  }
}

export async function webhooksCommand(
  ctx: CommandContext,
  command: WebhookCommand,
  input: WebhookInput,
): Promise<void> {
  const args = parseArguments(command, input);
  const changes = !['list', 'read', 'deliveries'].includes(args.command);
  const { config } = ctx.system({ temporal: changes });
  const settings: WebhookSettings = config.webhooks;
  const dataSource = await openDatabase(config, { migrate: false });
  try {
    await withRefusals(() => run(ctx, dataSource, settings, args));
  } finally {
    await dataSource.destroy();
  }
}

async function run(
  ctx: CommandContext,
  dataSource: DataSource,
  settings: WebhookSettings,
  args: ReturnType<typeof parseArguments>,
): Promise<void> {
  const { service, command } = args;
  const endpointId = args.endpointId!;
  const existing = async () => {
    const endpoint = await selectEndpoint(dataSource, service, endpointId);
    if (!endpoint)
      throw new OpsError('endpoint_not_found', `no ${service} webhook endpoint has id ${endpointId}`);
    return endpoint;
  };
  switch (command) {
    case 'list': {
      const endpoints = await selectEndpoints(dataSource, service);
      ctx.out.result(
        endpoints.length === 0
          ? `No ${service} webhook endpoints.`
          : endpoints.map((e) => describeEndpoint(service, e)).join('\n'),
        { webhooks: endpoints.map((e) => endpointJson(service, e)) },
      );
      return;
    }
    case 'read': {
      const endpoint = await existing();
      ctx.out.result(describeEndpoint(service, endpoint), { webhook: endpointJson(service, endpoint) });
      return;
    }
    case 'create': {
      const { endpoint, secret } = await dataSource.transaction((tx) =>
        createEndpoint(settings, tx, service, null, {
          url: args.url!,
          description: args.description ?? '',
          eventTypes: args.eventTypes!,
          maxInFlight: args.maxInFlight,
        }),
      );
      await wakeEndpointWorkflow(ctx, endpoint.id);
      ctx.out.result(
        `Created ${service} webhook endpoint:\n${describeEndpoint(service, endpoint)}\n` +
          `Signing secret (shown once, store it now):\n${secret}`,
        { webhook: endpointJson(service, endpoint), secret },
      );
      return;
    }
    case 'update':
    case 'pause':
    case 'resume': {
      const current = await existing();
      const status = command === 'pause' ? 'PAUSED' : command === 'resume' ? 'ACTIVE' : current.status;
      const changed = await dataSource.transaction((tx) =>
        changeEndpoint(settings, tx, service, endpointId, {
          url: args.url ?? current.url,
          description: args.description ?? current.description,
          eventTypes: args.eventTypes ?? current.event_types,
          maxInFlight: args.maxInFlight,
          status,
        }),
      );
      await wakeEndpointWorkflow(ctx, endpointId);
      const verb = command === 'pause' ? 'Paused' : command === 'resume' ? 'Resumed' : 'Updated';
      ctx.out.result(`${verb} ${service} webhook endpoint:\n${describeEndpoint(service, changed)}`, {
        webhook: endpointJson(service, changed),
      });
      return;
    }
    case 'delete': {
      await dataSource.transaction((tx) => removeEndpoint(tx, service, endpointId));
      await wakeEndpointWorkflow(ctx, endpointId);
      ctx.out.result(`Deleted ${service} webhook endpoint ${endpointId}; nothing more is sent to it.`, {
        id: endpointId,
        deleted: true,
      });
      return;
    }
    case 'rotate': {
      const { endpoint, secret } = await dataSource.transaction((tx) =>
        rotateSecret(settings, tx, service, endpointId, args.graceHours!),
      );
      ctx.out.result(
        `Rotated the secret of ${service} webhook endpoint ${endpointId}` +
          (endpoint.previous_secret_expires_at
            ? `; the previous one also signs until ${endpoint.previous_secret_expires_at.toISOString()}.`
            : '; the previous one no longer signs.') +
          `\nNew signing secret (shown once, store it now):\n${secret}`,
        { webhook: endpointJson(service, endpoint), secret },
      );
      return;
    }
    case 'deliveries': {
      await existing();
      const [deliveries, total] = await Promise.all([
        selectDeliveries(dataSource, endpointId, { limit: args.limit! }),
        countDeliveries(dataSource, endpointId),
      ]);
      ctx.out.result(
        deliveries.length === 0
          ? `No deliveries to ${endpointId}.`
          : `${plural(total, 'delivery', 'deliveries')}, newest first:\n` +
              deliveries.map(describeDelivery).join('\n'),
        { deliveries, total },
      );
      return;
    }
    case 'redeliver': {
      await dataSource.transaction((tx) => redeliver(tx, service, endpointId, args.deliveryId!));
      await wakeEndpointWorkflow(ctx, endpointId);
      ctx.out.result(
        `Delivery ${args.deliveryId} of ${endpointId} is pending again (same webhook-id, a fresh schedule).`,
        { id: args.deliveryId, endpoint_id: endpointId, status: 'PENDING' },
      );
      return;
    }
  }
}
