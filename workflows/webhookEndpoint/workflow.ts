import { condition, continueAsNew, proxyActivities, setHandler, workflowInfo } from '@temporalio/workflow';
import type { createActivities } from '../../activities';
import { wakeWebhookEndpointSignal, type WebhookEndpointWorkflowInput } from './messages';
import { nextStep } from './schedule';

type Activities = ReturnType<typeof createActivities>;

const { nextWebhookDelivery, recordWebhookOutcome } = proxyActivities<Activities>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '1 second', maximumInterval: '30 seconds' },
});
// The HTTP attempt: 15 s of request, then recording it. It heartbeats while it waits, so a worker lost
// mid-attempt is noticed within seconds and the attempt runs again (same webhook-id): at least once, never lost.
const { attemptWebhookDelivery } = proxyActivities<Activities>({
  startToCloseTimeout: '40 seconds',
  heartbeatTimeout: '5 seconds',
  retry: { initialInterval: '1 second', maximumInterval: '30 seconds' },
});
// Waits (up to a minute, heartbeating) for a delivery to become due; the worker's LISTEN wakes it at commit.
const { awaitWebhookWork } = proxyActivities<Activities>({
  startToCloseTimeout: '90 seconds',
  heartbeatTimeout: '20 seconds',
  retry: { initialInterval: '1 second', maximumInterval: '30 seconds' },
});

/** Loop turns per run; continue-as-new keeps each run's history far below Temporal's limits. */
const TURNS_PER_RUN = 200;

/**
 * Delivers one endpoint's events, oldest first, one at a time: a task's events arrive in order, and an endpoint
 * that is down waits out its retry schedule here without holding up any other endpoint. Everything durable is in
 * PostgreSQL (deliveries, attempts); the workflow holds only what to do next, so continue-as-new carries nothing.
 */
export async function webhookEndpointWorkflow(input: WebhookEndpointWorkflowInput): Promise<void> {
  let woken = false;
  setHandler(wakeWebhookEndpointSignal, () => {
    woken = true;
  });

  for (let turn = 0; turn < TURNS_PER_RUN; turn++) {
    woken = false;
    const next = await nextWebhookDelivery({ endpointId: input.endpointId });
    if (next.kind === 'deleted') return;
    if (next.kind === 'idle') {
      await awaitWebhookWork({ endpointId: input.endpointId });
      continue;
    }
    if (next.kind === 'waiting') {
      // A backoff: a timer in the history, cut short by a redelivery, resume or deletion.
      await condition(() => woken, next.dueInMs);
      continue;
    }
    const outcome = await attemptWebhookDelivery({ deliveryId: next.deliveryId });
    const step = nextStep(outcome, next.attemptCount + 1, Math.random());
    if (outcome.kind === 'failed' || outcome.kind === 'gone') {
      await recordWebhookOutcome({ deliveryId: next.deliveryId, step });
    }
    if (workflowInfo().continueAsNewSuggested) break;
  }
  await continueAsNew<typeof webhookEndpointWorkflow>(input);
}
