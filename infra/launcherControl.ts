import { chmodSync, rmSync } from 'node:fs';
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { RolloutReport } from '../deployment/rollout';

/*
 * The control socket of `npm start` / `npm run start:cluster` (a Unix socket in the data folder, owner-only like
 * the connection file that names it): how `referee workers rollout|rollback` asks the launcher, which supervises the
 * worker processes, to start and stop workers as part of a rollout. One request per rollout; the answer streams the
 * launcher's progress lines, then the report, as newline-delimited JSON.
 */

export interface SupervisedRolloutRequest {
  /** `forward`: to the checkout's build (or `build`); `back`: to the build current before (or `build`). */
  direction: 'forward' | 'back';
  build?: string;
  /** A test variant of the workflow code (workflows/variant.ts) built from the checkout. */
  variant?: string;
  ramp?: { percentage: number; forMs: number };
  drainTimeoutMs?: number;
}

export interface SupervisedRolloutReport extends RolloutReport {
  /** When the launcher began (epoch ms): every `…AfterMs` counts from it. */
  startedAt: number;
  /** Milliseconds from the request: the new build's workers started, the old build's workers stopped. */
  workersStartedAfterMs: number;
  oldWorkersStoppedAfterMs: number;
  startedWorkers: number[];
  stoppedWorkers: number[];
}

type Line = { log: string } | { report: SupervisedRolloutReport } | { error: string; code: string };

/** Serves rollouts on `socketPath` (mode 0600). */
export function serveLauncherControl(
  socketPath: string,
  rolloutHandler: (
    request: SupervisedRolloutRequest,
    log: (line: string) => void,
  ) => Promise<SupervisedRolloutReport>,
): Promise<Server> {
  rmSync(socketPath, { force: true });
  const server = createServer((req, res) => {
    if (req.method !== 'POST' || req.url !== '/workers/rollout') {
      res.writeHead(404).end();
      return;
    }
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'application/x-ndjson' });
      const send = (line: Line) => res.write(`${JSON.stringify(line)}\n`);
      let request: SupervisedRolloutRequest;
      try {
        request = JSON.parse(body) as SupervisedRolloutRequest;
      } catch {
        send({ error: 'the request is not JSON', code: 'bad_request' });
        res.end();
        return;
      }
      rolloutHandler(request, (log) => send({ log }))
        .then((report) => send({ report }))
        .catch((error: unknown) =>
          send({
            error: error instanceof Error ? error.message : String(error),
            code: (error as { code?: string })?.code ?? 'rollout_failed',
          }),
        )
        .finally(() => res.end());
    });
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(socketPath, () => {
      chmodSync(socketPath, 0o600);
      server.unref();
      resolve(server);
    });
  });
}

/** A failure the launcher reported (its `code`: `busy`, `unknown_build`, `rollout_failed`, …). */
export class LauncherRolloutError extends Error {
  constructor(
    message: string,
    readonly code: string,
  ) {
    super(message);
  }
}

/** Asks the launcher listening on `socketPath` for a rollout; `onLog` gets its progress lines. */
export function requestSupervisedRollout(
  socketPath: string,
  request: SupervisedRolloutRequest,
  onLog: (line: string) => void,
): Promise<SupervisedRolloutReport> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        socketPath,
        path: '/workers/rollout',
        method: 'POST',
        headers: { 'content-type': 'application/json' },
      },
      (res) => {
        let buffered = '';
        let outcome: SupervisedRolloutReport | LauncherRolloutError | undefined;
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          buffered += chunk;
          for (let end = buffered.indexOf('\n'); end >= 0; end = buffered.indexOf('\n')) {
            const line = JSON.parse(buffered.slice(0, end)) as Line;
            buffered = buffered.slice(end + 1);
            if ('log' in line) onLog(line.log);
            else if ('report' in line) outcome = line.report;
            else outcome = new LauncherRolloutError(line.error, line.code);
          }
        });
        res.on('end', () => {
          if (outcome instanceof Error) reject(outcome);
          else if (outcome) resolve(outcome);
          else
            reject(
              new LauncherRolloutError('the launcher ended the rollout without a report', 'rollout_failed'),
            );
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(JSON.stringify(request));
  });
}
