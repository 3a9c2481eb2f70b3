import net from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { freePort } from '../observability/freePort';

export { freePort };

/** Resolves once `host:port` accepts TCP connections; rejects after `timeoutMs` (or stops when `signal` aborts). */
export async function waitForPort(
  host: string,
  port: number,
  timeoutMs: number,
  signal?: AbortSignal,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!signal?.aborted) {
    if (await canConnect(host, port, Math.min(1000, Math.max(1, deadline - Date.now())))) return;
    if (Date.now() >= deadline)
      throw new Error(`${host}:${port} did not accept connections within ${timeoutMs} ms`);
    await sleep(100);
  }
}

function canConnect(host: string, port: number, timeoutMs: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port });
    const done = (ok: boolean): void => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

/** Whether `port` on `host` can be bound right now. */
export async function isPortFree(port: number, host = '127.0.0.1'): Promise<boolean> {
  return new Promise<boolean>((resolve) => {
    const probe = net
      .createServer()
      .once('error', () => resolve(false))
      .once('listening', () => probe.close(() => resolve(true)))
      .listen(port, host);
  });
}

/** `preferred` when it is free, else a free port. */
export async function portOrFree(preferred: number, host = '127.0.0.1'): Promise<number> {
  return (await isPortFree(preferred, host)) ? preferred : freePort(host);
}
