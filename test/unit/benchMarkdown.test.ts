import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { PairResult } from '../../bench/harness';
import { readDocSection, type RunStamp, stampLine } from '../../bench/docSection';
import { benchDocSection } from '../../bench/docTarget';
import { type WebhookRunsResult, webhookRunLines } from '../../bench/pairs/webhookRuns';
import { markdownSection, markdownTable, resultTable } from '../../bench/report';
import { renderTable, summarize } from '../../bench/stats';

const stamp: RunStamp = {
  command: 'npm run bench -- --engine server --markdown',
  commit: '1a2b3c4+dirty',
  date: '2026-11-27',
  cores: 2,
  cpuModel: 'AMD EPYC 7B13',
};

/**
 * What prettier makes of a Markdown text in docs/ with the project's settings (`npm run lint` checks docs with it).
 * In a child process: prettier loads its plugins with `import()`, which jest's runtime refuses.
 */
const prettierMarkdown = (text: string) =>
  execFileSync(
    process.execPath,
    [require.resolve('prettier/bin/prettier.cjs'), '--stdin-filepath', 'docs/benchmark-results.md'],
    { cwd: join(__dirname, '..', '..'), input: text, encoding: 'utf8' },
  );

const cellsOfMarkdown = (table: string) =>
  table
    .split('\n')
    .filter((_, i) => i !== 1)
    .map((line) =>
      line
        .slice(2, -2)
        .split(' | ')
        .map((cell) => cell.trim()),
    );

const pair = (variant: string, concurrency: number, a: number, b: number): PairResult => {
  const sample = (throughput: number) => ({
    throughput,
    p50: 1000 / throughput,
    p99: 3000 / throughput,
    count: 100,
    errors: 0,
    load: 2.5,
  });
  const rounds = [{ a: sample(a), b: sample(b) }];
  return {
    pair: 'mutation',
    variant,
    concurrency,
    targets: [
      { metric: 'p50', bound: 'max', value: 2 },
      { metric: 'p99', bound: 'max', value: 3 },
    ],
    rounds,
    summary: summarize(rounds),
    rss: { api: 280.4, worker: 351.2 },
  };
};

describe('the bench table as Markdown', () => {
  it('keeps every cell of the printed table, cells with spaces and empty cells included', () => {
    const text = renderTable(
      ['measurement', '100,000', 'ratio', 'bound'],
      [
        ['page p50, Owner list', '13.4', '1.03', 'ratio ≤ 1.2'],
        ['API peak RSS MiB', '268.7', '', '≤ 300'],
      ],
    );
    expect(cellsOfMarkdown(markdownTable(text))).toEqual([
      ['measurement', '100,000', 'ratio', 'bound'],
      ['page p50, Owner list', '13.4', '1.03', 'ratio ≤ 1.2'],
      ['API peak RSS MiB', '268.7', '', '≤ 300'],
    ]);
  });

  it('is laid out as prettier lays it out, so the doc it is written into passes lint', () => {
    const table = markdownTable(
      resultTable([pair('math action', 1, 107.8, 42.1), pair('genomics override', 32, 201.7, 87.2)]),
    );
    expect(prettierMarkdown(`${table}\n`)).toBe(`${table}\n`);
    const section = markdownSection(stamp, resultTable([pair('math action', 1, 107.8, 42.1)]), [
      'mutation: history events per update (median between accepted updates in one run): echo 5, math action 6',
      'peak RSS over the run: API 294 MiB (target ≤ 300), worker 459 MiB (target ≤ 600): met',
    ]);
    expect(prettierMarkdown(`${section}\n`)).toBe(`${section}\n`);
  });

  it('opens with a line naming the command, the commit, the date and the machine', () => {
    expect(stampLine(stamp)).toBe(
      '`npm run bench -- --engine server --markdown` at `1a2b3c4+dirty` on 2026-11-27, 2 cores (AMD EPYC 7B13).',
    );
    const section = markdownSection(stamp, renderTable(['a', 'b'], [['x', '1']]), ['one note']);
    expect(section.split('\n')).toEqual([
      stampLine(stamp),
      '',
      '| a   |   b |',
      '| --- | --: |',
      '| x   |   1 |',
      '',
      '- one note',
    ]);
  });
});

describe('which section of docs/benchmark-results.md --markdown writes', () => {
  const doc = readFileSync(join(__dirname, '..', '..', 'docs', 'benchmark-results.md'), 'utf8');

  it.each([
    [{}, 'bench-dev-server'],
    [{ engine: 'server' }, 'bench-temporal-server'],
    [{ scale: '1m' }, 'growth'],
    [{ only: 'mutation', webhooks: true }, 'bench-webhooks'],
    [{ only: 'mutation', webhooks: true, engine: 'server' }, 'bench-webhooks-temporal-server'],
  ])('writes %j into %s, a section the doc has', (options, section) => {
    expect(benchDocSection({ ...options, markdown: true })).toBe(section);
    expect(readDocSection(doc, section)).toBeDefined();
  });

  it('writes nothing without --markdown', () => {
    expect(benchDocSection({ only: 'mutation', webhooks: true })).toBeNull();
    expect(benchDocSection({ quick: true })).toBeNull();
  });

  it.each([
    [{ only: 'mutation' }, '--only'],
    [{ webhooks: true }, '--webhooks'],
    [{ only: 'read,mutation', webhooks: true }, '--only, --webhooks'],
    [{ only: 'mutation', webhooks: true, quick: true }, '--quick, --only, --webhooks'],
    [{ only: 'mutation', webhooks: true, tracing: true }, '--only, --tracing, --webhooks'],
    [{ only: 'mutation', webhooks: true, workers: '2' }, '--only, --workers, --webhooks'],
    [{ only: 'mutation', webhooks: true, scale: '1m' }, '--only, --webhooks'],
    [{ quick: true }, '--quick'],
    [{ tracing: true }, '--tracing'],
    [{ 'scale-tasks': '1000' }, '--scale-tasks'],
    [{ scale: '100k' }, '--scale 100k'],
  ])('refuses %j, naming %s', (options, named) => {
    expect(() => benchDocSection({ ...options, markdown: true })).toThrow(`not with ${named}`);
  });
});

describe('the delivery-run lines under the webhook table', () => {
  const runs = (over: Partial<WebhookRunsResult> = {}): WebhookRunsResult => ({
    burst: { events: 208, p50Ms: 180, p99Ms: 640, lastEventLagMs: 420, commitRate: 43.6 },
    sustained: { events: 2000, deliveriesPerSecond: 512.4 },
    fairness: { endpoints: 10, eventsEach: 300, perSecond: [61.2, 70.9, 66], slowestOverFastest: 0.86 },
    steady: {
      mutationP50GrowthPercent: 4.2,
      lagP99Ms: 310,
      deliveryCpuMsPerEvent: 1.5,
      transitionCpuMsPerEvent: 9.25,
    },
    ...over,
  });

  it('names each target and says it is met', () => {
    expect(webhookRunLines(runs())).toEqual([
      'webhook burst (208 events, 16 clients, 44/s, receiver 50 ms): lag p50 180 ms, p99 640 ms, last event 420 ms after the last commit (targets ≤ 1000 ms: met)',
      'webhook sustained (one endpoint, instant receiver, 2000 events): 512 deliveries/s (target ≥ 200: met)',
      'webhook fairness (10 endpoints × 300 events): 61–71 deliveries/s each, slowest/fastest 0.86 (target ≥ 0.8: met)',
      'webhook steady load (math action @32, one endpoint off vs on, side by side): mutation p50 +4.2 % (target ≤ 10 %: met), lag p99 310 ms (target ≤ 1000: met), CPU per event (worker + Temporal + PostgreSQL): delivery 1.50 ms vs transition 9.25 ms (target less: met)',
    ]);
  });

  it('says NOT met for each target missed', () => {
    const lines = webhookRunLines(
      runs({
        burst: { events: 208, p50Ms: 900, p99Ms: 1400, lastEventLagMs: 300, commitRate: 44 },
        sustained: { events: 2000, deliveriesPerSecond: 150 },
        fairness: { endpoints: 10, eventsEach: 300, perSecond: [40, 70], slowestOverFastest: 0.57 },
        steady: {
          mutationP50GrowthPercent: 12,
          lagP99Ms: 1100,
          deliveryCpuMsPerEvent: 11,
          transitionCpuMsPerEvent: 9,
        },
      }),
    );
    expect(lines[0]).toMatch(/\(targets ≤ 1000 ms: NOT met\)$/);
    expect(lines[1]).toMatch(/\(target ≥ 200: NOT met\)$/);
    expect(lines[2]).toMatch(/slowest\/fastest 0.57 \(target ≥ 0.8: NOT met\)$/);
    expect(lines[3]).toContain('mutation p50 +12.0 % (target ≤ 10 %: NOT met)');
    expect(lines[3]).toContain('lag p99 1100 ms (target ≤ 1000: NOT met)');
    expect(lines[3]).toMatch(/\(target less: NOT met\)$/);
  });

  it('signs a mutation p50 that shrank with the endpoint and leaves out the steady line without its pairs', () => {
    const steady = runs().steady!;
    expect(webhookRunLines(runs({ steady: { ...steady, mutationP50GrowthPercent: -2.5 } }))[3]).toContain(
      'mutation p50 -2.5 % (target ≤ 10 %: met)',
    );
    expect(webhookRunLines(runs({ steady: null }))).toHaveLength(3);
  });

  it('is written into the section as Markdown that prettier leaves as it is', () => {
    const section = markdownSection(
      stamp,
      resultTable([
        pair('math action', 32, 183.2, 85.9),
        pair('math action + 1 webhook endpoint', 32, 183.2, 80.1),
      ]),
      webhookRunLines(runs()),
    );
    expect(section).toContain(
      '- webhook sustained (one endpoint, instant receiver, 2000 events): 512 deliveries/s (target ≥ 200: met)',
    );
    expect(prettierMarkdown(`${section}\n`)).toBe(`${section}\n`);
  });
});
