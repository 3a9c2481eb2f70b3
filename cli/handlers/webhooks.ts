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
  type EndpointInput,
  type WebhookSettings,
} from '../../webhooks/management';
import type { ServiceName } from '../../entities/types';
import type { WebhookEndpointStatus } from '../../entities/WebhookEndpoint';
import {
  WAKE_WEBHOOK_ENDPOINT_SIGNAL,
  WEBHOOK_ENDPOINT_WORKFLOW_TYPE,
  webhookEndpointWorkflowStart,
} from '../../webhooks/endpointWorkflow';
import { WEBHOOK_EVENT_TYPES } from '../../webhooks/events';
import type * as declared from '../commands/webhooks';
import type { CommandInput } from '../kernel/command';
import type { CommandContext } from '../kernel/context';
import { openDatabase } from '../kernel/database';
import { OpsError, plural, UsageError } from '../kernel/output';

/**
 * `referee webhooks …`: the webhook management operations of both APIs (docs/webhooks.md), run as the operator
 * against the database, through the same code as the API (webhooks/management.ts). A change wakes the endpoint's
 * workflow in Temporal, as the API does; secrets are printed once, by create and rotate. Each command's
 * declaration (cli/commands/webhooks.ts) checked its options, the service, the numbers' ranges and that its ids
 * are there; the rest is checked here, before any connection.
 */

type Input<C extends keyof typeof declared> = CommandInput<(typeof declared)[C]>;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function checkedEndpointId(value: string): string {
  if (!UUID.test(value))
    throw new UsageError(`"${value}" is not an endpoint id (a UUID, see "referee webhooks list")`);
  return value.toLowerCase();
}

function checkedDeliveryId(value: string): string {
  if (!/^[1-9][0-9]{0,18}$/.test(value))
    throw new UsageError(`"${value}" is not a delivery id (see "referee webhooks deliveries")`);
  return value;
}

/** `--description` and `--url` within the API's bounds. */
function checkTextBounds(options: { url?: string; description?: string }): void {
  if (options.description !== undefined && options.description.length > 500)
    throw new UsageError('--description is at most 500 characters');
  if (options.url !== undefined && options.url.length > 2048)
    throw new UsageError('--url is at most 2048 characters');
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

/** What a webhook command works with once its input is checked. */
interface Session {
  dataSource: DataSource;
  settings: WebhookSettings;
}

/**
 * Runs `work` against the database (and, for a change, with Temporal's address resolved, to wake the endpoint's
 * workflow), with the management module's refusals reported as the CLI's failures.
 */
async function withSession(
  ctx: CommandContext,
  { changes }: { changes: boolean },
  work: (session: Session) => Promise<void>,
): Promise<void> {
  const { config } = ctx.system({ temporal: changes });
  const settings: WebhookSettings = config.webhooks;
  const dataSource = await openDatabase(config, { migrate: false });
  try {
    await withRefusals(() => work({ dataSource, settings }));
  } finally {
    await dataSource.destroy();
  }
}

async function existingEndpoint(
  dataSource: DataSource,
  service: ServiceName,
  endpointId: string,
): Promise<EndpointRow> {
  const endpoint = await selectEndpoint(dataSource, service, endpointId);
  if (!endpoint)
    throw new OpsError('endpoint_not_found', `no ${service} webhook endpoint has id ${endpointId}`);
  return endpoint;
}

export async function webhooksList(
  ctx: CommandContext,
  { options: { service } }: Input<'webhooksList'>,
): Promise<void> {
  await withSession(ctx, { changes: false }, async ({ dataSource }) => {
    const endpoints = await selectEndpoints(dataSource, service);
    ctx.out.result(
      endpoints.length === 0
        ? `No ${service} webhook endpoints.`
        : endpoints.map((e) => describeEndpoint(service, e)).join('\n'),
      { webhooks: endpoints.map((e) => endpointJson(service, e)) },
    );
  });
}

export async function webhooksRead(
  ctx: CommandContext,
  { options, positionals }: Input<'webhooksRead'>,
): Promise<void> {
  const { service } = options;
  const endpointId = checkedEndpointId(positionals['endpoint-id']);
  await withSession(ctx, { changes: false }, async ({ dataSource }) => {
    const endpoint = await existingEndpoint(dataSource, service, endpointId);
    ctx.out.result(describeEndpoint(service, endpoint), { webhook: endpointJson(service, endpoint) });
  });
}

export async function webhooksCreate(
  ctx: CommandContext,
  { options }: Input<'webhooksCreate'>,
): Promise<void> {
  const { service } = options;
  checkTextBounds(options);
  const eventTypes = parseEventTypes(service, options.events);
  await withSession(ctx, { changes: true }, async ({ dataSource, settings }) => {
    const { endpoint, secret } = await dataSource.transaction((tx) =>
      createEndpoint(settings, tx, service, null, {
        url: options.url,
        description: options.description ?? '',
        eventTypes,
        maxInFlight: options['max-in-flight'],
      }),
    );
    await wakeEndpointWorkflow(ctx, endpoint.id);
    ctx.out.result(
      `Created ${service} webhook endpoint:\n${describeEndpoint(service, endpoint)}\n` +
        `Signing secret (shown once, store it now):\n${secret}`,
      { webhook: endpointJson(service, endpoint), secret },
    );
  });
}

/** update, pause and resume: the endpoint as it is, with `change` applied, saved through the API's code. */
async function changeExisting(
  ctx: CommandContext,
  { service, endpointId }: { service: ServiceName; endpointId: string },
  {
    verb,
    change,
  }: { verb: string; change: (current: EndpointRow) => EndpointInput & { status: WebhookEndpointStatus } },
): Promise<void> {
  await withSession(ctx, { changes: true }, async ({ dataSource, settings }) => {
    const current = await existingEndpoint(dataSource, service, endpointId);
    const changed = await dataSource.transaction((tx) =>
      changeEndpoint(settings, tx, service, endpointId, change(current)),
    );
    await wakeEndpointWorkflow(ctx, endpointId);
    ctx.out.result(`${verb} ${service} webhook endpoint:\n${describeEndpoint(service, changed)}`, {
      webhook: endpointJson(service, changed),
    });
  });
}

export async function webhooksUpdate(
  ctx: CommandContext,
  { options, positionals }: Input<'webhooksUpdate'>,
): Promise<void> {
  const { service } = options;
  const endpointId = checkedEndpointId(positionals['endpoint-id']);
  checkTextBounds(options);
  const eventTypes = options.events === undefined ? undefined : parseEventTypes(service, options.events);
  await changeExisting(
    ctx,
    { service, endpointId },
    {
      verb: 'Updated',
      change: (current) => ({
        url: options.url ?? current.url,
        description: options.description ?? current.description,
        eventTypes: eventTypes ?? current.event_types,
        maxInFlight: options['max-in-flight'],
        status: current.status,
      }),
    },
  );
}

/** The endpoint as it is, in another status. */
const withStatus = (status: WebhookEndpointStatus) => (current: EndpointRow) => ({
  url: current.url,
  description: current.description,
  eventTypes: current.event_types,
  maxInFlight: undefined,
  status,
});

export async function webhooksPause(
  ctx: CommandContext,
  { options, positionals }: Input<'webhooksPause'>,
): Promise<void> {
  const endpointId = checkedEndpointId(positionals['endpoint-id']);
  await changeExisting(
    ctx,
    { service: options.service, endpointId },
    { verb: 'Paused', change: withStatus('PAUSED') },
  );
}

export async function webhooksResume(
  ctx: CommandContext,
  { options, positionals }: Input<'webhooksResume'>,
): Promise<void> {
  const endpointId = checkedEndpointId(positionals['endpoint-id']);
  await changeExisting(
    ctx,
    { service: options.service, endpointId },
    { verb: 'Resumed', change: withStatus('ACTIVE') },
  );
}

export async function webhooksDelete(
  ctx: CommandContext,
  { options, positionals }: Input<'webhooksDelete'>,
): Promise<void> {
  const { service } = options;
  const endpointId = checkedEndpointId(positionals['endpoint-id']);
  await withSession(ctx, { changes: true }, async ({ dataSource }) => {
    await dataSource.transaction((tx) => removeEndpoint(tx, service, endpointId));
    await wakeEndpointWorkflow(ctx, endpointId);
    ctx.out.result(`Deleted ${service} webhook endpoint ${endpointId}; nothing more is sent to it.`, {
      id: endpointId,
      deleted: true,
    });
  });
}

export async function webhooksRotate(
  ctx: CommandContext,
  { options, positionals }: Input<'webhooksRotate'>,
): Promise<void> {
  const { service } = options;
  const endpointId = checkedEndpointId(positionals['endpoint-id']);
  await withSession(ctx, { changes: true }, async ({ dataSource, settings }) => {
    const { endpoint, secret } = await dataSource.transaction((tx) =>
      rotateSecret(settings, tx, service, endpointId, options['grace-hours']),
    );
    ctx.out.result(
      `Rotated the secret of ${service} webhook endpoint ${endpointId}` +
        (endpoint.previous_secret_expires_at
          ? `; the previous one also signs until ${endpoint.previous_secret_expires_at.toISOString()}.`
          : '; the previous one no longer signs.') +
        `\nNew signing secret (shown once, store it now):\n${secret}`,
      { webhook: endpointJson(service, endpoint), secret },
    );
  });
}

export async function webhooksDeliveries(
  ctx: CommandContext,
  { options, positionals }: Input<'webhooksDeliveries'>,
): Promise<void> {
  const { service } = options;
  const endpointId = checkedEndpointId(positionals['endpoint-id']);
  await withSession(ctx, { changes: false }, async ({ dataSource }) => {
    await existingEndpoint(dataSource, service, endpointId);
    const [deliveries, total] = await Promise.all([
      selectDeliveries(dataSource, endpointId, { limit: options.limit }),
      countDeliveries(dataSource, endpointId),
    ]);
    ctx.out.result(
      deliveries.length === 0
        ? `No deliveries to ${endpointId}.`
        : `${plural(total, 'delivery', 'deliveries')}, newest first:\n` +
            deliveries.map(describeDelivery).join('\n'),
      { deliveries, total },
    );
  });
}

export async function webhooksRedeliver(
  ctx: CommandContext,
  { options, positionals }: Input<'webhooksRedeliver'>,
): Promise<void> {
  const { service } = options;
  const endpointId = checkedEndpointId(positionals['endpoint-id']);
  const deliveryId = checkedDeliveryId(positionals['delivery-id']);
  await withSession(ctx, { changes: true }, async ({ dataSource }) => {
    await dataSource.transaction((tx) => redeliver(tx, service, endpointId, deliveryId));
    await wakeEndpointWorkflow(ctx, endpointId);
    ctx.out.result(
      `Delivery ${deliveryId} of ${endpointId} is pending again (same webhook-id, a fresh schedule).`,
      { id: deliveryId, endpoint_id: endpointId, status: 'PENDING' },
    );
  });
}
