import { type ReconcileReport, reconcile } from '../cli/operator/reconcile';
import { type VerifyStorageReport, verifyStorage } from '../cli/operator/verifyStorage';
import type { SystemAccess } from './system';

/** The findings counted by service and outcome, e.g. ` (genomics no_workflow 162)`: what a count alone hides. */
function findingKinds(report: ReconcileReport): string {
  const counts = new Map<string, number>();
  for (const f of report.findings)
    counts.set(`${f.service} ${f.outcome}`, (counts.get(`${f.service} ${f.outcome}`) ?? 0) + 1);
  return counts.size ? ` (${[...counts].map(([kind, n]) => `${kind} ${n}`).join(', ')})` : '';
}

/**
 * `reconcile` (both services, no repair) and then `verify-storage` over a bench system, each from the start, with
 * one summary line each: what the soak checks after its load and what `bench/operatorTimes.ts` times.
 */
export async function runOperatorChecks(
  system: SystemAccess,
  log: (line: string) => void,
): Promise<{ reconciled: ReconcileReport; verified: VerifyStorageReport }> {
  const reconciled = await reconcile(
    { dataSource: system.dataSource, temporal: system.temporal },
    { services: ['math', 'genomics'], repair: false, restart: true },
  );
  log(
    `reconcile: ${reconciled.services.map((s) => `${s.service} ${s.checked} tasks (${s.withWorkflow} with a workflow)`).join(', ')}, ` +
      `${reconciled.findings.length} findings${findingKinds(reconciled)} in ${(reconciled.elapsedMs / 1000).toFixed(1)} s`,
  );
  const verified = await verifyStorage(
    { dataSource: system.dataSource, s3: system.s3, bucket: system.config.s3.bucket },
    { restart: true },
  );
  log(
    `verify-storage: ${verified.objectsChecked} objects, ${(verified.bytesRead / 1024 ** 2).toFixed(1)} MiB, ` +
      `${verified.findings.length} findings in ${(verified.elapsedMs / 1000).toFixed(1)} s`,
  );
  return { reconciled, verified };
}
