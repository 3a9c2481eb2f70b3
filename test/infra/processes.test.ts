import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { freePort, waitForPort } from '../../infra/ports';
import { spawnManaged } from '../../infra/processes';
import { ExitedBeforeReady, untilReady } from '../../infra/startup';

let tmp: string;

beforeEach(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'referee-proc-'));
});

afterEach(() => {
  fs.rmSync(tmp, { recursive: true, force: true });
});

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

test('appends stdout and stderr to the log file and reports the exit code', async () => {
  const logFile = path.join(tmp, 'logs', 'child.log');
  const first = spawnManaged('/bin/sh', ['-c', 'echo out; echo err >&2; exit 3'], { name: 'first', logFile });
  expect(await first.exited).toBe(3);
  const second = spawnManaged('/bin/sh', ['-c', 'echo again'], { name: 'second', logFile });
  expect(await second.exited).toBe(0);

  const log = fs.readFileSync(logFile, 'utf8');
  expect(log).toMatch(/first: \/bin\/sh[\s\S]*out\n[\s\S]*err\n[\s\S]*second: \/bin\/sh[\s\S]*again\n/);
});

test('creates the log file readable by its owner only, and narrows an existing one', async () => {
  const logFile = path.join(tmp, 'logs', 'private.log');
  expect(await spawnManaged('/bin/sh', ['-c', 'echo hi'], { name: 'a', logFile }).exited).toBe(0);
  expect(fs.statSync(logFile).mode & 0o777).toBe(0o600);
  fs.chmodSync(logFile, 0o644);
  expect(await spawnManaged('/bin/sh', ['-c', 'echo hi'], { name: 'b', logFile }).exited).toBe(0);
  expect(fs.statSync(logFile).mode & 0o777).toBe(0o600);
});

test('stop() escalates to SIGKILL when the stop signal is ignored', async () => {
  const proc = spawnManaged('/bin/sh', ['-c', 'trap "" TERM; while :; do sleep 0.1; done'], {
    name: 'stubborn',
  });
  await new Promise((resolve) => setTimeout(resolve, 200)); // let the trap be installed
  const started = Date.now();
  await proc.stop(300);
  expect(Date.now() - started).toBeGreaterThanOrEqual(300);
  expect(await proc.exited).toBeNull();
  expect(isRunning(proc.pid)).toBe(false);
});

test('stop() is quick for a cooperative process and harmless afterwards', async () => {
  const proc = spawnManaged('/bin/sleep', ['30'], { name: 'sleeper' });
  await proc.stop();
  await proc.stop();
  expect(await proc.exited).toBeNull();
});

test('refuses a command that does not exist', () => {
  expect(() => spawnManaged(path.join(tmp, 'nope'), [], { name: 'ghost' })).toThrow(
    /ghost: .*nope does not exist/,
  );
});

test('freePort and waitForPort', async () => {
  const port = await freePort();
  await expect(waitForPort('127.0.0.1', port, 200)).rejects.toThrow(
    /did not accept connections within 200 ms/,
  );

  const server = net.createServer().listen(port, '127.0.0.1');
  try {
    await waitForPort('127.0.0.1', port, 2000);
  } finally {
    server.close();
  }
});

test('untilReady tells a process that exited during start from a readiness check that failed', async () => {
  const logFile = path.join(tmp, 'start.log');
  const crashing = spawnManaged('/bin/sh', ['-c', 'echo bind: address already in use; exit 2'], {
    name: 'crashing',
    logFile,
  });
  const exited = (await untilReady(crashing, 'crashing', logFile, () => new Promise(() => {})).catch(
    (e: unknown) => e,
  )) as ExitedBeforeReady;
  expect(exited).toBeInstanceOf(ExitedBeforeReady);
  expect(exited.code).toBe(2);
  expect(exited.message).toMatch(
    /crashing: exited \(code 2\) before it was ready[\s\S]*address already in use/,
  );

  const running = spawnManaged('/bin/sh', ['-c', 'sleep 30'], { name: 'running' });
  try {
    const failed = await untilReady(running, 'running', undefined, async () => {
      throw new Error('not serving');
    }).catch((e: unknown) => e as Error);
    expect(failed).not.toBeInstanceOf(ExitedBeforeReady);
    expect(failed.message).toBe('running: not serving');
  } finally {
    await running.stop();
  }
});
