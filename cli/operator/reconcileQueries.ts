import type { Queryable } from '../../entities/queryable';
import type { ServiceName } from '../../entities/types';
import type { Difference } from './reconcileTypes';

/** Audits one projection rewritten from its workflow, in the transaction that rewrites it. */
export async function insertProjectionRepair(
  tx: Queryable,
  repair: {
    service: ServiceName;
    subjectId: string;
    workflowId: string;
    workflowVersion: number;
    projectionVersion: number;
    differences: Difference[];
  },
): Promise<void> {
  await tx.query(
    `INSERT INTO projection_repairs
       (service, subject_id, workflow_id, workflow_version, projection_version, differences)
     VALUES ($1, $2, $3, $4, $5, $6)`,
    [
      repair.service,
      repair.subjectId,
      repair.workflowId,
      repair.workflowVersion,
      repair.projectionVersion,
      JSON.stringify(repair.differences),
    ],
  );
}
