import { msNumberToTs } from '@temporalio/common/lib/time';
import { temporal } from '@temporalio/proto';
import {
  parseReplacementSteps,
  recoverySplit,
  SPLIT_HEADERS,
  splitCells,
  workflowHolder,
  workflowTaskTimeouts,
} from '../../drills/recoverySplit';

const at = (iso: string) => Date.parse(iso);
const logLine = (iso: string, msg: string) =>
  JSON.stringify({ level: 30, time: at(iso), pid: 4242, hostname: 'box', msg });

/** A worker's log as its supervisor keeps it: the first start, a kill -9 mid-line, the replacement, a later start. */
const workerLog = [
  '',
  '---- 2026-11-27T10:00:00.000Z worker 1: /usr/bin/node dist/worker.js',
  logLine('2026-11-27T10:00:01.000Z', 'worker starting'),
  logLine('2026-11-27T10:00:02.000Z', 'worker polling'),
  '{"level":30,"time":1764237700000,"msg":"workflow task comp', // cut short by the kill
  '',
  '---- 2026-11-27T10:05:00.400Z worker 1: /usr/bin/node dist/worker.js',
  'node: a warning that is not JSON',
  logLine('2026-11-27T10:05:01.900Z', 'worker starting'),
  '{"level":40,"time":"not a number","msg":"worker polling"}',
  logLine('2026-11-27T10:05:03.100Z', 'worker polling'),
  logLine('2026-11-27T10:05:09.000Z', 'worker polling'),
  '',
  '---- 2026-11-27T10:09:00.300Z worker 1: /usr/bin/node dist/worker.js',
  logLine('2026-11-27T10:09:01.000Z', 'worker starting'),
  logLine('2026-11-27T10:09:02.000Z', 'worker polling'),
].join('\n');

describe('the replacement steps read from a process log', () => {
  it('takes the first start after the kill and that process’s own first and ready lines', () => {
    expect(parseReplacementSteps(workerLog, 'worker', at('2026-11-27T10:05:00.000Z'))).toEqual({
      spawned: at('2026-11-27T10:05:00.400Z'),
      loaded: at('2026-11-27T10:05:01.900Z'),
      connected: at('2026-11-27T10:05:03.100Z'),
    });
  });

  it('stops at the next start, so a replacement that never got ready borrows nothing from a later one', () => {
    const crashed = workerLog
      .replace(logLine('2026-11-27T10:05:03.100Z', 'worker polling'), '')
      .replace(logLine('2026-11-27T10:05:09.000Z', 'worker polling'), '');
    expect(parseReplacementSteps(crashed, 'worker', at('2026-11-27T10:05:00.000Z'))).toEqual({
      spawned: at('2026-11-27T10:05:00.400Z'),
      loaded: at('2026-11-27T10:05:01.900Z'),
    });
  });

  it('finds nothing when no process started between the kill and the bound', () => {
    const kill = at('2026-11-27T10:08:00.000Z');
    expect(parseReplacementSteps(workerLog, 'worker', kill, at('2026-11-27T10:09:00.000Z'))).toEqual({});
    expect(parseReplacementSteps('', 'worker', kill)).toEqual({});
  });

  it('reads an API process’s lines, not a worker’s', () => {
    const apiLog = [
      '---- 2026-11-27T11:00:00.500Z API 2: dist/server.js (cluster worker)',
      logLine('2026-11-27T11:00:02.000Z', 'worker starting'),
      logLine('2026-11-27T11:00:02.500Z', 'API starting'),
      logLine('2026-11-27T11:00:04.000Z', 'API listening'),
    ].join('\n');
    expect(parseReplacementSteps(apiLog, 'api', at('2026-11-27T11:00:00.000Z'))).toEqual({
      spawned: at('2026-11-27T11:00:00.500Z'),
      loaded: at('2026-11-27T11:00:02.500Z'),
      connected: at('2026-11-27T11:00:04.000Z'),
    });
  });
});

describe('the workflow task timeouts read from a workflow history', () => {
  const { TIMEOUT_TYPE_SCHEDULE_TO_START, TIMEOUT_TYPE_START_TO_CLOSE } = temporal.api.enums.v1.TimeoutType;
  const timedOut = (ms: number, timeoutType: temporal.api.enums.v1.TimeoutType) => ({
    eventTime: msNumberToTs(ms),
    workflowTaskTimedOutEventAttributes: { timeoutType },
  });
  const kill = at('2026-11-27T10:05:00.000Z');
  const events = [
    timedOut(kill - 5_000, TIMEOUT_TYPE_SCHEDULE_TO_START),
    { eventTime: msNumberToTs(kill + 1_000), workflowTaskScheduledEventAttributes: {} },
    timedOut(kill + 10_250, TIMEOUT_TYPE_START_TO_CLOSE),
    timedOut(kill + 10_400, TIMEOUT_TYPE_SCHEDULE_TO_START),
    timedOut(kill + 12_000, TIMEOUT_TYPE_SCHEDULE_TO_START),
  ];

  it('tells the sticky-queue wait (schedule-to-start) from a started task’s timeout, the first of each after the kill', () => {
    expect(workflowTaskTimeouts(events, kill)).toEqual({ sticky: kill + 10_400, started: kill + 10_250 });
  });

  it('leaves out the timeouts at or after the bound', () => {
    expect(workflowTaskTimeouts(events, kill, kill + 10_300)).toEqual({ started: kill + 10_250 });
  });
});

describe('the worker holding a workflow', () => {
  const started = (identity: string) => ({ workflowTaskStartedEventAttributes: { identity } });

  it('is the process that started the last workflow task, by the pid in its identity', () => {
    const events = [
      started('4242@box'),
      { workflowTaskCompletedEventAttributes: { identity: '4242@box' } },
      started('5151@box'),
      { workflowTaskCompletedEventAttributes: { identity: '5151@box' } },
      { workflowExecutionUpdateAcceptedEventAttributes: {} },
    ];
    expect(workflowHolder(events)).toBe(5151);
  });

  it('is unknown without a started workflow task or with an identity of another form', () => {
    expect(workflowHolder([])).toBeUndefined();
    expect(workflowHolder([started('worker-a')])).toBeUndefined();
  });
});

describe('the split of a kill', () => {
  it('counts each step from the kill and shows what was not seen as a dash', () => {
    const kill = at('2026-11-27T10:05:00.000Z');
    const split = recoverySplit(
      kill,
      { spawned: kill + 400, loaded: kill + 1_900, connected: kill + 3_100 },
      { sticky: kill + 10_400 },
    );
    expect(split).toEqual({
      spawnedMs: 400,
      loadedMs: 1_900,
      connectedMs: 3_100,
      healthzMs: undefined,
      stickyTimedOutMs: 10_400,
      startedTaskTimedOutMs: undefined,
    });
    expect(splitCells(split)).toEqual(['0.4 s', '1.9 s', '3.1 s', '–', '10.4 s', '–']);
    expect(splitCells(split)).toHaveLength(SPLIT_HEADERS.length);
  });
});
