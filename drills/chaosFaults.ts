import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Cluster } from './chaosCluster';
import { type Load, REQUEST_GIVE_UP_MS } from './chaosLoad';

export type FaultKind = 'worker' | 'api' | 'temporal' | 'postgres';
export const FAULT_KINDS: FaultKind[] = ['worker', 'api', 'temporal', 'postgres'];
export const FAULT_NAMES: Record<FaultKind, string> = {
  worker: 'kill -9 a worker',
  api: 'kill -9 an API process',
  temporal: 'kill -9 the Temporal server',
  postgres: 'restart PostgreSQL',
};

export interface FaultRecord {
  kind: FaultKind;
  at: number;
  pid?: number;
  recoveredMs: number | null;
  unavailableDuring: number;
}

/**
 * Injects `kinds` evenly over the run (the first after a minute of steady load). After each, a probe (a math
 * action on a task of its own, retried like any request) measures the time until a change is acknowledged again
 * and the faulted process is back.
 */
export async function injectFaults(
  cluster: Cluster,
  load: Load,
  plan: { kinds: FaultKind[]; deadline: number; probeTask: string; log: (line: string) => void },
): Promise<FaultRecord[]> {
  const records: FaultRecord[] = [];
  const firstAt = Date.now() + 60_000;
  const spacing = Math.max(10_000, (plan.deadline - 30_000 - firstAt) / plan.kinds.length);
  let probeStep = 0;
  for (const [i, kind] of plan.kinds.entries()) {
    const at = firstAt + i * spacing;
    if (at > plan.deadline) break;
    await sleep(Math.max(0, at - Date.now()));
    const before = await cluster.connection();
    const unavailableBefore = load.counters.unavailable;
    const record: FaultRecord = { kind, at: Date.now(), recoveredMs: null, unavailableDuring: 0 };
    const pool =
      kind === 'worker'
        ? before.processes.workers!
        : kind === 'api'
          ? before.processes.apis!
          : [before.processes.temporal!];
    // A killed worker or API process is back when its log has one more ready line (its own log, kept across restarts).
    const slot = i % pool.length;
    const readyLog =
      kind === 'worker' || kind === 'api' ? join(cluster.dataDir, 'logs', `${kind}-${slot + 1}.log`) : null;
    const readyLine = kind === 'worker' ? 'worker polling' : 'API listening';
    const readyBefore = readyLog ? await countLines(readyLog, readyLine) : 0;
    if (kind === 'postgres') {
      plan.log(`fault ${i + 1}: ${FAULT_NAMES[kind]}`);
      await cluster.restartPostgres();
    } else {
      record.pid = pool[slot];
      plan.log(`fault ${i + 1}: ${FAULT_NAMES[kind]} (pid ${record.pid})`);
      process.kill(record.pid, 'SIGKILL');
    }
    // Recovered: a change is acknowledged again, and a killed process is replaced and serving (so the next fault
    // meets a whole system, never a second process of the same kind still starting).
    const recoverBy = Date.now() + REQUEST_GIVE_UP_MS;
    let acknowledged = false;
    while (Date.now() < recoverBy) {
      if (!acknowledged && (await load.mathAction(plan.probeTask, probeStep))) {
        probeStep += 1;
        acknowledged = true;
      }
      const replaced =
        kind === 'temporal'
          ? (await cluster.connection()).processes.temporal !== record.pid
          : !readyLog || (await countLines(readyLog, readyLine)) > readyBefore;
      if (acknowledged && replaced) {
        record.recoveredMs = Date.now() - record.at;
        break;
      }
      await sleep(200);
    }
    record.unavailableDuring = load.counters.unavailable - unavailableBefore;
    plan.log(
      `fault ${i + 1}: ${record.recoveredMs === null ? 'NOT recovered' : `recovered in ${(record.recoveredMs / 1000).toFixed(1)} s`}, ` +
        `${record.unavailableDuring} 503 answers meanwhile`,
    );
    records.push(record);
  }
  return records;
}

async function countLines(file: string, text: string): Promise<number> {
  const content = await readFile(file, 'utf8').catch(() => '');
  return content.split('\n').filter((line) => line.includes(text)).length;
}
