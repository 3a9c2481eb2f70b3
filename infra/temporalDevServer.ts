import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Connection, isGrpcServiceError } from '@temporalio/client';
import { encodeUnifiedSearchAttributes } from '@temporalio/common/lib/converter/payload-search-attributes';
import {
  defineSearchAttributeKey,
  encodeSearchAttributeIndexedValueType,
  SearchAttributeType,
} from '@temporalio/common/lib/search-attributes';
import { msToTs } from '@temporalio/common/lib/time';
import { customSearchAttributes } from '../workflows/searchAttributes';
import { freePort, waitForPort } from './ports';
import { spawnManaged } from './processes';
import { ExitedBeforeReady, untilReady } from './startup';

export interface TemporalDevServerOptions {
  binary: string;
  /** SQLite file keeping workflows across restarts; omit for an in-memory server. */
  dbFile?: string;
  ip?: string;
  port?: number;
  uiPort?: number;
  headless?: boolean;
  /** Namespaces to create besides `default`. */
  namespaces?: string[];
  logFile?: string;
  log?: (line: string) => void;
}

export interface TemporalDevServer {
  /** host:port of the frontend gRPC service. */
  address: string;
  uiUrl: string | null;
  /** Every namespace ready at start, `default` first. */
  namespaces: string[];
  pid: number;
  stop(): Promise<void>;
}

type IndexedValueType = NonNullable<ReturnType<typeof encodeSearchAttributeIndexedValueType>>;

const READY_TIMEOUT_MS = 60_000;
/**
 * The dev server writes its --search-attribute flags into namespaces it creates, but not into namespaces
 * already in an existing --db-filename; those get the missing attributes added after this grace period.
 */
const SEARCH_ATTRIBUTE_GRACE_MS = 1_000;
const NAMESPACE_TIMEOUT_MS = 30_000;
const POLL_MS = 50;
/** gRPC status codes, spelled out to avoid importing @grpc/grpc-js (a transitive dependency). */
const GRPC_INVALID_ARGUMENT = 3;
const GRPC_ALREADY_EXISTS = 6;

/**
 * SQLite settings of a file-backed server. The defaults (a rollback journal, `synchronous=FULL`) flush the disk
 * several times per commit, and a task-workflow update commits several times; with a write-ahead log and
 * `synchronous=NORMAL` a commit writes the log without flushing, and a crashed server process still loses nothing
 * (only a crash of the machine itself may lose the last commits; docs/operations.md).
 */
export const SQLITE_PRAGMAS: Record<string, string> = {
  journal_mode: 'wal',
  synchronous: 'normal',
};

/**
 * Services resolve a new namespace on first use, but the system worker that runs its schedules and batch
 * operations starts only when the namespace registry next re-reads persistence: every 2 s by default.
 */
const DYNAMIC_CONFIG: Record<string, string> = {
  'system.namespaceCacheRefreshInterval': '"200ms"',
  // A workflow task that schedules an activity gets the activity task back in its completion's response,
  // saving a matching round trip per task-workflow update.
  'system.enableActivityEagerExecution': 'true',
};

/** Starts that exit at once are tried again this often, with newly chosen ports. */
const START_ATTEMPTS = 3;

/**
 * Runs `temporal server start-dev` with the project's custom search attributes and resolves once the
 * frontend answers and every attribute is visible in every namespace (workers must not start earlier).
 * A free port can be taken by another process between choosing it and the server binding it (tests start
 * several servers at once), so a server that exits during start is started again on new ports.
 */
export async function startTemporalDevServer(opts: TemporalDevServerOptions): Promise<TemporalDevServer> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await startTemporalDevServerOnce(opts);
    } catch (err) {
      if (!(err instanceof ExitedBeforeReady) || attempt >= START_ATTEMPTS) throw err;
      opts.log?.(
        `temporal dev server exited during start (code ${err.code}); starting it again on new ports`,
      );
    }
  }
}

async function startTemporalDevServerOnce(opts: TemporalDevServerOptions): Promise<TemporalDevServer> {
  const ip = opts.ip ?? '127.0.0.1';
  const port = opts.port ?? (await freePort(ip));
  const uiPort = opts.headless ? null : (opts.uiPort ?? (await freePort(ip)));
  const extraNamespaces = (opts.namespaces ?? []).filter((ns) => ns !== 'default');
  const namespaces = ['default', ...extraNamespaces];
  if (opts.dbFile) fs.mkdirSync(path.dirname(path.resolve(opts.dbFile)), { recursive: true });

  const args = [
    'server',
    'start-dev',
    '--ip',
    ip,
    '--port',
    String(port),
    // Pinned so the server never picks a port we are about to hand out elsewhere.
    '--http-port',
    String(await freePort(ip)),
    '--metrics-port',
    String(await freePort(ip)),
    '--log-level',
    'warn',
    ...(uiPort === null ? ['--headless'] : ['--ui-port', String(uiPort)]),
    ...(opts.dbFile ? ['--db-filename', path.resolve(opts.dbFile)] : []),
    ...(opts.dbFile
      ? Object.entries(SQLITE_PRAGMAS).flatMap(([name, value]) => ['--sqlite-pragma', `${name}=${value}`])
      : []),
    ...extraNamespaces.flatMap((ns) => ['--namespace', ns]),
    ...Object.entries(customSearchAttributes).flatMap(([name, type]) => [
      '--search-attribute',
      `${name}=${type}`,
    ]),
    ...Object.entries(DYNAMIC_CONFIG).flatMap(([key, value]) => [
      '--dynamic-config-value',
      `${key}=${value}`,
    ]),
  ];
  const started = Date.now();
  const proc = spawnManaged(opts.binary, args, { name: 'temporal dev server', logFile: opts.logFile });
  const address = `${ip.includes(':') ? `[${ip}]` : ip}:${port}`;
  try {
    await untilReady(proc, 'temporal dev server', opts.logFile, async (signal) => {
      const deadline = started + READY_TIMEOUT_MS;
      await waitForPort(ip, port, READY_TIMEOUT_MS, signal);
      if (signal.aborted) return;
      // A server restarted on its old file may open its port well before its frontend answers, longer than one
      // connect timeout on a busy machine: keep trying until the deadline rather than failing on the first one.
      const connection = await retryUntil(
        deadline,
        'connect to the temporal frontend',
        () => Connection.connect({ address, connectTimeout: 5_000 }),
        signal,
      );
      try {
        await retryUntil(deadline, 'reach the temporal frontend', async () => {
          await connection.workflowService.getSystemInfo({});
        });
        const timing = { addAfter: Date.now() + SEARCH_ATTRIBUTE_GRACE_MS, deadline };
        for (const namespace of namespaces) {
          await waitForSearchAttributes(connection, namespace, timing, signal);
        }
      } finally {
        await connection.close();
      }
    });
  } catch (err) {
    await proc.stop();
    throw err;
  }
  opts.log?.(`temporal dev server ready at ${address} in ${Date.now() - started} ms`);
  return {
    address,
    uiUrl: uiPort === null ? null : `http://${ip}:${uiPort}`,
    namespaces,
    pid: proc.pid,
    stop: () => proc.stop(),
  };
}

/**
 * Registers `namespace` on a running server (no-op if it exists), adds the custom search attributes and
 * resolves once workflows can be started and listed there.
 */
export async function ensureNamespace(
  address: string,
  namespace: string,
  { retentionDays = 1 }: { retentionDays?: number } = {},
): Promise<void> {
  const connection = await Connection.connect({ address });
  try {
    try {
      await connection.workflowService.registerNamespace({
        namespace,
        workflowExecutionRetentionPeriod: msToTs(`${retentionDays} days`),
      });
    } catch (err) {
      if (!(isGrpcServiceError(err) && err.code === GRPC_ALREADY_EXISTS)) throw err;
    }
    const deadline = Date.now() + NAMESPACE_TIMEOUT_MS;
    await waitForSearchAttributes(connection, namespace, { addAfter: Date.now(), deadline });
    await waitUntilUsable(connection, namespace, deadline);
  } finally {
    await connection.close();
  }
}

/** Waits until every custom search attribute is listed for `namespace`, adding missing ones from `addAfter` on. */
async function waitForSearchAttributes(
  connection: Connection,
  namespace: string,
  { addAfter, deadline }: { addAfter: number; deadline: number },
  signal?: AbortSignal,
): Promise<void> {
  while (!signal?.aborted) {
    let problem: string;
    try {
      const missing = await missingSearchAttributes(connection, namespace);
      if (Object.keys(missing).length === 0) return;
      problem = `missing ${Object.keys(missing).join(', ')}`;
      if (Date.now() >= addAfter) {
        await connection.operatorService.addSearchAttributes({ namespace, searchAttributes: missing });
      }
    } catch (err) {
      // A wrong type, or more Keyword attributes than SQL visibility allows (10): waiting cannot help.
      if (!isGrpcServiceError(err) || err.code === GRPC_INVALID_ARGUMENT) throw err;
      problem = String(err);
    }
    if (Date.now() > deadline) {
      throw new Error(`custom search attributes not ready in namespace ${namespace}: ${problem}`);
    }
    await sleep(POLL_MS);
  }
}

/** The project's custom search attributes that `namespace` lacks; throws if one exists with another type. */
async function missingSearchAttributes(
  connection: Connection,
  namespace: string,
): Promise<Record<string, IndexedValueType>> {
  const { customAttributes } = await connection.operatorService.listSearchAttributes({ namespace });
  const missing: Record<string, IndexedValueType> = {};
  for (const [name, typeName] of Object.entries(customSearchAttributes)) {
    const type = encodeSearchAttributeIndexedValueType(typeName.toUpperCase() as 'KEYWORD' | 'BOOL');
    if (type === undefined) throw new Error(`unknown search attribute type ${typeName} for ${name}`);
    const registered = customAttributes[name];
    if (registered === undefined) missing[name] = type;
    else if (registered !== type) {
      throw new Error(`search attribute ${name} exists in namespace ${namespace} with another type`);
    }
  }
  return missing;
}

/**
 * Every custom search attribute with a value, for the probe workflow: a start that sets them proves the server
 * accepts them, not only that it lists them (Temporal's own server validates a start against a namespace cache
 * that is refreshed apart from the listing).
 */
const probeSearchAttributes = () =>
  encodeUnifiedSearchAttributes(
    undefined,
    Object.entries(customSearchAttributes).map(([name, type]) =>
      type === 'Bool'
        ? { key: defineSearchAttributeKey(name, SearchAttributeType.BOOL), value: false }
        : { key: defineSearchAttributeKey(name, SearchAttributeType.KEYWORD), value: 'probe' },
    ),
  );

/**
 * Proves the namespace works end to end: starts a probe workflow with every custom search attribute set, waits
 * until visibility lists it, then deletes it and waits until it is gone, so tests never see it.
 */
async function waitUntilUsable(connection: Connection, namespace: string, deadline: number): Promise<void> {
  const service = connection.workflowService;
  const workflowId = `referee-namespace-probe-${randomUUID()}`;
  const requestId = randomUUID(); // the same id on every attempt makes retried starts idempotent
  const count = async (): Promise<number> => {
    const { count: n } = await service.countWorkflowExecutions({
      namespace,
      query: `WorkflowId = '${workflowId}'`,
    });
    return typeof n === 'number' ? n : (n?.toNumber() ?? 0);
  };
  await retryUntil(deadline, `start a workflow in namespace ${namespace}`, async () => {
    await service.startWorkflowExecution({
      namespace,
      workflowId,
      requestId,
      workflowType: { name: 'referee-namespace-probe' },
      taskQueue: { name: 'referee-namespace-probe' },
      identity: 'referee infra',
      searchAttributes: { indexedFields: probeSearchAttributes() },
    });
  });
  await retryUntil(deadline, `list the probe workflow in namespace ${namespace}`, async () => {
    if ((await count()) !== 1) throw new Error('probe workflow not listed yet');
  });
  await service.deleteWorkflowExecution({ namespace, workflowExecution: { workflowId } });
  await retryUntil(deadline, `delete the probe workflow in namespace ${namespace}`, async () => {
    if ((await count()) !== 0) throw new Error('probe workflow still listed');
  });
}

async function retryUntil<T>(
  deadline: number,
  what: string,
  attempt: () => Promise<T>,
  signal?: AbortSignal,
): Promise<T> {
  for (;;) {
    if (signal?.aborted) throw new Error(`gave up trying to ${what}: the outcome was decided elsewhere`);
    try {
      return await attempt();
    } catch (err) {
      if (Date.now() > deadline) throw new Error(`could not ${what}: ${String(err)}`, { cause: err });
    }
    await sleep(POLL_MS);
  }
}
