import type { ManagedProcess } from '../../infra/processes';
import { superviseWith } from '../../infra/supervisor';

/** Processes that exit when told to: each start returns the next pid and a way to end it. */
function fakeProcesses() {
  const ends: Array<(code: number | null) => void> = [];
  let pid = 100;
  const spawn = (): ManagedProcess => {
    let end!: (code: number | null) => void;
    const exited = new Promise<number | null>((resolve) => (end = resolve));
    ends.push(end);
    pid += 1;
    return { pid, exited, stop: async () => end(0) };
  };
  return {
    spawn,
    crash: (code: number | null = null) => ends[ends.length - 1](code),
    starts: () => ends.length,
  };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

test('a first crash is restarted at once; crashes in a row back off from 1 s, doubling', async () => {
  jest.useFakeTimers({ doNotFake: ['setImmediate'] });
  try {
    const processes = fakeProcesses();
    const lines: string[] = [];
    const supervised = superviseWith(processes.spawn, { name: 'worker', log: (line) => lines.push(line) });
    expect(processes.starts()).toBe(1);

    processes.crash();
    await settle();
    expect(lines.pop()).toBe('The worker (pid 101) exited (killed by a signal); restart 1 now.');
    jest.advanceTimersByTime(0);
    expect(processes.starts()).toBe(2);
    expect(supervised.pid).toBe(102);

    processes.crash(1);
    await settle();
    expect(lines.pop()).toBe('The worker (pid 102) exited (1); restart 2 in 1 s.');
    jest.advanceTimersByTime(999);
    expect(processes.starts()).toBe(2);
    jest.advanceTimersByTime(1);
    expect(processes.starts()).toBe(3);

    processes.crash();
    await settle();
    expect(lines.pop()).toMatch(/restart 3 in 2 s\.$/);

    // A process that ran for a minute before it crashed is restarted at once again.
    jest.advanceTimersByTime(2000);
    jest.advanceTimersByTime(60_000);
    processes.crash();
    await settle();
    expect(lines.pop()).toMatch(/restart 4 now\.$/);
    await supervised.stop();
  } finally {
    jest.useRealTimers();
  }
});
