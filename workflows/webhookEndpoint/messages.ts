import { defineSignal } from '@temporalio/workflow';

export interface WebhookEndpointWorkflowInput {
  endpointId: string;
}

/**
 * Something changed that the workflow may be waiting out (resume, redelivery, deletion, new URL): look again. The
 * API sends it by name (webhooks/endpointWorkflow.ts).
 */
export const wakeWebhookEndpointSignal = defineSignal('wake');
