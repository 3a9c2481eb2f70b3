import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { dataDir } from './paths';
import type { TemporalProcess, TemporalTopology } from './temporalServer';
import type { DeploymentStatus } from '../deployment/workerDeployments';

/**
 * How to reach the system `npm start` runs, written by it to `<data dir>/connection.json` (mode 0600: it holds
 * the database password, the S3 secret and the webhook sealing key) and removed when it stops. The ops CLI takes from it what the
 * environment does not set.
 */
export interface ConnectionFile {
  /** Process id of `npm start`; a file whose process is gone was left by a crash and is ignored. */
  pid: number;
  startedAt: string;
  apiBaseUrl: string;
  /** The variables the API and the worker of that system run with. */
  env: {
    DATABASE_URL: string;
    TEMPORAL_ADDRESS: string;
    TEMPORAL_NAMESPACE: string;
    TEMPORAL_TASK_QUEUE: string;
    S3_ENDPOINT: string;
    S3_REGION: string;
    S3_BUCKET: string;
    S3_ACCESS_KEY_ID: string;
    S3_SECRET_ACCESS_KEY: string;
    /** The key sealing webhook secrets, so `referee webhooks create|rotate` can seal them as the API does. */
    WEBHOOK_SECRET_KEY?: string;
    /** Whether the system allows private webhook targets (`true`/`false`); the CLI checks targets the same way. */
    WEBHOOK_ALLOW_PRIVATE_TARGETS?: string;
  };
  /**
   * Which Temporal the system runs on; `external` when TEMPORAL_ADDRESS named one. `topology` (its own server
   * only): one process for every service, or a process per service host.
   */
  temporal?: {
    engine: TemporalEngine;
    historyShards?: number;
    uiUrl?: string;
    topology?: TemporalTopology;
  };
  /**
   * Current process ids (restarted when they crash): every API and worker process; `temporal` the Temporal dev
   * server, or its own server's frontend; `temporalProcesses` every process of its own server (and its UI) with
   * the service roles each runs. `api` and `worker` name the first of each.
   */
  processes: {
    api?: number;
    worker?: number;
    apis?: number[];
    workers?: number[];
    temporal?: number;
    temporalProcesses?: TemporalProcess[];
  };
  /**
   * Each API and worker process's Prometheus metrics URL (loopback), by process name: `api` and `worker` for the
   * first of each, `api-2`, `worker-2`, … for the others.
   */
  metrics?: Record<string, string>;
  /**
   * The workers' Worker Deployment when the system became ready: each version (build ID) with its role, its worker
   * processes and the workflows pinned to it; `referee status` reads the live figures. `buildId` is the build this
   * start's workers run (TEMPORAL_WORKER_BUILD_ID).
   */
  workerDeployment?: DeploymentStatus & { buildId: string };
  /**
   * The launcher's control socket (owner-only): `referee workers rollout|rollback` asks it to start the new build's
   * workers and stop the old build's (infra/launcherControl.ts).
   */
  control?: { socket: string };
}

export type TemporalEngine = 'dev server' | 'server' | 'external';

export const connectionFilePath = (): string => path.join(dataDir(), 'connection.json');

/**
 * Writes the file atomically (a 0600 temporary file renamed over it), so a reader never sees half of it. The
 * temporary file has a random name and is created exclusively (`wx`: O_CREAT | O_EXCL, which never follows a
 * symlink), so a link planted at its path cannot make this process write its secrets somewhere else.
 */
export function writeConnectionFile(content: ConnectionFile, file = connectionFilePath()): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const temporary = `${file}.${randomBytes(8).toString('hex')}.tmp`;
  const fd = fs.openSync(temporary, 'wx', 0o600);
  try {
    fs.fchmodSync(fd, 0o600);
    fs.writeFileSync(fd, `${JSON.stringify(content, null, 2)}\n`);
  } catch (error) {
    fs.closeSync(fd);
    fs.rmSync(temporary, { force: true });
    throw error;
  }
  fs.closeSync(fd);
  fs.renameSync(temporary, file);
}

/** Removes the file if it is still the one this process wrote. */
export function removeConnectionFile(file = connectionFilePath()): void {
  try {
    const current = JSON.parse(fs.readFileSync(file, 'utf8')) as Partial<ConnectionFile>;
    if (current.pid === process.pid) fs.unlinkSync(file);
  } catch {
    // already gone or unreadable: nothing of ours to remove
  }
}

export type ConnectionFileState =
  | { state: 'running'; file: string; content: ConnectionFile }
  | { state: 'stale'; file: string; pid: number }
  | { state: 'absent'; file: string };

/** Whether a process with this id exists (EPERM: it exists but belongs to another user). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Reads the connection file and tells a running `npm start` from a file left behind by a dead one. */
export function readConnectionFile(file = connectionFilePath()): ConnectionFileState {
  let content: ConnectionFile;
  try {
    content = JSON.parse(fs.readFileSync(file, 'utf8')) as ConnectionFile;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { state: 'absent', file };
    throw new Error(`${file} is unreadable (${(error as Error).message}); remove it and restart npm start`, {
      cause: error,
    });
  }
  if (!Number.isInteger(content.pid) || !content.env) {
    throw new Error(`${file} is not a connection file written by npm start; remove it`);
  }
  return processAlive(content.pid)
    ? { state: 'running', file, content }
    : { state: 'stale', file, pid: content.pid };
}
