import { readFile } from 'node:fs/promises';
import type { Client } from '@temporalio/client';
import { tsToMs } from '@temporalio/common/lib/time';
import { temporal } from '@temporalio/proto';

/*
 * The steps of a worker's or an API process's replacement after a kill -9, shared by `npm run restart-times`
 * (quiet, `npm start`) and `npm run chaos` (under load, `npm run start:cluster`): from the replacement's own log
 * (the supervisor keeps one log per process across restarts) and from a workflow's history.
 */

export type ServiceKind = 'api' | 'worker';

/** A replacement's log lines: its first (modules loaded) and the one saying it serves (connected). */
export const SERVICE_LOG_LINES: Record<ServiceKind, { loaded: string; connected: string }> = {
  api: { loaded: 'API starting', connected: 'API listening' },
  worker: { loaded: 'worker starting', connected: 'worker polling' },
};

/** When (ms since the epoch) the replacement spawned, loaded its modules and connected; absent: not logged. */
export interface ReplacementSteps {
  spawned?: number;
  loaded?: number;
  connected?: number;
}

/**
 * The steps of the first process started at or after `after` (and before `until`) in a process log: its
 * supervisor's header line (`---- <ISO time> …`, written as it spawns the process), its first log line ("API
 * starting" / "worker starting") and its ready line ("API listening" / "worker polling").
 */
export function parseReplacementSteps(
  log: string,
  kind: ServiceKind,
  after: number,
  until = Infinity,
): ReplacementSteps {
  const lines = SERVICE_LOG_LINES[kind];
  const steps: ReplacementSteps = {};
  for (const line of log.split('\n')) {
    const header = /^---- (\S+) /.exec(line);
    if (header) {
      const at = Date.parse(header[1]);
      // A later start (the replacement crashed too, or a later fault) ends the replacement's lines.
      if (steps.spawned !== undefined || at >= until) break;
      if (at >= after) steps.spawned = at;
      continue;
    }
    if (steps.spawned === undefined || !line.startsWith('{')) continue;
    let entry: { time?: number; msg?: string };
    try {
      entry = JSON.parse(line) as { time?: number; msg?: string };
    } catch {
      continue; // not one of the process's JSON log lines
    }
    if (typeof entry.time !== 'number') continue;
    if (entry.msg === lines.loaded) steps.loaded ??= entry.time;
    if (entry.msg === lines.connected) steps.connected ??= entry.time;
  }
  return steps;
}

/** {@link parseReplacementSteps} of `logFile`; no steps when it cannot be read. */
export async function replacementSteps(
  logFile: string,
  kind: ServiceKind,
  after: number,
  until = Infinity,
): Promise<ReplacementSteps> {
  const log = await readFile(logFile, 'utf8').catch(() => '');
  return parseReplacementSteps(log, kind, after, until);
}

/** When (ms since the epoch) a workflow task timed out: waiting on a sticky queue, or started and not finished. */
export interface TaskTimeouts {
  sticky?: number;
  started?: number;
}

type HistoryEvent = temporal.api.history.v1.IHistoryEvent;

/**
 * The first workflow task timeouts at or after `after` (and before `until`) in a workflow's history: one that
 * waited out a dead worker's sticky queue (schedule-to-start) and one the dead worker had started (start-to-close).
 */
export function workflowTaskTimeouts(events: HistoryEvent[], after: number, until = Infinity): TaskTimeouts {
  const found: TaskTimeouts = {};
  for (const event of events) {
    const timedOut = event.workflowTaskTimedOutEventAttributes;
    if (!timedOut || !event.eventTime) continue;
    const time = tsToMs(event.eventTime);
    if (time < after || time >= until) continue;
    if (timedOut.timeoutType === temporal.api.enums.v1.TimeoutType.TIMEOUT_TYPE_SCHEDULE_TO_START)
      found.sticky ??= time;
    else found.started ??= time;
  }
  return found;
}

/**
 * The process id of the worker that ran the workflow's last workflow task (from the SDK's default identity,
 * `<pid>@<host>`): the worker whose cache holds the workflow and whose sticky queue gets its next task.
 */
export function workflowHolder(events: HistoryEvent[]): number | undefined {
  const started = events.filter((event) => event.workflowTaskStartedEventAttributes).at(-1);
  const pid = /^(\d+)@/.exec(started?.workflowTaskStartedEventAttributes?.identity ?? '');
  return pid ? Number(pid[1]) : undefined;
}

/** {@link workflowTaskTimeouts} in the history of the workflow `workflowId` (its current run). */
export async function taskTimeoutsAfter(
  client: Client,
  workflowId: string,
  after: number,
  until = Infinity,
): Promise<TaskTimeouts> {
  const history = await client.workflow.getHandle(workflowId).fetchHistory();
  return workflowTaskTimeouts(history.events ?? [], after, until);
}

/** Milliseconds from a kill to each step of the replacement; absent where not measured or not seen. */
export interface RecoverySplit {
  spawnedMs?: number;
  loadedMs?: number;
  connectedMs?: number;
  /** The API's /healthz answered 200 (measured only where the replacement has an address of its own). */
  healthzMs?: number;
  stickyTimedOutMs?: number;
  startedTaskTimedOutMs?: number;
}

/** The split of a kill at `killedAt`, from the replacement's steps and the task timeouts that followed it. */
export const recoverySplit = (
  killedAt: number,
  steps: ReplacementSteps,
  timeouts: TaskTimeouts = {},
): RecoverySplit => {
  const since = (at: number | undefined) => (at === undefined ? undefined : at - killedAt);
  return {
    spawnedMs: since(steps.spawned),
    loadedMs: since(steps.loaded),
    connectedMs: since(steps.connected),
    stickyTimedOutMs: since(timeouts.sticky),
    startedTaskTimedOutMs: since(timeouts.started),
  };
};

/** Milliseconds as seconds with one decimal and the unit, or '–' when not measured. */
export const seconds = (ms: number | undefined | null): string =>
  ms === undefined || ms === null ? '–' : `${(ms / 1000).toFixed(1)} s`;

/** The split's column headers and, per kill, its cells (between a column naming the kill and one for its end). */
export const SPLIT_HEADERS = [
  'replacement spawned',
  'modules loaded',
  'connected (listening / polling)',
  '/healthz 200',
  'sticky-queue task timed out',
  'started task timed out',
] as const;

export const splitCells = (split: RecoverySplit): string[] => [
  seconds(split.spawnedMs),
  seconds(split.loadedMs),
  seconds(split.connectedMs),
  seconds(split.healthzMs),
  seconds(split.stickyTimedOutMs),
  seconds(split.startedTaskTimedOutMs),
];
