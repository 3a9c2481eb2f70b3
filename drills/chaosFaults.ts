import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Client } from '@temporalio/client';
import type { TemporalTopology } from '../infra/temporalServer';
import { mathTaskWorkflowId } from '../workflows/mathTask/ids';
import type { Cluster } from './chaosCluster';
import { type Load, REQUEST_GIVE_UP_MS } from './chaosLoad';
import {
  type RecoverySplit,
  recoverySplit,
  replacementSteps,
  SERVICE_LOG_LINES,
  taskTimeoutsAfter,
  workflowHolder,
} from './recoverySplit';

export type FaultKind = 'worker' | 'api' | 'temporal' | 'history' | 'matching' | 'postgres';
/** The faults of a run on `topology`: a history and a matching host only where they are processes of their own. */
export const faultKinds = (topology: TemporalTopology): FaultKind[] =>
  topology === 'services'
    ? ['worker', 'api', 'temporal', 'history', 'matching', 'postgres']
    : ['worker', 'api', 'temporal', 'postgres'];
export const faultNames = (topology: TemporalTopology): Record<FaultKind, string> => ({
  worker: 'kill -9 a worker',
  api: 'kill -9 an API process',
  temporal: topology === 'services' ? "kill -9 Temporal's frontend" : 'kill -9 the Temporal server',
  history: 'kill -9 a Temporal history host',
  matching: 'kill -9 a Temporal matching host',
  postgres: 'restart PostgreSQL',
});

export interface FaultRecord {
  kind: FaultKind;
  at: number;
  pid?: number;
  recoveredMs: number | null;
  unavailableDuring: number;
  /** A Temporal host killed (its name in the connection file), and its log (a history host logs shard moves). */
  host?: { name: string; logFile?: string };
  /** A worker or API process killed (its supervisor's name for it), and its log, kept across restarts. */
  service?: { name: string; logFile: string };
  /** A worker or API process's fault: the time from the kill to each step of its replacement. */
  split?: RecoverySplit;
  /** A history host's fault: the shards acquired by any history host from the kill to the next fault. */
  shardMoves?: { acquired: number; lastAfterMs: number | null };
}

/**
 * Injects `kinds` evenly over the run (the first after a minute of steady load). After each, a probe (a math
 * action on a task of its own, retried like any request) measures the time until a change is acknowledged again
 * and the faulted process is back.
 */
export async function injectFaults(
  cluster: Cluster,
  load: Load,
  plan: {
    kinds: FaultKind[];
    topology: TemporalTopology;
    deadline: number;
    probeTask: string;
    temporal: Client;
    log: (line: string) => void;
  },
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
    // Temporal's own hosts, for its history and matching faults (its worker service is not Referee's worker).
    const hosts =
      kind === 'history' || kind === 'matching'
        ? (before.processes.temporalProcesses ?? []).filter((p) => p.roles.includes(kind))
        : [];
    const pool =
      kind === 'worker'
        ? before.processes.workers!
        : kind === 'api'
          ? before.processes.apis!
          : kind === 'history' || kind === 'matching'
            ? hosts.map((p) => p.pid)
            : [before.processes.temporal!];
    // The worker killed is the one holding the probe's workflow, so the probe meets the sticky-queue wait.
    const holder = kind === 'worker' ? await probeHolder(plan.temporal, plan.probeTask) : undefined;
    const slot = holder !== undefined && pool.includes(holder) ? pool.indexOf(holder) : i % pool.length;
    // A killed worker or API process is back when its log has one more ready line (its own log, kept across restarts).
    if (kind === 'worker' || kind === 'api')
      record.service = serviceProcess(cluster.dataDir, kind, slot, pool.length);
    const readyLog = record.service?.logFile ?? null;
    const readyLine = SERVICE_LOG_LINES[kind === 'worker' ? 'worker' : 'api'].connected;
    const readyBefore = readyLog ? await countLines(readyLog, readyLine) : 0;
    const names = faultNames(plan.topology);
    record.at = Date.now(); // after the choice of process, which may have read the probe's history
    if (kind === 'postgres') {
      plan.log(`fault ${i + 1}: ${names[kind]}`);
      await cluster.restartPostgres();
    } else {
      record.pid = pool[slot];
      if (hosts.length > 0) record.host = { name: hosts[slot].name, logFile: hosts[slot].logFile };
      const named = record.host?.name ?? record.service?.name;
      plan.log(`fault ${i + 1}: ${names[kind]} (pid ${record.pid}${named ? `, ${named}` : ''})`);
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
          : record.host
            ? (await cluster.connection()).processes.temporalProcesses?.find(
                (p) => p.name === record.host!.name,
              )?.pid !== record.pid
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

/** The worker whose cache holds `probeTask`'s workflow; none when its history cannot be read now. */
async function probeHolder(client: Client, probeTask: string): Promise<number | undefined> {
  try {
    const history = await client.withDeadline(Date.now() + 5_000, () =>
      client.workflow.getHandle(mathTaskWorkflowId(probeTask)).fetchHistory(),
    );
    return workflowHolder(history.events ?? []);
  } catch {
    return undefined; // Temporal busy or restarting: the worker is chosen round-robin instead
  }
}

/** The launcher's name and log file for the worker or API process in `slot` of `count` (launcher/launch.ts). */
export const serviceProcess = (dataDir: string, kind: 'worker' | 'api', slot: number, count: number) => ({
  name: `${kind === 'api' ? 'API' : 'worker'}${count === 1 ? '' : ` ${slot + 1}`}`,
  logFile: join(dataDir, 'logs', `${kind}${count === 1 ? '' : `-${slot + 1}`}.log`),
});

/**
 * Fills each worker or API fault's {@link FaultRecord.split}: the replacement's steps from its log, and for a
 * worker the probe workflow's task timeouts (its sticky queue, or a task it had started, on the killed worker),
 * each looked for from the kill to the next fault.
 */
export async function measureRecoverySplits(
  records: FaultRecord[],
  client: Client,
  probeTask: string,
  endedAt: number,
) {
  for (const [i, record] of records.entries()) {
    if (!record.service || (record.kind !== 'worker' && record.kind !== 'api')) continue;
    const until = records[i + 1]?.at ?? endedAt;
    const steps = await replacementSteps(record.service.logFile, record.kind, record.at, until);
    const timeouts =
      record.kind === 'worker'
        ? await taskTimeoutsAfter(client, mathTaskWorkflowId(probeTask), record.at, until)
        : {};
    record.split = recoverySplit(record.at, steps, timeouts);
  }
}

async function countLines(file: string, text: string): Promise<number> {
  const content = await readFile(file, 'utf8').catch(() => '');
  return content.split('\n').filter((line) => line.includes(text)).length;
}

/** A history host's "Acquired shard" log lines: when (ms since the epoch) it took which shard. */
export async function shardAcquisitions(logFile: string): Promise<Array<{ at: number; shard: number }>> {
  const content = await readFile(logFile, 'utf8').catch(() => '');
  const found: Array<{ at: number; shard: number }> = [];
  for (const line of content.split('\n')) {
    if (!line.includes('"Acquired shard"')) continue;
    try {
      const entry = JSON.parse(line) as { ts?: string; 'shard-id'?: number };
      if (entry.ts && entry['shard-id'] !== undefined)
        found.push({ at: Date.parse(entry.ts), shard: entry['shard-id'] });
    } catch {
      // a line cut short by the kill
    }
  }
  return found;
}

/**
 * Fills each history fault's {@link FaultRecord.shardMoves} from every history host's log: the survivor takes the
 * killed host's shards once membership drops it, and the restarted host takes its share back when it rejoins.
 */
export async function measureShardMoves(records: FaultRecord[], historyLogs: string[], endedAt: number) {
  const acquisitions = (await Promise.all(historyLogs.map(shardAcquisitions))).flat();
  for (const [i, record] of records.entries()) {
    if (record.kind !== 'history') continue;
    const until = records[i + 1]?.at ?? endedAt;
    const moves = acquisitions.filter((a) => a.at >= record.at && a.at < until);
    record.shardMoves = {
      acquired: moves.length,
      lastAfterMs: moves.length === 0 ? null : Math.max(...moves.map((a) => a.at)) - record.at,
    };
  }
}
