import { temporal } from '@temporalio/proto';
import { importPhasesOf, type PhaseEvent, phaseEventsOf } from '../../bench/importPhases';

/** An import's events at these seconds: planning, two upload activities overlapping, the upsert. */
const history: PhaseEvent[] = [
  { id: 1, type: 'started', timeMs: 2_000 },
  { id: 5, type: 'scheduled', timeMs: 2_100, activity: 'planMathImport' },
  { id: 7, type: 'completed', timeMs: 12_100, scheduledId: 5 },
  { id: 11, type: 'scheduled', timeMs: 12_200, activity: 'storeImportFiles' },
  { id: 12, type: 'scheduled', timeMs: 12_200, activity: 'storeImportFiles' },
  { id: 15, type: 'completed', timeMs: 15_000, scheduledId: 12 },
  { id: 18, type: 'scheduled', timeMs: 15_100, activity: 'storeImportFiles' },
  { id: 20, type: 'completed', timeMs: 16_200, scheduledId: 11 },
  { id: 22, type: 'completed', timeMs: 17_200, scheduledId: 18 },
  { id: 25, type: 'scheduled', timeMs: 17_300, activity: 'upsertMathRun' },
  { id: 27, type: 'completed', timeMs: 21_300, scheduledId: 25 },
  { id: 30, type: 'closed', timeMs: 21_500 },
];

describe('importPhasesOf', () => {
  it('splits spawn to exit into the CLI, each activity phase and the rest', () => {
    const phases = importPhasesOf(history, 0, 22_000);
    expect(phases.cliBeforeStart).toBeCloseTo(2.0);
    expect(phases.plan).toBeCloseTo(10.0);
    // The uploads run from the first scheduled (12.2 s) to the last completed (17.2 s), overlaps counted once.
    expect(phases.upload).toBeCloseTo(5.0);
    expect(phases.upsert).toBeCloseTo(4.0);
    expect(phases.cliAfterClose).toBeCloseTo(0.5);
    // 22 s in all: 0.1 + 0.1 + 0.1 + 0.2 s between the phases.
    expect(phases.other).toBeCloseTo(0.5);
  });

  it('gives an unchanged import (planning only) zero upload and upsert time', () => {
    const planned = history.filter((e) => e.id <= 7 || e.type === 'closed');
    const phases = importPhasesOf(planned, 1_000, 22_000);
    expect(phases).toMatchObject({ upload: 0, upsert: 0, plan: 10 });
    expect(phases.other).toBeCloseTo(21 - 1 - 10 - 0.5);
  });

  it('refuses a history that has not closed', () => {
    expect(() => importPhasesOf(history.slice(0, -1), 0, 22_000)).toThrow(/no start or no close/);
  });
});

describe('phaseEventsOf', () => {
  const event = (object: Record<string, unknown>) => temporal.api.history.v1.HistoryEvent.fromObject(object);

  it('reads times, activity types and scheduling ids from the SDK history', () => {
    const events = phaseEventsOf({
      events: [
        event({ eventId: 1, eventTime: { seconds: 10 }, eventType: 'EVENT_TYPE_WORKFLOW_EXECUTION_STARTED' }),
        event({
          eventId: 5,
          eventTime: { seconds: 10, nanos: 250_000_000 },
          eventType: 'EVENT_TYPE_ACTIVITY_TASK_SCHEDULED',
          activityTaskScheduledEventAttributes: { activityType: { name: 'planGenomicsImport' } },
        }),
        event({
          eventId: 7,
          eventTime: { seconds: 12 },
          eventType: 'EVENT_TYPE_ACTIVITY_TASK_COMPLETED',
          activityTaskCompletedEventAttributes: { scheduledEventId: 5 },
        }),
        event({ eventId: 8, eventTime: { seconds: 12 }, eventType: 'EVENT_TYPE_WORKFLOW_TASK_SCHEDULED' }),
        event({ eventId: 9, eventTime: { seconds: 13 }, eventType: 'EVENT_TYPE_WORKFLOW_EXECUTION_FAILED' }),
      ],
    });
    expect(events).toEqual([
      { id: 1, type: 'started', timeMs: 10_000 },
      { id: 5, type: 'scheduled', timeMs: 10_250, activity: 'planGenomicsImport' },
      { id: 7, type: 'completed', timeMs: 12_000, scheduledId: 5 },
      { id: 8, type: 'other', timeMs: 12_000 },
      { id: 9, type: 'closed', timeMs: 13_000 },
    ]);
    expect(importPhasesOf(events, 9_000, 13_000).plan).toBeCloseTo(1.75);
  });
});
