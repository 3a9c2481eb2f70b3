import {
  DEFAULT_GRACE_HOURS,
  DEFAULT_MAX_IN_FLIGHT,
  MAX_GRACE_HOURS,
  MAX_MAX_IN_FLIGHT,
} from '../../webhooks/management';
import { defineCommand } from '../kernel/command';
import type { WebhookCommand, WebhookInput } from '../handlers/webhooks';
import type { CommandContext } from '../kernel/context';
import { serviceRequired } from './options';

/*
 * `referee webhooks …`: the webhook endpoint operations of the service's API (docs/webhooks.md), as the operator.
 * Each sub-command is declared here with the options it takes; the handler runs them all.
 */

const endpointId = {
  name: 'endpoint-id',
  summary: "The endpoint's id (a UUID).",
  required: true,
  hint: 'see "referee webhooks list"',
} as const;
const url = { type: 'string', value: 'https-url', summary: 'Where the deliveries are sent.' } as const;
const events = {
  type: 'string',
  value: 'type,type|all',
  summary: 'The event types sent to it, comma-separated, or "all".',
} as const;
const description = {
  type: 'string',
  value: 'text',
  summary: 'A description (at most 500 characters).',
} as const;

const maxInFlight = {
  type: 'integer',
  value: 'n',
  min: 1,
  max: MAX_MAX_IN_FLIGHT,
  summary: `How many deliveries are sent to it at once, each of another subject (default ${DEFAULT_MAX_IN_FLIGHT}).`,
} as const;

const run = async (ctx: CommandContext, command: WebhookCommand, input: WebhookInput) =>
  (await import('../handlers/webhooks')).webhooksCommand(ctx, command, input);

/** A command on one endpoint that takes nothing but the service and the endpoint's id. */
const onEndpoint = (command: 'read' | 'pause' | 'resume' | 'delete', summary: string) =>
  defineCommand({
    name: `webhooks ${command}`,
    summary,
    options: { service: serviceRequired },
    positionals: [endpointId],
    run: (ctx, { options, positionals }) => run(ctx, command, { ...options, ...positionals }),
  });

export const webhooksList = defineCommand({
  name: 'webhooks list',
  summary: "The service's endpoints, never a secret.",
  options: { service: serviceRequired },
  positionals: [],
  run: (ctx, { options }) => run(ctx, 'list', options),
});

export const webhooksCreate = defineCommand({
  name: 'webhooks create',
  summary: 'Register an endpoint; its signing secret is printed once.',
  details: ['Secrets are sealed with WEBHOOK_SECRET_KEY and targets checked as the API does.'],
  options: {
    service: serviceRequired,
    url: { ...url, required: true },
    events: { ...events, required: true },
    description,
    'max-in-flight': maxInFlight,
  },
  positionals: [],
  run: (ctx, { options }) => run(ctx, 'create', options),
});

export const webhooksRead = onEndpoint('read', 'One endpoint, never its secret.');

export const webhooksUpdate = defineCommand({
  name: 'webhooks update',
  summary: "Change an endpoint's URL, event types, description or in-flight bound.",
  options: { service: serviceRequired, url, events, description, 'max-in-flight': maxInFlight },
  positionals: [endpointId],
  run: (ctx, { options, positionals }) => run(ctx, 'update', { ...options, ...positionals }),
});

export const webhooksPause = onEndpoint(
  'pause',
  'Pause an endpoint: its deliveries queue and are sent, in order, once it is resumed.',
);

export const webhooksResume = onEndpoint('resume', 'Resume a paused or disabled endpoint.');

export const webhooksDelete = onEndpoint('delete', 'Delete an endpoint; nothing more is sent to it.');

export const webhooksRotate = defineCommand({
  name: 'webhooks rotate',
  summary: 'A new signing secret, printed once; the old one signs too for the grace.',
  options: {
    service: serviceRequired,
    'grace-hours': {
      type: 'integer',
      value: 'hours',
      min: 0,
      max: MAX_GRACE_HOURS,
      default: DEFAULT_GRACE_HOURS,
      summary: 'How long the previous secret keeps signing.',
    },
  },
  positionals: [endpointId],
  run: (ctx, { options, positionals }) => run(ctx, 'rotate', { ...options, ...positionals }),
});

export const webhooksDeliveries = defineCommand({
  name: 'webhooks deliveries',
  summary: "An endpoint's deliveries, newest first, with their attempts.",
  options: {
    service: serviceRequired,
    limit: { type: 'integer', value: 'n', min: 1, max: 100, default: 20, summary: 'How many to list.' },
  },
  positionals: [endpointId],
  run: (ctx, { options, positionals }) => run(ctx, 'deliveries', { ...options, ...positionals }),
});

export const webhooksRedeliver = defineCommand({
  name: 'webhooks redeliver',
  summary: 'Send an ended delivery again (same webhook-id, a fresh schedule).',
  options: { service: serviceRequired },
  positionals: [
    endpointId,
    {
      name: 'delivery-id',
      summary: "The delivery's id (see webhooks deliveries).",
      required: true,
      hint: 'see "referee webhooks deliveries"',
    },
  ],
  run: (ctx, { options, positionals }) => run(ctx, 'redeliver', { ...options, ...positionals }),
});
