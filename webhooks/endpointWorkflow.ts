/**
 * How the API, the CLI and the worker's sweep reach an endpoint's delivery workflow (workflows/webhookEndpoint/):
 * its type, id and wake-up signal by name. They sit in webhooks/, not workflows/, because the API's shared layer
 * imports no workflow code; the unit tests check the names against the workflow's definitions.
 */
export const WEBHOOK_ENDPOINT_WORKFLOW_TYPE = 'webhookEndpointWorkflow';
export const WAKE_WEBHOOK_ENDPOINT_SIGNAL = 'wake';

/** One workflow per endpoint, so one endpoint's backlog or outage never delays another's. */
export const webhookEndpointWorkflowId = (endpointId: string) => `webhook-endpoint/${endpointId}`;

/** What starts an endpoint's workflow, alike from the API, the CLI and the worker's sweep. */
export const webhookEndpointWorkflowStart = (endpointId: string, taskQueue: string) => ({
  workflowId: webhookEndpointWorkflowId(endpointId),
  taskQueue,
  args: [{ endpointId }],
  staticSummary: `Webhook endpoint ${endpointId}`,
});
