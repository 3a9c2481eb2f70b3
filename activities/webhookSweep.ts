import { type Client, WorkflowExecutionAlreadyStartedError } from '@temporalio/client';
import type { Logger } from 'pino';
import type { EntityManager } from 'typeorm';
import { WEBHOOK_ENDPOINT_WORKFLOW_TYPE, webhookEndpointWorkflowStart } from '../webhooks/endpointWorkflow';
import { selectEndpointsWithPendingDeliveries } from './webhookQueries';

export interface WebhookSweepOptions {
  db: Pick<EntityManager, 'query'>;
  /** A client of the worker's namespace. */
  client: Client;
  taskQueue: string;
  /** Between the end of one sweep and the start of the next (`WEBHOOK_SWEEP_INTERVAL_SECONDS`). */
  intervalMs: number;
  /** The deadline of each start call to Temporal. */
  callTimeoutMs: number;
  logger: Logger;
}

/**
 * Keeps delivery from stalling when an endpoint's workflow is not running while it has pending deliveries: an
 * operator terminated it, it failed, the namespace was reset, or the API stopped between committing a change and
 * starting it. Nothing else would start it again (a transition's commit only wakes a running one), so each worker
 * looks at start and then every interval, and starts the workflow of every active endpoint with a pending delivery.
 *
 * A start is idempotent: while a run of the id is open the server refuses another (conflict policy FAIL, left
 * alone, so a running workflow gets no extra history); once it has closed, a new run starts (reuse policy
 * ALLOW_DUPLICATE). Every run reads what is pending from PostgreSQL and one runs at a time per endpoint, so a
 * delivery keeps its `webhook-id` and no two runs send it.
 */
export class WebhookSweep {
  private timer: NodeJS.Timeout | null = null;
  private current: Promise<unknown> = Promise.resolve();
  private stopped = false;

  constructor(private readonly options: WebhookSweepOptions) {}

  /** Sweeps now, then every interval until {@link stop}. */
  start(): void {
    this.schedule(0);
  }

  /** Stops sweeping and waits for a sweep in progress. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.current;
  }

  /** One sweep: the ids of the endpoints whose workflow it started. */
  async sweep(): Promise<string[]> {
    const { db, client, taskQueue, callTimeoutMs, logger } = this.options;
    const started: string[] = [];
    for (const endpointId of await selectEndpointsWithPendingDeliveries(db)) {
      if (this.stopped) break;
      try {
        await client.withDeadline(Date.now() + callTimeoutMs, () =>
          client.workflow.start(WEBHOOK_ENDPOINT_WORKFLOW_TYPE, {
            ...webhookEndpointWorkflowStart(endpointId, taskQueue),
            workflowIdReusePolicy: 'ALLOW_DUPLICATE',
            workflowIdConflictPolicy: 'FAIL',
          }),
        );
        started.push(endpointId);
        logger.warn(
          { endpointId },
          'webhook endpoint workflow was not running with deliveries pending; the sweep started it',
        );
      } catch (error) {
        // Already running: nothing to do. Anything else (Temporal unreachable): the next sweep tries again.
        if (!(error instanceof WorkflowExecutionAlreadyStartedError))
          logger.warn({ err: error, endpointId }, 'webhook sweep could not start an endpoint workflow');
      }
    }
    return started;
  }

  private schedule(delayMs: number): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.current = this.sweep()
        .catch((error: unknown) =>
          this.options.logger.warn({ err: error }, 'webhook sweep failed; the next one tries again'),
        )
        .finally(() => this.schedule(this.options.intervalMs));
    }, delayMs);
  }
}
