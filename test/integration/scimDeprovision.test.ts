import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'playwright-core';
import { projectRoot } from '../../infra/paths';
import { freePort } from '../../infra/ports';
import type { ManagedProcess } from '../../infra/processes';
import { TS_SOURCE_LOADER } from '../../infra/processes';
import { startApiProgram } from '../helpers/reliability';
import { GROUP, patchOp, provisioningToken, scim, USER } from '../helpers/scim';
import { mintKey, startStack, type TestStack } from '../helpers/stack';

/*
 * Deprovisioning holds at once in every API process (docs/provisioning.md): a person provisioned over SCIM signs
 * in to the console through the development OpenID Provider and gets an API key; deactivating them over SCIM
 * refuses the key (401) and ends the console session in this API process and in another one, server.ts spawned
 * as its own program, within a second.
 */
const CLIENT_SECRET = randomBytes(24).toString('base64url');
const PERSON = 'idp|rui';
const DEPROVISION_BOUND_MS = 1_000;

let stack: TestStack;
let provider: ChildProcess;
let issuer: string;
let other: ManagedProcess;
let otherUrl: string;
let logDir: string;
let token: string;

function startProvider(redirectUrl: string): Promise<string> {
  provider = spawn(
    process.execPath,
    [...TS_SOURCE_LOADER, join(projectRoot, 'launcher', 'devIdentityProvider.ts')],
    {
      cwd: projectRoot,
      env: { ...process.env, DEV_OIDC_REDIRECT_URL: redirectUrl, DEV_OIDC_CLIENT_SECRET: CLIENT_SECRET },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  return new Promise((resolve, reject) => {
    let out = '';
    provider.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const line = out.split('\n').find((l) => l.startsWith('{'));
      if (line) resolve((JSON.parse(line) as { issuer: string }).issuer);
    });
    provider.once('exit', (code) => reject(new Error(`the provider exited (${code})`)));
  });
}

beforeAll(async () => {
  const port = await freePort();
  const redirectUrl = `http://127.0.0.1:${port}/console/auth/callback`;
  issuer = await startProvider(redirectUrl);
  stack = await startStack({
    env: {
      PORT: String(port),
      OIDC_ISSUER: issuer,
      OIDC_CLIENT_ID: 'referee-console',
      OIDC_CLIENT_SECRET: CLIENT_SECRET,
      OIDC_REDIRECT_URL: redirectUrl,
      OIDC_PROVIDER_NAME: 'the development provider',
    },
  });
  logDir = await mkdtemp(join(tmpdir(), 'referee-scim-'));
  ({ proc: other, url: otherUrl } = await startApiProgram(stack, join(logDir, 'api.log')));
  token = await provisioningToken(stack);
}, 180_000);

afterAll(async () => {
  if (other) {
    process.kill(other.pid, 'SIGTERM');
    await other.exited;
  }
  await stack?.stop();
  provider?.kill('SIGTERM');
  if (logDir) await rm(logDir, { recursive: true, force: true });
});

/** Signs in at the console as a browser would, through the provider's page; returns the session cookie's secret. */
async function signIn(account: string): Promise<string> {
  const browser = await request.newContext();
  try {
    const page = await browser.get(`${stack.url}/console/auth/sign-in`);
    const html = await page.text();
    const action = new RegExp(
      `action="(/interaction/[^"]+/login)"><input type="hidden" name="account" value="${account.replace('|', '\\|')}"`,
    ).exec(html);
    if (!action) throw new Error(`the provider's page offers no ${account}: ${html.slice(0, 300)}`);
    await browser.post(new URL(action[1], issuer).href, { form: { account } });
    const cookie = (await browser.storageState()).cookies.find((c) => c.name === 'referee_session');
    if (!cookie) throw new Error('no console session after signing in');
    return cookie.value;
  } finally {
    await browser.dispose();
  }
}

const withKey = (url: string, key: string) =>
  fetch(`${url}/api/auth/session`, { headers: { authorization: `Bearer ${key}` } });
const withSession = (url: string, secret: string) =>
  fetch(`${url}/api/reviewers`, { headers: { cookie: `referee_session=${secret}` } });

/** The first refusal of a request repeated until `bound`; then it must stay refused. */
async function refusedWithin(bound: number, send: () => Promise<Response>): Promise<number> {
  const started = Date.now();
  let status = (await send()).status;
  while (status !== 401 && Date.now() - started < bound) {
    await new Promise((resolve) => setTimeout(resolve, 5));
    status = (await send()).status;
  }
  const elapsed = Date.now() - started;
  for (let i = 0; i < 3; i++) expect((await send()).status).toBe(401);
  expect(status).toBe(401);
  return elapsed;
}

test('a person deprovisioned over SCIM loses their key and console session in every API process at once', async () => {
  const created = await scim(stack, 'POST', '/Users', {
    token,
    body: {
      schemas: [USER],
      userName: PERSON,
      displayName: 'Rui Reviewer',
      emails: [{ value: 'rui@example.org', primary: true }],
    },
  });
  expect(created.status).toBe(201);
  const group = await scim(stack, 'POST', '/Groups', {
    token,
    body: { schemas: [GROUP], displayName: 'referee-math-reviewer', members: [{ value: created.body.id }] },
  });
  expect(group.status).toBe(201);

  const secret = await signIn(PERSON);
  const key = (await mintKey(stack, 'math', PERSON)).token;
  for (const url of [stack.url, otherUrl]) {
    expect((await withKey(url, key)).status).toBe(200);
    expect((await withSession(url, secret)).status).toBe(200);
  }

  const off = await scim(stack, 'PATCH', `/Users/${created.body.id}`, {
    token,
    body: patchOp({ op: 'Replace', path: 'active', value: 'False' }),
  });
  expect(off.status).toBe(200);
  for (const url of [stack.url, otherUrl]) {
    expect(await refusedWithin(DEPROVISION_BOUND_MS, () => withKey(url, key))).toBeLessThan(
      DEPROVISION_BOUND_MS,
    );
    expect(await refusedWithin(DEPROVISION_BOUND_MS, () => withSession(url, secret))).toBeLessThan(
      DEPROVISION_BOUND_MS,
    );
  }
  const [session] = await stack.dataSource.query(
    'SELECT ended_at, ended_reason FROM console_sessions WHERE subject = $1',
    [PERSON],
  );
  expect(session).toMatchObject({ ended_reason: 'deprovisioned' });
  expect(session.ended_at).not.toBeNull();
  const audit = await stack.dataSource.query(
    `SELECT kind, detail FROM identity_audit WHERE kind IN ('member_disabled', 'console_sessions_ended') ORDER BY id`,
  );
  expect(audit.map((r: { kind: string }) => r.kind)).toEqual(['member_disabled', 'console_sessions_ended']);
  expect(audit[0].detail).toMatchObject({ reason: 'deactivated over SCIM', open_assignments: 0 });
}, 60_000);
