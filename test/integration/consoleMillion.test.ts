import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type Browser, type Page } from 'playwright-core';
import { describeInBrowser, hasChromium, launchChromium, skipReason } from '../helpers/chromium';
import { PAGE_SIZE_MAX } from '../../api/math/shared/pagination';
import { projectRoot } from '../../infra/paths';
import { generateMathTasks } from '../../scripts/mathTaskRows';
import { http, mintKey, startStack, type TestStack } from '../helpers/stack';

/**
 * "Works with 1,000,000 tasks", shown: the math projection of a throwaway database filled with 1,000,000 generated
 * task rows (INSERT … SELECT generate_series, valid rows of the list endpoint), and the console's queue opened in
 * Debian's headless Chromium by an Owner (all of them) and a Reviewer (their share). Each sees the first page and
 * the exact total, and every request the console sends reads one bounded page: nothing loads the whole list.
 * The time to the first page is written to test/.artifacts/console/million.json (a measurement for
 * docs/console.md, not an assertion).
 */

const TASKS = 1_000_000;
const ARTIFACTS = join(projectRoot, 'test', '.artifacts', 'console');

let stack: TestStack;
let browser: Browser;

beforeAll(async () => {
  if (!hasChromium) return;
  // Writing the million rows is set-up, not a request: past the API's statement deadline on a 2-core machine.
  const setUpDeadline = { DATABASE_STATEMENT_TIMEOUT_MS: String(30 * 60_000) };
  [stack, browser] = await Promise.all([startStack({ env: setUpDeadline }), launchChromium()]);
  await generateMathTasks(stack.dataSource, TASKS);
}, 30 * 60_000);

afterAll(async () => {
  await browser?.close();
  await stack?.stop();
}, 120_000);

/** What the page asked the API for: each request's path and query, and for a list, the page it got back. */
interface ApiRead {
  path: string;
  query: URLSearchParams;
  bytes: number;
  list: { items: number; page_size: number; total?: number } | null;
}

/** Signs in on a fresh tab and waits for the queue's first page; returns the time it took and the reads so far. */
async function openQueue(
  token: string,
): Promise<{ page: Page; reads: () => Promise<ApiRead[]>; firstPageMs: number }> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const pending: Array<Promise<ApiRead>> = [];
  page.on('response', (response) => {
    const url = new URL(response.url());
    if (!url.pathname.startsWith('/api/')) return;
    pending.push(
      response.body().then((body) => {
        let list: ApiRead['list'] = null;
        try {
          const json = JSON.parse(body.toString('utf8'));
          if (Array.isArray(json.items))
            list = { items: json.items.length, page_size: json.page_size, total: json.total };
        } catch {
          // not JSON: not a list
        }
        return { path: url.pathname, query: url.searchParams, bytes: body.length, list };
      }),
    );
  });
  await page.goto(`${stack.url}/console`);
  await page.getByLabel('API key').fill(token);
  const started = Date.now();
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.locator('table[aria-label="Tasks"] tbody tr[data-task-id]').first().waitFor();
  await page.getByTestId('counts').waitFor();
  const firstPageMs = Date.now() - started;
  return { page, reads: () => Promise.all(pending), firstPageMs };
}

/** Every list the console read was one page of at most PAGE_SIZE_MAX items, asked for by page. */
function expectOnlyPages(reads: ApiRead[]): void {
  const lists = reads.filter((r) => r.list);
  expect(lists.length).toBeGreaterThan(0);
  for (const read of lists) {
    expect(read.list!.items).toBeLessThanOrEqual(read.list!.page_size ?? PAGE_SIZE_MAX);
    expect(read.list!.items).toBeLessThanOrEqual(PAGE_SIZE_MAX);
  }
  for (const read of reads.filter((r) => r.path === '/api/math/tasks')) {
    const size = read.query.get('page_size');
    if (size !== null) expect(Number(size)).toBeLessThanOrEqual(PAGE_SIZE_MAX);
    expect(read.list!.page_size).toBeLessThanOrEqual(PAGE_SIZE_MAX);
  }
  // Well under a megabyte in all: the pages, the counts and the session, never the list.
  expect(reads.reduce((sum, r) => sum + r.bytes, 0)).toBeLessThan(256 * 1024);
}

describeInBrowser(`the console over 1,000,000 math tasks${skipReason}`, () => {
  const timings: Record<string, number> = {};

  afterAll(async () => {
    await mkdir(ARTIFACTS, { recursive: true });
    await writeFile(
      join(ARTIFACTS, 'million.json'),
      `${JSON.stringify({ tasks: TASKS, ...timings }, null, 2)}\n`,
    );
    process.stderr.write(
      `console over ${TASKS} tasks, first page after sign-in: ${JSON.stringify(timings)}\n`,
    );
  });

  it(
    'shows an Owner the first page and the exact total of all 1,000,000, reading pages only',
    async () => {
      const [{ total }] = await stack.dataSource.query('SELECT count(*)::int AS total FROM math_tasks');
      expect(total).toBe(TASKS);
      const owner = await mintKey(stack, 'math', 'bench|owner');
      const { page, reads, firstPageMs } = await openQueue(owner.token);
      timings.ownerFirstPageMs = firstPageMs;

      await expect(page.getByTestId('counts').innerText()).resolves.toMatch(new RegExp(`^${TASKS} tasks`));
      const api = await http(stack, 'GET', '/api/math/tasks', { token: owner.token });
      const shown = await page
        .locator('table[aria-label="Tasks"] tbody tr[data-task-id]')
        .evaluateAll((rows) => rows.map((r) => r.getAttribute('data-task-id')));
      expect(shown).toEqual(api.body.items.map((t: { task_id: string }) => t.task_id));
      expect(shown).toHaveLength(api.body.page_size);
      expectOnlyPages(await reads());

      // The next page is one more page read, not more of the list.
      await page.keyboard.press(']');
      await page.waitForURL(/page=2/);
      await page.locator(`tr[data-task-id="${shown[0]}"]`).waitFor({ state: 'detached' });
      const taskReads = (await reads()).filter((r) => r.path === '/api/math/tasks');
      expect(taskReads.map((r) => r.query.get('page'))).toEqual(['1', '2']);
      expectOnlyPages(await reads());
      await page.context().close();
    },
    10 * 60_000,
  );

  it(
    'shows a Reviewer the first page and the exact total of their own tasks among them',
    async () => {
      // The generated Reviewer with the most tasks (each of the 20 has about 40,000).
      const [reviewer] = await stack.dataSource.query(
        `SELECT m.identity_id, count(*)::int AS tasks FROM math_tasks t JOIN members m ON m.id = t.assignee_id
        WHERE m.role = 'REVIEWER' GROUP BY m.identity_id ORDER BY tasks DESC LIMIT 1`,
      );
      expect(reviewer.tasks).toBeGreaterThan(10_000);
      const key = await mintKey(stack, 'math', reviewer.identity_id);
      const { page, reads, firstPageMs } = await openQueue(key.token);
      timings.reviewerFirstPageMs = firstPageMs;
      await expect(page.getByTestId('counts').innerText()).resolves.toMatch(
        new RegExp(`^${reviewer.tasks} tasks`),
      );
      expectOnlyPages(await reads());
      await page.context().close();
    },
    10 * 60_000,
  );
});
