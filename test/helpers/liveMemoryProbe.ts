/**
 * Preloaded into a process under test (`--expose-gc --require <this file>`, after tsx's hook): from the first
 * SIGUSR2 on (so its collections do not slow the start), every LIVE_MEMORY_INTERVAL_MS (default 500) it runs a full
 * garbage collection and appends one JSON line to
 * LIVE_MEMORY_FILE with what is still reachable then: the V8 heap in use and the memory outside it that V8 accounts
 * for (Buffers). Resident memory also counts garbage that is not collected yet and pages the allocator keeps after a
 * free, so it says how often the runtime collects, not what the process holds (test/integration/mathFilesMemory).
 */
import { appendFileSync } from 'node:fs';

export interface LiveMemorySample {
  /** Date.now() when the sample was taken. */
  at: number;
  /** heapUsed + external after a full collection: what the process holds. */
  live: number;
  rss: number;
}

const file = process.env.LIVE_MEMORY_FILE;
const gc = (globalThis as { gc?: () => void }).gc;
if (file && gc) {
  const interval = Number(process.env.LIVE_MEMORY_INTERVAL_MS ?? 500);
  process.once('SIGUSR2', () => {
    setInterval(() => {
      gc();
      const { heapUsed, external, rss } = process.memoryUsage();
      const sample: LiveMemorySample = { at: Date.now(), live: heapUsed + external, rss };
      appendFileSync(file, `${JSON.stringify(sample)}\n`);
    }, interval).unref();
  });
}
