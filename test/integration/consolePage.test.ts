import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type Browser, type BrowserContext, type Page } from 'playwright-core';
import { describeInBrowser, hasChromium, launchChromium, skipReason } from '../helpers/chromium';
import { CONSOLE_SECURITY_POLICY } from '../../api/console/routes';
import { projectRoot } from '../../infra/paths';
import { g, importGenomicsBundle, topicPath } from '../helpers/genomics';
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
 * The reviewer console (/console) in Debian's headless Chromium, against the whole stack (API, worker,
 * PostgreSQL, Temporal, S3) with the demo data: signing in and out, a reviewer working their queue with the
 * keyboard, a 409 and its reload, genomics measurements unmerged, and axe-core on every main page. One browser
 * serves every case; each case has its own context (its own sessionStorage). Screenshots go to
 * test/.artifacts/console/, or to docs/console/ with UPDATE_CONSOLE_SCREENSHOTS=1.
 */

const SHOTS = process.env.UPDATE_CONSOLE_SCREENSHOTS
  ? join(projectRoot, 'docs', 'console')
  : join(projectRoot, 'test', '.artifacts', 'console');
const IDEMPOTENCY_KEY = /^[A-Za-z0-9._:-]{16,128}$/;

let stack: TestStack;
let browser: Browser;
const keys = {} as Record<'admin' | 'rui' | 'sofia' | 'genomicsOwner' | 'genomicsRui', string>;
const ids = {} as Record<'rui' | 'sofia' | 'genomicsRui', string>;
let axeSource: string;

beforeAll(async () => {
  if (!hasChromium) return;
  [stack, browser, axeSource] = await Promise.all([
    startStack(),
    launchChromium(),
    readFile(require.resolve('axe-core/axe.min.js'), 'utf8'),
  ]);
  await seedMembers(stack);
  await Promise.all([importBundle(stack), importGenomicsBundle(stack)]);
  [keys.admin, keys.rui, keys.sofia, keys.genomicsOwner, keys.genomicsRui] = (
    await Promise.all([
      mintKey(stack, 'math', 'idp|ada'),
      mintKey(stack, 'math', 'idp|rui'),
      mintKey(stack, 'math', 'idp|sofia'),
      mintKey(stack, 'genomics', 'idp|olga'),
      mintKey(stack, 'genomics', 'idp|rui'),
    ])
  ).map((k) => k.token);
  ids.rui = await memberId(stack, 'math', 'idp|rui');
  ids.sofia = await memberId(stack, 'math', 'idp|sofia');
  ids.genomicsRui = await memberId(stack, 'genomics', 'idp|rui');
  // Rui's queue: three tasks (q2-a and q2-b share a report, so Rui gets both to read it); Sofia's: none of those.
  for (const taskId of ['demo-q1-a', 'demo-q2-a', 'demo-q2-b'])
    await act(stack, keys.admin, taskId, { action: 'assign', assignee_id: ids.rui });
  await act(stack, keys.admin, 'demo-q3-a', { action: 'assign', assignee_id: ids.sofia });
  await mkdir(SHOTS, { recursive: true });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await stack?.stop();
});

interface Tab {
  context: BrowserContext;
  page: Page;
  /** Page errors, CSP violations and requests that left the server. */
  problems: string[];
  /** Every write the page sent: method, path and its Idempotency-Key. */
  writes: Array<{ method: string; path: string; idempotencyKey: string | undefined }>;
}

async function openTab(): Promise<Tab> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const tab: Tab = { context, page, problems: [], writes: [] };
  page.on('console', (message) => {
    // A refused request (403, 404, 409) is logged by Chromium as a failed resource; the cases assert those.
    if (message.type() === 'error' && !message.text().startsWith('Failed to load resource'))
      tab.problems.push(`console: ${message.text()}`);
  });
  page.on('pageerror', (error) => tab.problems.push(`page error: ${error.message}`));
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.origin !== stack.url && url.protocol !== 'blob:' && url.protocol !== 'data:')
      tab.problems.push(`left the server: ${request.url()}`);
    if (request.method() !== 'GET')
      tab.writes.push({
        method: request.method(),
        path: url.pathname,
        idempotencyKey: request.headers()['idempotency-key'],
      });
  });
  return tab;
}

async function signIn(tab: Tab, key: string, path = '/console'): Promise<void> {
  await tab.page.goto(`${stack.url}${path}`);
  await tab.page.getByLabel('API key').fill(key);
  await tab.page.getByRole('button', { name: 'Sign in' }).click();
  await tab.page.getByTestId('who').waitFor();
}

/** axe-core's serious and critical findings on the page as it is now. */
async function accessibilityViolations(page: Page): Promise<string[]> {
  // Evaluated through the DevTools protocol, which the page's CSP does not govern (the page itself loads no such script).
  if (!(await page.evaluate(() => Boolean((globalThis as any).axe)))) await page.evaluate(axeSource);
  const results = await page.evaluate(() =>
    (globalThis as any).axe.run((globalThis as any).document, { resultTypes: ['violations'] }),
  );
  return (results.violations as Array<{ id: string; impact: string; nodes: unknown[] }>)
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.impact}: ${v.id} (${v.nodes.length} nodes)`);
}

const taskRows = (page: Page) => page.locator('table[aria-label="Tasks"] tbody tr');

describeInBrowser(`/console in headless Chromium${skipReason}`, () => {
  it('is served with a strict CSP, hashed long-cached assets, and a small compressed bundle', async () => {
    const page = await fetch(`${stack.url}/console/math/tasks/anything`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toBe(CONSOLE_SECURITY_POLICY);
    expect(CONSOLE_SECURITY_POLICY).not.toMatch(/unsafe-inline|unsafe-eval/);
    const html = await page.text();
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
    const script = /src="(\/console\/assets\/main-[A-Z0-9]+\.js)"/.exec(html)?.[1];
    expect(script).toBeDefined();
    const asset = await fetch(`${stack.url}${script}`, { headers: { 'accept-encoding': 'gzip' } });
    expect(asset.status).toBe(200);
    expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(asset.headers.get('content-encoding')).toBe('gzip');
    // fetch decodes the body; the compressed size is what went over the wire.
    const compressed = Number(asset.headers.get('content-length'));
    expect(compressed).toBeGreaterThan(0);
    expect(compressed).toBeLessThan(200 * 1024);
    const missing = await fetch(`${stack.url}/console/assets/main-NOTBUILT.js`);
    expect(missing.status).toBe(404);
    expect(missing.headers.get('content-type')).toContain('application/problem+json');
  });

  it('signs a reviewer in with their key (kept in sessionStorage only) and shows exactly their tasks', async () => {
    const tab = await openTab();
    const { page } = tab;
    await page.goto(`${stack.url}/console`);
    await expect(accessibilityViolations(page)).resolves.toEqual([]);
    await page.screenshot({ path: join(SHOTS, 'sign-in.png') });
    await signIn(tab, keys.rui);
    await expect(page.getByTestId('who').innerText()).resolves.toMatch(/Rui Reviewer[\s\S]*REVIEWER/);
    await taskRows(page).first().waitFor();

    const api = await http(stack, 'GET', '/api/math/tasks?page_size=100', { token: keys.rui });
    const shown = await taskRows(page).evaluateAll((rows) => rows.map((r) => r.getAttribute('data-task-id')));
    expect(shown.sort()).toEqual(api.body.items.map((t: any) => t.task_id).sort());
    expect(shown).not.toContain('demo-q3-a');
    await expect(page.getByTestId('counts').innerText()).resolves.toMatch(/^3 tasks/);

    expect(page.url()).not.toContain(keys.rui);
    expect(await tab.context.cookies()).toEqual([]);
    await expect(
      page.evaluate(() => (globalThis as any).sessionStorage.getItem('referee.console.key')),
    ).resolves.toBe(keys.rui);
    await expect(page.evaluate(() => (globalThis as any).localStorage.length)).resolves.toBe(0);
    await expect(accessibilityViolations(page)).resolves.toEqual([]);
    await page.screenshot({ path: join(SHOTS, 'math-queue.png'), fullPage: true });

    // Sofia's task is not Rui's to see, even by its address.
    await page.goto(`${stack.url}/console/math/tasks/demo-q3-a`);
    await expect(page.getByRole('alert').innerText()).resolves.toMatch(/404/);
    expect(tab.problems).toEqual([]);
    await tab.context.close();
  }, 180_000);

  it('works the reviewer queue end to end with the keyboard; each verdict lands in the API', async () => {
    const tab = await openTab();
    const { page } = tab;
    await signIn(tab, keys.rui);
    await taskRows(page).first().waitFor();
    const order = await taskRows(page).evaluateAll((rows) =>
      rows.map((r) => r.getAttribute('data-task-id')!),
    );

    // j/k move the selection; o opens the selected task.
    await page.keyboard.press('j');
    await page.keyboard.press('j');
    await page.keyboard.press('k');
    await expect(page.locator('tr.selected').getAttribute('data-task-id')).resolves.toBe(order[1]);
    await page.keyboard.press('k');
    await page.keyboard.press('?');
    await expect(page.getByRole('dialog').innerText()).resolves.toMatch(/Next task in the list/);
    await page.keyboard.press('Escape');
    await expect(page.getByRole('dialog').count()).resolves.toBe(0);
    await page.keyboard.press('o');

    const verdicts: Array<[string, string]> = [
      ['a', 'ACCEPTED'],
      ['n', 'NEEDS_REVISION'],
      ['x', 'REJECTED'],
    ];
    for (const [index, [key, decision]] of verdicts.entries()) {
      const taskId = order[index];
      await page.locator(`article[data-task-id="${taskId}"]`).waitFor();
      if (index === 0) {
        await page.getByRole('heading', { name: 'Report', exact: true }).waitFor();
        await page.locator('.markdown').waitFor();
        await expect(page.locator('.badge.ok').first().innerText()).resolves.toBe('SHA-256 verified');
        await expect(accessibilityViolations(page)).resolves.toEqual([]);
        await page.screenshot({ path: join(SHOTS, 'math-task.png'), fullPage: true });
      }
      await page.keyboard.press(key);
      await expect(page.evaluate(() => (globalThis as any).document.activeElement?.id)).resolves.toBe(
        'comment',
      );
      await page.keyboard.type(`Verdict ${decision} from the console.`);
      await page.keyboard.press('Control+Enter');
      if (index < verdicts.length - 1) {
        await page.locator(`article[data-task-id="${order[index + 1]}"]`).waitFor();
        await expect(page.getByTestId('notice').innerText()).resolves.toMatch(/Next task opened/);
      } else {
        // After the last task the stream returns to the queue.
        await page.getByTestId('notice').filter({ hasText: 'last task' }).waitFor();
      }
      const landed = await http(stack, 'GET', `/api/math/tasks/${taskId}/workflow`, { token: keys.admin });
      expect(landed.body).toMatchObject({ review_state: 'COMPLETED', decision });
      expect(landed.body.events[0]).toMatchObject({
        action: 'verdict',
        actor_id: ids.rui,
        comment: `Verdict ${decision} from the console.`,
      });
    }
    // The queue now shows three completed reviews.
    await expect(page.getByTestId('counts').innerText()).resolves.toMatch(/completed 3/);

    const verdictWrites = tab.writes.filter((w) => w.method === 'POST');
    expect(verdictWrites).toHaveLength(3);
    for (const write of verdictWrites) expect(write.idempotencyKey).toMatch(IDEMPOTENCY_KEY);
    expect(new Set(verdictWrites.map((w) => w.idempotencyKey)).size).toBe(3);
    expect(tab.problems).toEqual([]);
    await tab.context.close();
  }, 180_000);

  it('shows what changed on a 409 and applies the action after a reload', async () => {
    const tab = await openTab();
    const { page } = tab;
    await signIn(tab, keys.admin, '/console/math/tasks/demo-q3-a');
    await page.locator('article[data-task-id="demo-q3-a"]').waitFor();
    const seen = Number(await page.locator('article').getAttribute('data-version'));

    // Someone else acts on the task behind the page's back.
    await act(stack, keys.admin, 'demo-q3-a', { action: 'assign', assignee_id: ids.rui });

    await page.getByRole('button', { name: 'Archive' }).click();
    const conflict = page.getByTestId('conflict');
    await conflict.waitFor();
    const text = await conflict.innerText();
    expect(text).toContain(`You saw version ${seen}; it is now at version ${seen + 1}`);
    expect(text).toMatch(/Assignee: Sofia Reviewer → Rui Reviewer/);
    await expect(accessibilityViolations(page)).resolves.toEqual([]);
    await page.screenshot({ path: join(SHOTS, 'math-conflict.png'), fullPage: true });
    let task = await http(stack, 'GET', '/api/math/tasks/demo-q3-a', { token: keys.admin });
    expect(task.body).toMatchObject({ archived: false, version: seen + 1 });

    await page.getByRole('button', { name: 'Reload the task' }).click();
    await expect(conflict.count()).resolves.toBe(0);
    await page.getByRole('button', { name: 'Archive' }).click();
    await page.getByTestId('notice').filter({ hasText: 'archive recorded' }).waitFor();
    task = await http(stack, 'GET', '/api/math/tasks/demo-q3-a', { token: keys.admin });
    expect(task.body).toMatchObject({ archived: true, version: seen + 2 });
    expect(tab.problems).toEqual([]);
    await tab.context.close();
  }, 180_000);

  it('shows genomics original and rerun measurements side by side, never merged; a note is written once; HTML in Markdown stays text', async () => {
    const tab = await openTab();
    const { page } = tab;
    await signIn(tab, keys.genomicsOwner);
    await expect(page.getByTestId('who').innerText()).resolves.toMatch(/Olga Owner[\s\S]*OWNER/);
    const rows = page.locator('table[aria-label="Topics"] tbody tr');
    await rows.first().waitFor();
    await expect(accessibilityViolations(page)).resolves.toEqual([]);
    await page.screenshot({ path: join(SHOTS, 'genomics-topics.png'), fullPage: true });
    const uid = await rows.first().getAttribute('data-uid');
    await page.keyboard.press('o');
    await page.locator(`article[data-uid="${uid}"]`).waitFor();

    const measured = await g(stack, 'GET', topicPath(uid!, '/measurements'), { token: keys.genomicsOwner });
    for (const scope of ['original_report', 'public_package_rerun']) {
      const column = page.locator(`section[data-scope="${scope}"]`);
      const shownIds = await column
        .locator('[data-measurement-id]')
        .evaluateAll((nodes) => nodes.map((n) => n.getAttribute('data-measurement-id')));
      const expected = measured.body.items.filter((m: any) => m.scope === scope).map((m: any) => m.id);
      expect(expected.length).toBeGreaterThan(0);
      expect(shownIds.sort()).toEqual(expected.sort());
    }
    await expect(page.locator('section[data-scope="original_report"]').innerText()).resolves.toContain(
      '84.0 % (42 of 50)',
    );
    await expect(page.locator('section[data-scope="public_package_rerun"]').innerText()).resolves.toContain(
      '80.0 % (40 of 50)',
    );
    await expect(page.getByRole('heading', { name: 'Storage paths and checksums' }).count()).resolves.toBe(1);
    await expect(page.locator('table.paths td.hash').first().innerText()).resolves.toMatch(/^[0-9a-f]{64}$/);
    await expect(accessibilityViolations(page)).resolves.toEqual([]);
    await page.screenshot({ path: join(SHOTS, 'genomics-topic.png'), fullPage: true });

    await page.getByRole('textbox', { name: 'Note' }).fill('Checked from the console.');
    await page.getByRole('button', { name: 'Add note' }).dblclick();
    await page.getByTestId('notice').filter({ hasText: 'Note added' }).waitFor();
    const notes = await g(stack, 'GET', topicPath(uid!, '/notes'), { token: keys.genomicsOwner });
    expect(notes.body.items.filter((n: any) => n.body === 'Checked from the console.')).toHaveLength(1);
    const noteWrites = tab.writes.filter((w) => w.path.endsWith('/notes'));
    expect(noteWrites.length).toBeGreaterThan(0);
    for (const write of noteWrites) expect(write.idempotencyKey).toMatch(IDEMPOTENCY_KEY);

    // A brief carrying HTML and a script link renders as text: nothing of it reaches the DOM as markup.
    const hostile = [
      '# Brief <img src=x onerror="window.__injected = 1">',
      '<script>window.__injected = 2</script>',
      '[a link](javascript:window.__injected=3) and [a safe one](https://example.org/x)',
    ].join('\n\n');
    const created = await g(stack, 'POST', '/api/v1/topics', {
      token: keys.genomicsOwner,
      body: { batch: 'batch-001', topic: 9001, title: 'Hostile brief', category: 'test', markdown: hostile },
    });
    expect(created.status).toBe(201);
    await page.goto(`${stack.url}/console/genomics/topics/${encodeURIComponent(created.body.topicUid)}`);
    const brief = page.locator('.markdown');
    await brief.waitFor();
    await expect(brief.innerText()).resolves.toContain('<img src=x onerror=');
    await expect(brief.innerText()).resolves.toContain('<script>window.__injected = 2</script>');
    await expect(brief.locator('img, script').count()).resolves.toBe(0);
    const hrefs = await brief.locator('a').evaluateAll((links) => links.map((a) => a.getAttribute('href')));
    expect(hrefs).toEqual(['https://example.org/x']);
    await expect(page.evaluate(() => (globalThis as any).__injected)).resolves.toBeUndefined();
    expect(tab.problems).toEqual([]);
    await tab.context.close();
  }, 180_000);

  it('keeps focus inside the shortcuts dialog while it is open and returns it on close', async () => {
    const tab = await openTab();
    const { page } = tab;
    await signIn(tab, keys.rui);
    await taskRows(page).first().waitFor();
    const opener = page.getByRole('button', { name: 'Shortcuts (?)' });
    await opener.click();
    const dialog = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
    await dialog.waitFor();
    const focusInDialog = () =>
      page.evaluate(() => {
        const doc = (globalThis as any).document;
        return Boolean(doc.querySelector('[role="dialog"]')?.contains(doc.activeElement));
      });
    await expect(focusInDialog()).resolves.toBe(true);
    for (const key of ['Tab', 'Tab', 'Tab', 'Shift+Tab', 'Shift+Tab', 'Shift+Tab', 'Shift+Tab']) {
      await page.keyboard.press(key);
      await expect(focusInDialog()).resolves.toBe(true);
    }
    await expect(accessibilityViolations(page)).resolves.toEqual([]);
    await page.keyboard.press('Escape');
    await expect(dialog.count()).resolves.toBe(0);
    await expect(
      opener.evaluate((button) => button === (globalThis as any).document.activeElement),
    ).resolves.toBe(true);

    // Opened with `?` from a focused control, closed with `?`: focus is back on that control.
    await page.getByRole('button', { name: 'Sign out' }).focus();
    await page.keyboard.press('?');
    await dialog.waitFor();
    await expect(focusInDialog()).resolves.toBe(true);
    await page.keyboard.press('?');
    await expect(dialog.count()).resolves.toBe(0);
    await expect(page.evaluate(() => (globalThis as any).document.activeElement?.textContent)).resolves.toBe(
      'Sign out',
    );
    expect(tab.problems).toEqual([]);
    await tab.context.close();
  }, 180_000);

  it('gives each genomics verdict a single key, listed by `?`; a reviewer reviews with it and edits their own note', async () => {
    const created = await g(stack, 'POST', '/api/v1/topics', {
      token: keys.genomicsOwner,
      body: {
        batch: 'batch-001',
        topic: 9002,
        title: 'Console review',
        category: 'test',
        markdown: 'A topic to review from the console.',
      },
    });
    expect(created.status).toBe(201);
    const uid: string = created.body.topicUid;
    const assigned = await g(stack, 'PUT', topicPath(uid, '/reviewer'), {
      token: keys.genomicsOwner,
      body: { reviewerId: ids.genomicsRui, instructions: 'Review from the console.', dueAt: null },
    });
    expect(assigned.status).toBe(200);
    const ownersNote = await g(stack, 'POST', topicPath(uid, '/notes'), {
      token: keys.genomicsOwner,
      body: { body: 'The owner’s note.', campaignId: null },
    });
    expect(ownersNote.status).toBe(201);

    const tab = await openTab();
    const { page } = tab;
    await signIn(tab, keys.genomicsRui, `/console/genomics/topics/${encodeURIComponent(uid)}`);
    await page.locator(`article[data-uid="${uid}"]`).waitFor();
    await page.getByRole('heading', { name: 'Submit a review' }).waitFor();
    await page.keyboard.press('?');
    const help = await page.getByRole('dialog').innerText();
    for (const verdict of ['comment', 'ready as is', 'minor repair', 'major repair', 'rejected'])
      expect(help.toLowerCase()).toContain(`review verdict: ${verdict}`);
    const listedKeys = await page
      .locator('[role="dialog"] tr')
      .evaluateAll((rows) =>
        rows.map((r) => [r.querySelector('kbd')?.textContent, r.textContent?.includes('Review verdict')]),
      );
    expect(listedKeys.filter(([, verdict]) => verdict).map(([key]) => key)).toEqual([
      'c',
      'a',
      'n',
      'm',
      'x',
    ]);
    await page.keyboard.press('Escape');

    // `c` chooses Comment and puts the cursor in the review; `a` then switches the verdict to Ready as is.
    await page.keyboard.press('c');
    await expect(page.evaluate(() => (globalThis as any).document.activeElement?.id)).resolves.toBe(
      'review-body',
    );
    await expect(page.locator('#review-verdict').inputValue()).resolves.toBe('COMMENT');
    await page.locator('#review-body').blur();
    await page.keyboard.press('a');
    await expect(page.locator('#review-verdict').inputValue()).resolves.toBe('READY_AS_IS');
    await page.keyboard.type('Ready as is, from the console.');
    await page.keyboard.press('Control+Enter');
    await page.getByTestId('notice').filter({ hasText: 'Review submitted' }).waitFor();
    const topic = await g(stack, 'GET', topicPath(uid), { token: keys.genomicsOwner });
    expect(topic.body.topic).toMatchObject({ decision: 'READY' });
    const events = await g(stack, 'GET', topicPath(uid, '/events'), { token: keys.genomicsOwner });
    expect(events.body.items.map((e: any) => [e.kind, e.actor_id])).toContainEqual([
      'review_submitted',
      ids.genomicsRui,
    ]);
    // The assignment is submitted: no open one is left, so the verdict keys are listed as unavailable.
    await page.getByRole('heading', { name: 'Submit a review' }).waitFor({ state: 'detached' });
    await page.keyboard.press('?');
    await expect(page.getByRole('dialog').innerText()).resolves.toMatch(
      /Review verdict: ready as is[^\n]*\(not available here now\)/,
    );
    await page.keyboard.press('Escape');

    // Notes: Rui writes one, then edits it; only the author's notes offer an edit (the API refuses others).
    await page.getByRole('textbox', { name: 'Note', exact: true }).fill('First thoughts.');
    await page.getByRole('button', { name: 'Add note' }).click();
    await page.getByTestId('notice').filter({ hasText: 'Note added' }).waitFor();
    await expect(page.getByRole('textbox', { name: 'Note', exact: true }).inputValue()).resolves.toBe('');
    const listed = await g(stack, 'GET', topicPath(uid, '/notes'), { token: keys.genomicsRui });
    const mine = listed.body.items.find((n: any) => n.body === 'First thoughts.');
    expect(mine).toBeDefined();
    await expect(
      page.getByRole('button', { name: `Edit note ${ownersNote.body.recordId}` }).count(),
    ).resolves.toBe(0);
    await page.getByRole('button', { name: `Edit note ${mine.id}` }).click();
    const editBox = page.getByRole('textbox', { name: 'Note text' });
    await expect(editBox.inputValue()).resolves.toBe('First thoughts.');
    await expect(accessibilityViolations(page)).resolves.toEqual([]);
    await page.screenshot({ path: join(SHOTS, 'genomics-note-edit.png'), fullPage: true });
    await editBox.fill('Second thoughts, edited in the console.');
    await page.getByRole('button', { name: 'Save note' }).dblclick();
    await page
      .getByTestId('notice')
      .filter({ hasText: `Note ${mine.id} edited` })
      .waitFor();
    let note = (await g(stack, 'GET', topicPath(uid, '/notes'), { token: keys.genomicsRui })).body.items.find(
      (n: any) => n.id === mine.id,
    );
    expect(note).toMatchObject({ body: 'Second thoughts, edited in the console.', edit_count: 1 });
    const edits = tab.writes.filter((w) => w.method === 'PUT' && w.path.endsWith(`/notes/${mine.id}`));
    expect(edits.length).toBeGreaterThan(0);
    expect(new Set(edits.map((w) => w.idempotencyKey)).size).toBe(1);
    expect(edits[0].idempotencyKey).toMatch(IDEMPOTENCY_KEY);

    // The note changes behind the page: saving the stale text is a 409 that changes nothing and offers a reload.
    await page.getByRole('button', { name: `Edit note ${mine.id}` }).click();
    const behind = await g(stack, 'PUT', topicPath(uid, `/notes/${mine.id}`), {
      token: keys.genomicsRui,
      body: { body: 'Changed elsewhere.', expectedBodySha256: note.body_sha256 },
    });
    expect(behind.status).toBe(200);
    await page.getByRole('textbox', { name: 'Note text' }).fill('Stale edit.');
    await page.getByRole('button', { name: 'Save note' }).click();
    const conflict = page.locator('.conflict');
    await conflict.waitFor();
    await expect(conflict.innerText()).resolves.toMatch(/Someone changed this note since you loaded it/);
    note = (await g(stack, 'GET', topicPath(uid, '/notes'), { token: keys.genomicsRui })).body.items.find(
      (n: any) => n.id === mine.id,
    );
    expect(note.body).toBe('Changed elsewhere.');
    await conflict.getByRole('button', { name: 'Reload the topic' }).click();
    await page
      .locator(`li[data-note-id="${mine.id}"] .note-body`)
      .filter({ hasText: 'Changed elsewhere.' })
      .waitFor();
    expect(tab.problems).toEqual([]);
    await tab.context.close();
  }, 180_000);

  it('signs out by the button, and by itself when the key is revoked (401)', async () => {
    const tab = await openTab();
    const { page } = tab;
    await signIn(tab, keys.sofia);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByLabel('API key').waitFor();
    await expect(page.evaluate(() => (globalThis as any).sessionStorage.length)).resolves.toBe(0);

    const spare = await mintKey(stack, 'math', 'idp|sofia');
    await signIn(tab, spare.token);
    await page.getByTestId('counts').waitFor();
    const revoked = await http(stack, 'DELETE', `/api/keys/${spare.id}`, { token: keys.admin });
    expect(revoked.status).toBe(200);
    await page.getByLabel('Search').fill('demo');
    await page.getByRole('button', { name: 'Apply' }).click();
    await page.getByText(/Signed out: the server refused the key/).waitFor();
    await expect(page.evaluate(() => (globalThis as any).sessionStorage.length)).resolves.toBe(0);
    expect(tab.problems).toEqual([]);
    await tab.context.close();
  }, 180_000);
});
