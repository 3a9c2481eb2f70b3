import { spawnSync } from 'node:child_process';
import { copyFile, mkdir, rename } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Client } from '@temporalio/client';
import { workerBuildId } from '../deployment/buildId';
import { projectRoot } from '../infra/paths';
import { freePort } from '../infra/ports';
import { COMPILED_NODE_FLAGS, compiledEntry, SERVICE_NODE_FLAGS } from '../infra/processes';
import { rollout, type RolloutReport } from '../deployment/rollout';
import { supervise, type SupervisedProcess } from '../infra/supervisor';
import { describeDeployment } from '../deployment/workerDeployments';
import { BUILT_WORKFLOW_BUNDLE, buildWorkflowBundle } from '../deployment/workflowBundle';
import type { SupervisedRolloutReport, SupervisedRolloutRequest } from '../infra/launcherControl';

/** One build the launcher can run: its ID and the workflow bundle its workers load (null: bundled at start). */
export interface WorkerBuild {
  buildId: string;
  bundle: string | null;
}

interface FleetWorker {
  name: string;
  buildId: string;
  metricsKey: string;
  process: SupervisedProcess;
  pid?: number;
}

export interface WorkerFleetOptions {
  /** How many worker processes each build runs. */
  workers: number;
  /** The environment of every worker process (connection variables); the fleet adds build, bundle and metrics. */
  env: NodeJS.ProcessEnv;
  /** The data folder: logs/ and builds/<build ID>/ (each build's workflow bundle, kept for its restarts). */
  root: string;
  /** Each worker's metrics URL by process name (the connection file's `metrics`). */
  metrics: Record<string, string>;
  log(line: string): void;
  /** Called after every start, restart and stop with the pids of the running workers. */
  onChange(): void;
  client(): Promise<Client>;
  taskQueue: string;
}

/**
 * The worker processes of `npm start` and `npm run start:cluster`, grouped by build (docs/workflow-evolution.md,
 * "Rolling out a build"). Each build's workflow bundle is a copy of its own under `builds/<build ID>/`, so a
 * restarted worker of an older build loads the code its runs were written by, whatever the checkout holds now. A
 * rollout starts the new build's workers beside the old ones, promotes it, moves the pinned workflows and stops
 * the old build's workers once nothing is pinned to it.
 */
export class WorkerFleet {
  private readonly workers: FleetWorker[] = [];
  private readonly builds = new Map<string, WorkerBuild>();
  /** Builds in the order they were current, the last one current now. */
  private readonly history: string[] = [];
  private started = 0;
  private busy: Promise<unknown> | null = null;

  constructor(private readonly opts: WorkerFleetOptions) {}

  /** The build the fleet's workers run now (the last one made current). */
  get currentBuildId(): string | undefined {
    return this.history.at(-1);
  }

  /** The pids of the running worker processes, oldest first. */
  get pids(): number[] {
    return this.workers.flatMap((w) => (w.pid === undefined ? [] : [w.pid]));
  }

  /**
   * The build of the checkout as it is now: `bin/build.js` brings dist/ up to date, and the workflow bundle (the
   * test variant's, when named) is copied to the build's own folder. The ID comes from the sources
   * (deployment/buildId.ts), not from a cache: the checkout may have changed since this process started.
   */
  async checkoutBuild(variant = ''): Promise<WorkerBuild> {
    const built = spawnSync(
      process.execPath,
      [join(projectRoot, 'bin', 'build.js'), 'worker', 'workflow-bundle'],
      {
        cwd: projectRoot,
        encoding: 'utf8',
      },
    );
    if (built.status !== 0)
      throw new Error(`building the worker failed: ${(built.stderr || built.stdout).trim().slice(-2000)}`);
    const buildId = workerBuildId(projectRoot, { REFEREE_WORKFLOW_VARIANT: variant });
    return this.snapshot(buildId, variant);
  }

  /** Makes `buildId`'s own copy of its workflow bundle (from dist/, or the variant built afresh) unless it has one. */
  async snapshot(buildId: string, variant = ''): Promise<WorkerBuild> {
    const bundle = this.bundlePath(buildId);
    if (!existsSync(bundle)) {
      await mkdir(join(this.opts.root, 'builds', buildId), { recursive: true });
      if (variant) await buildWorkflowBundle(`${bundle}.partial`, variant);
      else await copyFile(BUILT_WORKFLOW_BUNDLE, `${bundle}.partial`);
      await rename(`${bundle}.partial`, bundle);
    }
    const build = { buildId, bundle };
    this.builds.set(buildId, build);
    return build;
  }

  /** Records a build the launcher did not copy (a bundle named by the environment, or none). */
  remember(build: WorkerBuild): WorkerBuild {
    this.builds.set(build.buildId, build);
    return build;
  }

  /** A build this data folder ran before, whose bundle is still kept; null if none. */
  knownBuild(buildId: string): WorkerBuild | null {
    if (this.builds.has(buildId)) return this.builds.get(buildId)!;
    const bundle = this.bundlePath(buildId);
    if (!existsSync(bundle)) return null;
    const build = { buildId, bundle };
    this.builds.set(buildId, build);
    return build;
  }

  private bundlePath = (buildId: string) => join(this.opts.root, 'builds', buildId, 'workflow-bundle.js');

  /** Starts the fleet's workers of `build` (unless they run already) and records it as current. */
  async startBuild(build: WorkerBuild, asCurrent: boolean): Promise<number[]> {
    this.builds.set(build.buildId, build);
    if (asCurrent) this.makeCurrent(build.buildId);
    if (this.workers.some((w) => w.buildId === build.buildId)) return [];
    const added: FleetWorker[] = [];
    for (let i = 0; i < this.opts.workers; i += 1) added.push(await this.startWorker(build));
    return added.map((w) => w.process.pid);
  }

  private makeCurrent(buildId: string) {
    const at = this.history.indexOf(buildId);
    if (at >= 0) this.history.splice(at, 1);
    this.history.push(buildId);
  }

  private async startWorker(build: WorkerBuild): Promise<FleetWorker> {
    this.started += 1;
    // The first start's processes keep their familiar names (worker, worker 2, …); later ones count on.
    const single = this.opts.workers === 1 && this.started === 1;
    const name = single ? 'worker' : `worker ${this.started}`;
    const file = single ? 'worker' : `worker-${this.started}`;
    const metricsKey = this.started === 1 ? 'worker' : `worker-${this.started}`;
    const port = await freePort();
    this.opts.metrics[metricsKey] = `http://127.0.0.1:${port}/metrics`;
    const env: NodeJS.ProcessEnv = {
      ...this.opts.env,
      METRICS_HOST: '127.0.0.1',
      METRICS_PORT: String(port),
      TEMPORAL_WORKER_BUILD_ID: build.buildId,
      ...(build.bundle ? { REFEREE_WORKFLOW_BUNDLE: build.bundle } : {}),
    };
    const worker: FleetWorker = { name, buildId: build.buildId, metricsKey, process: undefined! };
    // Listed before it starts: its first onStart reports it with the others.
    this.workers.push(worker);
    worker.process = supervise(
      process.execPath,
      [...COMPILED_NODE_FLAGS, ...SERVICE_NODE_FLAGS.worker, compiledEntry('worker')],
      {
        // The build is in the worker's own "worker polling" line and in the rollout's lines.
        name,
        env,
        cwd: projectRoot,
        logFile: join(this.opts.root, 'logs', `${file}.log`),
        log: this.opts.log,
        onStart: (pid) => {
          worker.pid = pid;
          this.opts.onChange();
        },
      },
    );
    return worker;
  }

  /** Stops every worker of the builds other than `keep`; returns their pids. */
  private async stopAllBut(keep: string): Promise<number[]> {
    const leaving = this.workers.filter((w) => w.buildId !== keep);
    await Promise.all(leaving.map((w) => w.process.stop(30_000)));
    for (const w of leaving) {
      this.workers.splice(this.workers.indexOf(w), 1);
      delete this.opts.metrics[w.metricsKey];
    }
    this.opts.onChange();
    return leaving.map((w) => w.process.pid);
  }

  /** Stops every worker (the launcher's shutdown). */
  async stop(): Promise<void> {
    await Promise.all(this.workers.map((w) => w.process.stop(30_000)));
  }

  /**
   * A rollout as one step (`referee workers rollout` against this launcher): the target build's workers start beside
   * the running ones, the rollout ramps (if asked), promotes and moves every pinned task and webhook workflow
   * (deployment/rollout.ts), and once nothing is pinned to another build their workers stop. One at a time.
   */
  rollout(request: SupervisedRolloutRequest, log: (line: string) => void): Promise<SupervisedRolloutReport> {
    if (this.busy) return Promise.reject(new FleetBusyError());
    const run = this.runRollout(request, log).finally(() => {
      this.busy = null;
    });
    this.busy = run;
    return run;
  }

  private async runRollout(
    request: SupervisedRolloutRequest,
    log: (line: string) => void,
  ): Promise<SupervisedRolloutReport> {
    const started = Date.now();
    const build = await this.target(request, log);
    const startedWorkers = await this.startBuild(build, false);
    if (startedWorkers.length > 0)
      log(
        `Started ${startedWorkers.length} worker(s) of build ${build.buildId} (pids ${startedWorkers.join(', ')}).`,
      );
    const workersStartedAfterMs = Date.now() - started;
    const client = await this.opts.client();
    const report: RolloutReport = await rollout(client, {
      taskQueue: this.opts.taskQueue,
      to: build.buildId,
      ramp: request.ramp,
      drainTimeoutMs: request.drainTimeoutMs,
      identity: `referee-launcher@${process.pid}`,
      log,
    });
    this.makeCurrent(build.buildId);
    const stoppedWorkers = await this.stopAllBut(build.buildId);
    if (stoppedWorkers.length > 0)
      log(`Stopped ${stoppedWorkers.length} worker(s) of the old build (pids ${stoppedWorkers.join(', ')}).`);
    const shift = (ms: number) => ms + workersStartedAfterMs;
    return {
      ...report,
      startedAt: started,
      promotedAfterMs: shift(report.promotedAfterMs),
      movedAfterMs: shift(report.movedAfterMs),
      drainedAfterMs: shift(report.drainedAfterMs),
      workersStartedAfterMs,
      oldWorkersStoppedAfterMs: Date.now() - started,
      startedWorkers,
      stoppedWorkers,
    };
  }

  /** The build a request names: the checkout's (rolled out), the one before the current (rolled back), or --build. */
  private async target(request: SupervisedRolloutRequest, log: (line: string) => void): Promise<WorkerBuild> {
    if (request.build) {
      const known = this.knownBuild(request.build);
      if (known) return known;
      const checkout = await this.checkoutBuild(request.variant);
      if (checkout.buildId === request.build) return checkout;
      throw new FleetRequestError(
        `build ${request.build} is neither the checkout's (${checkout.buildId}) nor one this system ran before: ` +
          'the launcher cannot start its workers',
      );
    }
    if (request.direction === 'back') {
      const client = await this.opts.client();
      const deployment = await describeDeployment(client, this.opts.taskQueue);
      const current = deployment?.currentBuildId ?? this.currentBuildId;
      const previous = [...this.history].reverse().find((id) => id !== current);
      if (!previous) throw new FleetRequestError('this system ran no other build: nothing to roll back to');
      log(`Rolling back to build ${previous}.`);
      return this.knownBuild(previous)!;
    }
    log('Building the checkout…');
    const build = await this.checkoutBuild(request.variant);
    log(`The checkout is build ${build.buildId}${request.variant ? ` (variant ${request.variant})` : ''}.`);
    return build;
  }
}

/** A rollout is under way already. */
export class FleetBusyError extends Error {
  readonly code = 'busy';
  constructor() {
    super('a rollout is under way already');
  }
}

/** The request names a build the launcher cannot run, or there is nothing to roll back to. */
export class FleetRequestError extends Error {
  readonly code = 'unknown_build';
}
