import type { Client } from '@temporalio/client';
import { temporal } from '@temporalio/proto';
import type { OpsImportRun } from './dataset';

const EventType = temporal.api.enums.v1.EventType;

/** Where the seconds of one `ops import` went, spawn to exit (from the import workflow's history). */
export interface ImportPhases {
  /** Spawn to the workflow's start: the CLI's start-up and its own check of the bundle. */
  cliBeforeStart: number;
  /** The planning activity, scheduled to completed: validation, hashing every file, staging the receipts. */
  plan: number;
  /** The upload activities, first scheduled to last completed. */
  upload: number;
  /** The upsert activity, scheduled to completed: the single transaction. */
  upsert: number;
  /** The workflow's close to the CLI's exit. */
  cliAfterClose: number;
  /** What the phases above leave of the wall time: workflow tasks between the activities, the CLI's waits. */
  other: number;
}

/** The parts of a history event the phases need (times in ms since the epoch). */
export interface PhaseEvent {
  id: number;
  type: 'started' | 'scheduled' | 'completed' | 'closed' | 'other';
  timeMs: number;
  /** The activity type, for `scheduled`. */
  activity?: string;
  /** The scheduling event's id, for `completed`. */
  scheduledId?: number;
}

/** Which activity type is which phase: the planning and upsert activities of both services, and the uploads. */
const PHASE_OF_ACTIVITY: Record<string, 'plan' | 'upload' | 'upsert'> = {
  planMathImport: 'plan',
  planGenomicsImport: 'plan',
  storeImportFiles: 'upload',
  upsertMathRun: 'upsert',
  upsertGenomicsBundle: 'upsert',
};

/** Splits one import's wall time (spawn to exit, ms since the epoch) into phases by its history's events. */
export function importPhasesOf(events: PhaseEvent[], spawnedAtMs: number, exitedAtMs: number): ImportPhases {
  const started = events.find((e) => e.type === 'started');
  const closed = events.find((e) => e.type === 'closed');
  if (!started || !closed) throw new Error('the import history has no start or no close');
  const scheduled = new Map(events.filter((e) => e.type === 'scheduled').map((e) => [e.id, e]));
  const spans: Record<'plan' | 'upload' | 'upsert', { from: number; to: number } | undefined> = {
    plan: undefined,
    upload: undefined,
    upsert: undefined,
  };
  for (const completed of events.filter((e) => e.type === 'completed')) {
    const from = scheduled.get(completed.scheduledId ?? -1);
    const phase = from?.activity ? PHASE_OF_ACTIVITY[from.activity] : undefined;
    if (!from || !phase) continue;
    const span = spans[phase];
    spans[phase] = {
      from: Math.min(span?.from ?? from.timeMs, from.timeMs),
      to: Math.max(span?.to ?? completed.timeMs, completed.timeMs),
    };
  }
  const seconds = (span: { from: number; to: number } | undefined) =>
    span ? (span.to - span.from) / 1000 : 0;
  const phases = {
    cliBeforeStart: (started.timeMs - spawnedAtMs) / 1000,
    plan: seconds(spans.plan),
    upload: seconds(spans.upload),
    upsert: seconds(spans.upsert),
    cliAfterClose: (exitedAtMs - closed.timeMs) / 1000,
  };
  const accounted = Object.values(phases).reduce((sum, s) => sum + s, 0);
  return { ...phases, other: (exitedAtMs - spawnedAtMs) / 1000 - accounted };
}

const millis = (time: temporal.api.history.v1.IHistoryEvent['eventTime']): number =>
  Number(time?.seconds ?? 0) * 1000 + Math.floor((time?.nanos ?? 0) / 1e6);

const CLOSING = new Set([
  EventType.EVENT_TYPE_WORKFLOW_EXECUTION_COMPLETED,
  EventType.EVENT_TYPE_WORKFLOW_EXECUTION_FAILED,
  EventType.EVENT_TYPE_WORKFLOW_EXECUTION_TERMINATED,
  EventType.EVENT_TYPE_WORKFLOW_EXECUTION_CANCELED,
  EventType.EVENT_TYPE_WORKFLOW_EXECUTION_TIMED_OUT,
]);

/** The phase events of one history as the SDK returns it. */
export function phaseEventsOf(history: temporal.api.history.v1.IHistory): PhaseEvent[] {
  return (history.events ?? []).map((event): PhaseEvent => {
    const id = Number(event.eventId ?? 0);
    const timeMs = millis(event.eventTime);
    const type = event.eventType ?? EventType.EVENT_TYPE_UNSPECIFIED;
    if (type === EventType.EVENT_TYPE_WORKFLOW_EXECUTION_STARTED) return { id, type: 'started', timeMs };
    if (CLOSING.has(type)) return { id, type: 'closed', timeMs };
    if (type === EventType.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED)
      return {
        id,
        type: 'scheduled',
        timeMs,
        activity: event.activityTaskScheduledEventAttributes?.activityType?.name ?? undefined,
      };
    if (type === EventType.EVENT_TYPE_ACTIVITY_TASK_COMPLETED)
      return {
        id,
        type: 'completed',
        timeMs,
        scheduledId: Number(event.activityTaskCompletedEventAttributes?.scheduledEventId ?? -1),
      };
    return { id, type: 'other', timeMs };
  });
}

/** The phases of one `ops import`, from its workflow's history (the latest run of the id it printed). */
export async function importPhases(client: Client, run: OpsImportRun): Promise<ImportPhases> {
  const history = await client.workflow.getHandle(String(run.result.workflowId)).fetchHistory();
  return importPhasesOf(phaseEventsOf(history), run.spawnedAtMs, run.spawnedAtMs + run.seconds * 1000);
}

/** One line of phases for the bench's log: `cli start 1.3 s, plan 0.9 s, upload 5.6 s, …`. */
export const formatImportPhases = (phases: ImportPhases): string =>
  [
    `cli start ${phases.cliBeforeStart.toFixed(1)} s`,
    `plan ${phases.plan.toFixed(1)} s`,
    `upload ${phases.upload.toFixed(1)} s`,
    `upsert ${phases.upsert.toFixed(1)} s`,
    `cli exit ${phases.cliAfterClose.toFixed(1)} s`,
    `other ${phases.other.toFixed(1)} s`,
  ].join(', ');
