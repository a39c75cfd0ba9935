import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ProviderSync } from '../../schemas/billing/provider-sync';
import { FakeChargebee } from '../support/fake-providers';
import { chargebeeObjects } from '../support/fake-providers/fake-chargebee-catalog';
import { HOUR, numberedCalls, settledWindows } from './support/billing-scenario';
import { startTestRuntime, type TestRuntime } from './support/runtime';

/**
 * Sync in from Chargebee (Product Catalog 2.0) on the real emulators against the fake Chargebee's
 * lists: items as catalog plans, item prices as catalog prices (per unit, tiered, volume, stairstep;
 * a package price left out, saying why), 120 customers over two pages as companies, their
 * subscriptions with their item prices; a meter billing them with no subscription entered by hand;
 * Chargebee answering 429 and 500 meanwhile.
 */
describe('sync in from Chargebee', () => {
  const API_KEY = 'cb_test_sync';
  const WEBHOOK_SECRET = 'cb_webhook_password';
  let chargebee: FakeChargebee;
  let rt: TestRuntime;
  const now = Math.floor(Date.now() / 1000);
  const term = { start: now - 5 * 86_400, end: now + 25 * 86_400 };
  const customerId = (n: number) => `cb_cus_${String(n).padStart(3, '0')}`;
  // Every third customer carries the team's own company id.
  const companyOf = (n: number) => (n % 3 === 0 ? `acme-${n}` : customerId(n));

  beforeAll(async () => {
    chargebee = await new FakeChargebee({ apiKey: API_KEY }).start();
    chargebee.catalog.put('items', chargebeeObjects.item('api-calls', 'API calls'));
    chargebee.catalog.put('items', chargebeeObjects.item('storage', 'Storage'));
    chargebee.catalog.put('item_prices', chargebeeObjects.itemPrice('api-calls-USD-monthly', 'api-calls', { price: 25, pricing_model: 'per_unit' }));
    chargebee.catalog.put(
      'item_prices',
      chargebeeObjects.itemPrice('storage-USD-tiered', 'storage', {
        pricing_model: 'tiered',
        tiers: [
          { starting_unit: 1, ending_unit: 100, price: 10 },
          { starting_unit: 101, price_in_decimal: '0.055' },
        ],
      }),
    );
    chargebee.catalog.put(
      'item_prices',
      chargebeeObjects.itemPrice('storage-USD-stairstep', 'storage', {
        pricing_model: 'stairstep',
        tiers: [
          { starting_unit: 1, ending_unit: 10, price: 500 },
          { starting_unit: 11, price: 900 },
        ],
      }),
    );
    chargebee.catalog.put(
      'item_prices',
      chargebeeObjects.itemPrice('storage-JPY-volume', 'storage', { pricing_model: 'volume', currency_code: 'JPY', tiers: [{ starting_unit: 1, price: 3 }] }),
    );
    chargebee.catalog.put('item_prices', chargebeeObjects.itemPrice('api-calls-USD-package', 'api-calls', { pricing_model: 'package', price: 100 }));
    for (let n = 0; n < 120; n += 1) {
      chargebee.catalog.put(
        'customers',
        chargebeeObjects.customer(customerId(n), {
          first_name: 'Customer',
          last_name: String(n),
          ...(n % 3 === 0 ? { meta_data: { company_id: companyOf(n) } } : {}),
        }),
      );
      chargebee.catalog.put(
        'subscriptions',
        chargebeeObjects.subscription(`cb_sub_${n}`, customerId(n), ['api-calls-USD-monthly'], term, n === 119 ? 'cancelled' : 'active'),
      );
    }
    const dataDir = await mkdtemp(join(tmpdir(), 'uab-provider-sync-cb-'));
    await writeFile(
      join(dataDir, 'billing-providers.json'),
      JSON.stringify({ connections: [{ provider: 'chargebee', api_key: API_KEY, base_url: chargebee.url, webhook_secret: WEBHOOK_SECRET }] }),
    );
    rt = await startTestRuntime('provider-sync-chargebee', { dataDir, governanceRefreshMs: 0 });
  }, 120_000);

  afterAll(async () => {
    await rt?.stop();
    await chargebee?.stop();
  });

  async function completed(): Promise<ProviderSync> {
    for (let started = Date.now(); Date.now() - started < 30_000; ) {
      const got = await rt.management('GET', '/~/billing/providers/chargebee/sync');
      if (got.status === 200 && (got.body.status === 'completed' || got.body.status === 'failed')) return got.body as ProviderSync;
      await new Promise((done) => setTimeout(done, 200));
    }
    throw new Error('the sync did not finish within 30 s');
  }

  it('brings items, item prices, customers and subscriptions in with one request, page by page, through 429s and 500s', async () => {
    chargebee.failNext(2, 429, 'any').failNext(1, 500, 'any');
    const requested = await rt.management('POST', '/~/billing/providers/chargebee/sync');
    expect(requested.status).toBe(202);
    const sync = await completed();
    expect(sync).toMatchObject({
      provider: 'chargebee',
      status: 'completed',
      counts: { products: 2, prices: 4, customers: 120, subscriptions: 120 },
      error: null,
    });
    expect(sync.skipped).toEqual([
      { object: 'item_price', id: 'api-calls-USD-package', reason: expect.stringContaining('package pricing model is not one the catalog holds') },
    ]);
    expect(chargebee.requests().filter((r) => r.injected)).toHaveLength(3);

    const price = async (id: string) => (await rt.management('GET', `/~/billing/catalog/prices/${id}`)).body;
    // Chargebee's amounts are in the currency's minor unit unless given `_in_decimal`; the catalog's in its main unit.
    expect(await price('api-calls-USD-monthly')).toMatchObject({
      provider: 'chargebee',
      plan_id: 'api-calls',
      pricing_model: 'per_unit',
      price_in_decimal: '0.25',
      currency: 'usd',
    });
    expect(await price('storage-USD-tiered')).toMatchObject({
      pricing_model: 'graduated',
      tiers: [
        { up_to: 100, unit_price_in_decimal: '0.1' },
        { up_to: 'inf', unit_price_in_decimal: '0.055' },
      ],
    });
    // Stairstep: the whole quantity priced by its step, as a volume tier with a flat price.
    expect(await price('storage-USD-stairstep')).toMatchObject({
      pricing_model: 'volume',
      tiers: [
        { up_to: 10, unit_price_in_decimal: '0', flat_price_in_decimal: '5' },
        { up_to: 'inf', unit_price_in_decimal: '0', flat_price_in_decimal: '9' },
      ],
    });
    expect(await price('storage-JPY-volume')).toMatchObject({ currency: 'jpy', tiers: [{ up_to: 'inf', unit_price_in_decimal: '3' }] });
    const plan = (await rt.management('GET', '/~/billing/catalog/plans/api-calls')).body;
    expect(plan).toMatchObject({ name: 'API calls', provider: 'chargebee', synced_from: { provider: 'chargebee', object: 'item', id: 'api-calls' } });

    await rt.waitUntilConsumed(30_000);
    const company = await rt.management('GET', `/search/~/companies/${companyOf(3)}`);
    expect(company.status).toBe(200);
    expect(JSON.stringify(company.body)).toContain(customerId(3));
    // Edits of synced records are refused, naming the provider.
    const edit = await rt.management('PUT', '/~/billing/catalog/prices/api-calls-USD-monthly', {}, { name: 'renamed' });
    expect(edit.status).toBe(409);
    expect(edit.body.error.message).toContain('synced from Chargebee');
  }, 90_000);

  it('bills the synced subscriptions through a Chargebee meter, with no subscription entered by hand', async () => {
    const meter = await rt.management(
      'POST',
      '/~/billing/meters',
      {},
      {
        name: 'chargebee calls',
        slug: 'chargebee-calls',
        es_query: { query: { match_all: {} } },
        billing_plan: { provider_slug: 'chargebee', params: { chargebee_params: { item_price_id: 'api-calls-USD-monthly' } } },
      },
    );
    expect(meter.status).toBe(201);
    const { w1, at } = settledWindows();
    const call = numberedCalls();
    const calls = [0, 1, 2].flatMap((n) => Array.from({ length: n + 1 }, (_, k) => call({ company_id: companyOf(n) }, at(w1, 5 + k))));
    expect((await rt.collect('/v1/events/batch', calls)).status).toBe(201);
    await rt.waitUntilConsumed(30_000);
    expect((await rt.billing.runOnce({ now: new Date(w1.getTime() + 3 * HOUR) })).errors).toEqual([]);
    // Each Chargebee subscription receives its usage, by the subscription id the sync brought in.
    expect(chargebee.totals()).toEqual({ cb_sub_0: 1n, cb_sub_1: 2n, cb_sub_2: 3n });
  }, 60_000);

  it("reconciles a Chargebee meter with the site's usages: matched, an excess reported and left, a shortfall corrected", async () => {
    const meterId = ((await rt.management('GET', '/~/billing/meters')).body as { _id: string; slug: string }[]).find((m) => m.slug === 'chargebee-calls')!._id;
    const first = await rt.management('POST', `/~/billing/meters/${meterId}/reconciliation`);
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ provider: 'chargebee', counts: { matched: 3, drift: 0, unknown: 0 } });
    chargebee.plantUsage({ subscription_id: 'cb_sub_1', item_price_id: 'api-calls-USD-monthly', usage_date: now - 3_600, quantity: 4n });
    const drifted = await rt.management('POST', `/~/billing/meters/${meterId}/reconciliation`);
    expect(drifted.body.drift).toEqual([
      expect.objectContaining({ subscription_id: 'cb_sub_1', customer: customerId(1), reported: 2, provider: 6, difference: 4 }),
    ]);
    // Chargebee takes no negative usage: an excess is left, saying so.
    const excess = await rt.management('POST', `/~/billing/meters/${meterId}/reconciliation/corrections`);
    expect(excess.status).toBe(200);
    expect(excess.body.corrections).toEqual([
      expect.objectContaining({ subscription_id: 'cb_sub_1', outcome: 'failed', attempts: 0, reason: expect.stringContaining('takes no negative usage') }),
    ]);
    // A shortfall (a usage deleted there) is sent as a usage of its own, dated apart from every window's, and then matches.
    chargebee.removeUsages((u) => u.id.startsWith('planted') || u.subscription_id === 'cb_sub_2');
    const short = await rt.management('POST', `/~/billing/meters/${meterId}/reconciliation`);
    expect(short.body.drift).toEqual([expect.objectContaining({ subscription_id: 'cb_sub_2', reported: 3, provider: 0, difference: -3 })]);
    const corrected = await rt.management('POST', `/~/billing/meters/${meterId}/reconciliation/corrections`);
    expect(corrected.body.corrections).toEqual([expect.objectContaining({ subscription_id: 'cb_sub_2', sent: 3, outcome: 'sent' })]);
    expect(corrected.body.reconciliation.counts).toMatchObject({ matched: 3, drift: 0 });
    expect(chargebee.totals()).toEqual({ cb_sub_0: 1n, cb_sub_1: 2n, cb_sub_2: 3n });
  }, 60_000);

  it('keeps customers, subscriptions and item prices current by webhook with basic authentication: applied once, 401 without it', async () => {
    const { org_id, app_id } = rt.credentials;
    const path = `/public/providers/chargebee/webhooks/${org_id}/${app_id}`;
    const basic = (password: string) => `Basic ${Buffer.from(`chargebee:${password}`).toString('base64')}`;
    const post = (event: Record<string, unknown>, authorization = basic(WEBHOOK_SECRET)) =>
      rt.management('POST', path, { authorization, 'content-type': 'application/json' }, event);

    chargebee.catalog.put('customers', chargebeeObjects.customer(customerId(4), { first_name: 'Renamed', last_name: 'Four' }));
    const customerChanged = { id: 'ev_cus_4', event_type: 'customer_changed', occurred_at: now, content: { customer: { id: customerId(4) } } };
    // Without credentials, as Zuora and a misconfigured site send: 401 with a challenge, nothing applied.
    const unauthenticated = await post(customerChanged, '');
    expect(unauthenticated.status).toBe(401);
    expect(unauthenticated.headers.get('www-authenticate')).toMatch(/^Basic realm=/);
    expect(unauthenticated.body.error.details).toEqual([expect.objectContaining({ field: 'authorization' })]);
    expect((await post(customerChanged, basic('not the secret'))).status).toBe(401);
    expect((await post(customerChanged)).body).toEqual({ received: true, event_id: 'ev_cus_4', outcome: 'applied' });
    expect((await post(customerChanged)).body.outcome).toBe('duplicate');

    // The body names the object; what is written is read from Chargebee as it is now.
    chargebee.catalog.put('subscriptions', chargebeeObjects.subscription('cb_sub_5', customerId(5), ['api-calls-USD-monthly'], term, 'cancelled'));
    const cancelled = { id: 'ev_sub_5', event_type: 'subscription_cancelled', content: { subscription: { id: 'cb_sub_5', status: 'active' } } };
    expect((await post(cancelled)).body.outcome).toBe('applied');
    chargebee.catalog.put(
      'item_prices',
      chargebeeObjects.itemPrice('storage-JPY-volume', 'storage', { pricing_model: 'volume', currency_code: 'JPY', tiers: [{ starting_unit: 1, price: 4 }] }),
    );
    expect((await post({ id: 'ev_ip', event_type: 'item_price_updated', content: { item_price: { id: 'storage-JPY-volume' } } })).body.outcome).toBe('applied');
    expect((await post({ id: 'ev_inv', event_type: 'invoice_generated', content: { invoice: { id: 'inv_1' } } })).body.outcome).toBe('ignored');
    const malformed = await post({ event_type: 'customer_changed' });
    expect(malformed.status).toBe(400);
    expect(malformed.body.error.details).toEqual([expect.objectContaining({ field: 'body' })]);

    expect((await rt.management('GET', '/~/billing/catalog/prices/storage-JPY-volume')).body).toMatchObject({
      tiers: [{ up_to: 'inf', unit_price_in_decimal: '4' }],
    });
    await rt.waitUntilConsumed(30_000);
    expect(JSON.stringify((await rt.management('GET', `/search/~/companies/${customerId(4)}`)).body)).toContain('Renamed Four');
    const subscriptions = await rt.management('GET', `/search/~/companies/${customerId(5)}/subscriptions`);
    const listed = (subscriptions.body.hits?.hits ?? subscriptions.body).map((hit: { _source?: Record<string, unknown> }) => hit._source ?? hit);
    expect(listed.find((s: { subscription_id: string }) => s.subscription_id === 'cb_sub_5')).toMatchObject({ status: 'cancelled' });
    expect((await rt.management('GET', '/~/billing/providers/paddle/sync')).status).toBe(404);
  }, 60_000);
});
