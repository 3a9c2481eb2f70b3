import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { request } from 'node:http';
import { join } from 'node:path';
import { type Browser, type BrowserContext, type Page } from 'playwright-core';
import { describeInBrowser, hasChromium, launchChromium, skipReason } from '../helpers/chromium';
import { projectRoot } from '../../infra/paths';
import { freePort } from '../../infra/ports';
import { TS_SOURCE_LOADER } from '../../infra/processes';
import { FOREIGN_AUDIENCE_SCOPE } from '../../launcher/devIdentityProvider';
import { importGenomicsBundle } from '../helpers/genomics';
import { cleanEnv, referee } from '../helpers/npmStart';
import { act } from '../helpers/math';
import {
  http,
  importBundle,
  memberId,
  mintKey,
  seedMembers,
  startStack,
  type TestStack,
} from '../helpers/stack';

/**
 * Console sign-in with OpenID Connect in headless Chromium, against the development provider of `npm start`
 * (a real oidc-provider in a process of its own) and the whole stack: the sign-in lands in each service with the
 * member's role there; tampered state, a replayed code, a nonce or a client that is not the console's are
 * refused; disabled and unknown people get a page that says so; a cross-site write with the cookie is refused;
 * sign-out and expiry end the session on the server; API keys keep working; axe finds nothing. The test
 * provider also signs, on request, ID tokens for another audience (OTHER_CLIENT), which the console refuses.
 */

const CLIENT_SECRET = randomBytes(24).toString('base64url');
const OTHER_CLIENT = 'referee-other';

let stack: TestStack;
let browser: Browser;
let provider: ChildProcess;
let issuer: string;
let axeSource: string;
let adminKey: string;

/** Starts launcher/devIdentityProvider.ts as `npm start` does, in its own process; resolves with its issuer. */
function startProvider(redirectUrl: string): Promise<string> {
  provider = spawn(
    process.execPath,
    [...TS_SOURCE_LOADER, join(projectRoot, 'launcher', 'devIdentityProvider.ts')],
    {
      cwd: projectRoot,
      env: {
        ...process.env,
        DEV_OIDC_REDIRECT_URL: redirectUrl,
        DEV_OIDC_CLIENT_SECRET: CLIENT_SECRET,
        DEV_OIDC_EXTRA_CLIENTS: OTHER_CLIENT,
        DEV_OIDC_FOREIGN_AUDIENCE: OTHER_CLIENT,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    provider.stderr!.on('data', (chunk: Buffer) => (err += chunk.toString()));
    provider.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const line = out.split('\n').find((l) => l.startsWith('{'));
      if (line) resolve((JSON.parse(line) as { issuer: string }).issuer);
    });
    provider.once('exit', (code) => reject(new Error(`the provider exited (${code}): ${err}`)));
  });
}

beforeAll(async () => {
  if (!hasChromium) return;
  const port = await freePort();
  const redirectUrl = `http://127.0.0.1:${port}/console/auth/callback`;
  issuer = await startProvider(redirectUrl);
  [stack, browser, axeSource] = await Promise.all([
    startStack({
      env: {
        PORT: String(port),
        OIDC_ISSUER: issuer,
        OIDC_CLIENT_ID: 'referee-console',
        OIDC_CLIENT_SECRET: CLIENT_SECRET,
        OIDC_REDIRECT_URL: redirectUrl,
        OIDC_PROVIDER_NAME: 'the development provider',
      },
    }),
    launchChromium(),
    readFile(require.resolve('axe-core/axe.min.js'), 'utf8'),
  ]);
  await seedMembers(stack);
  await Promise.all([importBundle(stack), importGenomicsBundle(stack)]);
  adminKey = (await mintKey(stack, 'math', 'idp|ada')).token;
  const rui = await memberId(stack, 'math', 'idp|rui');
  await act(stack, adminKey, 'demo-q1-a', { action: 'assign', assignee_id: rui });
  // Sofia's identity is renamed at Referee: the provider still knows idp|sofia, no member has it.
  await stack.dataSource.query(
    `UPDATE members SET identity_id = 'idp|sofia-elsewhere' WHERE identity_id = 'idp|sofia'`,
  );
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await stack?.stop();
  provider?.kill('SIGTERM');
});

interface Tab {
  context: BrowserContext;
  page: Page;
  /**
   * Every error Chromium logged (failed resources included) and page errors, on the console's own pages (its
   * sign-in and refusal pages included, less the refusal page's own status).
   */
  problems: string[];
}

async function openTab(): Promise<Tab> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const tab: Tab = { context, page, problems: [] };
  page.on('console', (message) => {
    if (message.type() !== 'error' || !page.url().startsWith(`${stack.url}/console`)) return;
    // Chromium logs a refusal page's own 4xx status as a failed load; anything else on it counts.
    if (
      message.location().url === page.url() &&
      /^Failed to load resource: the server responded with a status of 40[03] /.test(message.text())
    )
      return;
    tab.problems.push(`console: ${message.text()} (${message.location().url}) at ${page.url()}`);
  });
  page.on('pageerror', (error) => tab.problems.push(`page error: ${error.message}`));
  return tab;
}

/** From the console's sign-in page to the provider's, where one click signs in as a demo member. */
async function toProvider(page: Page): Promise<void> {
  await page.goto(`${stack.url}/console`);
  await page.getByRole('link', { name: 'Sign in with the development provider' }).click();
  await page.waitForURL(`${issuer}/**`);
}

async function signInAs(tab: Tab, name: string): Promise<void> {
  await toProvider(tab.page);
  await tab.page.getByRole('button', { name: `Sign in as ${name}` }).click();
}

/** Starts a sign-in as the console's link does and returns the provider URL it redirects to, not followed. */
async function authorizationRequest(tab: Tab): Promise<URL> {
  // The context's request API shares the browser's cookies: the sign-in cookie lands where the browser has it.
  const start = await tab.context.request.get(`${stack.url}/console/auth/sign-in`, { maxRedirects: 0 });
  expect(start.status()).toBe(302);
  return new URL(start.headers().location);
}

/**
 * Starts a sign-in as the console's link does, but changes one parameter of the authorization request before the
 * browser goes to the provider (a redirect cannot be intercepted on its way), then signs in as Rui.
 */
async function signInWithAuthorizationChanged(
  tab: Tab,
  parameter: string,
  value: string | ((current: string) => string),
): Promise<void> {
  const authorization = await authorizationRequest(tab);
  const current = authorization.searchParams.get(parameter);
  expect(current).toBeTruthy();
  authorization.searchParams.set(parameter, typeof value === 'string' ? value : value(current!));
  await tab.page.goto(authorization.href);
  await tab.page.getByRole('button', { name: 'Sign in as Rui Reviewer' }).click();
}

const sessionCookie = async (context: BrowserContext) =>
  (await context.cookies(stack.url)).find((c) => c.name === 'referee_session');

async function accessibilityViolations(page: Page): Promise<string[]> {
  if (!(await page.evaluate(() => Boolean((globalThis as any).axe)))) await page.evaluate(axeSource);
  const results = await page.evaluate(() =>
    (globalThis as any).axe.run((globalThis as any).document, { resultTypes: ['violations'] }),
  );
  return (results.violations as Array<{ id: string; impact: string; nodes: unknown[] }>)
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.impact}: ${v.id} (${v.nodes.length} nodes)`);
}

/** The API answer to a request carrying only the given session cookie. */
const withCookie = (path: string, secret: string, init: RequestInit = {}) =>
  fetch(`${stack.url}${path}`, {
    ...init,
    headers: { ...(init.headers as Record<string, string>), cookie: `referee_session=${secret}` },
  });

/** Identity audit records of one kind, the counted refusals of the API's current interval included. */
const auditKinds = async (
  kind: string,
): Promise<Array<{ service: string; member_id: string | null; detail: any }>> => {
  await stack.server.deps.authFailures.flush();
  return stack.dataSource.query(
    `SELECT service, member_id::text, detail FROM identity_audit WHERE kind = $1 ORDER BY id`,
    [kind],
  );
};

describeInBrowser(`console sign-in with OpenID Connect in headless Chromium${skipReason}`, () => {
  it('offers the provider beside the key, with a favicon and nothing for axe to find', async () => {
    const tab = await openTab();
    const { page } = tab;
    await page.goto(`${stack.url}/console`);
    await page.getByRole('link', { name: 'Sign in with the development provider' }).waitFor();
    await expect(page.getByLabel('API key').count()).resolves.toBe(1);
    await expect(accessibilityViolations(page)).resolves.toEqual([]);
    const favicon = await tab.context.request.get(`${stack.url}/favicon.ico`);
    expect(favicon.status()).toBe(200);
    expect(favicon.headers()['content-type']).toContain('image/svg+xml');
    await toProvider(page);
    await expect(page.getByRole('heading', { level: 1 }).innerText()).resolves.toMatch(
      /development provider/,
    );
    await expect(accessibilityViolations(page)).resolves.toEqual([]);
    expect(tab.problems).toEqual([]);
    await tab.context.close();
  }, 120_000);

  it('signs Rui in once into both services, each with his role there, with only an HttpOnly cookie', async () => {
    const tab = await openTab();
    const { page } = tab;
    const seen: string[] = [];
    page.on('response', (response) => seen.push(response.url()));
    await signInAs(tab, 'Rui Reviewer');
    await page.waitForURL(`${stack.url}/console/math`);
    await expect(page.getByTestId('who').innerText()).resolves.toMatch(/Rui Reviewer[\s\S]*REVIEWER/);
    await page.locator('table[aria-label="Tasks"] tbody tr[data-task-id="demo-q1-a"]').waitFor();
    const cookie = await sessionCookie(tab.context);
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/' });
    // Only a digest of the cookie's secret is stored.
    const stored = await stack.dataSource.query(
      `SELECT count(*)::int AS n FROM console_sessions WHERE secret_hash = sha256($1::bytea)`,
      [Buffer.from(cookie!.value)],
    );
    expect(stored[0].n).toBe(1);
    await expect(
      page.evaluate(() => (globalThis as any).sessionStorage.getItem('referee.console.key')),
    ).resolves.toBeNull();
    await expect(page.evaluate(() => (globalThis as any).localStorage.length)).resolves.toBe(0);
    await expect(page.evaluate(() => (globalThis as any).document.cookie)).resolves.toBe('');
    await expect(accessibilityViolations(page)).resolves.toEqual([]);

    await page.getByRole('link', { name: 'Open Genomics workspace' }).click();
    await page.waitForURL(`${stack.url}/console/genomics`);
    await expect(page.getByTestId('who').innerText()).resolves.toMatch(/Rui Reviewer[\s\S]*REVIEWER/);
    await expect(accessibilityViolations(page)).resolves.toEqual([]);
    expect(tab.problems).toEqual([]);
    const audit = await auditKinds('console_signed_in');
    expect(audit.map((a) => a.service).sort()).toEqual(['genomics', 'math']);
    await tab.context.close();
  }, 120_000);

  it('gives Ada her admin role in each service', async () => {
    const tab = await openTab();
    await signInAs(tab, 'Ada Admin');
    await tab.page.waitForURL(`${stack.url}/console/math`);
    await expect(tab.page.getByTestId('who').innerText()).resolves.toMatch(/Ada Admin[\s\S]*ADMIN/);
    await tab.page.goto(`${stack.url}/console/genomics`);
    await expect(tab.page.getByTestId('who').innerText()).resolves.toMatch(/Ada Admin[\s\S]*ADMIN/);
    expect(tab.problems).toEqual([]);
    await tab.context.close();
  }, 120_000);

  it('refuses a tampered state, and opens no session', async () => {
    const tab = await openTab();
    await signInWithAuthorizationChanged(tab, 'state', 'tampered-state');
    await expect(tab.page.getByRole('heading', { level: 1 }).innerText()).resolves.toBe(
      'The sign-in was refused',
    );
    expect(await sessionCookie(tab.context)).toBeUndefined();
    await expect(accessibilityViolations(tab.page)).resolves.toEqual([]);
    expect(tab.problems).toEqual([]);
    await tab.context.close();
  }, 120_000);

  it('refuses a replayed authorization code', async () => {
    const tab = await openTab();
    let callback = '';
    tab.page.on('request', (request) => {
      if (request.url().includes('/console/auth/callback?')) callback = request.url();
    });
    await signInAs(tab, 'Rui Reviewer');
    await tab.page.waitForURL(`${stack.url}/console/math`);
    expect(callback).toContain('code=');
    // Again in the same browser: its sign-in was used already.
    const again = await tab.page.goto(callback);
    expect(again?.status()).toBe(400);
    await expect(tab.page.getByRole('heading', { level: 1 }).innerText()).resolves.toBe(
      'This sign-in is no longer valid',
    );
    await expect(accessibilityViolations(tab.page)).resolves.toEqual([]);
    // And in a browser that has a sign-in of its own under way: the code is not for it.
    const other = await openTab();
    await toProvider(other.page);
    const replayed = await other.page.goto(callback);
    expect(replayed?.status()).toBe(400);
    await expect(other.page.getByRole('heading', { level: 1 }).innerText()).resolves.toBe(
      'The sign-in was refused',
    );
    expect(await sessionCookie(other.context)).toBeUndefined();
    expect([...tab.problems, ...other.problems]).toEqual([]);
    await Promise.all([tab.context.close(), other.context.close()]);
  }, 120_000);

  it('refuses an ID token with another nonce, or a code issued to another client', async () => {
    for (const [parameter, value] of [
      ['nonce', 'not-the-consoles-nonce'],
      ['client_id', OTHER_CLIENT],
    ]) {
      const tab = await openTab();
      await signInWithAuthorizationChanged(tab, parameter, value);
      await expect(tab.page.getByRole('heading', { level: 1 }).innerText()).resolves.toBe(
        'The sign-in was refused',
      );
      expect(await sessionCookie(tab.context)).toBeUndefined();
      expect(tab.problems).toEqual([]);
      await tab.context.close();
    }
    const refusals = (await auditKinds('console_sign_in_refused')).map((r) => String(r.detail.why));
    // The ID token's nonce is not this sign-in's; the provider refuses the console's exchange of another client's code.
    expect(refusals).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/OAUTH_JWT_CLAIM_COMPARISON_FAILED, claim nonce\b/),
        expect.stringMatching(/invalid_grant/),
      ]),
    );
  }, 120_000);

  it('refuses an ID token issued for another audience, signed by the provider like any other', async () => {
    const sessionsOfRui = async () =>
      (
        await stack.dataSource.query(
          `SELECT count(*)::int AS n FROM console_sessions WHERE subject = 'idp|rui'`,
        )
      )[0].n as number;
    const before = await sessionsOfRui();
    const tab = await openTab();
    // The provider answers the console's own code exchange with an ID token whose aud is OTHER_CLIENT.
    await signInWithAuthorizationChanged(tab, 'scope', (scope) => `${scope} ${FOREIGN_AUDIENCE_SCOPE}`);
    await expect(tab.page.getByRole('heading', { level: 1 }).innerText()).resolves.toBe(
      'The sign-in was refused',
    );
    expect(tab.page.url()).toContain('/console/auth/callback');
    expect(await sessionCookie(tab.context)).toBeUndefined();
    await expect(accessibilityViolations(tab.page)).resolves.toEqual([]);
    expect(tab.problems).toEqual([]);
    expect(await sessionsOfRui()).toBe(before);
    const refusals = (await auditKinds('console_sign_in_refused')).filter((r) =>
      /claim aud\b/.test(String(r.detail.why)),
    );
    expect(refusals.map((r) => [r.service, r.member_id])).toEqual([
      ['math', null],
      ['genomics', null],
    ]);
    expect(String(refusals[0].detail.why)).toMatch(/OAUTH_JWT_CLAIM_COMPARISON_FAILED, claim aud\b/);
    await tab.context.close();
  }, 120_000);

  it('says what the provider answered when it ends the sign-in with an error', async () => {
    const tab = await openTab();
    const authorization = await authorizationRequest(tab);
    // Nobody is signed in at the provider, so prompt=none sends the browser back with login_required.
    authorization.searchParams.set('prompt', 'none');
    await tab.page.goto(authorization.href);
    await tab.page.waitForURL(`${stack.url}/console/auth/callback?**`);
    await expect(tab.page.getByRole('heading', { level: 1 }).innerText()).resolves.toBe(
      'The sign-in was not completed',
    );
    await expect(tab.page.locator('main').innerText()).resolves.toContain('login_required');
    expect(await sessionCookie(tab.context)).toBeUndefined();
    await expect(accessibilityViolations(tab.page)).resolves.toEqual([]);
    expect(tab.problems).toEqual([]);
    const refusals = await auditKinds('console_sign_in_refused');
    expect(refusals.map((r) => r.detail.why)).toContain('provider error login_required');
    await tab.context.close();
  }, 120_000);

  it('tells an unknown person and a disabled member why, without a redirect loop', async () => {
    const tab = await openTab();
    await signInAs(tab, 'Sofia Reviewer');
    await expect(tab.page.getByRole('heading', { level: 1 }).innerText()).resolves.toBe(
      'You are not a member of Referee',
    );
    await expect(tab.page.locator('main').innerText()).resolves.toContain('idp|sofia');
    expect(tab.page.url()).toContain('/console/auth/callback');
    await expect(accessibilityViolations(tab.page)).resolves.toEqual([]);
    expect(await sessionCookie(tab.context)).toBeUndefined();
    expect(tab.problems).toEqual([]);
    await tab.context.close();

    await stack.dataSource.query(`UPDATE members SET enabled = false WHERE identity_id = 'idp|olga'`);
    const olga = await openTab();
    await signInAs(olga, 'Olga Owner');
    await expect(olga.page.getByRole('heading', { level: 1 }).innerText()).resolves.toBe(
      'Your membership is disabled',
    );
    await expect(accessibilityViolations(olga.page)).resolves.toEqual([]);
    await olga.page.getByRole('link', { name: 'Back to the console sign-in' }).click();
    await olga.page.getByRole('link', { name: 'Sign in with the development provider' }).waitFor();
    expect(olga.problems).toEqual([]);
    await stack.dataSource.query(`UPDATE members SET enabled = true WHERE identity_id = 'idp|olga'`);
    await olga.context.close();
  }, 120_000);

  it('ends a session at once when its member is disabled in a service', async () => {
    const tab = await openTab();
    await signInAs(tab, 'Olga Owner');
    await tab.page.waitForURL(`${stack.url}/console/math`);
    const secret = (await sessionCookie(tab.context))!.value;
    expect((await withCookie('/api/math/tasks', secret)).status).toBe(200);
    await stack.dataSource.query(
      `UPDATE members SET enabled = false WHERE identity_id = 'idp|olga' AND service = 'math'`,
    );
    expect((await withCookie('/api/math/tasks', secret)).status).toBe(401);
    expect((await withCookie('/api/v1/topics', secret)).status).toBe(200);
    // The console now opens the service she is still a member of.
    await tab.page.goto(`${stack.url}/console/math`);
    await tab.page.waitForURL(`${stack.url}/console/genomics`);
    await stack.dataSource.query(`UPDATE members SET enabled = true WHERE identity_id = 'idp|olga'`);
    await tab.context.close();
  }, 120_000);

  it('refuses a write with the cookie from another origin or without the CSRF token', async () => {
    const tab = await openTab();
    await signInAs(tab, 'Rui Reviewer');
    await tab.page.waitForURL(`${stack.url}/console/math`);
    const version = (await http(stack, 'GET', '/api/math/tasks/demo-q1-a', { token: adminKey })).body.version;
    const body = JSON.stringify({ action: 'start', version });

    // A page of another origin on the same site (the provider's): the browser sends the SameSite cookie along.
    await tab.page.goto(`${issuer}/.well-known/openid-configuration`);
    const crossSite = tab.page.waitForResponse((r) => r.url() === `${stack.url}/api/math/tasks/demo-q1-a`);
    await tab.page.evaluate(
      ([url, payload]) =>
        fetch(url, {
          method: 'POST',
          mode: 'no-cors',
          credentials: 'include',
          body: payload,
          headers: { 'content-type': 'text/plain' },
        }).catch(() => undefined),
      [`${stack.url}/api/math/tasks/demo-q1-a`, body],
    );
    expect((await crossSite).status()).toBe(403);

    // The console's own origin without the token is refused too; with it, the write goes through.
    await tab.page.goto(`${stack.url}/console/math`);
    await tab.page.getByTestId('who').waitFor();
    const statuses = await tab.page.evaluate(async (payload) => {
      const state = (await (await fetch('/console/auth/state')).json()) as { csrf_token: string };
      const send = (headers: Record<string, string>) =>
        fetch('/api/math/tasks/demo-q1-a', {
          method: 'POST',
          body: payload,
          headers: {
            'content-type': 'application/json',
            'idempotency-key': `test:${crypto.randomUUID()}`,
            ...headers,
          },
        }).then((r) => r.status);
      return [await send({}), await send({ 'x-csrf-token': state.csrf_token })];
    }, body);
    expect(statuses).toEqual([403, 200]);
    const task = await http(stack, 'GET', '/api/math/tasks/demo-q1-a', { token: adminKey });
    expect(task.body.version).toBe(version + 1);
    // Counted, not written one by one (docs/keys.md, "Failed authentication").
    const refused = (await auditKinds('authentication_failed')).filter(
      (r) => r.detail.reason === 'cross_site_request',
    );
    expect(refused.reduce((sum, r) => sum + Number(r.detail.count), 0)).toBe(2);
    await tab.context.close();
  }, 120_000);

  it('bounds anonymous sign-in starts per address: 300 leave a bounded number of rows, then 429', async () => {
    const signIns = async () =>
      (await stack.dataSource.query(`SELECT count(*)::int AS n FROM console_sign_ins`))[0].n as number;
    const before = await signIns();
    // From an address of its own (Linux answers all of 127.0.0.0/8), so the browser's sign-ins keep theirs.
    const start = () =>
      new Promise<{ status: number; retryAfter?: string }>((resolve, reject) => {
        const url = new URL('/console/auth/sign-in', stack.url);
        const req = request(
          { host: url.hostname, port: url.port, path: url.pathname, localAddress: '127.0.0.9' },
          (res) => {
            res.resume();
            res.on('end', () =>
              resolve({ status: res.statusCode ?? 0, retryAfter: res.headers['retry-after'] }),
            );
          },
        );
        req.on('error', reject);
        req.end();
      });
    const answers = [];
    for (let i = 0; i < 300; i += 30) answers.push(...(await Promise.all(Array.from({ length: 30 }, start))));
    const admitted = answers.filter((a) => a.status === 302).length;
    const perMinute = stack.config.consoleSession.signInStartsPerMinute;
    // The burst, and what refilled while the 300 went out.
    expect(admitted).toBeGreaterThanOrEqual(perMinute);
    expect(admitted).toBeLessThan(perMinute + 10);
    expect(await signIns()).toBe(before + admitted);
    const refused = answers.filter((a) => a.status === 429);
    expect(refused).toHaveLength(300 - admitted);
    expect(Number(refused[0].retryAfter)).toBeGreaterThanOrEqual(1);
    // Another address is not held back by it.
    const other = await fetch(`${stack.url}/console/auth/sign-in`, { redirect: 'manual' });
    expect(other.status).toBe(302);
  }, 120_000);

  it('signs out: the session ends on the server and at the provider', async () => {
    const tab = await openTab();
    await signInAs(tab, 'Rui Reviewer');
    await tab.page.waitForURL(`${stack.url}/console/math`);
    const secret = (await sessionCookie(tab.context))!.value;
    await tab.page.getByRole('button', { name: 'Sign out' }).click();
    await tab.page.waitForURL(`${issuer}/**`);
    await expect(accessibilityViolations(tab.page)).resolves.toEqual([]);
    await tab.page.getByRole('button', { name: 'Sign out' }).click();
    await tab.page.waitForURL(`${stack.url}/console`);
    await tab.page.getByRole('link', { name: 'Sign in with the development provider' }).waitFor();
    expect(await sessionCookie(tab.context)).toBeUndefined();
    expect((await withCookie('/api/math/tasks', secret)).status).toBe(401);
    const [row] = await stack.dataSource.query(
      `SELECT ended_reason FROM console_sessions WHERE secret_hash = sha256($1::bytea)`,
      [Buffer.from(secret)],
    );
    expect(row.ended_reason).toBe('signed_out');
    expect((await auditKinds('console_signed_out')).length).toBeGreaterThan(0);
    // The provider's session ended too: the next sign-in asks who is signing in.
    await toProvider(tab.page);
    await tab.page.getByRole('button', { name: 'Sign in as Rui Reviewer' }).waitFor();
    expect(tab.problems).toEqual([]);
    await tab.context.close();
  }, 120_000);

  it('ends every session of a person with referee members end-sessions', async () => {
    const tab = await openTab();
    await signInAs(tab, 'Rui Reviewer');
    await tab.page.waitForURL(`${stack.url}/console/math`);
    const secret = (await sessionCookie(tab.context))!.value;
    expect((await withCookie('/api/math/tasks', secret)).status).toBe(200);
    const ended = await referee(
      ['members', 'end-sessions', 'idp|rui'],
      cleanEnv({ DATABASE_URL: stack.config.databaseUrl }),
    );
    expect(ended.code).toBe(0);
    expect(ended.stdout).toMatch(/Ended [1-9]\d* console session\(s\) of idp\|rui/);
    expect((await withCookie('/api/math/tasks', secret)).status).toBe(401);
    await tab.page.reload();
    await tab.page.getByRole('link', { name: 'Sign in with the development provider' }).waitFor();
    expect((await auditKinds('console_sessions_ended')).map((a) => a.service).sort()).toEqual([
      'genomics',
      'math',
    ]);
    await tab.context.close();
  }, 120_000);

  it('ends a session past its idle or absolute lifetime', async () => {
    for (const [column, reason] of [
      ['last_seen_at', 'idle'],
      ['expires_at', 'expired'],
    ]) {
      const tab = await openTab();
      await signInAs(tab, 'Rui Reviewer');
      await tab.page.waitForURL(`${stack.url}/console/math`);
      const secret = (await sessionCookie(tab.context))!.value;
      // Moved back in the database (the lifetimes are configured; waiting them out would take an hour).
      await stack.dataSource.query(
        `UPDATE console_sessions SET ${column} = now() - interval '1 second' - make_interval(secs => $2)
          WHERE secret_hash = sha256($1::bytea)`,
        [Buffer.from(secret), stack.config.consoleSession.idleSeconds],
      );
      const response = await withCookie('/api/math/tasks', secret);
      expect(response.status).toBe(401);
      await expect(response.json()).resolves.toMatchObject({
        detail: expect.stringMatching(/sign in again/),
      });
      await tab.page.reload();
      await expect(tab.page.getByRole('status').innerText()).resolves.toMatch(/Signed out/);
      const [row] = await stack.dataSource.query(
        `SELECT ended_reason FROM console_sessions WHERE secret_hash = sha256($1::bytea)`,
        [Buffer.from(secret)],
      );
      expect(row.ended_reason).toBe(reason);
      await tab.context.close();
    }
  }, 120_000);

  it('keeps API keys working beside a session, and a key wins over the cookie', async () => {
    const tab = await openTab();
    await signInAs(tab, 'Rui Reviewer');
    await tab.page.waitForURL(`${stack.url}/console/math`);
    const secret = (await sessionCookie(tab.context))!.value;
    const byKey = await http(stack, 'GET', '/api/auth/session', { token: adminKey });
    expect(byKey.status).toBe(200);
    const both = await fetch(`${stack.url}/api/auth/session`, {
      headers: { authorization: `Bearer ${adminKey}`, cookie: `referee_session=${secret}` },
    });
    await expect(both.json()).resolves.toMatchObject({ member: { username: 'ada' } });
    // What names a key cannot be done with a session: a clear 403, not an error.
    expect((await withCookie('/api/auth/session', secret)).status).toBe(403);
    await tab.context.close();
  }, 120_000);
});
