import {
  DEFAULT_GRACE_HOURS,
  DEFAULT_MAX_IN_FLIGHT,
  MAX_GRACE_HOURS,
  MAX_MAX_IN_FLIGHT,
} from '../../webhooks/management';
import { defineCommand } from '../kernel/command';
import { serviceRequired } from './options';

/*
 * `referee webhooks …`: the webhook endpoint operations of the service's API (docs/webhooks.md), as the operator.
 * Each sub-command is declared here with the options it takes, and run by its own handler.
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

const handlers = () => import('../handlers/webhooks');

/** What a command on one endpoint takes when it takes nothing but the service and the endpoint's id. */
const onEndpoint = { options: { service: serviceRequired }, positionals: [endpointId] } as const;

export const webhooksList = defineCommand({
  name: 'webhooks list',
  summary: "The service's endpoints, never a secret.",
  options: { service: serviceRequired },
  positionals: [],
  run: async (ctx, input): Promise<void> => (await handlers()).webhooksList(ctx, input),
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
  run: async (ctx, input): Promise<void> => (await handlers()).webhooksCreate(ctx, input),
});

export const webhooksRead = defineCommand({
  name: 'webhooks read',
  summary: 'One endpoint, never its secret.',
  ...onEndpoint,
  run: async (ctx, input): Promise<void> => (await handlers()).webhooksRead(ctx, input),
});

export const webhooksUpdate = defineCommand({
  name: 'webhooks update',
  summary: "Change an endpoint's URL, event types, description or in-flight bound.",
  options: { service: serviceRequired, url, events, description, 'max-in-flight': maxInFlight },
  positionals: [endpointId],
  run: async (ctx, input): Promise<void> => (await handlers()).webhooksUpdate(ctx, input),
});

export const webhooksPause = defineCommand({
  name: 'webhooks pause',
  summary: 'Pause an endpoint: its deliveries queue and are sent, in order, once it is resumed.',
  ...onEndpoint,
  run: async (ctx, input): Promise<void> => (await handlers()).webhooksPause(ctx, input),
});

export const webhooksResume = defineCommand({
  name: 'webhooks resume',
  summary: 'Resume a paused or disabled endpoint.',
  ...onEndpoint,
  run: async (ctx, input): Promise<void> => (await handlers()).webhooksResume(ctx, input),
});

export const webhooksDelete = defineCommand({
  name: 'webhooks delete',
  summary: 'Delete an endpoint; nothing more is sent to it.',
  ...onEndpoint,
  run: async (ctx, input): Promise<void> => (await handlers()).webhooksDelete(ctx, input),
});

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
  run: async (ctx, input): Promise<void> => (await handlers()).webhooksRotate(ctx, input),
});

export const webhooksDeliveries = defineCommand({
  name: 'webhooks deliveries',
  summary: "An endpoint's deliveries, newest first, with their attempts.",
  options: {
    service: serviceRequired,
    limit: { type: 'integer', value: 'n', min: 1, max: 100, default: 20, summary: 'How many to list.' },
  },
  positionals: [endpointId],
  run: async (ctx, input): Promise<void> => (await handlers()).webhooksDeliveries(ctx, input),
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
  run: async (ctx, input): Promise<void> => (await handlers()).webhooksRedeliver(ctx, input),
});
