import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { chromium, type Browser, type Frame, type Page } from 'playwright-core';
import { ensureConsoleBuilt } from '../../bin/local/console-build';
import { GRADUATED_TIERS, tieredPlan } from './support/billing-scenario';
import { apiCall, startTestRuntime, uuid, type TestRuntime } from './support/runtime';

/**
 * The customer's usage page in a real browser (Debian's Chromium), inside the documented example:
 * the Express app of examples/customer-portal, on another origin, mints a token for its signed-in
 * customer and frames the page; the customer sees its bill in the app's theme and sets a spend cap.
 * Then the console side: a workspace made a template, tried as a customer, and the mint snippet.
 */
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const SCREENSHOTS = resolve(__dirname, '../../test-artifacts/console');
const HOUR = 3_600_000;

describe('customer usage page and templates in the browser', () => {
  let rt: TestRuntime;
  let browser: Browser;
  let page: Page;
  let example: ChildProcess;
  let exampleUrl: string;
  const pageErrors: string[] = [];
  let workspaceId: string;

  beforeAll(async () => {
    await ensureConsoleBuilt();
    await mkdir(SCREENSHOTS, { recursive: true });
    rt = await startTestRuntime('customer-portal-ui', { managementAuth: { rateLimitPerMinute: 100_000 }, governanceRefreshMs: 0 });
    const post = (path: string, body: unknown) => rt.management('POST', path, {}, body);
    const plan = await tieredPlan(rt, 'Calls', 'tiered_graduated', GRADUATED_TIERS);
    const meter = await post('/~/billing/meters', {
      name: 'API calls',
      slug: 'calls',
      es_query: { query: { match_all: {} } },
      billing_plan: { provider_slug: 'webhook', params: { webhook_params: { channel_ids: ['ch'], custom_plan: { plan_id: plan } } } },
    });
    expect(meter.status).toBe(201);
    const now = Date.now();
    const subscription = {
      subscription_id: 'sub-acme',
      company_id: 'acme',
      status: 'active',
      items: [{ plan_id: plan }],
      current_period_start: new Date(now - 3 * HOUR).toISOString(),
      current_period_end: new Date(now + 21 * HOUR).toISOString(),
    };
    expect((await rt.collect('/v1/subscriptions', subscription)).status).toBe(201);
    const calls = Array.from({ length: 12 }, (_, i) => apiCall({ transaction_id: uuid(i + 1), company_id: 'acme' }, new Date(now - 2 * HOUR + i * 60_000)));
    expect((await rt.collect('/v1/events/batch', [...calls, apiCall({ transaction_id: uuid(99), company_id: 'globex' }, new Date(now - HOUR))])).status).toBe(
      201,
    );
    await rt.waitUntilConsumed();
    workspaceId = (
      await post('/~/workspaces', {
        name: 'Calls',
        policy: { acl: [], resource: {} },
        chart: {
          view: 'metric',
          url_query: 'view=metric&metric=count',
          from: '-24h',
          to: 'now',
          es_query: { size: 0, track_total_hits: true, query: { match_all: {} } },
        },
      })
    ).body._id;

    // The documented example, as a reader runs it, with a token that may only mint customer tokens.
    const token = await rt.issueToken({ scopes: ['read:public_workspaces'] });
    example = spawn(process.execPath, [resolve(__dirname, '../../examples/customer-portal/server.mjs')], {
      env: {
        ...process.env,
        MANAGEMENT_URL: rt.credentials.management_url,
        MANAGEMENT_TOKEN: token,
        PORT: '0',
        PORTAL_LOCALE: 'de-DE',
        PORTAL_ACCENT: '#0b7a53',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    exampleUrl = await new Promise<string>((done, fail) => {
      let output = '';
      example.stdout!.on('data', (chunk) => {
        output += chunk;
        const port = /on http:\/\/[^:]+:(\d+)/.exec(output)?.[1];
        // Opened as localhost while the usage page is on 127.0.0.1: another origin and another site.
        if (port) done(`http://localhost:${port}`);
      });
      example.stderr!.on('data', (chunk) => (output += chunk));
      example.once('exit', (code) => fail(new Error(`the example exited (${code}): ${output}`)));
    });
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
    page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
    page.on('pageerror', (error) => pageErrors.push(error.message));
  }, 240_000);

  afterAll(async () => {
    example?.kill();
    await browser?.close();
    await rt?.dispose();
  });

  async function seriousViolations(frame: Frame | Page) {
    await frame.addScriptTag({ path: require.resolve('axe-core/axe.min.js') });
    const violations = await frame.evaluate<{ id: string; impact: string; nodes: unknown[] }[]>(
      "axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa'] } }).then((r) => r.violations.map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.map((n) => n.target) })))",
    );
    return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  }

  it("shows a signed-in customer its own bill inside the example app's iframe, themed, on another origin", async () => {
    await page.goto(exampleUrl);
    await page.fill('input[name="company_id"]', 'acme');
    await page.click('button');
    // The iframe element comes first, its page a moment later: wait until the frame is at the usage page.
    const frame = await (await page.waitForSelector('iframe[title="Usage and billing"]')).contentFrame();
    expect(frame).not.toBeNull();
    await frame!.waitForURL((url) => url.href.startsWith(`${rt.credentials.management_url}/console/customer/ct1.`));
    expect(new URL(frame!.url()).origin).not.toBe(new URL(page.url()).origin);
    await frame!.getByRole('heading', { name: 'Your API usage' }).waitFor();
    // 12 calls: 10 × 0.10 + 2 × 0.05 + 1 flat = 2.10, written in German.
    const bill = frame!.getByRole('region', { name: 'Bill' });
    await expect(bill.textContent()).resolves.toMatch(/So far\s*2,10\s\$/);
    await expect(frame!.getByRole('cell', { name: 'API calls' }).isVisible()).resolves.toBe(true);
    await expect(frame!.evaluate<string>("getComputedStyle(document.querySelector('main')).getPropertyValue('--accent')")).resolves.toBe('#0b7a53');
    await frame!.getByRole('img', { name: 'Usage per day and meter' }).waitFor();
    expect(await seriousViolations(frame!)).toEqual([]);
    await page.screenshot({ path: join(SCREENSHOTS, 'customer-usage-embedded.png'), fullPage: true });

    // The customer sets its own cap: 2.10 of 2.00 is past it.
    await frame!.fill('input[inputmode="decimal"]', '2');
    await frame!.getByLabel('Stop API calls when the budget is reached').check();
    await frame!.getByRole('button', { name: 'Save the cap' }).click();
    await expect(frame!.getByRole('status').textContent()).resolves.toMatch(/2,10\s\$ of 2,00\s\$ spent \(105 %\) — the cap is reached/);
    expect(pageErrors).toEqual([]);

    // The same link with one character of its signature changed: said to be altered, not expired or revoked.
    const usageUrl = new URL(frame!.url());
    const token = usageUrl.pathname.slice(usageUrl.pathname.lastIndexOf('/') + 1);
    const at = token.lastIndexOf('.') + 5;
    usageUrl.pathname = `${usageUrl.pathname.slice(0, -token.length)}${token.slice(0, at)}${token[at] === 'A' ? 'B' : 'A'}${token.slice(at + 1)}`;
    const tamperedPage = await page.context().newPage();
    await tamperedPage.goto(usageUrl.href);
    await expect(tamperedPage.getByRole('alert').textContent()).resolves.toMatch(/not valid: it may have been cut short or changed/);
    await tamperedPage.close();
  }, 60_000);

  it('makes a workspace a template in the console, tries it as a customer and shows the mint snippet', async () => {
    const consoleUrl = `${rt.credentials.management_url}/console`;
    await page.goto(`${consoleUrl}/sign-in`);
    await page.fill('input[name="username"]', rt.credentials.admin_username!);
    await page.fill('input[name="password"]', rt.credentials.admin_password!);
    await page.click('button[type="submit"]');
    await page.waitForURL(/\/console\/overview$/);
    await page.goto(`${consoleUrl}/workspaces/${workspaceId}`);
    await page.getByText('Template for customers').click();
    await page.fill('input[name="dynamic_fields"]', 'company_id');
    await page.getByRole('button', { name: 'Make it a template' }).click();
    await page.getByRole('region', { name: 'Try as a customer' }).waitFor();
    await page.fill('input[name="company_id"]', 'acme');
    await expect(page.getByLabel('Mint snippet').textContent()).resolves.toContain('"company_id":"acme"');
    await page.getByRole('button', { name: 'Open as this customer' }).click();
    const link = page.getByRole('link', { name: 'This template as acme' });
    await link.waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await page.screenshot({ path: join(SCREENSHOTS, 'workspace-template.png'), fullPage: true });

    // The link opens the template for acme only: 12 of the 13 calls.
    const customerPage = await page.context().newPage();
    await customerPage.goto((await link.getAttribute('href'))!);
    await customerPage.getByRole('region', { name: 'Calls' }).getByText('12', { exact: true }).waitFor();
    await customerPage.screenshot({ path: join(SCREENSHOTS, 'customer-template.png'), fullPage: true });
    expect(await seriousViolations(customerPage)).toEqual([]);
    await customerPage.close();
    expect(pageErrors).toEqual([]);
  }, 60_000);
});
