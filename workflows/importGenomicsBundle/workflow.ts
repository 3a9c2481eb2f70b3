import { setHandler, setWorkflowOptions } from '@temporalio/workflow';
import {
  importAfterPlan,
  importProgressQuery,
  newProgress,
  planningActivities,
  upsertActivities,
} from '../importCommon';
import type { ImportGenomicsBundleInput, ImportGenomicsBundleResult } from './messages';

/**
 * Imports one genomics bundle: plan (validate, check references against the workspace, hash, stage the
 * files), upload the files in chunks content-addressed, then upsert every record in one transaction.
 */
export async function importGenomicsBundleWorkflow(
  input: ImportGenomicsBundleInput,
): Promise<ImportGenomicsBundleResult> {
  const progress = newProgress('genomics');
  setHandler(importProgressQuery, () => progress);

  const plan = await planningActivities.planGenomicsImport(input.bundleDir);
  const upserted = await importAfterPlan(progress, `${plan.batch}/${plan.bundleId}`, plan, () =>
    upsertActivities.upsertGenomicsBundle({ importId: plan.importId }),
  );
  const { topics, measurements, reports, revisions, publications } = plan.counts;
  return {
    ...progress,
    bundleId: plan.bundleId,
    unchanged: upserted?.unchanged ?? true,
    topics,
    topicsCreated: upserted?.topicsCreated ?? 0,
    measurements,
    reports,
    revisions,
    publications,
  };
}

// Pinned: an import finishes on the code that planned it; it never moves (docs/workflow-evolution.md).
setWorkflowOptions({ versioningBehavior: 'PINNED' }, importGenomicsBundleWorkflow);
