import type { Client } from '@temporalio/client';
import type { DataSource } from 'typeorm';
import { forEachLimit } from '../../concurrency/limit';
import type { ServiceName } from '../../entities/types';
import { clearCheckpoint, readCheckpoint, saveCheckpoint } from './checkpointQueries';
import { insertProjectionRepair } from './reconcileQueries';
import { type OperatorProgress, sleep } from './progress';
import { genomicsReconciler } from './reconcileGenomics';
import { mathReconciler } from './reconcileMath';
import { type Difference, type ServiceReconciler, UnrepairableError } from './reconcileTypes';
import { queryWorkflowState } from './workflowQueries';

export interface ReconcileDeps {
  dataSource: DataSource;
  temporal: Client;
  progress?: (progress: OperatorProgress) => void;
}

export interface ReconcileOptions {
  services: ServiceName[];
  /** Rewrite each diverged projection from its workflow (the source of truth). */
  repair: boolean;
  /** Tasks checked at once (default 8). */
  concurrency?: number;
  /** Rows per page, and so per checkpoint (default 200). */
  pageSize?: number;
  /** Ignore a checkpoint left by an interrupted run and start from the first task. */
  restart?: boolean;
  /**
   * Deadline of each workflow query attempt (default 30 s): longer than the 10 s a query to a workflow whose
   * sticky worker died waits before the server hands it to another worker.
   */
  queryTimeoutMs?: number;
}

export type FindingOutcome =
  | 'diverged'
  | 'repaired'
  /** No workflow, and the projection is not in the task's initial state: nothing to repair it from. */
  | 'no_workflow'
  /** The task changed between every look: left for the next run, never repaired backwards. */
  | 'changing'
  /**
   * The projection is ahead of its workflow: a transition committed inside a workflow task that never completed
   * (no client was told). Not rewritten here: the workflow's next transition replaces it and audits the replacement
   * (docs/decisions.md); rewriting the row alone would leave that transition's event behind.
   */
  | 'unacknowledged'
  | 'unrepairable';

export interface ReconcileFinding {
  service: ServiceName;
  subjectId: string;
  workflowId: string;
  projectionVersion: number;
  workflowVersion: number | null;
  differences: Difference[];
  outcome: FindingOutcome;
  note?: string;
}

export interface ReconcileReport {
  ok: boolean;
  services: Array<{
    service: ServiceName;
    /** Tasks checked by this invocation (after the checkpoint when it resumed). */
    checked: number;
    withWorkflow: number;
    resumedAfter: string | null;
    /** Findings of the interrupted run(s) this one resumed (their details were reported then). */
    earlierFindings: number;
  }>;
  findings: ReconcileFinding[];
  elapsedMs: number;
}

/** How often a differing task is looked at again before it counts as diverged (live traffic moves on). */
const RECHECKS = 3;

/**
 * Compares every task's PostgreSQL projection with its workflow's state (the `…TaskState` query) and, with
 * `repair`, rewrites diverged projections from the workflow, one guarded transaction per task with a
 * `projection_repairs` row. A task whose versions move while it is checked is re-read; a repair is guarded
 * by the projection version it compared, so it never overwrites a transition committed meanwhile.
 * Resumable: each finished page moves the checkpoint `reconcile:<service>`.
 */
export async function reconcile(deps: ReconcileDeps, options: ReconcileOptions): Promise<ReconcileReport> {
  const started = Date.now();
  const report: ReconcileReport = { ok: true, services: [], findings: [], elapsedMs: 0 };
  for (const service of options.services) {
    const reconciler = (service === 'math' ? mathReconciler : genomicsReconciler) as ServiceReconciler<
      unknown,
      unknown
    >;
    report.services.push(await reconcileService(deps, options, reconciler, report.findings));
  }
  report.ok =
    report.findings.every((f) => f.outcome === 'repaired') &&
    report.services.every((s) => s.earlierFindings === 0);
  report.elapsedMs = Date.now() - started;
  return report;
}

async function reconcileService<Row, State>(
  deps: ReconcileDeps,
  options: ReconcileOptions,
  reconciler: ServiceReconciler<Row, State>,
  findings: ReconcileFinding[],
): Promise<ReconcileReport['services'][number]> {
  const { dataSource, temporal } = deps;
  const checkpointName = `reconcile:${reconciler.service}`;
  if (options.restart) await clearCheckpoint(dataSource, checkpointName);
  const checkpoint = await readCheckpoint(dataSource, checkpointName);
  const earlier = checkpoint?.totals ?? {};
  const total = await reconciler.count(dataSource);
  const withWorkflowIds = await workflowIdsOf(temporal, reconciler.workflowType);
  const summary = {
    service: reconciler.service,
    checked: 0,
    withWorkflow: 0,
    resumedAfter: checkpoint?.position ?? null,
    earlierFindings: earlier.findings ?? 0,
  };
  let done = earlier.checked ?? 0;
  const ownFindings = () =>
    findings.filter((f) => f.service === reconciler.service && f.outcome !== 'repaired');
  const queryTimeoutMs = options.queryTimeoutMs ?? 30_000;

  const queryState = (workflowId: string): Promise<State | null> =>
    queryWorkflowState(temporal, workflowId, reconciler.stateQuery, queryTimeoutMs);

  const check = async (first: Row): Promise<void> => {
    const workflowId = reconciler.workflowId(first);
    // Visibility lists the tasks that have a workflow; an initial row outside it has nothing to compare.
    if (!withWorkflowIds.has(workflowId) && reconciler.compare(first, null).length === 0) return;
    let row: Row | null = first;
    let state = await queryState(workflowId);
    if (state) summary.withWorkflow += 1;
    let diff = reconciler.compare(row, state);
    for (let attempt = 1; diff.length > 0 && attempt <= RECHECKS; attempt += 1) {
      await sleep(100 * attempt);
      const again: Row | null = await reconciler.reread(dataSource, row);
      const stateAgain = await queryState(workflowId);
      if (!again) return;
      const stable =
        reconciler.version(again) === reconciler.version(row) &&
        (state
          ? stateAgain !== null && reconciler.stateVersion(stateAgain) === reconciler.stateVersion(state)
          : !stateAgain);
      row = again;
      state = stateAgain;
      diff = reconciler.compare(row, state);
      if (stable) break;
      if (attempt === RECHECKS && diff.length > 0) {
        findings.push(finding(reconciler, row, state, diff, 'changing'));
        return;
      }
    }
    if (diff.length === 0) return;
    if (!state) {
      findings.push(finding(reconciler, row, null, diff, 'no_workflow'));
      return;
    }
    if (reconciler.version(row) > reconciler.stateVersion(state)) {
      const note = "replaced by the workflow's next transition";
      findings.push(finding(reconciler, row, state, diff, 'unacknowledged', note));
      return;
    }
    if (!options.repair) {
      findings.push(finding(reconciler, row, state, diff, 'diverged'));
      return;
    }
    findings.push(await repairTask(dataSource, reconciler, row, state, diff, queryState));
  };

  let after = checkpoint?.position ?? null;
  for (;;) {
    const rows = await reconciler.page(dataSource, after, options.pageSize ?? 200);
    if (rows.length === 0) break;
    await forEachLimit(rows, options.concurrency ?? 8, check);
    summary.checked += rows.length;
    done += rows.length;
    after = reconciler.cursor(rows[rows.length - 1]);
    await saveCheckpoint(dataSource, checkpointName, after, {
      checked: done,
      findings: summary.earlierFindings + ownFindings().length,
    });
    deps.progress?.({ phase: `reconcile ${reconciler.service}`, done, total: Math.max(total, done) });
  }
  await clearCheckpoint(dataSource, checkpointName);
  return summary;
}

/** Rewrites one projection if the workflow is still at the version compared; audited in the same transaction. */
async function repairTask<Row, State>(
  dataSource: DataSource,
  reconciler: ServiceReconciler<Row, State>,
  row: Row,
  state: State,
  diff: Difference[],
  queryState: (workflowId: string) => Promise<State | null>,
): Promise<ReconcileFinding> {
  const workflowId = reconciler.workflowId(row);
  const latest = await queryState(workflowId);
  if (!latest || reconciler.stateVersion(latest) !== reconciler.stateVersion(state))
    return finding(reconciler, row, state, diff, 'changing', 'the workflow moved on before the repair');
  try {
    const repaired = await dataSource.transaction(async (tx) => {
      if (!(await reconciler.repair(tx, row, state))) return false;
      await insertProjectionRepair(tx, {
        service: reconciler.service,
        subjectId: reconciler.subjectId(row),
        workflowId,
        workflowVersion: reconciler.stateVersion(state),
        projectionVersion: reconciler.version(row),
        differences: diff,
      });
      return true;
    });
    return repaired
      ? finding(reconciler, row, state, diff, 'repaired')
      : finding(reconciler, row, state, diff, 'changing', 'the projection moved on before the repair');
  } catch (error) {
    if (error instanceof UnrepairableError)
      return finding(reconciler, row, state, diff, 'unrepairable', error.message);
    throw error;
  }
}

function finding<Row, State>(
  reconciler: ServiceReconciler<Row, State>,
  row: Row,
  state: State | null,
  diff: Difference[],
  outcome: FindingOutcome,
  note?: string,
): ReconcileFinding {
  return {
    service: reconciler.service,
    subjectId: reconciler.subjectId(row),
    workflowId: reconciler.workflowId(row),
    projectionVersion: reconciler.version(row),
    workflowVersion: state ? reconciler.stateVersion(state) : null,
    differences: diff,
    outcome,
    ...(note ? { note } : {}),
  };
}

/** Ids of every workflow of a type, from Temporal visibility (each continued-as-new run listed once). */
async function workflowIdsOf(temporal: Client, workflowType: string): Promise<Set<string>> {
  const ids = new Set<string>();
  for await (const execution of temporal.workflow.list({
    query: `WorkflowType = '${workflowType}'`,
    pageSize: 1000,
  }))
    ids.add(execution.workflowId);
  return ids;
}
