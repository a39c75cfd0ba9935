import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ProviderSync } from '../../schemas/billing/provider-sync';
import { FakeRecurly } from '../support/fake-providers';
import { recurlyObjects, signedRecurlyEvent } from '../support/fake-providers/fake-recurly-catalog';
import { HOUR, numberedCalls, settledWindows } from './support/billing-scenario';
import { startTestRuntime, type TestRuntime } from './support/runtime';

/**
 * Sync in from Recurly (API v3) on the real emulators against the fake Recurly's lists: plans as
 * catalog plans, usage add-ons as catalog prices (a fixed add-on left out, saying why), 250 accounts
 * over two pages as companies by their code, subscriptions with their plan and add-ons; a meter
 * billing them with no subscription entered by hand; then reconciliation against the add-ons' usage
 * records, a planted record reported as drift and corrected with one action.
 */
describe('sync in from Recurly', () => {
  const API_KEY = 'recurly_test_sync';
  const WEBHOOK_SECRET = 'recurly_webhook_secret';
  let recurly: FakeRecurly;
  let rt: TestRuntime;
  let meterId: string;
  const period = { start: new Date(Date.now() - 5 * 86_400_000).toISOString(), end: new Date(Date.now() + 25 * 86_400_000).toISOString() };
  const plan = { id: 'rp_api', code: 'api' };
  const calls = { id: 'ra_calls', code: 'calls' };

  beforeAll(async () => {
    recurly = await new FakeRecurly({ apiKey: API_KEY }).start();
    recurly.catalog.put('plans', recurlyObjects.plan(plan.id, plan.code, 'API'));
    recurly.catalog.put('add_ons', recurlyObjects.addOn(calls.id, calls.code, plan.id, { currencies: [{ currency: 'USD', unit_amount: 0.002 }] }));
    recurly.catalog.put(
      'add_ons',
      recurlyObjects.addOn('ra_storage', 'storage', plan.id, {
        tier_type: 'tiered',
        tiers: [
          { ending_quantity: 1000, currencies: [{ currency: 'USD', unit_amount: 0.01 }] },
          { ending_quantity: 999_999_999, currencies: [{ currency: 'USD', unit_amount_decimal: '0.0075' }] },
        ],
      }),
    );
    recurly.catalog.put(
      'add_ons',
      recurlyObjects.addOn('ra_seats', 'seats', plan.id, { add_on_type: 'fixed', currencies: [{ currency: 'USD', unit_amount: 5 }] }),
    );
    for (let n = 0; n < 250; n += 1) {
      const account = { id: `racc_${n}`, code: `company-${n}` };
      recurly.catalog.put('accounts', recurlyObjects.account(account.id, account.code, { company: `Company ${n}` }));
      recurly.catalog.put('subscriptions', recurlyObjects.subscription(`rsub_${n}`, account, plan, [calls], period));
    }
    const dataDir = await mkdtemp(join(tmpdir(), 'uab-provider-sync-recurly-'));
    await writeFile(
      join(dataDir, 'billing-providers.json'),
      JSON.stringify({ connections: [{ provider: 'recurly', api_key: API_KEY, base_url: recurly.url, webhook_secret: WEBHOOK_SECRET }] }),
    );
    rt = await startTestRuntime('provider-sync-recurly', { dataDir, governanceRefreshMs: 0 });
  }, 120_000);

  afterAll(async () => {
    await rt?.stop();
    await recurly?.stop();
  });

  async function completed(): Promise<ProviderSync> {
    for (let started = Date.now(); Date.now() - started < 30_000; ) {
      const got = await rt.management('GET', '/~/billing/providers/recurly/sync');
      if (got.status === 200 && (got.body.status === 'completed' || got.body.status === 'failed')) return got.body as ProviderSync;
      await new Promise((done) => setTimeout(done, 200));
    }
    throw new Error('the sync did not finish within 30 s');
  }

  it('brings plans, add-ons, accounts and subscriptions in with one request, page by page, through a 429 and a 500', async () => {
    recurly.failNext(1, 429, 'any').failNext(1, 500, 'any');
    expect((await rt.management('POST', '/~/billing/providers/recurly/sync')).status).toBe(202);
    const sync = await completed();
    expect(sync).toMatchObject({
      provider: 'recurly',
      status: 'completed',
      counts: { products: 1, prices: 2, customers: 250, subscriptions: 250 },
      error: null,
    });
    expect(sync.skipped).toEqual([{ object: 'add_on', id: 'ra_seats', reason: expect.stringContaining('a fixed add-on') }]);
    const price = async (id: string) => (await rt.management('GET', `/~/billing/catalog/prices/${id}`)).body;
    expect(await price(calls.id)).toMatchObject({
      provider: 'recurly',
      plan_id: plan.id,
      pricing_model: 'per_unit',
      price_in_decimal: '0.002',
      currency: 'usd',
    });
    expect(await price('ra_storage')).toMatchObject({
      pricing_model: 'graduated',
      tiers: [
        { up_to: 1000, unit_price_in_decimal: '0.01' },
        { up_to: 'inf', unit_price_in_decimal: '0.0075' },
      ],
    });
    await rt.waitUntilConsumed(30_000);
    const company = await rt.management('GET', '/search/~/companies/company-7');
    expect(company.status).toBe(200);
    expect(JSON.stringify(company.body)).toContain('racc_7');
  }, 90_000);

  it('bills the synced subscriptions through a Recurly meter, with no subscription entered by hand', async () => {
    const meter = await rt.management(
      'POST',
      '/~/billing/meters',
      {},
      {
        name: 'recurly calls',
        slug: 'recurly-calls',
        es_query: { query: { match_all: {} } },
        billing_plan: { provider_slug: 'recurly', params: { recurly_params: { add_on_id: calls.id } } },
      },
    );
    expect(meter.status).toBe(201);
    meterId = meter.body._id;
    const { w1, at } = settledWindows();
    const call = numberedCalls();
    const events = [0, 1].flatMap((n) => Array.from({ length: n + 2 }, (_, k) => call({ company_id: `company-${n}` }, at(w1, 5 + k))));
    expect((await rt.collect('/v1/events/batch', events)).status).toBe(201);
    await rt.waitUntilConsumed(30_000);
    expect((await rt.billing.runOnce({ now: new Date(w1.getTime() + 3 * HOUR) })).errors).toEqual([]);
    expect(recurly.totals()).toEqual({ rsub_0: 2n, rsub_1: 3n });
  }, 60_000);

  it('keeps accounts and subscriptions current by signed webhook: applied once, refused unsigned', async () => {
    const { org_id, app_id } = rt.credentials;
    const post = (event: Record<string, unknown>, signature?: string) =>
      rt.management(
        'POST',
        `/public/providers/recurly/webhooks/${org_id}/${app_id}`,
        { authorization: '', 'content-type': 'application/json', ...(signature ? { 'recurly-signature': signature } : {}) },
        event,
      );
    const changed = recurlyObjects.subscription('rsub_5', { id: 'racc_5', code: 'company-5' }, plan, [calls], period, 'canceled');
    recurly.catalog.put('subscriptions', changed);
    const event = {
      id: 'evt_sub_5',
      object_type: 'subscription',
      site_id: 'site',
      event_type: 'canceled',
      event_time: new Date().toISOString(),
      uuid: changed['uuid'],
    };
    const signed = signedRecurlyEvent(WEBHOOK_SECRET, event);
    const applied = await post(event, signed.signature);
    expect(applied.body).toEqual({ received: true, event_id: 'evt_sub_5', outcome: 'applied' });
    expect((await post(event, signed.signature)).body.outcome).toBe('duplicate');
    const unsigned = await post(event);
    expect(unsigned.status).toBe(400);
    expect(JSON.stringify(unsigned.body)).toContain('recurly-signature');
    expect((await post(event, signedRecurlyEvent('another secret', event).signature)).status).toBe(400);
    // An account event: its code is read from Recurly as it is now.
    recurly.catalog.put('accounts', recurlyObjects.account('racc_6', 'company-6', { company: 'Renamed Six' }));
    const account = {
      id: 'evt_acc_6',
      object_type: 'account',
      site_id: 'site',
      event_type: 'updated',
      event_time: new Date().toISOString(),
      account_code: 'company-6',
    };
    expect((await post(account, signedRecurlyEvent(WEBHOOK_SECRET, account).signature)).body.outcome).toBe('applied');
    // A catalog event is left to the sweep.
    const item = { id: 'evt_item', object_type: 'item', site_id: 'site', event_type: 'updated', event_time: new Date().toISOString() };
    expect((await post(item, signedRecurlyEvent(WEBHOOK_SECRET, item).signature)).body.outcome).toBe('ignored');
    await rt.waitUntilConsumed(30_000);
    const subscriptions = await rt.management('GET', '/search/~/companies/company-5/subscriptions');
    const listed = (subscriptions.body.hits?.hits ?? subscriptions.body).map((hit: { _source?: Record<string, unknown> }) => hit._source ?? hit);
    expect(listed.find((s: { subscription_id: string }) => s.subscription_id === 'rsub_5')).toMatchObject({ status: 'cancelled' });
    expect(JSON.stringify((await rt.management('GET', '/search/~/companies/company-6')).body)).toContain('Renamed Six');
  }, 60_000);

  it("reconciles with the add-ons' usage records, and corrects a planted difference with one action", async () => {
    const first = await rt.management('POST', `/~/billing/meters/${meterId}/reconciliation`);
    expect(first.body).toMatchObject({ provider: 'recurly', counts: { matched: 2, drift: 0, unknown: 0 } });
    recurly.plantUsage({ subscription_id: 'rsub_1', add_on_id: calls.id, amount: 7, usage_timestamp: new Date(Date.now() - HOUR).toISOString() });
    const drifted = await rt.management('POST', `/~/billing/meters/${meterId}/reconciliation`);
    expect(drifted.body.drift).toEqual([expect.objectContaining({ subscription_id: 'rsub_1', reported: 3, provider: 10, difference: 7 })]);
    const corrected = await rt.management('POST', `/~/billing/meters/${meterId}/reconciliation/corrections`);
    expect(corrected.status).toBe(200);
    expect(corrected.body.corrections).toEqual([expect.objectContaining({ subscription_id: 'rsub_1', sent: -7, outcome: 'sent' })]);
    expect(corrected.body.reconciliation.counts).toMatchObject({ matched: 2, drift: 0 });
    expect(recurly.totals()).toEqual({ rsub_0: 2n, rsub_1: 3n });
  }, 60_000);
});
