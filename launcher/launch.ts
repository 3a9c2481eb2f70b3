import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { type Config, loadConfig } from '../config';
import { connectAndMigrate } from '../entities/dataSource';
import { ensureAllTools, ensureGoTool, ensureTemporalServerTools, VERSITYGW } from '../infra/goTools';
import { dataDir, projectRoot } from '../infra/paths';
import { localWebhookSecretKey } from '../infra/webhookKey';
import { freePort, portOrFree } from '../infra/ports';
import { createDatabase, isPostgresReachable, startEmbeddedPostgres } from '../infra/postgres';
import {
  type ConnectionFile,
  connectionFilePath,
  removeConnectionFile,
  type TemporalEngine,
  writeConnectionFile,
} from '../infra/connectionFile';
import { forkClusterProcess } from '../infra/clusterProcess';
import { COMPILED_NODE_FLAGS, compiledEntry, SERVICE_NODE_FLAGS } from '../infra/processes';
import { supervise, type SupervisedProcess, superviseWith } from '../infra/supervisor';
import { startS3Server } from '../infra/s3Server';
import { startTemporalDevServer } from '../infra/temporalDevServer';
import {
  startTemporalServer,
  type TemporalProcess,
  type TemporalTopology,
  temporalTopology,
} from '../infra/temporalServer';
import {
  BUILT_WORKFLOW_BUNDLE,
  bundleChosenByEnvironment,
  shareWorkflowBundle,
} from '../deployment/workflowBundle';
import { currentWorkerBuildId, workerBuildId, workflowVariant } from '../deployment/buildId';
import { serveLauncherControl } from '../infra/launcherControl';
import {
  type DeploymentStatus,
  currentBuildIdOf,
  describeDeployment,
  deploymentNameOf,
  describeVersions,
  pinnedToVersion,
  setCurrentVersion,
  waitForVersion,
} from '../deployment/workerDeployments';
import { type WorkerBuild, WorkerFleet } from './workerFleet';
import { Client, Connection } from '@temporalio/client';
import { ensureConsoleBuilt } from '../console/build';
import { type DevIdentityProvider, startDevIdentityProvider } from './devIdentityProvider';
import { firstRun } from './firstRun';

/** What a start command runs: `npm start` (the dev server, one of each) or `npm run start:cluster`. */
export interface Profile {
  /** The command, for messages. */
  command: string;
  /** Temporal started here when TEMPORAL_ADDRESS is unset: the CLI's dev server, or Temporal's own server. */
  engine: 'dev server' | 'server';
  workers: number;
  apis: number;
}

const say = (line: string) => process.stdout.write(`${line}\n`);

/** Preferred local ports; a busy one is replaced by a free one. */
const PREFERRED = { postgres: 54329, temporal: 7233, temporalUi: 8233, s3: 7070, identityProvider: 7090 };

/** What the infrastructure step started or found, for the banner and the connection file. */
interface Infrastructure {
  temporal: {
    engine: TemporalEngine;
    historyShards?: number;
    uiUrl?: string;
    pid?: number;
    topology?: TemporalTopology;
    processes?: TemporalProcess[];
  };
}

/**
 * Runs the whole system for `profile` on embedded defaults: infrastructure that the environment does not name
 * (DATABASE_URL, TEMPORAL_ADDRESS, S3_ENDPOINT) is started with its data under .referee/; then migrations, the
 * supervised workers and API processes, the connection file and the banner. The first run loads the demo
 * dataset and prints admin keys.
 */
export async function launch(profile: Profile): Promise<void> {
  const started = Date.now();
  const root = dataDir();
  await mkdir(join(root, 'logs'), { recursive: true, mode: 0o700 });
  const stops: Array<() => Promise<void>> = [];
  let stopping = false;
  const shutdown = async (code: number) => {
    if (stopping) return;
    stopping = true;
    say('\nStopping: draining HTTP, stopping the workers and the infrastructure…');
    for (const stop of stops.reverse()) await stop().catch((error: unknown) => say(`  ${String(error)}`));
    removeConnectionFile();
    process.exit(code);
  };
  // `on`, not `once`: under npm a Ctrl-C arrives twice (from the terminal and forwarded by npm and tsx), and a
  // second signal without a handler would kill this process before it stopped the stack.
  process.on('SIGINT', () => void shutdown(0));
  process.on('SIGTERM', () => void shutdown(0));
  const tell = (line: string) => {
    if (!stopping) say(line);
  };

  try {
    const env: NodeJS.ProcessEnv = { ...process.env };
    // V8's compile cache (Node's own variable): a restarted worker or API process reads its modules' compiled
    // code instead of compiling them again, which is most of its start (docs/operations.md, "Stopping").
    env.NODE_COMPILE_CACHE ??= join(root, 'compile-cache');
    let onTemporalRestart = (_processes: TemporalProcess[]) => {};
    const infrastructure = await startInfrastructure(profile, env, root, stops, tell, (processes) =>
      onTemporalRestart(processes),
    );
    env.WEBHOOK_SECRET_KEY ??= localWebhookSecretKey(root);
    const devProvider = env.OIDC_ISSUER ? null : await startDevProvider(env, stops);
    const config = loadConfig(env);
    const dataSource = await connectAndMigrate(config.databaseUrl, 2);

    const baseUrl = `http://127.0.0.1:${config.port}`;
    const connection: ConnectionFile = {
      pid: process.pid,
      startedAt: new Date().toISOString(),
      apiBaseUrl: baseUrl,
      env: {
        DATABASE_URL: config.databaseUrl,
        TEMPORAL_ADDRESS: config.temporal.address,
        TEMPORAL_NAMESPACE: config.temporal.namespace,
        TEMPORAL_TASK_QUEUE: config.temporal.taskQueue,
        S3_ENDPOINT: config.s3.endpoint ?? '',
        S3_REGION: config.s3.region,
        S3_BUCKET: config.s3.bucket,
        S3_ACCESS_KEY_ID: config.s3.accessKeyId ?? '',
        S3_SECRET_ACCESS_KEY: config.s3.secretAccessKey ?? '',
        WEBHOOK_SECRET_KEY: config.webhooks.secretKey ?? '',
        WEBHOOK_ALLOW_PRIVATE_TARGETS: String(config.webhooks.allowPrivateTargets),
      },
      temporal: {
        engine: infrastructure.temporal.engine,
        historyShards: infrastructure.temporal.historyShards,
        uiUrl: infrastructure.temporal.uiUrl,
        topology: infrastructure.temporal.topology,
      },
      processes: {
        temporal: infrastructure.temporal.pid,
        temporalProcesses: infrastructure.temporal.processes,
      },
    };
    // The API and the workers get every connection variable explicitly: none of them falls back to a default.
    Object.assign(env, connection.env);
    // A crash of this process itself leaves the file behind; the CLI sees its pid is gone and ignores it.
    process.once('exit', () => removeConnectionFile());

    // The API serves the console's built files and never builds them: build (or confirm) them first.
    ensureConsoleBuilt();
    // Each API and worker process serves its metrics on a loopback port of its own, kept across its restarts.
    connection.metrics = {};
    let complete = false;
    let apiPids: { api?: number; apis: number[] } = { apis: [] };
    const temporalClient = lazyClient(config);
    stops.push(temporalClient.close);
    const fleet = new WorkerFleet({
      workers: profile.workers,
      env,
      root,
      metrics: connection.metrics,
      log: tell,
      client: temporalClient.get,
      taskQueue: config.temporal.taskQueue,
      onChange: () => report(),
    });
    const report = () => {
      const { temporal, temporalProcesses } = connection.processes;
      const workers = fleet.pids;
      connection.processes = { ...apiPids, worker: workers[0], workers, temporal, temporalProcesses };
      complete ||= apiPids.apis.length === profile.apis && workers.length >= profile.workers;
      if (complete) writeConnectionFile(connection);
    };
    // Every worker of this start polls as one version of the task queue's deployment: the build of this checkout,
    // or the one still current from the last start, rolled out to the checkout's once the system is up.
    const launchBuild = await workerBuildOfLaunch(env, root, fleet);
    const {
      start: startBuild,
      rollOutAfterStart,
      promoteOver,
    } = await buildToStartOn(await temporalClient.get(), config.temporal.taskQueue, launchBuild, fleet, tell);
    await fleet.startBuild(startBuild, true);
    stops.push(() => fleet.stop());
    if (promoteOver) {
      const client = await temporalClient.get();
      await waitForVersion(client, config.temporal.taskQueue, startBuild.buildId, 240_000);
      await setCurrentVersion(
        client,
        config.temporal.taskQueue,
        startBuild.buildId,
        `referee-launcher@${process.pid}`,
      );
    }
    const services = await startApis(profile, env, root, tell, connection.metrics, (apis) => {
      apiPids = apis;
      report();
    });
    onTemporalRestart = (processes) => {
      connection.processes.temporal = frontendPid(processes);
      connection.processes.temporalProcesses = processes;
      if (complete) writeConnectionFile(connection);
    };
    stops.push(...services.stops);
    // Generous: a busy 2-core machine starts several API and worker processes at once.
    await waitForReady(`${baseUrl}/readyz`, 240_000);
    // A worker polls before its version is current; the first change would wait for that (and answer 503).
    await waitForCurrentVersion(await temporalClient.get(), config.temporal.taskQueue, 120_000);

    // `referee workers rollout|rollback` asks this process to start and stop workers (infra/launcherControl.ts).
    const socket = join(root, 'control.sock');
    const control = await serveLauncherControl(socket, (request, log) =>
      fleet.rollout(request, log).finally(async () => {
        const deployment = await workerDeployment(config).catch(() => null);
        if (deployment && fleet.currentBuildId)
          connection.workerDeployment = { ...deployment, buildId: fleet.currentBuildId };
        writeConnectionFile(connection);
      }),
    );
    stops.push(() => new Promise<void>((resolve) => control.close(() => resolve())));
    connection.control = { socket };
    writeConnectionFile(connection);
    if (rollOutAfterStart) {
      tell(
        `The checkout changed since build ${startBuild.buildId}: rolling the workers out to build ${launchBuild.buildId}.`,
      );
      const rolled = await fleet.rollout({ direction: 'forward', build: launchBuild.buildId }, (line) =>
        tell(`  ${line}`),
      );
      tell(
        `  Build ${rolled.to} is current; ${rolled.moved} workflow(s) moved; the workers of build ` +
          `${startBuild.buildId} stopped after ${(rolled.oldWorkersStoppedAfterMs / 1000).toFixed(1)} s.`,
      );
    }

    const keys = await firstRun(dataSource, config);
    await dataSource.destroy();
    const deployment = await workerDeployment(config).catch(() => null);
    if (deployment) {
      connection.workerDeployment = { ...deployment, buildId: fleet.currentBuildId! };
      writeConnectionFile(connection);
    }

    printBanner({
      profile,
      config,
      infrastructure,
      started,
      keys,
      root,
      metrics: connection.metrics,
      devProvider,
      deployment,
    });
  } catch (error) {
    say(`Start failed: ${error instanceof Error ? error.message : String(error)}`);
    await shutdown(1);
  }
}

/** Starts PostgreSQL, Temporal and S3 where the environment names none; fills `env` with their addresses. */
async function startInfrastructure(
  profile: Profile,
  env: NodeJS.ProcessEnv,
  root: string,
  stops: Array<() => Promise<void>>,
  tell: (line: string) => void,
  onTemporalRestart: (processes: TemporalProcess[]) => void,
): Promise<Infrastructure> {
  const devServer = profile.engine === 'dev server' && !env.TEMPORAL_ADDRESS;
  const temporalServer = profile.engine === 'server' && !env.TEMPORAL_ADDRESS;
  const tools = devServer ? await ensureAllTools(say) : null;
  const versitygw = !env.S3_ENDPOINT ? (tools?.versitygw ?? (await ensureGoTool(VERSITYGW, say))) : null;
  const serverTools = temporalServer ? await ensureTemporalServerTools(say) : null;
  // From here on everything written under the data folder, by the servers started below too, is its owner's only:
  // as root the folder itself becomes traversable by PostgreSQL's user (infra/postgres.ts). After the tool builds,
  // whose cache other accounts may share.
  process.umask(0o077);

  let postgresAdminUrl: string | undefined;
  if (!env.DATABASE_URL) {
    const port = await portOrFree(PREFERRED.postgres);
    const pg = await startEmbeddedPostgres({ dataDir: join(root, 'postgres'), port, log: say });
    stops.push(pg.stop);
    postgresAdminUrl = pg.url;
    const url = new URL(pg.url);
    url.pathname = '/referee';
    if (!(await isPostgresReachable(url.toString()))) await createDatabase(pg.url, 'referee');
    env.DATABASE_URL = url.toString();
    say(`PostgreSQL (embedded)  ${url.host}`);
  }
  let temporal: Infrastructure['temporal'] = { engine: 'external' };
  if (devServer) {
    const server = await startTemporalDevServer({
      binary: tools!.temporal,
      dbFile: join(root, 'temporal.sqlite'),
      port: await portOrFree(PREFERRED.temporal),
      uiPort: await portOrFree(PREFERRED.temporalUi),
      logFile: join(root, 'logs', 'temporal.log'),
    });
    stops.push(server.stop);
    env.TEMPORAL_ADDRESS = server.address;
    temporal = {
      engine: 'dev server',
      historyShards: 1,
      uiUrl: server.uiUrl ?? undefined,
      pid: server.pid,
    };
  }
  if (temporalServer) {
    // Temporal's databases go beside Referee's: the embedded server, or TEMPORAL_DATABASE_URL (a role that may
    // create databases), or the server DATABASE_URL names.
    const postgresUrl = env.TEMPORAL_DATABASE_URL ?? postgresAdminUrl ?? env.DATABASE_URL!;
    const server = await startTemporalServer({
      topology: temporalTopology(env),
      binaries: serverTools!,
      postgresUrl,
      stateDir: join(root, 'temporal-server'),
      port: await portOrFree(PREFERRED.temporal),
      uiPort: await portOrFree(PREFERRED.temporalUi),
      namespaces: [env.TEMPORAL_NAMESPACE ?? 'default'],
      logFile: join(root, 'logs', 'temporal.log'),
      uiLogFile: join(root, 'logs', 'temporal-ui.log'),
      log: tell,
      onProcesses: onTemporalRestart,
    });
    stops.push(server.stop);
    env.TEMPORAL_ADDRESS = server.address;
    temporal = {
      engine: 'server',
      historyShards: server.historyShards,
      uiUrl: server.uiUrl ?? undefined,
      pid: server.pid,
      topology: server.topology,
      processes: server.processes,
    };
  }
  if (versitygw) {
    const bucket = env.S3_BUCKET ?? 'referee-artifacts';
    const s3 = await startS3Server({
      binary: versitygw,
      rootDir: join(root, 's3'),
      port: await portOrFree(PREFERRED.s3),
      buckets: [bucket],
      logFile: join(root, 'logs', 's3.log'),
    });
    stops.push(s3.stop);
    Object.assign(env, {
      S3_ENDPOINT: s3.endpoint,
      S3_ACCESS_KEY_ID: s3.accessKeyId,
      S3_SECRET_ACCESS_KEY: s3.secretAccessKey,
    });
  }
  return { temporal };
}

/**
 * The development OpenID Provider (launcher/devIdentityProvider.ts), only when no OIDC_ISSUER is configured: the
 * console's sign-in points at it, with a client secret of this start's own.
 */
async function startDevProvider(
  env: NodeJS.ProcessEnv,
  stops: Array<() => Promise<void>>,
): Promise<DevIdentityProvider> {
  const consoleUrl = `http://127.0.0.1:${env.PORT ?? 3000}/console`;
  const provider = await startDevIdentityProvider({
    port: await portOrFree(PREFERRED.identityProvider),
    redirectUrl: `${consoleUrl}/auth/callback`,
    postLogoutRedirectUrl: consoleUrl,
    stateDir: join(dataDir(), 'identity-provider'),
  });
  stops.push(provider.close);
  Object.assign(env, {
    OIDC_ISSUER: provider.issuer,
    OIDC_CLIENT_ID: provider.clientId,
    OIDC_CLIENT_SECRET: provider.clientSecret,
    OIDC_REDIRECT_URL: `${consoleUrl}/auth/callback`,
    OIDC_PROVIDER_NAME: 'the development provider',
  });
  return provider;
}

/**
 * The build this start's workers run: the checkout's, with a copy of its workflow bundle of its own
 * (launcher/workerFleet.ts). With TEMPORAL_WORKER_BUILD_ID, REFEREE_WORKFLOW_BUNDLE or tracing set, that build and
 * bundle (or each worker bundling at start, for tracing) as named.
 */
async function workerBuildOfLaunch(
  env: NodeJS.ProcessEnv,
  root: string,
  fleet: WorkerFleet,
): Promise<WorkerBuild> {
  if (env.TEMPORAL_WORKER_BUILD_ID || bundleChosenByEnvironment(env)) {
    await shareWorkflowBundle(env, root, BUILT_WORKFLOW_BUNDLE);
    return fleet.remember({
      buildId: env.TEMPORAL_WORKER_BUILD_ID ?? currentWorkerBuildId(env),
      bundle: env.REFEREE_WORKFLOW_BUNDLE ?? null,
    });
  }
  return fleet.snapshot(workerBuildId(projectRoot, env), workflowVariant(env));
}

/**
 * Which build the workers start on. A start after the workflow code changed finds another build current, with
 * workflows pinned to it: when this data folder kept that build's bundle, its workers start first and a rollout to
 * the checkout's build follows once the system is up (no run replays code it was not written by). Without it, the
 * checkout's build is made current and the runs pinned to the old one wait for its workers (the warning says so).
 */
async function buildToStartOn(
  client: Client,
  taskQueue: string,
  launchBuild: WorkerBuild,
  fleet: WorkerFleet,
  tell: (line: string) => void,
): Promise<{ start: WorkerBuild; rollOutAfterStart: boolean; promoteOver?: string }> {
  const current = await currentBuildIdOf(client, taskQueue);
  if (!current || current === launchBuild.buildId) return { start: launchBuild, rollOutAfterStart: false };
  const previous = fleet.knownBuild(current);
  if (previous) return { start: previous, rollOutAfterStart: true };
  const { count } = await client.workflow.count(pinnedToVersion(deploymentNameOf(taskQueue), current));
  tell(
    `Build ${current} is current but this data folder has no copy of its workflow code: build ` +
      `${launchBuild.buildId} (the checkout) becomes current, and the ${count} running workflow(s) pinned to ` +
      `${current} wait for a worker of it (TEMPORAL_WORKER_BUILD_ID=${current} from its checkout).`,
  );
  return { start: launchBuild, rollOutAfterStart: false, promoteOver: current };
}

/** A Temporal client of the launcher, connected on first use. */
function lazyClient(config: Config) {
  let client: Promise<Client> | undefined;
  return {
    get: (): Promise<Client> =>
      (client ??= Connection.connect({ address: config.temporal.address, connectTimeout: '5 seconds' }).then(
        (connection) => new Client({ connection, namespace: config.temporal.namespace }),
      )),
    close: async () => {
      if (client) await (await client).connection.close().catch(() => {});
    },
  };
}

/** Waits until the task queue's deployment has a current version (its first worker makes its own current). */
async function waitForCurrentVersion(client: Client, taskQueue: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await currentBuildIdOf(client, taskQueue))) {
    if (Date.now() > deadline)
      throw new Error(
        `no worker version of task queue ${taskQueue} became current within ${timeoutMs / 1000} s`,
      );
    await sleep(250);
  }
}

/**
 * Starts `profile.apis` API processes, each supervised (restarted with backoff when it crashes) and each with a
 * metrics port of its own (its URL goes into `metrics` under the process's name). One API process listens on PORT
 * itself; several are node:cluster workers of this process sharing PORT (see infra/clusterProcess.ts). `onChange`
 * gets the process ids after every (re)start. The workers are the fleet's (launcher/workerFleet.ts).
 */
async function startApis(
  profile: Profile,
  env: NodeJS.ProcessEnv,
  root: string,
  tell: (line: string) => void,
  metrics: Record<string, string>,
  onChange: (processes: { api?: number; apis: number[] }) => void,
): Promise<{ stops: Array<() => Promise<void>> }> {
  const apis: Array<number | undefined> = new Array(profile.apis).fill(undefined);
  const report = () =>
    onChange({ api: apis[0], apis: apis.filter((pid): pid is number => pid !== undefined) });
  const supervised: SupervisedProcess[] = [];
  for (let i = 0; i < profile.apis; i += 1) {
    const name = profile.apis === 1 ? 'api' : `api ${i + 1}`;
    const log = profile.apis === 1 ? 'api' : `api-${i + 1}`;
    const key = i === 0 ? 'api' : `api-${i + 1}`;
    const port = await freePort();
    metrics[key] = `http://127.0.0.1:${port}/metrics`;
    const processEnv = { ...env, METRICS_HOST: '127.0.0.1', METRICS_PORT: String(port) };
    const file = compiledEntry('server');
    const execArgv = [...COMPILED_NODE_FLAGS, ...SERVICE_NODE_FLAGS.api];
    const logFile = join(root, 'logs', `${log}.log`);
    const onStart = (pid: number) => {
      apis[i] = pid;
      report();
    };
    const process =
      profile.apis === 1
        ? supervise(nodePath(), [...execArgv, file], {
            name,
            env: processEnv,
            cwd: projectRoot,
            logFile,
            log: tell,
            onStart,
          })
        : superviseWith(() => forkClusterProcess(file, execArgv, { name, env: processEnv, logFile }), {
            name,
            logFile,
            log: tell,
            onStart,
          });
    supervised.push(process);
  }
  // Stopped before the workers (pushed after them): draining HTTP first.
  return { stops: supervised.map((process) => () => process.stop(15_000)) };
}

const nodePath = () => process.execPath;

/** The process running Temporal's frontend (the one process of the single topology). */
const frontendPid = (processes: TemporalProcess[]) =>
  processes.find((p) => p.roles.includes('frontend'))?.pid;

function printBanner(banner: {
  profile: Profile;
  config: Config;
  infrastructure: Infrastructure;
  started: number;
  keys: Array<{ service: string; token: string }>;
  root: string;
  metrics: Record<string, string>;
  devProvider: DevIdentityProvider | null;
  deployment: DeploymentStatus | null;
}): void {
  const { profile, config, infrastructure, keys, root, metrics, devProvider, deployment } = banner;
  const baseUrl = `http://127.0.0.1:${config.port}`;
  const temporal = infrastructure.temporal;
  const engine =
    temporal.engine === 'external'
      ? ''
      : temporal.engine === 'server'
        ? `, Temporal server on PostgreSQL, ${temporal.historyShards} history shards`
        : ', Temporal dev server';
  say('');
  say(`Referee is running (started in ${((Date.now() - banner.started) / 1000).toFixed(1)} s).`);
  say(`  API base URL     ${baseUrl}  (math: ${baseUrl}/api, genomics: ${baseUrl}/api/v1)`);
  say(
    `  Console          ${baseUrl}/console  (sign in with ${devProvider ? 'the development provider' : config.oidc ? config.oidc.providerName : 'an API key'} or an API key)`,
  );
  if (devProvider) {
    say(
      `  Sign-in (DEVELOPMENT ONLY)  ${devProvider.issuer}  an OpenID Provider without passwords, on loopback;`,
    );
    say(
      `                   one click signs in as ${devProvider.accounts.map((a) => a.name).join(', ')} (demo members).`,
    );
    say(
      '                   Set OIDC_ISSUER for a real one (docs/console.md "Sign-in"); the image never runs it.',
    );
  }
  say(`  API reference    ${baseUrl}/docs`);
  if (temporal.uiUrl) say(`  Temporal UI      ${temporal.uiUrl}`);
  say(`  PostgreSQL       ${withoutPassword(config.databaseUrl)}`);
  say(`  Temporal         ${config.temporal.address} (namespace ${config.temporal.namespace}${engine})`);
  if (temporal.topology === 'services' && temporal.processes) {
    const hosts = temporal.processes
      .filter((p) => !p.roles.includes('ui'))
      .map((p) => `${p.name} ${p.address}`);
    say(`  Temporal hosts   ${hosts.join(', ')}  (a process each; REFEREE_TEMPORAL_TOPOLOGY=single: one)`);
  }
  if (deployment) {
    const [heading, ...versions] = describeVersions(deployment);
    say(`  Workers          ${heading.replace(/^worker deployment /, 'deployment ')}`);
    for (const line of versions) say(`                 ${line}`);
  }
  say(`  S3               ${config.s3.endpoint ?? '(AWS default endpoint)'} (bucket ${config.s3.bucket})`);
  const metricLines = Object.entries(metrics)
    .sort(([a], [b]) => Number(a.startsWith('worker')) - Number(b.startsWith('worker')))
    .map(([key, url]) => `${key.replace(/^api/, 'API')} ${url}`);
  metricLines.forEach((line, i) =>
    say(
      `  ${i === 0 ? 'Metrics   ' : '          '}       ${line}` +
        (i === metricLines.length - 1 ? '  (Prometheus; docs/observability.md)' : ''),
    ),
  );
  if (profile.apis > 1 || profile.workers > 1) {
    say(`  Processes        ${profile.apis} API (sharing port ${config.port}), ${profile.workers} workers`);
  }
  say(`  Connection file  ${connectionFilePath()}  (passwords and keys; used by the ops CLI)`);
  say(`  Logs             ${join(root, 'logs')}`);
  if (keys.length > 0) {
    say('');
    say('Admin API keys (shown once; store them now):');
    for (const k of keys) say(`  ${k.service.padEnd(9)} ${k.token}`);
    say(`  Try: curl -H "Authorization: Bearer <math key>" ${baseUrl}/api/auth/session`);
  } else {
    say('  Admin keys were printed on the first run. Mint another with:');
    say('    npx referee keys create --service math --member "idp|ada"   (in another terminal, this folder)');
  }
  say('Press Ctrl-C to stop.');
}

/** The workers' deployment once they poll (their versions, workers and pinned workflows), for banner and file. */
async function workerDeployment(config: Config): Promise<DeploymentStatus | null> {
  const connection = await Connection.connect({
    address: config.temporal.address,
    connectTimeout: '5 seconds',
  });
  try {
    return await describeDeployment(
      new Client({ connection, namespace: config.temporal.namespace }),
      config.temporal.taskQueue,
    );
  } finally {
    await connection.close();
  }
}

const withoutPassword = (url: string) => {
  const parsed = new URL(url);
  if (parsed.password) parsed.password = '***';
  return parsed.toString();
};

async function waitForReady(url: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`the API did not become ready at ${url} within ${timeoutMs / 1000} s`);
}
