import { ownerOf } from '../../bench/profile';
import {
  describeTarget,
  fmt,
  median,
  medianCpu,
  meets,
  ratio,
  ratioFor,
  renderTable,
  type Round,
  type Sample,
  summarize,
} from '../../bench/stats';

const sample = (throughput: number, p50: number, p99: number, extra: Partial<Sample> = {}): Sample => ({
  throughput,
  p50,
  p99,
  count: 100,
  errors: 0,
  load: 1,
  ...extra,
});

describe('median', () => {
  it('takes the middle value of an odd count and the mean of the middle two of an even count', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
  });

  it('ignores NaN and is NaN for no values', () => {
    expect(median([Number.NaN, 5])).toBe(5);
    expect(median([])).toBeNaN();
  });
});

describe('ratio', () => {
  it('is B/A, and NaN when A is zero or a side is not a number', () => {
    expect(ratio(3, 2)).toBe(1.5);
    expect(ratio(1, 0)).toBeNaN();
    expect(ratio(Number.NaN, 2)).toBeNaN();
  });
});

describe('summarize', () => {
  const rounds: Round[] = [
    { a: sample(100, 10, 20), b: sample(80, 12, 30, { errors: 1 }) },
    { a: sample(200, 5, 10), b: sample(100, 10, 20) },
    { a: sample(100, 10, 40), b: sample(90, 11, 44) },
  ];

  it('reports the median of each side and the median of the per-round ratios', () => {
    const s = summarize(rounds);
    expect(s.rounds).toBe(3);
    expect(s.a).toEqual({ throughput: 100, p50: 10, p99: 20 });
    expect(s.b).toEqual({ throughput: 90, p50: 11, p99: 30 });
    // per-round B/A throughput: 0.8, 0.5, 0.9 → 0.8 (not 90/100 = 0.9 from the sides' medians)
    expect(s.ratio.throughput).toBeCloseTo(0.8);
    expect(s.ratio.p50).toBeCloseTo(1.2);
    expect(s.ratio.p99).toBeCloseTo(1.5);
    expect(s.errors).toEqual({ a: 0, b: 1 });
  });

  it('keeps the median CPU per request of each process', () => {
    const cpu = medianCpu([
      sample(1, 1, 1, { cpu: { api: 2, postgres: 1 } }),
      sample(1, 1, 1, { cpu: { api: 4, postgres: 3 } }),
      sample(1, 1, 1, { cpu: { api: 3 } }),
    ]);
    expect(cpu).toEqual({ api: 3, postgres: 2 });
  });
});

describe('targets', () => {
  const s = summarize([{ a: sample(100, 10, 20), b: sample(75, 19, 61) }]);

  it('checks minimum and maximum bounds on the right ratio', () => {
    expect(meets(ratioFor(s, 'throughput'), { metric: 'throughput', bound: 'min', value: 0.7 })).toBe(true);
    expect(meets(ratioFor(s, 'p50'), { metric: 'p50', bound: 'max', value: 2 })).toBe(true);
    expect(meets(ratioFor(s, 'p99'), { metric: 'p99', bound: 'max', value: 3 })).toBe(false);
    expect(meets(Number.NaN, { metric: 'p99', bound: 'max', value: 3 })).toBe(false);
  });

  it('reads a wall-time target from the p50 ratio (one timed operation per side)', () => {
    expect(ratioFor(s, 'wall')).toBeCloseTo(1.9);
    expect(describeTarget({ metric: 'wall', bound: 'max', value: 1.5 })).toBe('wall ≤ 1.5');
  });
});

describe('table', () => {
  it('pads columns to their widest cell and right-aligns all but the first', () => {
    expect(
      renderTable(
        ['pair', 'thr'],
        [
          ['read', '12.5'],
          ['download', '3'],
        ],
      ),
    ).toBe(['pair       thr', '--------  ----', 'read      12.5', 'download     3'].join('\n'));
  });

  it('formats numbers with grouping from 1,000 and a dash for what is not a number', () => {
    expect(fmt(1234.5)).toBe('1,235');
    expect(fmt(0.456, 2)).toBe('0.46');
    expect(fmt(Number.NaN)).toBe('–');
  });
});

describe('profile summary', () => {
  it('attributes a frame to its npm package, Node.js module or project file', () => {
    expect(ownerOf('file:///work/main/node_modules/@temporalio/client/lib/x.js')).toBe('@temporalio/client');
    expect(ownerOf('/work/main/node_modules/pg/lib/client.js')).toBe('pg');
    expect(ownerOf('node:internal/streams/readable')).toBe('node:streams');
    expect(ownerOf('')).toBe('(native)');
  });
});
