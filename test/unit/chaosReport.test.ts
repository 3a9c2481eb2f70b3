import type { ReconcileReport } from '../../cli/operator/reconcile';
import type { VerifyStorageReport } from '../../cli/operator/verifyStorage';
import { type FaultRecord, serviceProcess } from '../../drills/chaosFaults';
import { type ChaosOutcome, formatTable } from '../../drills/chaosReport';

const outcome = (faults: FaultRecord[]): ChaosOutcome => ({
  topology: 'services',
  counters: {
    requests: 120,
    acknowledged: 100,
    unavailable: 3,
    unavailableWithoutRetryAfter: 0,
    connectionsDropped: 1,
    inProgressRetried: 0,
    rejected: 0,
    serverErrors: 0,
    gaveUp: 0,
    byKind: { read: 60, action: 60 },
  },
  faults,
  ledger: {
    lost: 0,
    duplicated: 0,
    answeredFromReceipt: 0,
    unacknowledgedApplied: 0,
    importsChecked: 2,
    corruptDownloads: 0,
    findings: [],
    lostUpdateIds: [],
    duplicatedUpdateIds: [],
  },
  // formatTable reads neither report; the checks do.
  reconciled: { findings: [] } as unknown as ReconcileReport,
  verified: { findings: [] } as unknown as VerifyStorageReport,
});

const fault = (kind: FaultRecord['kind'], recoveredMs: number | null, extra: Partial<FaultRecord> = {}) => ({
  kind,
  at: 0,
  recoveredMs,
  unavailableDuring: 0,
  ...extra,
});

/** The Markdown tables of a text, each as rows of trimmed cells (its separator row left out). */
const tables = (text: string): string[][][] =>
  text
    .split('\n\n')
    .filter((block) => block.startsWith('|'))
    .map((block) =>
      block
        .split('\n')
        .filter((_, i) => i !== 1)
        .map((line) =>
          line
            .slice(2, -2)
            .split(' | ')
            .map((cell) => cell.trim()),
        ),
    );

describe('the chaos report', () => {
  it('gives each killed worker and API process a row splitting its recovery, in the order of the faults', () => {
    const text = formatTable(
      outcome([
        fault('worker', 11_800, {
          service: { name: 'worker 1', logFile: '/data/logs/worker-1.log' },
          split: {
            spawnedMs: 300,
            loadedMs: 1_900,
            connectedMs: 3_100,
            stickyTimedOutMs: 10_400,
          },
        }),
        fault('api', 4_200, {
          service: { name: 'API 2', logFile: '/data/logs/api-2.log' },
          split: { spawnedMs: 240, loadedMs: 1_500, connectedMs: 2_900 },
        }),
        fault('temporal', 7_600),
        fault('postgres', 17_800),
        fault('api', null, { service: { name: 'API 1', logFile: '/data/logs/api-1.log' } }),
      ]),
    );
    const [requests, perKind, split] = tables(text);
    expect(requests[1].slice(-2)).toEqual(['0', '0']);
    expect(perKind.map((row) => row[0])).toContain('kill -9 an API process');
    expect(perKind.find((row) => row[0] === 'kill -9 an API process')?.[2]).toBe('4.2, never');
    expect(split).toEqual([
      [
        'process killed (kill -9)',
        'replacement spawned',
        'modules loaded',
        'connected (listening / polling)',
        '/healthz 200',
        'sticky-queue task timed out',
        'started task timed out',
        'time to recover',
      ],
      ['worker 1', '0.3 s', '1.9 s', '3.1 s', '–', '10.4 s', '–', '11.8 s'],
      ['API 2', '0.2 s', '1.5 s', '2.9 s', '–', '–', '–', '4.2 s'],
      ['API 1', '–', '–', '–', '–', '–', '–', 'never'],
    ]);
    expect(text).toMatch(/^Also: 0 answers 409/m);
  });

  it('has no split table when no worker or API process was killed', () => {
    const text = formatTable(outcome([fault('temporal', 7_600), fault('history', 8_600)]));
    expect(tables(text)).toHaveLength(2);
    expect(text).not.toContain('process killed (kill -9)');
    expect(text).toContain('Also:');
  });
});

describe('the killed process the chaos drill names', () => {
  it('is the launcher’s name and log file for the slot: numbered when there are several of the kind', () => {
    expect(serviceProcess('/data', 'worker', 1, 2)).toEqual({
      name: 'worker 2',
      logFile: '/data/logs/worker-2.log',
    });
    expect(serviceProcess('/data', 'api', 0, 1)).toEqual({ name: 'API', logFile: '/data/logs/api.log' });
  });
});
