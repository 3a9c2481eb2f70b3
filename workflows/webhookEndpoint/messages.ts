import { defineSignal } from '@temporalio/workflow';

export interface WebhookEndpointWorkflowInput {
  endpointId: string;
}

/** Something changed that the workflow may be waiting out (resume, redelivery, deletion, new URL): look again. */
export const wakeWebhookEndpointSignal = defineSignal('wake');

/** One workflow per endpoint, so one endpoint's backlog or outage never delays another's. */
export const webhookEndpointWorkflowId = (endpointId: string) => `webhook-endpoint/${endpointId}`;
