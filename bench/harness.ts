import { loadavg } from 'node:os';
import type { People } from './dataset';
import { type PairSummary, type Round, type Sample, summarize, type Target } from './stats';
import { type BenchSystem, cpuByComponent, resetPeakRss, rssOf } from './system';

/** Durations and sizes of one bench run; `--quick` is a smoke run of the same steps. */
export interface Plan {
  name: 'full' | 'quick';
  mathTasks: number;
  genomicsTopics: number;
  reviewerTasks: number;
  importSmallTasks: number;
  importSmallRounds: number;
  /** Seconds of each side of a round, and of the warm-up before the first round. */
  seconds: number;
  warmupSeconds: number;
  rounds: number;
  readConnections: number;
  downloadConnections: number;
  /** Updates sent one after another to a single task workflow (past a continue-as-new every TRANSITIONS_PER_RUN). */
  oneTaskUpdates: number;
}

export const FULL: Plan = {
  name: 'full',
  mathTasks: 100_000,
  genomicsTopics: 2_000,
  reviewerTasks: 600,
  importSmallTasks: 10_000,
  importSmallRounds: 2,
  seconds: 4,
  warmupSeconds: 3,
  rounds: 4,
  readConnections: 8,
  downloadConnections: 4,
  oneTaskUpdates: 600,
};

export const QUICK: Plan = {
  name: 'quick',
  mathTasks: 10_000,
  genomicsTopics: 300,
  reviewerTasks: 200,
  importSmallTasks: 2_000,
  importSmallRounds: 1,
  seconds: 2,
  warmupSeconds: 1,
  rounds: 2,
  readConnections: 8,
  downloadConnections: 4,
  oneTaskUpdates: 240,
};

export interface BenchContext {
  system: BenchSystem;
  people: People;
  plan: Plan;
  log: (line: string) => void;
  results: PairResult[];
  /** Facts worth printing under the table (dataset sizes, timings of setup steps). */
  notes: string[];
  /** History events one mutation adds to its workflow: the echo's and ours (set by the mutation pairs). */
  historyEventsPerUpdate?: Record<string, number>;
  /** Delivery latency under each mutation load with an endpoint subscribed (`--webhooks`). */
  webhookDelivery?: WebhookDeliveryResult[];
  /** The webhook delivery runs after the mutation pairs (`--webhooks`, bench/pairs/webhookRuns.ts). */
  webhookRuns?: unknown;
}

/** Commit-to-receipt latency of the webhook deliveries one load produced, and how long its backlog took to drain. */
export interface WebhookDeliveryResult {
  label: string;
  events: number;
  p50Ms: number;
  p99Ms: number;
  /** From the end of the load until no delivery was pending (or the wait gave up: `drained` false). */
  drainSeconds: number;
  drained: boolean;
  /** Deliveries the receiver got again with a webhook-id it had seen (over the whole run so far). */
  duplicates: number;
}

/** Peak RSS in MiB of the API and the worker while one pair ran (peaks are reset before it). */
export interface PeakRss {
  api: number;
  worker: number;
}

export interface PairResult {
  pair: string;
  variant: string;
  concurrency: number;
  targets: Target[];
  rounds: Round[];
  summary: PairSummary;
  rss: PeakRss;
  /** Extra measurements of the pair (e.g. update latency by position on one workflow). */
  extra?: Record<string, unknown>;
}

export interface PairSpec {
  pair: string;
  variant: string;
  concurrency: number;
  targets: Target[];
  a(seconds: number): Promise<Sample & { errorSamples?: string[] }>;
  b(seconds: number): Promise<Sample & { errorSamples?: string[] }>;
  /** Rounds and durations; defaults come from the plan. */
  rounds?: number;
  warmup?: boolean;
}

const one = (n: number) => (Number.isFinite(n) ? n.toFixed(n < 10 ? 2 : 1) : '–');
const describe = (s: Sample) =>
  `${one(s.throughput)}/s p50 ${one(s.p50)} ms p99 ${one(s.p99)} ms${s.errors ? ` ERRORS ${s.errors}` : ''}`;

export function resetPeaks(ctx: BenchContext): void {
  resetPeakRss(ctx.system.api.pid);
  resetPeakRss(ctx.system.worker.pid);
}

export function readPeaks(ctx: BenchContext): PeakRss {
  return { api: rssOf(ctx.system.api.pid).peakMiB, worker: rssOf(ctx.system.worker.pid).peakMiB };
}

/** Runs one side and adds its CPU cost per successful request, by process. */
export async function withCpu<S extends Sample>(ctx: BenchContext, run: () => Promise<S>): Promise<S> {
  const before = cpuByComponent(ctx.system);
  const sample = await run();
  const after = cpuByComponent(ctx.system);
  const cpu = Object.fromEntries(
    Object.entries(after).map(([k, v]) => [
      k,
      ((v - before[k as keyof typeof before]) * 1000) / Math.max(1, sample.count),
    ]),
  );
  return { ...sample, cpu };
}

/** The CPU breakdown of a sample as one short line, busiest first (ms per request). */
export const cpuLine = (cpu: Record<string, number> | undefined) =>
  Object.entries(cpu ?? {})
    .filter(([, ms]) => ms >= 0.05)
    .sort(([, x], [, y]) => y - x)
    .map(([k, ms]) => `${k} ${ms.toFixed(ms < 10 ? 1 : 0)}`)
    .join(' ');

const withoutSamples = ({ errorSamples: _samples, ...sample }: Sample & { errorSamples?: string[] }) =>
  sample;

/** Warm-up, then rounds of A then B back to back; every sample is logged with the load average. */
export async function measurePair(ctx: BenchContext, spec: PairSpec): Promise<PairResult> {
  const { plan, log } = ctx;
  const label = `${spec.pair}/${spec.variant} @${spec.concurrency}`;
  log(`${label}: warm-up (load ${loadavg()[0].toFixed(2)})`);
  resetPeaks(ctx);
  if (spec.warmup !== false) {
    await spec.a(plan.warmupSeconds);
    await spec.b(plan.warmupSeconds);
  }
  const rounds: Round[] = [];
  for (let i = 0; i < (spec.rounds ?? plan.rounds); i++) {
    const a = await withCpu(ctx, () => spec.a(plan.seconds));
    const b = await withCpu(ctx, () => spec.b(plan.seconds));
    rounds.push({ a: withoutSamples(a), b: withoutSamples(b) });
    log(`  round ${i + 1}: A ${describe(a)} | B ${describe(b)} | load ${b.load.toFixed(2)}`);
    log(`    CPU ms/request: A ${cpuLine(a.cpu)} | B ${cpuLine(b.cpu)}`);
    for (const line of [...(a.errorSamples ?? []), ...(b.errorSamples ?? [])]) log(`    error: ${line}`);
  }
  const result: PairResult = {
    pair: spec.pair,
    variant: spec.variant,
    concurrency: spec.concurrency,
    targets: spec.targets,
    rounds,
    summary: summarize(rounds),
    rss: readPeaks(ctx),
  };
  ctx.results.push(result);
  return result;
}

/** Records a pair measured by hand (one-off operations such as imports). */
export function recordPair(
  ctx: BenchContext,
  fields: Omit<PairResult, 'summary' | 'rss'> & { rss?: PeakRss },
): PairResult {
  const result: PairResult = {
    ...fields,
    summary: summarize(fields.rounds),
    rss: fields.rss ?? readPeaks(ctx),
  };
  ctx.results.push(result);
  return result;
}
