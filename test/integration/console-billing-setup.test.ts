import { mkdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { seriousViolations, signedInConsole } from './support/console-browser';
import { apiCall, startTestRuntime, uuid, type TestRuntime } from './support/runtime';

/**
 * A newcomer's billing setup in the console alone (Debian's Chromium): a plan and a price with the
 * ids they chose, a webhook channel, a subscription created on a company's profile with its plan and
 * price picked from the catalog, and a meter whose preview shows that subscription billed, beside
 * one the real moesif-nodejs sent without items (its updateSubscription has none), billed by the
 * plan its metadata names.
 */
const SCREENSHOTS = resolve(__dirname, '../../test-artifacts/console');

describe('billing setup in the console', () => {
  let rt: TestRuntime;
  let browser: Browser;
  let page: Page;
  let consoleUrl: string;

  beforeAll(async () => {
    await mkdir(SCREENSHOTS, { recursive: true });
    rt = await startTestRuntime('console-billing-setup', { managementAuth: { rateLimitPerMinute: 100_000 }, governanceRefreshMs: 0 });
    ({ browser, page, consoleUrl } = await signedInConsole(rt, '/billing/catalog'));
  }, 240_000);

  afterAll(async () => {
    await browser?.close();
    await rt?.dispose();
  });

  it('connects a plan, a price, a subscription and a meter without the API', async () => {
    // What the SDKs send: two companies' calls in the window in progress, and one subscription without items.
    const now = new Date();
    for (const [i, company] of ['setup-co', 'sdk-co'].entries()) {
      expect((await rt.collect('/v1/companies', { company_id: company })).status).toBe(201);
      expect((await rt.collect('/v1/events', apiCall({ transaction_id: uuid(700 + i), company_id: company }, now))).status).toBe(201);
    }
    // The real moesif-nodejs: its updateSubscription carries no items, so the plan goes in its metadata.
    let moesif: ((options: Record<string, unknown>) => { updateSubscription(model: Record<string, unknown>): Promise<unknown> }) | undefined;
    jest.isolateModules(() => {
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      moesif = require('moesif-nodejs');
    });
    const sdk = moesif!({ applicationId: rt.credentials.collector_application_id, baseUri: rt.credentials.collector_url });
    await sdk.updateSubscription({ subscriptionId: 'sub_sdk', companyId: 'sdk-co', status: 'active', metadata: { plan_id: 'starter' } });

    // The catalog: a plan and a price with chosen ids; a taken id is refused beside the field.
    const newPlan = page.getByRole('form', { name: 'New plan' });
    await newPlan.locator('input[name="plan_name"]').fill('Starter');
    await newPlan.locator('input[name="plan_id"]').fill('starter');
    await newPlan.getByRole('button', { name: 'Create plan' }).click();
    await page.getByRole('heading', { name: 'Starter (starter)' }).waitFor();
    await newPlan.locator('input[name="plan_name"]').fill('Starter again');
    await newPlan.locator('input[name="plan_id"]').fill('starter');
    await newPlan.getByRole('button', { name: 'Create plan' }).click();
    await newPlan.locator('.field.invalid').filter({ hasText: 'is the id of another plan' }).waitFor();
    await page.getByRole('button', { name: 'Add a price to Starter' }).click();
    const newPrice = page.getByRole('form', { name: 'New price' });
    await newPrice.locator('input[name="price_name"]').fill('Starter calls');
    await newPrice.locator('input[name="price_id"]').fill('price_starter');
    await newPrice.getByRole('button', { name: 'Add price' }).click();
    await page.getByRole('list', { name: 'Prices of Starter' }).getByText('Starter calls').waitFor();
    expect((await rt.management('GET', '/~/billing/catalog/prices/price_starter')).body).toMatchObject({ plan_id: 'starter' });

    // A webhook channel for the meter to deliver to.
    await page.goto(`${consoleUrl}/billing/channels`);
    const channel = page.getByRole('form', { name: 'New webhook channel' });
    await channel.locator('input[name="channel_name"]').fill('Finance hook');
    await channel.locator('input[name="channel_url"]').fill('http://127.0.0.1:9/usage');
    await channel.getByRole('button', { name: 'Create channel' }).click();
    await page.getByRole('status').filter({ hasText: 'Signing secret of Finance hook' }).waitFor();

    // The subscription, on the company's profile, its plan and price picked from the catalog.
    await page.goto(`${consoleUrl}/companies/setup-co`);
    await page.getByRole('button', { name: 'Add a subscription' }).click();
    const form = page.getByRole('form', { name: 'New subscription' });
    await form.locator('input[name="subscription_id"]').fill('sub_setup');
    const start = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
    const end = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
    await form.locator('input[name="current_period_start"]').fill(start.toISOString().slice(0, 10));
    await form.locator('input[name="current_period_end"]').fill(end.toISOString().slice(0, 10));
    await form.locator('select[name="plan_0"]').selectOption({ label: 'Starter (starter)' });
    await form.locator('select[name="price_0"]').selectOption({ label: 'Starter calls (price_starter)' });
    expect(await seriousViolations(page)).toEqual([]);
    await form.getByRole('button', { name: 'Create subscription' }).click();
    const row = page.getByRole('table', { name: 'Subscriptions' }).getByRole('row').filter({ hasText: 'sub_setup' });
    await row.filter({ hasText: 'starter / price_starter' }).waitFor({ timeout: 20_000 });
    await page.screenshot({ path: join(SCREENSHOTS, 'subscription-on-profile.png'), fullPage: true });

    // Edited there too: paused, then active again.
    await row.getByRole('button', { name: 'Edit sub_setup' }).click();
    const edit = page.getByRole('form', { name: 'Edit subscription sub_setup' });
    await edit.locator('select[name="status"]').selectOption('paused');
    await edit.getByRole('button', { name: 'Save subscription' }).click();
    await row.filter({ hasText: 'paused' }).waitFor({ timeout: 20_000 });
    await row.getByRole('button', { name: 'Edit sub_setup' }).click();
    await edit.locator('select[name="status"]').selectOption('active');
    await edit.getByRole('button', { name: 'Save subscription' }).click();
    await row.filter({ hasText: 'active' }).waitFor({ timeout: 20_000 });
    const stored = (await rt.management('GET', '/search/~/companies/setup-co/subscriptions')).body.hits.hits[0]._source;
    expect(stored).toMatchObject({ subscription_id: 'sub_setup', status: 'active', items: [{ plan_id: 'starter', price_id: 'price_starter' }] });

    // The meter: its preview bills both subscriptions, the SDK's by the plan its metadata names.
    await page.goto(`${consoleUrl}/billing/meters/new`);
    const meter = page.getByRole('form', { name: 'New meter' });
    await meter.locator('input[name="name"]').fill('Starter calls');
    await meter.locator('input[name="slug"]').fill('starter-calls');
    await meter.locator('input[type="checkbox"][name="channel_ids"]').first().check();
    await meter.locator('select[name="plan_id"]').selectOption({ label: 'Starter' });
    await meter.getByRole('button', { name: 'Preview what it bills' }).click();
    const preview = page.getByRole('region', { name: 'Meter preview' });
    await preview.getByText('2 of 2 active or trialing subscriptions match').waitFor();
    await expect(preview.textContent()).resolves.toContain('1 of them by the plan named in their metadata');
    const usage = preview.getByRole('table', { name: 'Usage in the window in progress' });
    for (const id of ['sub_setup', 'sub_sdk']) {
      const line = usage.getByRole('row').filter({ hasText: id });
      await line.waitFor();
      expect(await line.getByRole('cell').allTextContents()).toEqual([id, id === 'sub_setup' ? 'setup-co' : 'sdk-co', 'Yes', '1', '0.01 USD']);
    }
    await page.screenshot({ path: join(SCREENSHOTS, 'meter-preview-billed.png'), fullPage: true });
    await meter.getByRole('button', { name: 'Create meter' }).click();
    await page.waitForURL(/\/console\/billing\/meters$/);
  }, 120_000);
});
