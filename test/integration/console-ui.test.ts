import { mkdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { ensureConsoleBuilt } from '../../bin/local/console-build';
import { apiCall, startTestRuntime, uuid, type TestRuntime } from './support/runtime';

/**
 * The web console in a real browser (Debian's Chromium, driven by playwright-core) against the real
 * local runtime: sign in, see an event just sent through the collector appear in the live stream,
 * open it, build a chart, save it as a workspace and reopen it by URL, and sign out (which revokes
 * the token). Screenshots of the pages go to test-artifacts/console/.
 */
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const SCREENSHOTS = resolve(__dirname, '../../test-artifacts/console');

describe('web console', () => {
  let rt: TestRuntime;
  let browser: Browser;
  let page: Page;
  const pageErrors: string[] = [];
  let consoleUrl: string;

  beforeAll(async () => {
    await ensureConsoleBuilt();
    await mkdir(SCREENSHOTS, { recursive: true });
    rt = await startTestRuntime('console-ui', { managementAuth: { rateLimitPerMinute: 100_000 }, governanceRefreshMs: 0 });
    consoleUrl = `${rt.credentials.management_url}/console`;
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
    page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    page.on('pageerror', (error) => pageErrors.push(error.message));
  }, 240_000);

  afterAll(async () => {
    await browser?.close();
    await rt?.dispose();
  });

  const shot = (name: string) => page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: true });

  it('sends an unsigned visitor to sign-in, with the local org pre-filled, and signs in with the password flow', async () => {
    await page.goto(`${consoleUrl}/events`);
    await page.waitForURL(/\/console\/sign-in$/);
    expect(await page.inputValue('input[name="org_id"]')).toBe(rt.credentials.org_id);
    await page.fill('input[name="password"]', 'not the password');
    await page.fill('input[name="username"]', rt.credentials.admin_username!);
    await page.click('button[type="submit"]');
    await expect(page.getByRole('alert').textContent()).resolves.toMatch(/password/i);
    await page.fill('input[name="password"]', rt.credentials.admin_password!);
    await shot('sign-in');
    await page.click('button[type="submit"]');
    await page.waitForURL(/\/console\/events$/);
    // The token is in sessionStorage, never in the URL.
    expect(page.url()).not.toMatch(/token|eyJ/);
    expect(await page.evaluate<string | null>("sessionStorage.getItem('console.session')")).toContain('"token"');
  }, 60_000);

  it('shows an event sent through the collector in the live stream, without a reload, and opens it', async () => {
    const route = `/console-test/${uuid(1).slice(0, 8)}`;
    const sent = await rt.collect('/v1/events', apiCall({ transaction_id: uuid(77), request: { time: new Date().toISOString(), uri: `https://api.example.com${route}`, verb: 'POST', headers: { 'content-type': 'application/json' }, body: { order: 42 } }, response: { time: new Date().toISOString(), status: 201, headers: {}, body: { id: 'ord_1' } }, user_id: 'console-user', company_id: 'console-co' }));
    expect(sent.status).toBe(201);
    const row = page.getByRole('link', { name: new RegExp(`POST ${route}`) });
    await row.waitFor({ timeout: 30_000 });
    await shot('event-stream');
    await row.click();
    await page.waitForURL(/\/console\/events\/[^/?]+/);
    await page.getByRole('region', { name: 'Request' }).waitFor();
    await expect(page.getByLabel('Request body').textContent()).resolves.toContain('"order": 42');
    await expect(page.getByLabel('Response body').textContent()).resolves.toContain('ord_1');
    await expect(page.getByRole('link', { name: 'console-user' }).count()).resolves.toBe(1);
    await shot('event');
    // A deep link reloads to the same event.
    await page.reload();
    await page.getByRole('region', { name: 'Request' }).waitFor();
  }, 60_000);

  it('draws a time-series chart, saves it as a workspace and draws it again from its URL', async () => {
    await page.goto(`${consoleUrl}/charts/new?metric=count&interval=1h&from=-24h`);
    await page.getByRole('img', { name: /Event count per 1h/ }).waitFor({ timeout: 30_000 });
    await page.fill('input[name="workspace_name"]', 'Calls per hour');
    await page.click('button:has-text("Save as workspace")');
    await page.waitForURL(/\/console\/workspaces\/[^/]+$/);
    const workspaceUrl = page.url();
    await page.goto(workspaceUrl);
    await page.getByRole('heading', { name: 'Calls per hour' }).waitFor();
    await page.getByRole('img', { name: /Event count per 1h/ }).waitFor({ timeout: 30_000 });
    await shot('workspace');
    const id = decodeURIComponent(workspaceUrl.split('/').pop()!);
    const stored = await rt.management('GET', `/~/workspaces/${id}`);
    expect(stored.body.chart).toMatchObject({ view: 'time_series', from: '-24h', to: 'now', time_zone: 'UTC' });
    expect(stored.body.chart.es_query.aggs.over_time.date_histogram).toMatchObject({ field: 'request.time', fixed_interval: '1h', extended_bounds: { min: 'now-24h', max: 'now' } });
  }, 60_000);

  it('answers an unknown console path with its own not-found page, and fits a phone screen', async () => {
    await page.goto(`${consoleUrl}/no/such/page`);
    await page.getByRole('heading', { name: 'Page not found' }).waitFor();
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${consoleUrl}/events`);
    await page.getByRole('table').waitFor();
    const overflow = await page.evaluate<number>('document.documentElement.scrollWidth - window.innerWidth');
    expect(overflow).toBeLessThanOrEqual(0);
    await shot('event-stream-phone');
    await page.setViewportSize({ width: 1280, height: 800 });
  }, 60_000);

  it('signs out by revoking the token: the API refuses it from then on', async () => {
    const stored = JSON.parse((await page.evaluate<string | null>("sessionStorage.getItem('console.session')"))!) as { token: string };
    await page.click('button:has-text("Sign out")');
    await page.waitForURL(/\/console\/sign-in$/);
    const answer = await fetch(`${rt.credentials.management_url}/~/workspaces`, { headers: { authorization: `Bearer ${stored.token}` } });
    expect(answer.status).toBe(401);
    expect(pageErrors).toEqual([]);
  }, 60_000);
});
