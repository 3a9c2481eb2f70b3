import type { Acknowledged, Attempt } from './chaosLoad';
import { FAULT_SPECS, type NetworkFaultKind } from './networkFaults';
import type { Check } from './results';
import { markdownTable } from './results';

/**
 * The longest a request of the drill may wait for an answer, a 503 or 504 included: past it the request hangs.
 * The deadlines that give it (docs/operations.md, "Deadlines"): a Temporal call 10 s, a PostgreSQL statement 5 s
 * (the client's own 6 s) after at most 3 s for a connection, an S3 request 5 s of silence, tried three times.
 */
export const ANSWER_BOUND_MS = 30_000;
/** From a fault's heal to a change acknowledged again. */
export const RECOVERY_BOUND_MS = 10_000;

/** A fault as it happened: when it started and was healed, and when a change was acknowledged after the heal. */
export interface FaultRun {
  kind: NetworkFaultKind;
  startedAt: number;
  healedAt: number;
  /** The first probe change acknowledged after the heal; null when none came within the recovery window. */
  recoveredAt: number | null;
  /** The end of its window: the next fault's start, or the end of the load. */
  windowEnd: number;
}

/** One row of the table: what the requests met from a fault's start to the end of its window. */
export interface FaultTally {
  kind: NetworkFaultKind;
  requests: number;
  acknowledged: number;
  lost: number;
  duplicated: number;
  unavailableWithRetryAfter: number;
  unavailableWithout: number;
  timeoutWithRetryAfter: number;
  timeoutWithout: number;
  /** 5xx other than 503 and 504. */
  otherServerErrors: number;
  /** Attempts whose connection died or whose answer did not come within the client's own deadline. */
  noAnswer: number;
  /** 409 answers "request in progress": a retry found its key still claimed by the request that failed. */
  inProgress: number;
  longestAnswerMs: number;
  /** From the heal until a new change is acknowledged (the probe); null when none was in the recovery window. */
  recoveryMs: number | null;
  /**
   * From the heal until every request the fault caught (an attempt begun before the heal, one answered after it)
   * has its last answer: its client's wait after a 503's Retry-After included.
   */
  caughtAnsweredMs: number;
}

const within = (at: number, fault: FaultRun) => at >= fault.startedAt && at < fault.windowEnd;

/**
 * Counts each fault's window by the attempts answered in it (one begun before the fault and answered during it is
 * the fault's): the logical requests they belong to, their answers and the longest, the acknowledged changes told
 * of in it that the ledger found lost or applied twice, and the time from the heal to a change acknowledged again.
 */
export function tallyFaults(
  faults: readonly FaultRun[],
  attempts: readonly Attempt[],
  acknowledged: readonly Acknowledged[],
  ledger: { lostUpdateIds: readonly string[]; duplicatedUpdateIds: readonly string[] },
): FaultTally[] {
  const ackedAt = new Map(acknowledged.map((a) => [a.updateId, a.at]));
  const countIn = (ids: readonly string[], fault: FaultRun) =>
    ids.filter((id) => {
      const at = ackedAt.get(id);
      return at !== undefined && within(at, fault);
    }).length;
  const spans = new Map<number, { first: number; last: number }>();
  for (const a of attempts) {
    const span = spans.get(a.request);
    if (!span) spans.set(a.request, { first: a.startedAt, last: a.endedAt });
    else {
      span.first = Math.min(span.first, a.startedAt);
      span.last = Math.max(span.last, a.endedAt);
    }
  }
  const lastCaughtAnswer = (fault: FaultRun) =>
    [...spans.values()]
      .filter((span) => span.first < fault.healedAt && span.last > fault.healedAt)
      .reduce((latest, span) => Math.max(latest, span.last), fault.healedAt);
  return faults.map((fault) => {
    const mine = attempts.filter((a) => within(a.endedAt, fault));
    const count = (status: number, retryAfter: boolean) =>
      mine.filter((a) => a.status === status && a.retryAfter === retryAfter).length;
    return {
      kind: fault.kind,
      requests: new Set(mine.map((a) => a.request)).size,
      acknowledged: mine.filter((a) => a.status >= 200 && a.status < 300).length,
      lost: countIn(ledger.lostUpdateIds, fault),
      duplicated: countIn(ledger.duplicatedUpdateIds, fault),
      unavailableWithRetryAfter: count(503, true),
      unavailableWithout: count(503, false),
      timeoutWithRetryAfter: count(504, true),
      timeoutWithout: count(504, false),
      otherServerErrors: mine.filter((a) => a.status >= 500 && a.status !== 503 && a.status !== 504).length,
      noAnswer: mine.filter((a) => a.status === 0).length,
      inProgress: mine.filter((a) => a.status === 409 && a.retryAfter).length,
      longestAnswerMs: mine.reduce((longest, a) => Math.max(longest, a.endedAt - a.startedAt), 0),
      recoveryMs: fault.recoveredAt === null ? null : fault.recoveredAt - fault.healedAt,
      caughtAnsweredMs: lastCaughtAnswer(fault) - fault.healedAt,
    };
  });
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/** The table of docs/chaos.md's `chaos-network` section: a row per fault. */
export function networkTable(tallies: readonly FaultTally[]): string {
  return markdownTable(
    [
      'fault',
      'requests',
      'acknowledged',
      'lost',
      'duplicated',
      '503 with / without Retry-After',
      '504 with / without Retry-After',
      'no answer (connection lost)',
      '409 in progress',
      'longest answer',
      'heal to serving',
      'heal to last caught request answered',
    ],
    tallies.map((t) => [
      FAULT_SPECS[t.kind].name,
      `${t.requests}`,
      `${t.acknowledged}`,
      `${t.lost}`,
      `${t.duplicated}`,
      `${t.unavailableWithRetryAfter} / ${t.unavailableWithout}`,
      `${t.timeoutWithRetryAfter} / ${t.timeoutWithout}`,
      `${t.noAnswer}`,
      `${t.inProgress}`,
      seconds(t.longestAnswerMs),
      t.recoveryMs === null ? 'never' : seconds(t.recoveryMs),
      seconds(t.caughtAnsweredMs),
    ]),
  );
}

/** The run's pass/fail rules: per fault, then over the whole run. */
export function networkChecks(
  tallies: readonly FaultTally[],
  run: {
    lost: number;
    duplicated: number;
    gaveUp: number;
    rejected: number;
    reconcileFindings: number;
    verifyFindings: number;
    /** Referee processes that exited during the run (none may: pools recover without a restart). */
    exited: string[];
  },
): Check[] {
  const sum = (f: (t: FaultTally) => number) => tallies.reduce((total, t) => total + f(t), 0);
  const slowest = Math.max(0, ...tallies.map((t) => t.longestAnswerMs));
  const unrecovered = tallies.filter((t) => t.recoveryMs === null || t.recoveryMs > RECOVERY_BOUND_MS);
  return [
    { ok: run.lost === 0, text: `${run.lost} acknowledged changes lost` },
    { ok: run.duplicated === 0, text: `${run.duplicated} acknowledged changes applied twice` },
    {
      ok: sum((t) => t.unavailableWithout) === 0,
      text: `${sum((t) => t.unavailableWithout)} 503 answers without Retry-After`,
    },
    {
      ok: sum((t) => t.otherServerErrors) === 0,
      text: `${sum((t) => t.otherServerErrors)} 5xx other than 503/504`,
    },
    {
      ok: slowest <= ANSWER_BOUND_MS,
      text: `longest answer ${seconds(slowest)} (bound ${seconds(ANSWER_BOUND_MS)})`,
    },
    { ok: run.gaveUp === 0, text: `${run.gaveUp} requests unanswered after retries (a workflow stuck)` },
    { ok: run.rejected === 0, text: `${run.rejected} unexpected 4xx answers` },
    {
      ok: unrecovered.length === 0,
      text:
        `${tallies.length - unrecovered.length} of ${tallies.length} faults serving again within ` +
        `${seconds(RECOVERY_BOUND_MS)} of the heal`,
    },
    {
      ok: run.exited.length === 0,
      text: `${run.exited.length} Referee processes exited (${run.exited.join(', ') || 'none'}): pools recover in place`,
    },
    { ok: run.reconcileFindings === 0, text: `${run.reconcileFindings} reconcile findings` },
    { ok: run.verifyFindings === 0, text: `${run.verifyFindings} verify-storage findings` },
  ];
}
