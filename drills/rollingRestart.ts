import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Cluster } from './chaosCluster';
import { type Load, REQUEST_GIVE_UP_MS } from './chaosLoad';

export interface RestartRecord {
  kind: 'worker' | 'api';
  /** The process told to stop. */
  pid: number;
  at: number;
  /** From SIGTERM to its replacement serving and a change acknowledged again; null when that did not happen. */
  replacedMs: number | null;
  /** 503 answers and dropped connections the load met meanwhile. */
  unavailableDuring: number;
  droppedDuring: number;
}

/**
 * A rolling restart, as a deploy runs one: each worker, then each API process, told to stop with SIGTERM (the
 * container's stop signal) one at a time under the load; its supervisor starts the replacement, and the next one
 * is stopped only once the replacement serves and a probe change is acknowledged. Repeated until the deadline.
 */
export async function rollingRestarts(
  cluster: Cluster,
  load: Load,
  plan: { deadline: number; probeTask: string; log: (line: string) => void },
): Promise<RestartRecord[]> {
  const records: RestartRecord[] = [];
  let probeStep = 0;
  // A minute of steady load first, as before the chaos faults; a restart is begun only with time left to finish it.
  await sleep(Math.max(0, Math.min(60_000, plan.deadline - Date.now() - 60_000)));
  for (let round = 1; Date.now() < plan.deadline - 30_000; round += 1) {
    const { processes } = await cluster.connection();
    const slots = [
      ...processes.workers!.map((_, slot) => ({ kind: 'worker' as const, slot })),
      ...processes.apis!.map((_, slot) => ({ kind: 'api' as const, slot })),
    ];
    for (const { kind, slot } of slots) {
      if (Date.now() > plan.deadline - 30_000) break;
      const current = (await cluster.connection()).processes;
      const pid = (kind === 'worker' ? current.workers! : current.apis!)[slot];
      const readyLog = join(cluster.dataDir, 'logs', `${kind}-${slot + 1}.log`);
      const readyLine = kind === 'worker' ? 'worker polling' : 'API listening';
      const readyBefore = await countLines(readyLog, readyLine);
      const before = { unavailable: load.counters.unavailable, dropped: load.counters.connectionsDropped };
      const record: RestartRecord = {
        kind,
        pid,
        at: Date.now(),
        replacedMs: null,
        unavailableDuring: 0,
        droppedDuring: 0,
      };
      plan.log(`round ${round}: SIGTERM to ${kind} ${slot + 1} (pid ${pid})`);
      process.kill(pid, 'SIGTERM');
      const giveUpAt = Date.now() + REQUEST_GIVE_UP_MS;
      let acknowledged = false;
      while (Date.now() < giveUpAt) {
        const replaced = (await countLines(readyLog, readyLine)) > readyBefore;
        if (replaced && !acknowledged && (await load.mathAction(plan.probeTask, probeStep))) {
          probeStep += 1;
          acknowledged = true;
        }
        if (replaced && acknowledged) {
          record.replacedMs = Date.now() - record.at;
          break;
        }
        await sleep(200);
      }
      record.unavailableDuring = load.counters.unavailable - before.unavailable;
      record.droppedDuring = load.counters.connectionsDropped - before.dropped;
      plan.log(
        `round ${round}: ${kind} ${slot + 1} ${record.replacedMs === null ? 'NOT replaced' : `replaced and serving in ${(record.replacedMs / 1000).toFixed(1)} s`}, ` +
          `${record.unavailableDuring} 503 answers and ${record.droppedDuring} dropped connections meanwhile`,
      );
      records.push(record);
      await sleep(5_000);
    }
  }
  return records;
}

/** The rolling restart's own checks: every process replaced, and not one request failed or even retried. */
export function rollingRestartChecks(records: RestartRecord[]) {
  const unavailable = records.reduce((sum, r) => sum + r.unavailableDuring, 0);
  const dropped = records.reduce((sum, r) => sum + r.droppedDuring, 0);
  return [
    {
      ok: records.length > 0 && records.every((r) => r.replacedMs !== null),
      text: `${records.filter((r) => r.replacedMs !== null).length} of ${records.length} processes stopped with SIGTERM replaced and serving`,
    },
    { ok: unavailable === 0, text: `${unavailable} 503 answers during the rolling restart` },
    { ok: dropped === 0, text: `${dropped} dropped connections during the rolling restart` },
  ];
}

/** The restarts as a Markdown table: per kind, how many and the time from SIGTERM to serving. */
export function restartTable(records: RestartRecord[]): string[] {
  const lines = [
    '| process stopped with SIGTERM | restarts | replaced and serving (max) | 503 answers | dropped connections |',
    '| ---------------------------- | -------: | -------------------------: | ----------: | ------------------: |',
  ];
  for (const kind of ['worker', 'api'] as const) {
    const of = records.filter((r) => r.kind === kind);
    if (of.length === 0) continue;
    const worst = Math.max(...of.map((r) => r.replacedMs ?? Infinity));
    lines.push(
      `| ${kind === 'api' ? 'API process' : 'worker'} | ${of.length} | ${Number.isFinite(worst) ? `${(worst / 1000).toFixed(1)} s` : 'not replaced'} | ` +
        `${of.reduce((s, r) => s + r.unavailableDuring, 0)} | ${of.reduce((s, r) => s + r.droppedDuring, 0)} |`,
    );
  }
  return lines;
}

async function countLines(file: string, text: string): Promise<number> {
  const content = await readFile(file, 'utf8').catch(() => '');
  return content.split('\n').filter((line) => line.includes(text)).length;
}
