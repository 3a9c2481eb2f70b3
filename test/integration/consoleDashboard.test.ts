import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type Browser, type Page } from 'playwright-core';
import { describeInBrowser, hasChromium, launchChromium, skipReason } from '../helpers/chromium';
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
 * The console's dashboards (/console/math/dashboard, /console/genomics/dashboard) in headless Chromium against
 * the whole stack with the demo data and some review work done through the API: for an Owner and a Reviewer of
 * each service, the charts render, nothing is logged as an error, axe-core finds nothing serious, the charts are
 * reachable by keyboard, and every figure the page shows equals the API's answer to the same key.
 */

const SHOTS = process.env.UPDATE_CONSOLE_SCREENSHOTS
  ? join(projectRoot, 'docs', 'console')
  : join(projectRoot, 'test', '.artifacts', 'console');

let stack: TestStack;
let browser: Browser;
let axeSource: string;
const keys = {} as Record<'mathAdmin' | 'mathOwner' | 'rui' | 'genomicsOwner' | 'genomicsRui', string>;

beforeAll(async () => {
  if (!hasChromium) return;
  [stack, browser, axeSource] = await Promise.all([
    startStack(),
    launchChromium(),
    readFile(require.resolve('axe-core/axe.min.js'), 'utf8'),
  ]);
  await seedMembers(stack);
  await Promise.all([importBundle(stack), importGenomicsBundle(stack)]);
  [keys.mathAdmin, keys.mathOwner, keys.rui, keys.genomicsOwner, keys.genomicsRui] = (
    await Promise.all([
      mintKey(stack, 'math', 'idp|ada'),
      mintKey(stack, 'math', 'idp|olga'),
      mintKey(stack, 'math', 'idp|rui'),
      mintKey(stack, 'genomics', 'idp|olga'),
      mintKey(stack, 'genomics', 'idp|rui'),
    ])
  ).map((k) => k.token);
  const [rui, sofia, genomicsRui] = await Promise.all([
    memberId(stack, 'math', 'idp|rui'),
    memberId(stack, 'math', 'idp|sofia'),
    memberId(stack, 'genomics', 'idp|rui'),
  ]);
  // Math: Rui has three tasks and gives a verdict on one; Sofia has one open.
  for (const taskId of ['demo-q1-a', 'demo-q2-a', 'demo-q2-b'])
    await act(stack, keys.mathAdmin, taskId, { action: 'assign', assignee_id: rui });
  await act(stack, keys.mathAdmin, 'demo-q3-a', { action: 'assign', assignee_id: sofia });
  await act(stack, keys.rui, 'demo-q1-a', { action: 'start' });
  await act(stack, keys.rui, 'demo-q1-a', { action: 'verdict', decision: 'ACCEPTED', comment: 'Sound.' });
  // Genomics: Rui reviews one topic and keeps another open.
  for (const [topic, verdict] of [
    [9101, 'READY_AS_IS'],
    [9102, null],
  ] as const) {
    const created = await g(stack, 'POST', '/api/v1/topics', {
      token: keys.genomicsOwner,
      body: {
        batch: 'batch-001',
        topic,
        title: `Dashboard ${topic}`,
        category: 'test',
        markdown: 'A topic.',
      },
    });
    expect(created.status).toBe(201);
    const uid: string = created.body.topicUid;
    const assigned = await g(stack, 'PUT', topicPath(uid, '/reviewer'), {
      token: keys.genomicsOwner,
      body: { reviewerId: genomicsRui, instructions: 'Review it.', dueAt: null },
    });
    expect(assigned.status).toBe(200);
    if (verdict) {
      const reviewed = await g(stack, 'POST', topicPath(uid, '/reviews'), {
        token: keys.genomicsRui,
        body: { assignmentId: assigned.body.assignmentId, verdict, body: 'Fine.' },
      });
      expect(reviewed.status).toBe(200);
    }
  }
  await mkdir(SHOTS, { recursive: true });
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await stack?.stop();
});

async function accessibilityViolations(page: Page): Promise<string[]> {
  if (!(await page.evaluate(() => Boolean((globalThis as any).axe)))) await page.evaluate(axeSource);
  const results = await page.evaluate(() =>
    (globalThis as any).axe.run((globalThis as any).document, { resultTypes: ['violations'] }),
  );
  return (results.violations as Array<{ id: string; impact: string; nodes: unknown[] }>)
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.impact}: ${v.id} (${v.nodes.length} nodes)`);
}

/** The value at a dotted path of an answer (`reviewers.0.open`, `review_status.review_states.ASSIGNED`). */
function at(answer: unknown, path: string): unknown {
  return path
    .split('.')
    .reduce<any>((value, part) => (value === undefined ? undefined : value[part]), answer);
}

interface ShownFigure {
  source: string;
  path: string;
  value: string;
  text: string;
}

/**
 * Opens a dashboard signed in with `key` and checks what every case checks: charts drawn, no console error,
 * axe-clean, every chart reachable by Tab, and every figure equal to the API's answer (`sources`: the API paths
 * the page names as `data-source`, fetched here with the same key and window).
 */
async function openDashboard(
  key: string,
  path: string,
  sources: Record<string, string>,
  screenshot: string,
): Promise<{ shown: ShownFigure[]; answers: Record<string, any> }> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  try {
    await page.goto(`${stack.url}/console`);
    await page.getByLabel('API key').fill(key);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByTestId('who').waitFor();
    await page.getByRole('link', { name: 'Dashboard' }).click();
    await page.waitForURL(`${stack.url}/console${path}`);
    await page.locator('[data-testid="figure-ageing"] canvas').first().waitFor();

    const charts = await page.locator('[data-testid="chart"]').evaluateAll((holders) =>
      holders.map((h) => {
        const canvas = h.querySelector('canvas');
        return { drawn: Boolean(canvas && canvas.width > 0 && canvas.height > 0), hidden: h.ariaHidden };
      }),
    );
    expect(charts.length).toBeGreaterThanOrEqual(4);
    expect(charts.every((c) => c.drawn && c.hidden === 'true')).toBe(true);

    // Keyboard: Tab reaches every chart's figure, which names itself by its caption.
    const figures = await page.locator('figure.chart-figure').count();
    const reached = new Set<string>();
    for (let i = 0; i < 60 && reached.size < figures; i++) {
      await page.keyboard.press('Tab');
      const focused = await page.evaluate(() => {
        const active = (globalThis as any).document.activeElement;
        return active?.matches('figure.chart-figure') ? active.getAttribute('data-testid') : null;
      });
      if (focused) reached.add(focused);
    }
    expect(reached.size).toBe(figures);

    expect(await accessibilityViolations(page)).toEqual([]);
    await page.evaluate(() => (globalThis as any).document.activeElement?.blur());
    await page.screenshot({ path: join(SHOTS, screenshot), fullPage: true });

    const shown: ShownFigure[] = await page.locator('[data-source][data-path]').evaluateAll((cells) =>
      cells.map((c) => ({
        source: c.getAttribute('data-source')!,
        path: c.getAttribute('data-path')!,
        value: c.getAttribute('data-value')!,
        text: (c.textContent ?? '').trim(),
      })),
    );
    const answers: Record<string, any> = {};
    for (const [name, apiPath] of Object.entries(sources)) {
      const answer = await http(stack, 'GET', apiPath, { token: key });
      expect(answer.status).toBe(200);
      answers[name] = answer.body;
    }
    expect(shown.length).toBeGreaterThan(20);
    for (const figure of shown) {
      const value = at(answers[figure.source], figure.path);
      expect({ ...figure, api: value === null ? 'null' : String(value) }).toEqual({
        ...figure,
        api: figure.value,
      });
      // A count is shown as the API's number itself.
      if (typeof value === 'number' && !/seconds$/.test(figure.path)) expect(figure.text).toBe(String(value));
    }
    expect(problems).toEqual([]);
    return { shown, answers };
  } finally {
    await context.close();
  }
}

const MATH_SOURCES = {
  analytics: '/api/math/analytics?days=30',
  reviewers: '/api/math/analytics/reviewers?days=30',
  monitor: '/api/math/monitor',
};
const GENOMICS_SOURCES = { analytics: '/api/v1/analytics?days=30' };

const pathsOf = (shown: ShownFigure[]) => shown.map((f) => `${f.source}:${f.path}`);

describeInBrowser(`the console's dashboards in headless Chromium${skipReason}`, () => {
  it('shows an Owner the math figures of every task, as the API gives them', async () => {
    const { shown, answers } = await openDashboard(
      keys.mathOwner,
      '/math/dashboard',
      MATH_SOURCES,
      'math-dashboard.png',
    );
    expect(answers.analytics.scope).toBe('all');
    expect(answers.analytics.review_status.review_states).toMatchObject({ ASSIGNED: 3, COMPLETED: 1 });
    const rui = answers.reviewers.reviewers.find((r: any) => r.display_name.startsWith('Rui'));
    expect(rui).toMatchObject({ verdicts: 1, open: 2 });
    expect(rui.median_seconds).toEqual(expect.any(Number));
    expect(answers.reviewers.reviewers).toHaveLength(2);
    expect(pathsOf(shown)).toEqual(
      expect.arrayContaining([
        'analytics:review_status.review_states.ASSIGNED',
        'analytics:review_status.decisions.ACCEPTED',
        'analytics:trend.points.29.verdicts',
        'reviewers:reviewers.1.median_seconds',
        'reviewers:reviewers.1.p90_seconds',
        'reviewers:ageing.buckets.0.open',
        'monitor:freshness.latest_import_finished_at',
      ]),
    );
  }, 120_000);

  it('shows a math Reviewer the same figures over their own tasks only', async () => {
    const { shown, answers } = await openDashboard(
      keys.rui,
      '/math/dashboard',
      MATH_SOURCES,
      'math-dashboard-reviewer.png',
    );
    expect(answers.analytics.scope).toBe('assigned');
    expect(answers.analytics.review_status.total).toBe(3);
    expect(answers.reviewers.reviewers.map((r: any) => r.display_name)).toEqual([
      expect.stringMatching(/^Rui/),
    ]);
    expect(answers.reviewers.ageing.buckets[0].open).toBe(2);
    expect(pathsOf(shown)).toContain('reviewers:reviewers.0.median_seconds');
  }, 120_000);

  it('shows a genomics Owner the workspace figures, as the API gives them', async () => {
    const { shown, answers } = await openDashboard(
      keys.genomicsOwner,
      '/genomics/dashboard',
      GENOMICS_SOURCES,
      'genomics-dashboard.png',
    );
    expect(answers.analytics.scope).toBe('all');
    expect(answers.analytics.topics.decisions.READY).toBeGreaterThanOrEqual(1);
    expect(answers.analytics.reviewers).toEqual([
      expect.objectContaining({ verdicts: 1, open: 1, median_seconds: expect.any(Number) }),
    ]);
    expect(pathsOf(shown)).toEqual(
      expect.arrayContaining([
        'analytics:topics.workflow_statuses.ASSIGNED',
        'analytics:topics.dispositions.ACTIVE',
        'analytics:trend.29.reviews',
        'analytics:reviewers.0.p90_seconds',
        'analytics:freshness.latest_import_finished_at',
      ]),
    );
  }, 120_000);

  it('shows a genomics Reviewer the figures of the topics GET /api/v1/tasks shows them', async () => {
    const { answers } = await openDashboard(
      keys.genomicsRui,
      '/genomics/dashboard',
      GENOMICS_SOURCES,
      'genomics-dashboard-reviewer.png',
    );
    const tasks = await http(stack, 'GET', '/api/v1/tasks?limit=100', { token: keys.genomicsRui });
    expect(answers.analytics.scope).toBe('assigned');
    expect(answers.analytics.topics.total).toBe(tasks.body.items.length);
    expect(answers.analytics.topics.total).toBe(2);
    expect(answers.analytics.ageing.buckets[0].open).toBe(1);
  }, 120_000);

  it('refuses a window outside 1 to 90 days with a problem, in both services', async () => {
    const math = await http(stack, 'GET', '/api/math/analytics/reviewers?days=91', { token: keys.mathOwner });
    expect([math.status, math.body.code]).toEqual([400, 'validation_failed']);
    const genomics = await http(stack, 'GET', '/api/v1/analytics?days=0', { token: keys.genomicsOwner });
    expect([genomics.status, genomics.body.code]).toEqual([400, 'validation_failed']);
  });
});
