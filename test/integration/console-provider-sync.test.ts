import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { FakeChargebee, FakeStripe } from '../support/fake-providers';
import { chargebeeObjects } from '../support/fake-providers/fake-chargebee-catalog';
import { stripeObjects } from '../support/fake-providers/fake-stripe-catalog';
import { seriousViolations, signedInConsole } from './support/console-browser';
import { HOUR, numberedCalls, settledWindows } from './support/billing-scenario';
import { startTestRuntime, type TestRuntime } from './support/runtime';

/**
 * Sync in from Stripe in the console alone (Debian's Chromium): the catalog page starts the sync,
 * follows it to its counts, shows what was left out and why, and then shows the Stripe plans with
 * their prices, marked as Stripe's and without the form that would add a price to them.
 */
const SCREENSHOTS = resolve(__dirname, '../../test-artifacts/console');

describe('sync from Stripe in the console', () => {
  let stripe: FakeStripe;
  let chargebee: FakeChargebee;
  let rt: TestRuntime;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    await mkdir(SCREENSHOTS, { recursive: true });
    stripe = await new FakeStripe({ apiKey: 'sk_test_console' }).start();
    stripe.catalog.put('products', stripeObjects.product('prod_api', 'API access'));
    stripe.catalog.put('prices', stripeObjects.price('price_calls', 'prod_api', { unit_amount_decimal: '0.2', nickname: 'Per call' }));
    // A price that asks the customer what to pay: the catalog cannot hold it, and says so.
    stripe.catalog.put('prices', stripeObjects.price('price_tip', 'prod_api', { nickname: 'Pay what you want' }));
    const now = Math.floor(Date.now() / 1000);
    for (let n = 0; n < 3; n += 1) {
      stripe.catalog.put('customers', stripeObjects.customer(`cus_${n}`, { name: `Customer ${n}` }));
      stripe.catalog.put(
        'subscriptions',
        stripeObjects.subscription(`sub_${n}`, `cus_${n}`, [{ id: 'price_calls', product: 'prod_api' }], { start: now - 86_400, end: now + 86_400 }),
      );
    }
    chargebee = await new FakeChargebee({ apiKey: 'cb_test_console' }).start();
    chargebee.catalog.put('items', chargebeeObjects.item('seats', 'Seats'));
    chargebee.catalog.put('item_prices', chargebeeObjects.itemPrice('seats-USD-monthly', 'seats', { price: 1500 }));
    chargebee.catalog.put('customers', chargebeeObjects.customer('cb_1', { company: 'Initech' }));
    chargebee.catalog.put(
      'subscriptions',
      chargebeeObjects.subscription('cb_sub_1', 'cb_1', ['seats-USD-monthly'], { start: now - 86_400, end: now + 86_400 }),
    );
    const dataDir = await mkdtemp(join(tmpdir(), 'uab-console-sync-'));
    await writeFile(
      join(dataDir, 'billing-providers.json'),
      JSON.stringify({
        connections: [
          { provider: 'stripe', api_key: 'sk_test_console', base_url: stripe.url },
          { provider: 'chargebee', api_key: 'cb_test_console', base_url: chargebee.url },
        ],
      }),
    );
    rt = await startTestRuntime('console-provider-sync', { dataDir, governanceRefreshMs: 0 });
    ({ browser, page } = await signedInConsole(rt, '/billing/catalog'));
  }, 240_000);

  afterAll(async () => {
    await browser?.close();
    await rt?.dispose();
    await stripe?.stop();
    await chargebee?.stop();
  });

  it('starts a sync, follows it to its counts, and shows the synced catalog', async () => {
    const panel = page.getByRole('region', { name: 'Sync from Stripe' });
    await panel.getByRole('heading', { name: 'Never synced' }).waitFor();
    await panel.getByRole('button', { name: 'Sync from Stripe' }).click();
    await panel.getByRole('status').filter({ hasText: 'Completed' }).waitFor({ timeout: 30_000 });
    const counts = panel.getByRole('table', { name: 'Records brought in' });
    expect(await counts.locator('tbody td').allTextContents()).toEqual(['1', '1', '3', '3', '1']);
    await panel.getByText('What was left out, and why').click();
    await panel.getByRole('list', { name: 'Left out' }).getByText('price_tip').waitFor();
    expect(await panel.getByRole('list', { name: 'Left out' }).textContent()).toContain('without an amount');

    const plan = page.getByRole('region', { name: 'Plan API access' });
    await plan.getByText('synced from Stripe').waitFor();
    expect(await plan.getByRole('list', { name: 'Prices of API access' }).textContent()).toContain('0.002 USD per unit');
    expect(await plan.getByRole('button', { name: /Add a price/ }).count()).toBe(0);
    await page.screenshot({ path: join(SCREENSHOTS, 'provider-sync.png'), fullPage: true });
    expect(await seriousViolations(page)).toEqual([]);

    // The button asks again: a new sync, started after the first finished.
    const first = (await rt.management('GET', '/~/billing/providers/stripe/sync')).body;
    await panel.getByRole('button', { name: 'Sync again now' }).click();
    let again = first;
    for (let started = Date.now(); Date.now() - started < 30_000 && (again.status !== 'completed' || again.started_at === first.started_at); ) {
      await new Promise((done) => setTimeout(done, 200));
      again = (await rt.management('GET', '/~/billing/providers/stripe/sync')).body;
    }
    expect(again).toMatchObject({ status: 'completed', counts: { subscriptions: 3 } });
    expect(Date.parse(again.started_at)).toBeGreaterThan(Date.parse(first.finished_at));
    await panel.getByRole('status').filter({ hasText: 'Completed' }).waitFor();
  }, 120_000);

  it("syncs from Chargebee when it is chosen, and marks its plans as Chargebee's", async () => {
    await page.goto(`${rt.credentials.management_url}/console/billing/catalog`);
    await page.getByRole('region', { name: 'Sync from Stripe' }).getByLabel('Provider').selectOption('chargebee');
    const panel = page.getByRole('region', { name: 'Sync from Chargebee' });
    await panel.getByRole('heading', { name: 'Never synced' }).waitFor();
    // The URL to register at Chargebee, and how: basic authentication with the connection's webhook_secret.
    const { management_url, org_id, app_id } = rt.credentials;
    expect(await panel.getByTestId('webhook-url').textContent()).toBe(`${management_url}/public/providers/chargebee/webhooks/${org_id}/${app_id}`);
    await panel.getByText(/basic authentication: any user name, the connection's webhook_secret as the password/).waitFor();
    await panel.getByRole('button', { name: 'Sync from Chargebee' }).click();
    await panel.getByRole('status').filter({ hasText: 'Completed' }).waitFor({ timeout: 30_000 });
    expect(await panel.getByRole('table', { name: 'Records brought in' }).locator('tbody td').allTextContents()).toEqual(['1', '1', '1', '1', '0']);
    const plan = page.getByRole('region', { name: 'Plan Seats' });
    await plan.getByText('synced from Chargebee').waitFor();
    await plan.getByText('Its prices are changed in Chargebee').waitFor();
    expect(await seriousViolations(page)).toEqual([]);
  }, 120_000);

  it("checks a Stripe meter's reported usage against Stripe on its page, showing the drift, and corrects it", async () => {
    const meter = await rt.management(
      'POST',
      '/~/billing/meters',
      {},
      {
        name: 'Stripe calls',
        slug: 'stripe-calls',
        es_query: { query: { match_all: {} } },
        billing_plan: { provider_slug: 'stripe', params: { stripe_params: { event_name: 'api_calls', price_id: 'price_calls' } } },
      },
    );
    expect(meter.status).toBe(201);
    const { w1, at } = settledWindows();
    const call = numberedCalls();
    expect(
      (
        await rt.collect(
          '/v1/events/batch',
          [0, 1, 2].map((k) => call({ company_id: 'cus_0' }, at(w1, 5 + k))),
        )
      ).status,
    ).toBe(201);
    await rt.waitUntilConsumed(30_000);
    expect((await rt.billing.runOnce({ now: new Date(w1.getTime() + 3 * HOUR) })).errors).toEqual([]);
    stripe.addMeter('mtr_calls', 'api_calls');
    stripe.plantEvent({ event_name: 'api_calls', customer: 'cus_0', value: 2n, timestamp: Math.floor(Date.now() / 1000) - 60 });

    await page.goto(`${rt.credentials.management_url}/console/billing/meters/${meter.body._id}`);
    const panel = page.getByRole('region', { name: 'Reconciliation with Stripe' });
    await panel.getByRole('heading', { name: 'Not checked yet' }).waitFor();
    await panel.getByRole('button', { name: 'Check against Stripe now' }).click();
    await panel.getByRole('status').filter({ hasText: '1 with drift' }).waitFor();
    const row = panel.getByRole('table', { name: 'Drift' }).locator('tbody tr');
    expect(await row.locator('td').allTextContents()).toEqual(expect.arrayContaining(['sub_0', 'cus_0', '3', '5', '+2']));
    await page.screenshot({ path: join(SCREENSHOTS, 'reconciliation.png'), fullPage: true });
    expect(await seriousViolations(page)).toEqual([]);

    // Corrected from the row: Stripe gets −2, and the comparison made afterwards matches.
    await row.getByRole('button', { name: 'Correct sub_0' }).click();
    await panel.getByRole('status', { name: 'Correction outcome' }).filter({ hasText: 'Sent 1 correction to Stripe' }).waitFor();
    await panel.getByRole('status').filter({ hasText: '0 with drift' }).waitFor();
    expect(stripe.totals()['cus_0']).toBe(3n);
    await panel.getByText('Corrections sent (1)').click();
    const sent = panel.getByRole('table', { name: 'Corrections sent' }).locator('tbody tr');
    expect(await sent.locator('td').allTextContents()).toEqual(expect.arrayContaining(['sub_0', '-2', '1', 'sent']));
    expect(await seriousViolations(page)).toEqual([]);
  }, 120_000);
});
