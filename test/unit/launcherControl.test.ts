import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Server } from 'node:http';
import {
  LauncherRolloutError,
  requestSupervisedRollout,
  serveLauncherControl,
  type SupervisedRolloutReport,
  type SupervisedRolloutRequest,
} from '../../infra/launcherControl';

const report: SupervisedRolloutReport = {
  from: 'bold',
  to: 'bnew',
  moved: 3,
  startedAt: 1_700_000_000_000,
  promotedAfterMs: 10,
  movedAfterMs: 20,
  drainedAfterMs: 30,
  workersStartedAfterMs: 5,
  oldWorkersStoppedAfterMs: 40,
  startedWorkers: [11],
  stoppedWorkers: [10],
};

describe('the launcher control socket (referee workers rollout against npm start)', () => {
  let dir: string;
  let server: Server;
  const received: SupervisedRolloutRequest[] = [];

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'referee-control-'));
    server = await serveLauncherControl(join(dir, 'control.sock'), async (request, log) => {
      received.push(request);
      if (request.build === 'unknown')
        throw Object.assign(new Error('build unknown is not one this system ran'), { code: 'unknown_build' });
      log('Started 1 worker(s).');
      log('Build bnew is current.');
      return report;
    });
  });

  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    await rm(dir, { recursive: true, force: true });
  });

  it("is its owner's only, carries the request, streams the progress lines and returns the report", async () => {
    expect((await stat(join(dir, 'control.sock'))).mode & 0o777).toBe(0o600);
    const lines: string[] = [];
    const request: SupervisedRolloutRequest = {
      direction: 'forward',
      variant: 'extra-upsert',
      drainTimeoutMs: 60_000,
    };
    await expect(
      requestSupervisedRollout(join(dir, 'control.sock'), request, (l) => lines.push(l)),
    ).resolves.toEqual(report);
    expect(received.at(-1)).toEqual(request);
    expect(lines).toEqual(['Started 1 worker(s).', 'Build bnew is current.']);
  });

  it("answers a failed rollout with the launcher's message and code", async () => {
    const failed = requestSupervisedRollout(
      join(dir, 'control.sock'),
      { direction: 'forward', build: 'unknown' },
      () => {},
    );
    await expect(failed).rejects.toBeInstanceOf(LauncherRolloutError);
    await expect(failed).rejects.toMatchObject({
      code: 'unknown_build',
      message: 'build unknown is not one this system ran',
    });
  });
});
