import {
  condition,
  continueAsNew,
  patched,
  proxyActivities,
  setHandler,
  workflowInfo,
} from '@temporalio/workflow';
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

// A few minutes of delivery per call (activities/webhookBatches.ts), heartbeating: a worker lost mid-batch is
// noticed within the heartbeat timeout and the run starts again on another worker, sending what was in flight again
// with the same webhook-id; a run whose workflow was terminated learns it at its next heartbeat and stops.
const { deliverWebhooks } = proxyActivities<Activities>({
  startToCloseTimeout: '10 minutes',
  heartbeatTimeout: '5 seconds',
  retry: { initialInterval: '1 second', maximumInterval: '30 seconds' },
});

/** Loop turns per run; continue-as-new keeps each run's history far below Temporal's limits. */
const TURNS_PER_RUN = 200;
/** Runs started before batched delivery replay the one-at-a-time loop (docs/workflow-evolution.md). */
const BATCH_DELIVERY_PATCH = 'webhook-batch-delivery';

/**
 * Delivers one endpoint's events: each turn is one run of `deliverWebhooks`, which sends the endpoint's due
 * deliveries for a few minutes, up to its `max_in_flight` at once and one subject at a time (a task's events arrive
 * in commit order). A wait longer than a minute (every subject backing off, or the circuit breaker open) is a
 * timer here, cut short by the wake signal (resume, redelivery, deletion). Everything durable is in PostgreSQL
 * (deliveries, attempts, health); the workflow holds only what to do next, so continue-as-new carries nothing.
 */
export async function webhookEndpointWorkflow(input: WebhookEndpointWorkflowInput): Promise<void> {
  let woken = false;
  setHandler(wakeWebhookEndpointSignal, () => {
    woken = true;
  });
  if (!patched(BATCH_DELIVERY_PATCH)) {
    await oneAtATime(
      input,
      () => woken,
      () => (woken = false),
    );
    return;
  }
  for (let turn = 0; turn < TURNS_PER_RUN; turn++) {
    woken = false;
    const end = await deliverWebhooks({ endpointId: input.endpointId });
    if (end.kind === 'deleted') return;
    if (end.kind === 'waiting') await condition(() => woken, end.dueInMs);
    if (workflowInfo().continueAsNewSuggested) break;
  }
  await continueAsNew<typeof webhookEndpointWorkflow>(input);
}

/**
 * The loop of runs started before batched delivery: one delivery at a time, one activity per attempt. Kept so
 * their histories replay; retire it with the patch once no such run is open.
 */
async function oneAtATime(
  input: WebhookEndpointWorkflowInput,
  woken: () => boolean,
  clearWoken: () => void,
): Promise<void> {
  for (let turn = 0; turn < TURNS_PER_RUN; turn++) {
    clearWoken();
    const next = await nextWebhookDelivery({ endpointId: input.endpointId });
    if (next.kind === 'deleted') return;
    if (next.kind === 'idle') {
      await awaitWebhookWork({ endpointId: input.endpointId });
      continue;
    }
    if (next.kind === 'waiting') {
      await condition(woken, next.dueInMs);
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
