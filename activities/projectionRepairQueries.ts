import type { EntityManager } from 'typeorm';
import type { ServiceName } from '../entities/types';
import type { TransitionFence, WrittenTransition } from './transitionFence';

/** Records each replaced transition in `projection_repairs`, in the transaction that replaces it. */
export async function auditReplaced(
  tx: Pick<EntityManager, 'query'>,
  service: ServiceName,
  fence: TransitionFence,
  workflowVersion: number,
  replacedBy: string,
  written: WrittenTransition[],
): Promise<void> {
  for (const transition of written) {
    await tx.query(
      `INSERT INTO projection_repairs
         (service, subject_id, workflow_id, workflow_version, projection_version, differences, cause)
       VALUES ($1, $2, $3, $4, $5, $6, 'unacknowledged_transition')`,
      [
        service,
        fence.subjectId,
        fence.workflowId,
        workflowVersion,
        transition.version,
        JSON.stringify([
          { field: 'update_id', projection: transition.updateId, workflow: replacedBy },
          { field: 'event', projection: transition.event, workflow: null },
        ]),
      ],
    );
  }
}
