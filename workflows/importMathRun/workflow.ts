import { setHandler, setWorkflowOptions } from '@temporalio/workflow';
import {
  importAfterPlan,
  importProgressQuery,
  newProgress,
  planningActivities,
  upsertActivities,
} from '../importCommon';
import type { ImportMathRunInput, ImportMathRunResult } from './messages';

/**
 * Imports one math run bundle: plan (validate, hash, stage the files), upload the files in chunks
 * content-addressed, then upsert every record in one transaction. Only counts cross the history.
 */
export async function importMathRunWorkflow(input: ImportMathRunInput): Promise<ImportMathRunResult> {
  const progress = newProgress('math');
  setHandler(importProgressQuery, () => progress);

  const plan = await planningActivities.planMathImport(input.bundleDir);
  const upserted = await importAfterPlan(progress, plan.runId, plan, () =>
    upsertActivities.upsertMathRun({ importId: plan.importId }),
  );
  return {
    ...progress,
    runId: plan.runId,
    unchanged: upserted?.unchanged ?? true,
    tasks: plan.counts.tasks,
    changes: upserted?.changes ?? null,
  };
}

// Pinned: an import finishes on the code that planned it; it never moves (docs/workflow-evolution.md).
setWorkflowOptions({ versioningBehavior: 'PINNED' }, importMathRunWorkflow);
