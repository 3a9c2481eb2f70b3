import {
  condition,
  makeContinueAsNewFunc,
  proxyActivities,
  setHandler,
  setWorkflowOptions,
  workflowInfo,
} from '@temporalio/workflow';
import type { createActivities } from '../../activities';
import { MovableRun } from '../versioning';
import { wakeWebhookEndpointSignal, type WebhookEndpointWorkflowInput } from './messages';

type Activities = ReturnType<typeof createActivities>;

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

/**
 * Delivers one endpoint's events: each turn is one run of `deliverWebhooks`, which sends the endpoint's due
 * deliveries for a few minutes, up to its `max_in_flight` at once and one subject at a time (a task's events arrive
 * in commit order). A wait longer than a minute (every subject backing off, or the circuit breaker open) is a
 * timer here, cut short by the wake signal (resume, redelivery, deletion). Everything durable is in PostgreSQL
 * (deliveries, attempts, health); the workflow holds only what to do next, so continue-as-new carries nothing.
 *
 * Pinned to the build that started the run, it moves to another between turns (workflows/versioning.ts): no batch of
 * the old build is still sending when the new build's first one starts, so an endpoint's order holds.
 */
export async function webhookEndpointWorkflow(input: WebhookEndpointWorkflowInput): Promise<void> {
  const movable = new MovableRun(input);
  let woken = false;
  setHandler(wakeWebhookEndpointSignal, () => {
    woken = true;
  });
  await movable.resumed();
  for (let turn = 0; turn < TURNS_PER_RUN; turn++) {
    woken = false;
    const end = await deliverWebhooks({ endpointId: input.endpointId });
    if (end.kind === 'deleted') return;
    if (end.kind === 'waiting') await condition(() => woken || movable.departing, end.dueInMs);
    if (workflowInfo().continueAsNewSuggested || movable.departing) break;
  }
  const departure = movable.departure();
  const next = makeContinueAsNewFunc<typeof webhookEndpointWorkflow>(
    departure && 'upgrade' in departure ? { initialVersioningBehavior: 'AUTO_UPGRADE' } : {},
  );
  await next(
    departure && 'parked' in departure ? { ...input, parked: true } : { endpointId: input.endpointId },
  );
}

setWorkflowOptions({ versioningBehavior: 'PINNED' }, webhookEndpointWorkflow);
