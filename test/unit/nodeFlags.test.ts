import { spawnSync } from 'node:child_process';
import { SERVICE_NODE_FLAGS } from '../../infra/processes';

const MIB = 1024 * 1024;

/** V8's heap limit (old generation plus young generation) of a process started with `flags` on this runtime. */
function heapLimitMiB(flags: readonly string[]): number {
  const run = spawnSync(
    process.execPath,
    [...flags, '-e', "process.stdout.write(String(require('v8').getHeapStatistics().heap_size_limit))"],
    { encoding: 'utf8' },
  );
  expect(run.status).toBe(0);
  return Number(run.stdout) / MIB;
}

const oldSpaceMiB = (flags: readonly string[]) =>
  Number(/^--max-old-space-size=(\d+)$/.exec(flags.find((f) => f.startsWith('--max-old-space')) ?? '')?.[1]);

describe('V8 flags of the processes', () => {
  // The young generation is three semi-spaces' worth (two semi-spaces and the new large-object space's share).
  it('keeps the worker young generation at 16 MiB semi-spaces, whatever V8 would derive from its old generation', () => {
    const young = heapLimitMiB(SERVICE_NODE_FLAGS.worker) - oldSpaceMiB(SERVICE_NODE_FLAGS.worker);
    expect(young).toBeLessThanOrEqual(3 * 16);
  });

  it('gives the API the 32 MiB semi-spaces its verified downloads are sized for', () => {
    const young = heapLimitMiB(SERVICE_NODE_FLAGS.api) - oldSpaceMiB(SERVICE_NODE_FLAGS.api);
    expect(young).toBeLessThanOrEqual(3 * 32);
    expect(young).toBeGreaterThan(3 * 16);
  });
});
