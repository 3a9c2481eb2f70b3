import { wrap } from '../cli/kernel/help';
import type { ReconcileReport } from '../cli/operator/reconcile';
import type { VerifyStorageReport } from '../cli/operator/verifyStorage';
import type { TemporalTopology } from '../infra/temporalServer';
import { faultKinds, faultNames, type FaultKind, type FaultRecord } from './chaosFaults';
import type { LedgerResult } from './chaosLedger';
import { type Counters, REQUEST_GIVE_UP_MS } from './chaosLoad';
import { seconds, SPLIT_HEADERS, splitCells } from './recoverySplit';
import { markdownTable } from './results';

/** What one chaos run counted: the load's counters, the faults it injected and the ledger's verdict. */
export interface ChaosOutcome {
  /** Temporal's topology in the run: one server process, or a process per service host. */
  topology: TemporalTopology;
  counters: Counters;
  faults: FaultRecord[];
  ledger: LedgerResult;
  reconciled: ReconcileReport;
  verified: VerifyStorageReport;
}

/**
 * The run's tables (requests and losses, each kind of fault, then the steps of each killed worker's or API
 * process's replacement) and a line on everything else counted.
 */
export function formatTable({ topology, counters, faults, ledger }: ChaosOutcome): string {
  const ofKind = (kind: FaultKind) => faults.filter((f) => f.kind === kind);
  const recovery = (kind: FaultKind) =>
    ofKind(kind)
      .map((f) => (f.recoveredMs === null ? 'never' : `${(f.recoveredMs / 1000).toFixed(1)}`))
      .join(', ') || '–';
  const kinds = Object.entries(counters.byKind)
    .map(([kind, n]) => `${n} ${kind}`)
    .join(', ');
  const withoutRetryAfter = counters.unavailableWithoutRetryAfter;
  return [
    markdownTable(
      [
        'requests',
        'acknowledged',
        'faults injected',
        '503 answers (all with Retry-After)',
        'dropped connections',
        'lost',
        'duplicated',
      ],
      [
        [
          `${counters.requests} (${kinds})`,
          `${counters.acknowledged}`,
          `${faults.length}`,
          `${counters.unavailable} (${withoutRetryAfter === 0 ? 'yes' : `${withoutRetryAfter} without`})`,
          `${counters.connectionsDropped}`,
          `${ledger.lost}`,
          `${ledger.duplicated}`,
        ],
      ],
    ),
    '',
    markdownTable(
      [
        'fault',
        'injected',
        'time to recover, each (s)',
        '503 answers meanwhile',
        'shards moved, each: acquisitions, the last after (s)',
      ],
      faultKinds(topology).map((kind) => [
        faultNames(topology)[kind],
        `${ofKind(kind).length}`,
        recovery(kind),
        `${ofKind(kind).reduce((sum, f) => sum + f.unavailableDuring, 0)}`,
        kind === 'history' ? shardMoves(ofKind(kind)) : '–',
      ]),
    ),
    '',
    ...recoverySplitTable(faults),
    wrap(
      `Also: ${counters.inProgressRetried} answers 409 "request in progress" (retried), ${counters.rejected} ` +
        `unexpected 4xx, ${counters.serverErrors} other 5xx, ${counters.gaveUp} requests unanswered after ` +
        `${REQUEST_GIVE_UP_MS / 1000} s, ${ledger.unacknowledgedApplied} changes applied that no client was told ` +
        `of, ${ledger.answeredFromReceipt} retried changes accepted again by a later run and answered from its ` +
        `receipt, ${ledger.importsChecked} imports checked, ${ledger.corruptDownloads} downloads whose bytes differed.`,
      0,
    ),
  ].join('\n');
}

/**
 * One row per worker or API process killed, in the order of the faults: the time from the kill to each step of
 * its replacement, then to the fault's recovery. None (no table) when the run killed neither.
 */
function recoverySplitTable(faults: FaultRecord[]): string[] {
  const killed = faults.filter((f) => f.kind === 'worker' || f.kind === 'api');
  if (killed.length === 0) return [];
  return [
    markdownTable(
      ['process killed (kill -9)', ...SPLIT_HEADERS, 'time to recover'],
      killed.map((f) => [
        f.service?.name ?? (f.kind === 'api' ? 'API' : 'worker'),
        ...splitCells(f.split ?? {}),
        f.recoveredMs === null ? 'never' : seconds(f.recoveredMs),
      ]),
    ),
    '',
  ];
}

const shardMoves = (faults: FaultRecord[]) =>
  faults
    .map(({ shardMoves: moves }) =>
      !moves || moves.lastAfterMs === null
        ? 'none'
        : `${moves.acquired}, ${(moves.lastAfterMs / 1000).toFixed(1)}`,
    )
    .join('; ') || '–';

/** The run's pass/fail rules, each with what it counted. */
export function chaosChecks({ counters, faults, ledger, reconciled, verified }: ChaosOutcome) {
  return [
    { ok: ledger.lost === 0, text: `${ledger.lost} acknowledged changes lost` },
    { ok: ledger.duplicated === 0, text: `${ledger.duplicated} acknowledged changes applied twice` },
    {
      ok: counters.unavailableWithoutRetryAfter === 0,
      text: `${counters.unavailableWithoutRetryAfter} 503 answers without Retry-After`,
    },
    { ok: counters.serverErrors === 0, text: `${counters.serverErrors} 5xx answers other than 503` },
    { ok: counters.gaveUp === 0, text: `${counters.gaveUp} requests unanswered after retries` },
    { ok: counters.rejected === 0, text: `${counters.rejected} unexpected 4xx answers` },
    { ok: reconciled.findings.length === 0, text: `${reconciled.findings.length} reconcile findings` },
    { ok: verified.findings.length === 0, text: `${verified.findings.length} verify-storage findings` },
    {
      ok: faults.every((f) => f.recoveredMs !== null),
      text: `${faults.filter((f) => f.recoveredMs !== null).length} of ${faults.length} faults recovered from`,
    },
  ];
}
