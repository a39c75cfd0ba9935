import { mkdir, readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import type { DeliveryChannel } from '../../functions/billing/channels/channel-delivery';
import { FakeWebhookReceiver } from '../support/fake-providers';
import { seriousViolations, signedInConsole } from './support/console-browser';
import { GRADUATED_TIERS, HOUR } from './support/billing-scenario';
import { billedClosedPeriod, subscriptionInPeriod } from './support/simulation-scenario';
import { startTestRuntime, type TestRuntime } from './support/runtime';

/**
 * Trying another price in the console alone (Debian's Chromium): on a meter's page, a draft price is
 * chosen, the last period's usage priced under it per subscription, the table sorted by a column, the
 * largest differences charted, and the whole downloaded as CSV.
 */
const SCREENSHOTS = resolve(__dirname, '../../test-artifacts/console');

describe('price simulation in the console', () => {
  let rt: TestRuntime;
  let fake: FakeWebhookReceiver;
  let browser: Browser;
  let page: Page;
  let meterId: string;
  const base = Math.floor(Date.now() / HOUR) * HOUR;
  const hoursAgo = (n: number) => new Date(base - n * HOUR);

  beforeAll(async () => {
    await mkdir(SCREENSHOTS, { recursive: true });
    rt = await startTestRuntime('console-price-simulation', { governanceRefreshMs: 0 });
    fake = await new FakeWebhookReceiver({ secrets: { sim: 'whsec_sim' } }).start();
    const channel: DeliveryChannel = { id: 'sim', name: 'sim', url: fake.channelUrl('sim'), status: 'active', headers: {}, secrets: ['whsec_sim'] };
    const planId = String((await rt.management('POST', '/~/billing/catalog/plans', {}, { name: 'API' })).body.id);
    const price = (body: Record<string, unknown>) => rt.management('POST', '/~/billing/catalog/prices', {}, { plan_id: planId, currency: 'USD', ...body });
    expect((await price({ name: 'graduated', pricing_model: 'tiered_graduated', tiers: GRADUATED_TIERS })).status).toBe(201);
    expect((await price({ name: 'a cent a call', pricing_model: 'per_unit', price_in_decimal: '0.01', status: 'inactive' })).status).toBe(201);
    ({ meterId } = await billedClosedPeriod(rt, planId, channel));
    // Company profiles and a cohort of one of them, to narrow a simulation to.
    expect((await rt.collect('/v1/companies/batch', [{ company_id: 'co-small' }, { company_id: 'co-large' }])).status).toBe(201);
    expect(
      (await rt.management('POST', '/~/cohorts', {}, { cohort_name: 'Large accounts', cohort_type: 'company', criteria: { term: { company_id: 'co-large' } } }))
        .status,
    ).toBe(201);
    // A subscription in its period, for the preview of a price change.
    await subscriptionInPeriod(rt, planId);
    ({ browser, page } = await signedInConsole(rt, `/billing/meters/${meterId}`));
  }, 240_000);

  afterAll(async () => {
    await browser?.close();
    await fake?.stop();
    await rt?.dispose();
  });

  it('prices the last period under a draft price, sorts, charts and downloads it', async () => {
    const panel = page.getByRole('region', { name: 'Simulate another price' });
    await panel.getByLabel('Price to try').selectOption({ label: 'API: a cent a call (USD, inactive)' });
    await panel.getByRole('button', { name: 'Simulate' }).click();
    await panel.getByRole('status').filter({ hasText: 'a difference of -2.43 USD' }).waitFor();
    const table = panel.getByRole('table', { name: 'Simulated amounts' });
    const firstColumn = () => table.locator('tbody tr td:first-child').allTextContents();
    // Largest difference first: sub-co-large (-1.98) is the smaller number, so descending puts sub-co-small (-0.45) first.
    expect(await firstColumn()).toEqual(['sub-co-small', 'sub-co-large']);
    await table.getByRole('button', { name: 'Usage' }).click();
    expect(await firstColumn()).toEqual(['sub-co-large', 'sub-co-small']);
    expect(await table.locator('tbody tr').first().locator('td').allTextContents()).toEqual(['sub-co-large', 'co-large', '12', '2.1', '0.12', '-1.98']);
    await panel.getByRole('img', { name: 'Difference per subscription, USD' }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await page.screenshot({ path: `${SCREENSHOTS}/price-simulation.png`, fullPage: true });
    const download = page.waitForEvent('download');
    await panel.getByRole('button', { name: 'Download CSV' }).click();
    const csv = await readFile((await (await download).path())!, 'utf8');
    // Narrowed to a cohort's companies.
    await panel.getByLabel('Only the companies of cohort').selectOption({ label: 'Large accounts (company)' });
    await panel.getByRole('button', { name: 'Simulate' }).click();
    await panel.getByRole('status').filter({ hasText: '1 subscriptions' }).waitFor();
    expect(await firstColumn()).toEqual(['sub-co-large']);
    expect(csv.split('\r\n')).toContain(`sub-co-large,co-large,${hoursAgo(7).toISOString()},${hoursAgo(1).toISOString()},12,usd,2.1,0.12`);
  }, 60_000);

  it('previews moving a subscription in its period to a draft price now, meter by meter', async () => {
    await page.goto(`${rt.credentials.management_url}/console/billing/subscriptions/sub-open`);
    const panel = page.getByRole('region', { name: 'Preview a price change' });
    await panel.getByLabel('New price').selectOption({ label: 'API: a cent a call (USD, inactive)' });
    await panel.getByRole('button', { name: 'Preview' }).click();
    await panel.getByRole('status').filter({ hasText: 'instead of' }).waitFor();
    const row = panel.getByRole('table', { name: 'Price change by meter' }).locator('tbody tr');
    expect(await row.count()).toBe(1);
    const cells = await row.locator('td').allTextContents();
    // The meter, 8 calls so far, and 8 at the graduated price (0.80) before the change.
    expect([cells[0], cells[1], cells[4]]).toEqual(['calls', '8', '0.8']);
    expect(await seriousViolations(page)).toEqual([]);
  }, 60_000);
});
