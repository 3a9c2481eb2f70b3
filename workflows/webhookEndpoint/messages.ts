import { defineSignal } from '@temporalio/workflow';
import type { MovableInput } from '../versioning';

export interface WebhookEndpointWorkflowInput extends MovableInput {
  endpointId: string;
}

/**
 * Something changed that the workflow may be waiting out (resume, redelivery, deletion, new URL): look again. The
 * API sends it by name (webhooks/endpointWorkflow.ts).
 */
export const wakeWebhookEndpointSignal = defineSignal('wake');
