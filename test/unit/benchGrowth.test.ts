import { ABSOLUTE_BOUNDS, GROWTH_BOUNDS, growthRows, growthTable } from '../../bench/growth';

const rowOf = (rows: ReturnType<typeof growthRows>, name: string) => {
  const row = rows.find((r) => r.measurement === name);
  if (!row) throw new Error(`no row ${name}`);
  return row;
};

describe('growth rows of npm run bench -- --scale 1m', () => {
  const sizes = [100_000, 1_000_000];

  it('judges a growth bound on the ratio from the smaller scale to the larger', () => {
    const rows = growthRows(sizes, {
      100000: { 'export wall': 10, 'import wall, math': 70 },
      1000000: { 'export wall': 115, 'import wall, math': 700 },
    });
    expect(rowOf(rows, 'export wall')).toEqual({
      measurement: 'export wall',
      values: [10, 115],
      ratio: 11.5,
      bound: 'ratio ≤ 11',
      met: 'NO',
    });
    expect(rowOf(rows, 'import wall, math')).toMatchObject({ ratio: 10, met: 'yes' });
  });

  it('judges an absolute bound at every scale, whatever the ratio', () => {
    const rows = growthRows(sizes, {
      100000: {
        'API peak RSS MiB, export': 310,
        'worker peak RSS MiB, export': 400,
        'transitions p50 during / without export': 1.1,
      },
      1000000: {
        'API peak RSS MiB, export': 250,
        'worker peak RSS MiB, export': 590,
        'transitions p50 during / without export': 1.25,
      },
    });
    expect(rowOf(rows, 'API peak RSS MiB, export')).toMatchObject({ bound: '≤ 300', met: 'NO' });
    expect(rowOf(rows, 'worker peak RSS MiB, export')).toMatchObject({ bound: '≤ 600', met: 'yes' });
    expect(rowOf(rows, 'transitions p50 during / without export')).toMatchObject({
      bound: '≤ 1.2',
      met: 'NO',
    });
  });

  it('keeps a row measured at one scale only, and a bounded row not measured is not met', () => {
    const rows = growthRows(sizes, {
      100000: { 'export wall': 10, 'API peak RSS MiB, export': 200 },
      1000000: { 'export wall': Number.NaN },
    });
    expect(rowOf(rows, 'export wall').met).toBe('NO');
    expect(rowOf(rows, 'API peak RSS MiB, export')).toMatchObject({ values: [200, Number.NaN], met: 'NO' });
  });

  it('leaves rows without a bound unjudged, and growth bounds unjudged with one scale', () => {
    const one = growthRows([100_000], { 100000: { 'export wall': 10, 'exact counts (total)': 100_000 } });
    expect(rowOf(one, 'export wall')).toMatchObject({ bound: 'ratio ≤ 11', met: '' });
    expect(rowOf(one, 'exact counts (total)')).toMatchObject({ bound: '', met: '' });
  });

  it('bounds every export row the issue bounds: wall ≤ 11 ×, RSS 300 / 600 MiB, transitions p50 ≤ 1.2 ×', () => {
    expect(GROWTH_BOUNDS['export wall']).toBe(11);
    expect(ABSOLUTE_BOUNDS['API peak RSS MiB, export']).toBe(300);
    expect(ABSOLUTE_BOUNDS['worker peak RSS MiB, export']).toBe(600);
    expect(ABSOLUTE_BOUNDS['transitions p50 during / without export']).toBe(1.2);
  });

  it('prints a column per scale, the ratio, the bound and the verdict; "–" for what was not measured', () => {
    const table = growthTable(
      sizes,
      growthRows(sizes, {
        100000: {
          'export wall': 12.5,
          'transitions p50 during / without export': 1.05,
          'transitions failed': 0,
        },
        1000000: {
          'export wall': Number.NaN,
          'transitions p50 during / without export': 1.1,
          'transitions failed': 3,
        },
      }),
    );
    const lines = table.split('\n');
    expect(lines[0].split(/\s{2,}/)).toEqual([
      'measurement',
      '100,000',
      '1,000,000',
      'ratio',
      'bound',
      'met',
    ]);
    expect(lines[2].split(/\s{2,}/)).toEqual(['export wall', '12.5', '–', '–', 'ratio ≤ 11', 'NO']);
    expect(lines[3].split(/\s{2,}/)).toEqual([
      'transitions p50 during / without export',
      '1.05',
      '1.10',
      '1.05',
      '≤ 1.2',
      'yes',
    ]);
    expect(lines[4].split(/\s{2,}/)).toEqual(['transitions failed', '0', '3', '–']);
  });
});
