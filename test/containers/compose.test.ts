import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { CORE_SCHEMA, load, mergeTag } from 'js-yaml';
import {
  ensureGoTool,
  type GoTool,
  TEMPORAL_CLI,
  TEMPORAL_SERVER,
  TEMPORAL_SQL_TOOL,
  TEMPORAL_UI_SERVER,
  VERSITYGW,
} from '../../infra/goTools';
import { projectRoot } from '../../infra/paths';
import { freePort } from '../../infra/ports';
import { buildImage, podman, podmanEnv, runToEnd } from './podman';

/**
 * docker-compose.yml as an organisation starts it (`npm run test:compose`), with podman-compose: the stand-ins for
 * the third-party images it names (docker/stand-ins/, no registry serves images here) and the app image are built,
 * `up -d` starts the file as written, every service reaches what its dependants wait for (healthy, completed, or
 * running), the workers are scaled to three and poll the task queue, and a review action is acknowledged through
 * the API. Everything the project created (containers, network, volumes) is removed at the end, also on failure.
 * Writes the phases' wall times to test/.artifacts/compose.json.
 */
jest.setTimeout(90 * 60_000);

interface ComposeService {
  image?: string;
  build?: unknown;
  profiles?: string[];
  restart?: string;
  healthcheck?: { interval?: string };
  depends_on?: Record<string, { condition: string }>;
  deploy?: { replicas?: number | string };
  environment?: Record<string, string | number | boolean>;
}
const COMPOSE_FILE = join(projectRoot, 'docker-compose.yml');
const PROJECT = `referee-compose-${randomBytes(3).toString('hex')}`;
const READY_TIMEOUT_MS = 12 * 60_000;
const SCALE_TIMEOUT_MS = 5 * 60_000;
const figures: Record<string, number | string> = {};
let services: Record<string, ComposeService> = {};
let composeEnv: NodeJS.ProcessEnv = {};
let apiPort = 0;
let uiPort = 0;

/**
 * The stand-in (docker/stand-ins/<name>/) for each third-party image, and the Go builds it carries: the releases
 * infra/goTools.ts pins, which the image tags name (test/unit/temporalVersion.test.ts keeps them together).
 */
const STAND_INS: Record<string, { standIn: string; tools: GoTool[] }> = {
  db: { standIn: 'postgres', tools: [] },
  'temporal-schema': { standIn: 'temporal-admin-tools', tools: [TEMPORAL_SQL_TOOL, TEMPORAL_CLI] },
  temporal: { standIn: 'temporal-server', tools: [TEMPORAL_SERVER] },
  'temporal-setup': { standIn: 'temporal-admin-tools', tools: [TEMPORAL_SQL_TOOL, TEMPORAL_CLI] },
  'temporal-ui': { standIn: 'temporal-ui', tools: [TEMPORAL_UI_SERVER] },
  s3: { standIn: 'versitygw', tools: [VERSITYGW] },
  's3-setup': { standIn: 'aws-cli', tools: [] },
};

/** A value of the file as compose reads it: `${NAME:-default}` (or `${NAME}`) from the environment compose gets. */
const interpolate = (value: string) =>
  value.replace(/\$\{(\w+)(?::-([^}]*))?\}/g, (_, name: string, fallback?: string) =>
    composeEnv[name] ? composeEnv[name] : (fallback ?? ''),
  );

const seconds = (ms: number) => Math.round(ms / 100) / 10;

/** podman-compose on the file, as project PROJECT; resolves with the result, throws on a non-zero exit. */
async function compose(args: string[], options: { env?: NodeJS.ProcessEnv; stdin?: string } = {}) {
  const argv = ['-f', COMPOSE_FILE, '-p', PROJECT, ...args];
  const result = await new Promise<{ code: number | null; stdout: string; stderr: string }>(
    (resolve, reject) => {
      const child = spawn('podman-compose', argv, {
        env: { ...composeEnv, ...options.env },
        cwd: projectRoot,
        stdio: ['pipe', 'pipe', 'pipe'],
      });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      const timer = setTimeout(() => child.kill('SIGKILL'), 15 * 60_000);
      child.once('error', reject);
      child.once('close', (code) => {
        clearTimeout(timer);
        resolve({ code, stdout, stderr });
      });
      child.stdin.end(options.stdin ?? '');
    },
  );
  if (result.code !== 0)
    throw new Error(
      `podman-compose ${args.join(' ')} exited ${result.code}:\n${result.stderr.slice(-3000)}\n${result.stdout.slice(-3000)}`,
    );
  return result;
}

interface ContainerState {
  name: string;
  status: string;
  exitCode: number;
  startedAt: number;
  restarts: number;
}

/** The project's containers of one service, as podman sees them. */
async function containersOf(service: string): Promise<ContainerState[]> {
  const names = (
    await podman([
      'ps',
      '--all',
      '--filter',
      `label=io.podman.compose.project=${PROJECT}`,
      '--filter',
      `label=com.docker.compose.service=${service}`,
      '--format',
      '{{.Names}}',
    ])
  )
    .split('\n')
    .filter(Boolean);
  if (names.length === 0) return [];
  const inspected = JSON.parse(await podman(['inspect', ...names])) as Array<{
    Name: string;
    RestartCount?: number;
    State: { Status: string; ExitCode: number; StartedAt: string };
  }>;
  return inspected.map((c) => ({
    name: c.Name,
    status: c.State.Status,
    exitCode: c.State.ExitCode,
    startedAt: Date.parse(c.State.StartedAt),
    restarts: c.RestartCount ?? 0,
  }));
}

const logsOf = (name: string, lines = 40) =>
  runToEnd('podman', ['logs', '--tail', String(lines), name]).then(
    (r) => `${r.stdout}${r.stderr}`.trim(),
    (error: Error) => error.message,
  );

/** What a service's dependants wait for: the condition some depends_on names, else a healthcheck, else running. */
function expectation(name: string): 'completed' | 'healthy' | 'running' {
  const conditions = Object.values(services).flatMap((s) =>
    Object.entries(s.depends_on ?? {})
      .filter(([needed]) => needed === name)
      .map(([, dependency]) => dependency.condition),
  );
  if (conditions.includes('service_completed_successfully')) return 'completed';
  if (services[name].healthcheck || conditions.includes('service_healthy')) return 'healthy';
  return 'running';
}

/** Whether every container of the service meets its expectation now; healthchecks are run here (see below). */
async function serviceReady(name: string, replicas: number): Promise<{ ready: boolean; detail: string }> {
  const containers = await containersOf(name);
  if (containers.length < replicas)
    return { ready: false, detail: `${containers.length} of ${replicas} containers` };
  const kind = expectation(name);
  for (const c of containers) {
    if (kind === 'completed') {
      if (c.status !== 'exited' || c.exitCode !== 0)
        return { ready: false, detail: `${c.name} ${c.status} (exit ${c.exitCode}, ${c.restarts} restarts)` };
      continue;
    }
    if (c.status !== 'running') return { ready: false, detail: `${c.name} ${c.status} (exit ${c.exitCode})` };
    if (kind === 'healthy') {
      // The compose file's healthcheck, run by podman: without systemd (as on this machine) podman has no timer
      // to run it on its own, so the container's status would stay "starting".
      const check = await runToEnd('podman', ['healthcheck', 'run', c.name], { timeoutMs: 60_000 });
      if (check.code !== 0)
        return { ready: false, detail: `${c.name} not healthy yet: ${check.stdout.trim()}` };
    } else if (Date.now() - c.startedAt < 5_000) {
      return { ready: false, detail: `${c.name} running for less than 5 s` };
    }
  }
  return { ready: true, detail: `${containers.length} ${kind}` };
}

/** Waits until every service `up` starts meets its expectation; on timeout names each one that does not. */
async function waitForServices(replicasOf: (name: string) => number, timeoutMs: number): Promise<number> {
  const from = Date.now();
  const names = Object.keys(services).filter((name) => !services[name].profiles?.length);
  let last = new Map<string, string>();
  while (Date.now() - from < timeoutMs) {
    const pending = new Map<string, string>();
    for (const name of names) {
      const { ready, detail } = await serviceReady(name, replicasOf(name));
      if (!ready) pending.set(name, detail);
    }
    if (pending.size === 0) return Date.now() - from;
    last = pending;
    await sleep(2_000);
  }
  const reports: string[] = [];
  for (const [name, detail] of last) {
    const containers = await containersOf(name);
    const logs = await Promise.all(containers.map(async (c) => `--- ${c.name}:\n${await logsOf(c.name)}`));
    reports.push(`${name} (${expectation(name)}): ${detail}\n${logs.join('\n')}`);
  }
  throw new Error(`not ready within ${timeoutMs / 1000} s:\n${reports.join('\n\n')}`);
}

/**
 * The hosts whose workers poll the task queue for workflow tasks as a version of its Worker Deployment, as
 * Temporal's frontend reports them. `task-queue describe` by default asks for the pollers of Build-ID
 * versioning's version sets, which lists no deployment-versioned poller; its legacy mode lists every poller with
 * its deployment options (as `referee status` reads them, deployment/workerDeployments.ts), over the server's default
 * four partitions.
 */
async function versionedWorkflowPollerHosts(network: string): Promise<string[]> {
  const result = await runToEnd('podman', [
    'run',
    '--rm',
    '--network',
    network,
    services['temporal-setup'].image!,
    'temporal',
    'task-queue',
    'describe',
    '--address',
    'temporal:7233',
    '--namespace',
    'default',
    '--task-queue',
    'referee',
    '--legacy-mode',
    '--task-queue-type-legacy',
    'workflow',
    '--partitions-legacy',
    '4',
    '--output',
    'json',
  ]);
  if (result.code !== 0) throw new Error(`temporal task-queue describe: ${result.stderr.slice(-2000)}`);
  // The legacy mode prints the pollers' protos with Go's JSON field names.
  const { pollers } = JSON.parse(result.stdout) as {
    pollers?: Array<{ identity?: string; deployment_options?: { build_id?: string } }>;
  };
  const hosts = (pollers ?? [])
    .filter((p) => p.identity && p.deployment_options?.build_id)
    .map((p) => p.identity!.slice(p.identity!.indexOf('@') + 1));
  return [...new Set(hosts)].sort();
}

async function api(
  method: string,
  path: string,
  token: string,
  body?: unknown,
): Promise<{ status: number; body: any }> {
  const res = await fetch(`http://127.0.0.1:${apiPort}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      ...(method === 'GET' ? {} : { 'idempotency-key': `compose-${randomBytes(12).toString('hex')}` }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}

/** The ops CLI through the compose file's `ops` service (`docker compose run --rm ops …`). */
async function ops(args: string[], stdin?: string): Promise<any> {
  const { stdout } = await compose(['run', '--rm', '--no-deps', '-T', 'ops', '--json', ...args], { stdin });
  // podman-compose prints the podman commands it runs on stdout too: the CLI's one JSON document is in between.
  const json = /^\{.*\}$/m.exec(stdout) ?? /^\{$[\s\S]*?^\}$/m.exec(stdout);
  if (!json) throw new Error(`no JSON from the ops CLI:\n${stdout}`);
  return JSON.parse(json[0]);
}

beforeAll(async () => {
  // Merge keys (`<<: *app`) are outside js-yaml's YAML 1.2 core schema unless asked for.
  const schema = CORE_SCHEMA.withTags(mergeTag);
  services = (
    load(await readFile(COMPOSE_FILE, 'utf8'), { schema }) as { services: Record<string, ComposeService> }
  ).services;
  apiPort = await freePort();
  uiPort = await freePort();
  composeEnv = { ...podmanEnv(), API_PORT: String(apiPort), TEMPORAL_UI_PORT: String(uiPort) };
});

afterAll(async () => {
  // Containers, the network and the volumes of the project, whatever state the test left them in.
  const down = await runToEnd('podman-compose', ['-f', COMPOSE_FILE, '-p', PROJECT, 'down', '-v'], {
    env: composeEnv,
    timeoutMs: 5 * 60_000,
  });
  const left = await podman(['ps', '--all', '--filter', `label=io.podman.compose.project=${PROJECT}`, '-q']);
  if (left) await runToEnd('podman', ['rm', '--force', '--volumes', ...left.split('\n')]);
  for (const volume of (await podman(['volume', 'ls', '-q'])).split('\n'))
    if (volume.startsWith(`${PROJECT}_`)) await runToEnd('podman', ['volume', 'rm', '--force', volume]);
  await runToEnd('podman', ['network', 'rm', '--force', `${PROJECT}_default`]);
  if (down.code !== 0) console.warn(`podman-compose down exited ${down.code}: ${down.stderr.slice(-1000)}`);
  const dir = join(projectRoot, 'test', '.artifacts');
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, 'compose.json'), `${JSON.stringify(figures, null, 2)}\n`);
  console.log(`test:compose figures (s): ${JSON.stringify(figures)}`);
});

test('every third-party image of the file has a stand-in, built from the pinned releases', async () => {
  for (const [name, service] of Object.entries(services))
    expect({ name, standIn: service.build !== undefined || name in STAND_INS }).toEqual({
      name,
      standIn: true,
    });
  expect(services.temporal.image).toBe(`temporalio/server:${TEMPORAL_SERVER.version.replace(/^v/, '')}`);
  expect(services['temporal-ui'].image).toBe(`temporalio/ui:${TEMPORAL_UI_SERVER.version.replace(/^v/, '')}`);
  expect(services.s3.image).toBe(`versity/versitygw:${VERSITYGW.version}`);
  expect(services['temporal-schema'].image).toMatch(
    new RegExp(`^temporalio/admin-tools:${TEMPORAL_SQL_TOOL.version.replace(/^v/, '')}-`),
  );
  expect(services.db.image).toMatch(/^postgres:15\./);

  const from = Date.now();
  const built = new Set<string>();
  for (const [name, { standIn, tools }] of Object.entries(STAND_INS)) {
    const image = services[name].image!;
    if (built.has(image)) continue;
    built.add(image);
    const files = await Promise.all(tools.map((tool) => ensureGoTool(tool)));
    const result = await runToEnd(
      join(projectRoot, 'docker', 'stand-ins', 'build.sh'),
      [standIn, image, ...files],
      { timeoutMs: 30 * 60_000 },
    );
    if (result.code !== 0) throw new Error(`stand-in ${image}: ${result.stderr.slice(-4000)}`);
    figures[`standIn ${image}${result.stderr.includes('building') ? ' (built)' : ' (cached)'}`] = seconds(
      result.ms,
    );
  }
  figures.standIns = seconds(Date.now() - from);

  // The app image, as `up --build` would make it (REFEREE_IMAGE, default referee:local).
  const appImage = interpolate(services.api.image!);
  const image = await buildImage(appImage);
  figures.appImage = seconds(image.ms);
});

test('`up -d` starts the file as written and every service becomes healthy', async () => {
  const from = Date.now();
  await compose(['up', '-d']);
  figures.up = seconds(Date.now() - from);
  figures.healthyAfterUp = seconds(await waitForServices(() => 1, READY_TIMEOUT_MS));

  const ready = await fetch(`http://127.0.0.1:${apiPort}/readyz`);
  expect(ready.status).toBe(200);
  const ui = await fetch(`http://127.0.0.1:${uiPort}/`);
  expect(ui.status).toBe(200);
  // The UI server runs with the file's settings: write actions as TEMPORAL_DISABLE_WRITE_ACTIONS says.
  const settings = (await (await fetch(`http://127.0.0.1:${uiPort}/api/v1/settings`)).json()) as {
    DisableWriteActions: boolean;
  };
  const disabled = interpolate(
    String(services['temporal-ui'].environment?.TEMPORAL_DISABLE_WRITE_ACTIONS ?? ''),
  );
  expect(settings.DisableWriteActions).toBe(disabled === 'true');
});

test('scaled to three, three workers poll the task queue as versions of its deployment', async () => {
  // podman-compose 1.0 has no --scale; the file's deploy.replicas (WORKER_REPLICAS) does the same.
  const from = Date.now();
  await compose(['up', '-d'], { env: { WORKER_REPLICAS: '3' } });
  await waitForServices((name) => (name === 'worker' ? 3 : 1), SCALE_TIMEOUT_MS);
  const workers = await containersOf('worker');
  expect(workers.filter((c) => c.status === 'running')).toHaveLength(3);

  const inspected = JSON.parse(await podman(['inspect', workers[0].name])) as Array<{
    NetworkSettings: { Networks: Record<string, unknown> };
  }>;
  const network = Object.keys(inspected[0].NetworkSettings.Networks)[0];
  const hostnames = (
    await Promise.all(workers.map((c) => podman(['inspect', '--format', '{{.Config.Hostname}}', c.name])))
  ).sort();
  let hosts: string[] = [];
  const deadline = Date.now() + SCALE_TIMEOUT_MS;
  while (Date.now() < deadline) {
    hosts = await versionedWorkflowPollerHosts(network);
    if (hostnames.every((h) => hosts.includes(h))) break;
    await sleep(2_000);
  }
  expect(hosts.filter((h) => hostnames.includes(h))).toEqual(hostnames);
  figures.scaledTo3 = seconds(Date.now() - from);
});

test('a review action through the API is acknowledged', async () => {
  const members = {
    genomics: [
      {
        identity_id: 'idp|olga',
        username: 'olga',
        display_name: 'Olga Owner',
        email: null,
        role: 'OWNER',
        enabled: true,
      },
      {
        identity_id: 'idp|rui',
        username: 'rui',
        display_name: 'Rui Reviewer',
        email: null,
        role: 'REVIEWER',
        enabled: true,
      },
    ],
  };
  await ops(['members', 'upsert', '/dev/stdin'], JSON.stringify(members));
  const key = (await ops(['keys', 'create', '--service', 'genomics', '--member', 'idp|olga'])) as {
    token: string;
  };
  const [db] = await containersOf('db');
  const ruiId = await podman([
    'exec',
    db.name,
    'psql',
    '-U',
    'postgres',
    '-d',
    'referee',
    '-tAc',
    "SELECT id FROM members WHERE service = 'genomics' AND identity_id = 'idp|rui'",
  ]);
  expect(ruiId).toMatch(/^[1-9][0-9]*$/);

  const topic = await api('POST', '/api/v1/topics', key.token, {
    batch: 'batch-500',
    topic: 100_001,
    title: 'Through the compose stack',
    category: 'testing',
    markdown: '# Brief',
  });
  expect(topic.status).toBe(201);
  const uid = topic.body.topicUid as string;
  // A Temporal Workflow Update of the topic's review workflow, run by one of the scaled workers.
  const assigned = await api('PUT', `/api/v1/topics/${encodeURIComponent(uid)}/reviewer`, key.token, {
    reviewerId: ruiId,
    instructions: 'Check the splice calls.',
    dueAt: null,
  });
  expect(assigned.status).toBe(200);
  expect(assigned.body).toMatchObject({ topicUid: uid, reviewerId: ruiId, recordType: 'assignment' });
});
