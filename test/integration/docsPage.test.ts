import { mkdir } from 'node:fs/promises';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import Router from '@koa/router';
import Koa from 'koa';
import { type Browser, type Page } from 'playwright-core';
import { describeInBrowser, hasChromium, launchChromium, skipReason } from '../helpers/chromium';
import { docsRoutes } from '../../api/docs/routes';
import { genomicsService } from '../../api/genomics';
import { mathService } from '../../api/math';
import { projectRoot } from '../../infra/paths';

/**
 * The reference page in a real headless browser (Debian's chromium): it loads from this server alone,
 * renders every operation of both contracts, and logs no error. The routes are the ones server.ts
 * registers, on a bare Koa app: the page needs no database. Screenshot: test/.artifacts/docs.png.
 */

const ARTIFACTS = join(projectRoot, 'test', '.artifacts');

let server: Server;
let origin: string;
let browser: Browser;

beforeAll(async () => {
  if (!hasChromium) return;
  const app = new Koa();
  const router = new Router();
  docsRoutes([mathService, genomicsService])(router);
  app.use(router.routes());
  server = await new Promise((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  browser = await launchChromium();
  await mkdir(ARTIFACTS, { recursive: true });
});

afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
});

/** Opens a page that records console errors, page errors, failed requests and requests leaving the server. */
async function openPage(): Promise<{ page: Page; problems: string[] }> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('requestfailed', (request) => problems.push(`failed: ${request.url()}`));
  page.on('request', (request) => {
    if (!request.url().startsWith(origin) && !request.url().startsWith('data:'))
      problems.push(`left the server: ${request.url()}`);
  });
  return { page, problems };
}

describeInBrowser(`GET /docs in headless Chromium${skipReason}`, () => {
  it('renders every operation of both contracts, with roles and scopes, and logs no error', async () => {
    const { page, problems } = await openPage();
    await page.goto(`${origin}/docs`);
    await page.locator('#math .opblock').first().waitFor({ timeout: 30_000 });
    await page.locator('#genomics .opblock').first().waitFor({ timeout: 30_000 });

    // Operations, not the webhook event payloads that Swagger UI lists under its own Webhooks heading.
    const operations = (service: string, part = '') =>
      page.locator(`#${service} .opblock:not(.webhooks .opblock)${part}`);
    await expect(operations('math').count()).resolves.toBe(mathService.operations.length);
    await expect(operations('genomics').count()).resolves.toBe(genomicsService.operations.length);
    const mathIds = await operations('math', ' .opblock-summary-operation-id').allInnerTexts();
    expect(mathIds.sort()).toEqual(mathService.operations.map((o) => o.operationId).sort());
    const genomicsIds = await operations('genomics', ' .opblock-summary-operation-id').allInnerTexts();
    expect(genomicsIds.sort()).toEqual(genomicsService.operations.map((o) => o.operationId).sort());
    await expect(page.locator('#math .webhooks .opblock').count()).resolves.toBeGreaterThan(0);
    await expect(page.locator('#genomics .webhooks .opblock').count()).resolves.toBeGreaterThan(0);

    const session = page.locator('#genomics .opblock').filter({ hasText: '/api/v1/session' }).first();
    await session.locator('.opblock-summary').click();
    // Swagger UI renders the expanded operation after the click returns: wait for it before reading it.
    await session.getByText('x-min-role').first().waitFor({ timeout: 15_000 });
    await expect(session.innerText()).resolves.toMatch(/x-min-role[\s\S]*REVIEWER/);

    await page.screenshot({ path: join(ARTIFACTS, 'docs.png'), fullPage: true });
    expect(problems).toEqual([]);
    await page.close();
  }, 120_000);

  it('links each problem type to its anchor on /docs/problems', async () => {
    const { page, problems } = await openPage();
    await page.goto(`${origin}/docs/problems#stale_version`);
    await expect(page.locator('tr#stale_version').innerText()).resolves.toContain('409');
    expect(problems).toEqual([]);
    await page.close();
  });
});
