import type { Acknowledged, Attempt } from '../../drills/chaosLoad';
import {
  FAULT_SPECS,
  faultEffect,
  faultSchedule,
  LINK_PORTS,
  NETWORK_FAULTS,
  proxyLinks,
  QUICK_FAULTS,
  scheduleLengthMs,
} from '../../drills/networkFaults';
import {
  ANSWER_BOUND_MS,
  type FaultRun,
  networkChecks,
  networkTable,
  tallyFaults,
} from '../../drills/networkReport';
import { faultRuleset, HOST_ADDRESSES, networkCommands, SUBNET } from '../../drills/networkTopology';

describe('the network drill: its schedule', () => {
  it('runs the faults one after another, each healed after its own time, with a recovery window between', () => {
    const schedule = faultSchedule(QUICK_FAULTS, { warmupMs: 30_000, recoveryMs: 30_000 });
    expect(schedule).toEqual([
      { kind: 'api-postgres-partition', startMs: 30_000, healMs: 50_000 },
      { kind: 'api-temporal-answers-dropped', startMs: 80_000, healMs: 100_000 },
    ]);
    expect(scheduleLengthMs(schedule, 30_000)).toBe(130_000);
  });

  it('lasts as the issue asks: partitions 20 s, a slow PostgreSQL 30 s, every fault of the full run once', () => {
    expect(FAULT_SPECS['api-postgres-partition'].durationMs).toBe(20_000);
    expect(FAULT_SPECS['postgres-slow'].durationMs).toBe(30_000);
    const full = faultSchedule(NETWORK_FAULTS, { warmupMs: 60_000, recoveryMs: 40_000 });
    expect(new Set(full.map((f) => f.kind)).size).toBe(8);
    for (const [i, fault] of full.entries()) {
      expect(fault.healMs - fault.startMs).toBe(FAULT_SPECS[fault.kind].durationMs);
      if (i > 0) expect(fault.startMs).toBe(full[i - 1].healMs + 40_000);
    }
    expect(scheduleLengthMs([], 40_000)).toBe(0);
  });
});

describe('the network drill: what each fault does', () => {
  const hub = HOST_ADDRESSES.hub;

  it('partitions a link in its client namespace, both ways, on that link’s listener only', () => {
    expect(faultEffect('api-postgres-partition', [])).toEqual({
      drops: { api: [{ peer: hub, ports: [LINK_PORTS['api-postgres']], direction: 'both' }] },
      toxics: [],
    });
    expect(faultEffect('worker-temporal-partition', []).drops).toEqual({
      worker: [{ peer: hub, ports: [LINK_PORTS['worker-temporal']], direction: 'both' }],
    });
  });

  it('drops only the answers of the one-way partition, and 5 % of the packets with the delay', () => {
    expect(faultEffect('api-temporal-answers-dropped', []).drops.api).toEqual([
      { peer: hub, ports: [LINK_PORTS['api-temporal']], direction: 'answers' },
    ]);
    const lossy = faultEffect('api-temporal-slow-lossy', []);
    expect(lossy.drops.api).toEqual([
      { peer: hub, ports: [LINK_PORTS['api-temporal']], direction: 'both', percent: 5 },
    ]);
    expect(lossy.toxics).toEqual([
      {
        proxy: 'api-temporal',
        toxic: { name: 'delay', stream: 'downstream', latencyMs: 200, jitterMs: 100 },
      },
    ]);
  });

  it('cuts the history host off by its own ports, and slows both Referee links to PostgreSQL each way', () => {
    expect(faultEffect('history-partition', [7234, 6934]).drops).toEqual({
      temporal: [{ peer: HOST_ADDRESSES.temporal, ports: [7234, 6934], direction: 'both' }],
    });
    const slow = faultEffect('postgres-slow', []);
    expect(slow.drops).toEqual({});
    expect(slow.toxics.map((t) => `${t.proxy} ${t.toxic.stream} ${t.toxic.latencyMs}`)).toEqual([
      'api-postgres upstream 500',
      'api-postgres downstream 500',
      'worker-postgres upstream 500',
      'worker-postgres downstream 500',
    ]);
  });

  it('gives every process a proxy of its own to each store, listening on the hub', () => {
    const links = proxyLinks({
      temporal: '10.77.0.11:7233',
      postgres: '10.77.0.10:5432',
      s3: '10.77.0.12:9000',
    });
    expect(links).toContainEqual({ name: 'worker-s3', listen: `${hub}:17006`, upstream: '10.77.0.12:9000' });
    expect(new Set(links.map((l) => l.listen)).size).toBe(links.length);
  });
});

describe('the network drill: its nftables rules and its namespaces', () => {
  it('writes a partition as drops on output and input, and an answers-only fault on input alone', () => {
    const both = faultRuleset([{ peer: '10.77.0.1', ports: [17003], direction: 'both' }]);
    expect(both).toContain('ip daddr 10.77.0.1 tcp dport 17003 drop');
    expect(both).toContain('ip saddr 10.77.0.1 tcp sport 17003 drop');
    const answers = faultRuleset([{ peer: '10.77.0.1', ports: [17001], direction: 'answers' }]);
    expect(answers).not.toContain('dport');
    expect(answers).toContain('ip saddr 10.77.0.1 tcp sport 17001 drop');
    expect(faultRuleset([{ peer: '10.77.0.11', ports: [1, 2], direction: 'both', percent: 5 }])).toContain(
      'ip daddr 10.77.0.11 tcp dport { 1, 2 } numgen random mod 100 < 5 drop',
    );
  });

  it('replaces the table whole, so a heal leaves no rule behind', () => {
    const healed = faultRuleset([]);
    expect(healed.startsWith('table inet rfn_faults\ndelete table inet rfn_faults\n')).toBe(true);
    expect(healed).not.toContain('drop');
  });

  it('builds every interface inside its namespaces, on addresses of its own subnet only', () => {
    const commands = networkCommands();
    for (const args of commands) {
      // Either a namespace is created, or the command runs inside one (-n): none touches the machine's own.
      expect(args[0] === 'netns' || args[0] === '-n').toBe(true);
    }
    const veths = commands.filter((args) => args.includes('veth'));
    expect(veths.length).toBe(Object.keys(HOST_ADDRESSES).length - 1);
    for (const args of veths) expect(args.slice(-2)[0]).toBe('netns');
    const addresses = commands
      .filter((args) => args.includes('addr'))
      .map((args) => args[args.indexOf('add') + 1]);
    expect(SUBNET).toBe('10.77.0.0/24');
    for (const address of addresses) expect(address).toMatch(/^10\.77\.0\.\d+\/24$/);
  });
});

describe('the network drill: its accounting and its table', () => {
  const t0 = 1_000_000;
  const faults: FaultRun[] = [
    {
      kind: 'api-postgres-partition',
      startedAt: t0,
      healedAt: t0 + 20_000,
      recoveredAt: t0 + 23_500,
      windowEnd: t0 + 50_000,
    },
    {
      kind: 'postgres-slow',
      startedAt: t0 + 50_000,
      healedAt: t0 + 80_000,
      recoveredAt: null,
      windowEnd: t0 + 90_000,
    },
  ];
  const attempt = (
    request: number,
    startedAt: number,
    ms: number,
    status: number,
    retryAfter = false,
  ): Attempt => ({
    request,
    kind: 'action',
    startedAt,
    endedAt: startedAt + ms,
    status,
    retryAfter,
  });
  const attempts = [
    attempt(1, t0 - 5_000, 100, 200), // answered before the first fault: counted nowhere
    attempt(6, t0 - 2_000, 4_000, 503, true), // begun before the fault, answered during it: the fault's
    attempt(2, t0 + 1_000, 5_200, 503, true),
    attempt(2, t0 + 7_000, 5_100, 503, true),
    attempt(2, t0 + 21_000, 300, 200), // its retry after the heal: one request, one answer acknowledged
    attempt(3, t0 + 2_000, 6_000, 504, false),
    attempt(3, t0 + 9_000, 30_500, 0), // the client's own deadline: no answer
    attempt(3, t0 + 40_000, 10, 409, true), // its retry: the key still claimed
    attempt(4, t0 + 55_000, 900, 200),
    attempt(5, t0 + 60_000, 1_000, 500),
  ];
  const acknowledged: Acknowledged[] = [
    { service: 'math', subject: 't1', updateId: 'u-early', at: t0 - 4_900 },
    { service: 'math', subject: 't1', updateId: 'u-2', at: t0 + 21_300 },
    { service: 'math', subject: 't2', updateId: 'u-4', at: t0 + 55_900 },
  ];

  it('counts each fault’s window by the answers in it, the ledger’s findings by when told, and the caught requests', () => {
    const [partition, slow] = tallyFaults(faults, attempts, acknowledged, {
      lostUpdateIds: ['u-4'],
      duplicatedUpdateIds: ['u-2', 'u-early'],
    });
    expect(partition).toMatchObject({
      requests: 3,
      acknowledged: 1,
      lost: 0,
      duplicated: 1,
      inProgress: 1,
      unavailableWithRetryAfter: 3,
      unavailableWithout: 0,
      timeoutWithRetryAfter: 0,
      timeoutWithout: 1,
      noAnswer: 1,
      otherServerErrors: 0,
      longestAnswerMs: 30_500,
      // The probe was acknowledged 3.5 s after the heal, request 3, caught by the fault, answered 20 s after it.
      recoveryMs: 3_500,
      caughtAnsweredMs: 20_010,
    });
    expect(slow).toMatchObject({
      requests: 2,
      acknowledged: 1,
      lost: 1,
      duplicated: 0,
      otherServerErrors: 1,
      recoveryMs: null,
    });
  });

  it('fails a run on an answer past the bound, a fault not recovered from, or a process that exited', () => {
    const tallies = tallyFaults(faults, attempts, acknowledged, {
      lostUpdateIds: [],
      duplicatedUpdateIds: [],
    });
    const checks = networkChecks(tallies, {
      lost: 0,
      duplicated: 0,
      gaveUp: 0,
      rejected: 0,
      reconcileFindings: 0,
      verifyFindings: 0,
      exited: ['worker'],
    });
    const failed = checks.filter((c) => !c.ok).map((c) => c.text);
    expect(failed).toEqual([
      '1 5xx other than 503/504',
      `longest answer 30.5 s (bound ${(ANSWER_BOUND_MS / 1000).toFixed(1)} s)`,
      '1 of 2 faults serving again within 10.0 s of the heal',
      '1 Referee processes exited (worker): pools recover in place',
    ]);
    const clean = networkChecks(
      tallies.map((t) => ({ ...t, longestAnswerMs: 1_000, otherServerErrors: 0, recoveryMs: 2_000 })),
      { lost: 0, duplicated: 0, gaveUp: 0, rejected: 0, reconcileFindings: 0, verifyFindings: 0, exited: [] },
    );
    expect(clean.every((c) => c.ok)).toBe(true);
  });

  it('writes a row per fault with the answers split by status and Retry-After', () => {
    const table = networkTable(
      tallyFaults(faults, attempts, acknowledged, { lostUpdateIds: [], duplicatedUpdateIds: [] }),
    );
    const lines = table.split('\n');
    expect(lines[0]).toContain('503 with / without Retry-After');
    expect(lines).toHaveLength(4);
    expect(lines[2]).toBe(
      '| API ↔ PostgreSQL partitioned | 3 | 1 | 0 | 0 | 3 / 0 | 0 / 1 | 1 | 1 | 30.5 s | 3.5 s | 20.0 s |',
    );
    expect(lines[3]).toContain('| never | 0.0 s |');
  });
});
