import type { SystemAccess } from '../bench/system';
import { genomicsTaskWorkflowId } from '../workflows/genomicsTask/ids';
import { mathTaskWorkflowId } from '../workflows/mathTask/ids';
import type { Acknowledged, Load } from './chaosLoad';

export interface LedgerResult {
  /** Acknowledged changes missing from their event, their workflow's history or their projection's version. */
  lost: number;
  /** Acknowledged changes recorded more than once (events, or accepted twice in one workflow run). */
  duplicated: number;
  /**
   * Acknowledged changes whose retry reached a later run of the workflow (after continue-as-new) and was accepted
   * there and answered from the receipt that run carried, without a second transition.
   */
  answeredFromReceipt: number;
  /** Changes applied that no client was told of (every request here is retried until answered, so none expected). */
  unacknowledgedApplied: number;
  importsChecked: number;
  corruptDownloads: number;
  /** One line per change lost or duplicated: its subject, update id and where it was found how often. */
  findings: string[];
  /** The update ids of those changes (a drill that measures per fault finds when each was acknowledged). */
  lostUpdateIds: string[];
  duplicatedUpdateIds: string[];
}

/**
 * Every acknowledged change, looked up three ways: its event (by update id) exactly once, its update accepted in its
 * workflow's history and never twice in one run, and its task's projection version counting it. Every
 * acknowledged import is there with its tasks exactly once. (reconcile, run after, compares each projection with
 * its workflow's state.)
 */
export async function checkLedger(access: SystemAccess, load: Load): Promise<LedgerResult> {
  const result: LedgerResult = {
    lost: 0,
    duplicated: 0,
    answeredFromReceipt: 0,
    unacknowledgedApplied: 0,
    importsChecked: load.imported.length,
    corruptDownloads: load.downloadsCorrupt,
    findings: [],
    lostUpdateIds: [],
    duplicatedUpdateIds: [],
  };
  const bySubject = new Map<string, Acknowledged[]>();
  for (const ack of load.acknowledged) {
    const key = `${ack.service}:${ack.subject}`;
    bySubject.set(key, [...(bySubject.get(key) ?? []), ack]);
  }
  for (const acks of bySubject.values()) {
    const { service, subject } = acks[0];
    const [projection]: Array<{ version: number; events: Array<{ update_id: string | null }> }> =
      service === 'math'
        ? await access.dataSource.query(
            `SELECT version, (SELECT coalesce(json_agg(json_build_object('update_id', e.update_id)), '[]')
                                FROM math_task_events e WHERE e.task_id = t.task_id) AS events
               FROM math_tasks t WHERE task_id = $1`,
            [subject],
          )
        : await access.dataSource.query(
            `SELECT workflow_version AS version,
                    (SELECT coalesce(json_agg(json_build_object('update_id', e.update_id)), '[]')
                       FROM genomics_events e WHERE e.topic_id = t.id AND e.update_id IS NOT NULL) AS events
               FROM genomics_topics t WHERE t.batch || ':' || t.topic = $1`,
            [subject],
          );
    const events = tally(projection.events.map((e) => e.update_id));
    const workflowId = service === 'math' ? mathTaskWorkflowId(subject) : genomicsTaskWorkflowId(subject);
    const acceptedPerRun = await updatesInHistory(access, workflowId);
    const expected = new Set(acks.map((a) => a.updateId));
    for (const id of expected) {
      const inEvents = events.get(id) ?? 0;
      const runs = acceptedPerRun.get(id) ?? [];
      const finding = `${service} ${subject} update ${id}: ${inEvents} event(s), accepted ${runs.join(' + ') || 0} time(s) by run`;
      if (inEvents === 0 || runs.length === 0) {
        result.lost += 1;
        result.lostUpdateIds.push(id);
        result.findings.push(`lost: ${finding}`);
      } else if (inEvents > 1 || runs.some((n) => n > 1)) {
        result.duplicated += 1;
        result.duplicatedUpdateIds.push(id);
        result.findings.push(`duplicated: ${finding}`);
      } else if (runs.length > 1) result.answeredFromReceipt += 1;
    }
    const unexpected = [...events.keys()].filter((id) => id !== null && !expected.has(id)).length;
    result.unacknowledgedApplied += unexpected;
    // Each transition raises the version by one: fewer than the changes told of means one was lost.
    if (projection.version < expected.size + unexpected)
      result.lost += expected.size + unexpected - projection.version;
  }
  for (const { runId, tasks } of load.imported) {
    const [{ n }]: Array<{ n: number }> = await access.dataSource.query(
      'SELECT count(*)::int AS n FROM math_tasks WHERE run_id = $1',
      [runId],
    );
    if (n < tasks) result.lost += 1;
    if (n > tasks) result.duplicated += 1;
  }
  return result;
}

const tally = <T>(items: T[]): Map<T, number> => {
  const counts = new Map<T, number>();
  for (const item of items) counts.set(item, (counts.get(item) ?? 0) + 1);
  return counts;
};

/**
 * How many times each update id was accepted in each run of a workflow that accepted it (continue-as-new starts new
 * runs; Temporal deduplicates an update id within a run, the workflow's carried receipts across runs).
 */
async function updatesInHistory(access: SystemAccess, workflowId: string): Promise<Map<string, number[]>> {
  const perRun = new Map<string, number[]>();
  for await (const run of access.temporal.workflow.list({ query: `WorkflowId = '${workflowId}'` })) {
    const history = await access.temporal.workflow.getHandle(workflowId, run.runId).fetchHistory();
    const inRun = tally(
      (history.events ?? []).flatMap(
        (event) => event.workflowExecutionUpdateAcceptedEventAttributes?.protocolInstanceId ?? [],
      ),
    );
    for (const [id, n] of inRun) perRun.set(id, [...(perRun.get(id) ?? []), n]);
  }
  return perRun;
}
