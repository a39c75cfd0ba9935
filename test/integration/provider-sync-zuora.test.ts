import { randomUUID } from 'node:crypto';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ProviderSync } from '../../schemas/billing/provider-sync';
import { FakeZuora } from '../support/fake-providers';
import { zuoraObjects } from '../support/fake-providers/fake-zuora-catalog';
import { clockInTheMonthOf, HOUR, numberedCalls, settledWindows } from './support/billing-scenario';
import { startTestRuntime, type TestRuntime } from './support/runtime';

/**
 * Sync in from Zuora (Object Query API, OAuth) on the real emulators against the fake Zuora's lists:
 * product rate plans as catalog plans, usage charges as catalog prices (a recurring charge left out,
 * saying why), 150 accounts over two pages as companies by account number, subscriptions by number
 * with their charges; a meter billing them with no subscription entered by hand; reconciliation
 * against the accounts' usage records, a planted record reported as drift and corrected in one action.
 *
 * Zuora states no period, so the run counts usage by UTC calendar month and reconciliation reads the
 * month the service's clock is in: the runtime's clock stays in the scenario's month
 * (clockInTheMonthOf), even when the test runs in a month's first hours.
 */
describe('sync in from Zuora', () => {
  const scenario = settledWindows();
  const now = clockInTheMonthOf(scenario.w1);
  const CLIENT = { clientId: 'zuora-client', clientSecret: 'zuora-secret' };
  const WEBHOOK_SECRET = 'zuora-callout-password';
  let zuora: FakeZuora;
  let rt: TestRuntime;
  let meterId: string;
  const calls = { ratePlanId: 'prp-api', chargeId: 'prpc-calls' };

  beforeAll(async () => {
    zuora = await new FakeZuora(CLIENT).start();
    zuora.catalog.put('product-rate-plans', zuoraObjects.ratePlan('prp-api', 'API plan'));
    zuora.catalog.put(
      'product-rate-plan-charges',
      zuoraObjects.charge('prpc-calls', 'prp-api', { productRatePlanChargeTiers: [{ currency: 'USD', price: 0.003 }] }),
    );
    zuora.catalog.put(
      'product-rate-plan-charges',
      zuoraObjects.charge('prpc-data', 'prp-api', {
        chargeModel: 'Volume',
        uom: 'GB',
        productRatePlanChargeTiers: [
          { currency: 'EUR', price: 2, startingUnit: 0, endingUnit: 10, priceFormat: 'PerUnit' },
          { currency: 'EUR', price: 15, startingUnit: 10, endingUnit: null, priceFormat: 'FlatFee' },
        ],
      }),
    );
    zuora.catalog.put(
      'product-rate-plan-charges',
      zuoraObjects.charge('prpc-base', 'prp-api', { chargeType: 'Recurring', productRatePlanChargeTiers: [{ currency: 'USD', price: 49 }] }),
    );
    for (let n = 0; n < 150; n += 1) {
      const account = `A-${String(n).padStart(5, '0')}`;
      zuora.catalog.put('accounts', zuoraObjects.account(`acc-${n}`, account, `Account ${n}`));
      zuora.catalog.put('subscriptions', zuoraObjects.subscription(`zsub-${n}`, `S-${n}`, account, [{ ...calls, chargeNumber: `C-${n}` }]));
    }
    const dataDir = await mkdtemp(join(tmpdir(), 'uab-provider-sync-zuora-'));
    await writeFile(
      join(dataDir, 'billing-providers.json'),
      JSON.stringify({
        connections: [
          { provider: 'zuora', client_id: CLIENT.clientId, client_secret: CLIENT.clientSecret, base_url: zuora.url, webhook_secret: WEBHOOK_SECRET },
        ],
      }),
    );
    rt = await startTestRuntime('provider-sync-zuora', { dataDir, governanceRefreshMs: 0, managementAuth: { now } });
  }, 120_000);

  afterAll(async () => {
    await rt?.stop();
    await zuora?.stop();
  });

  async function completed(): Promise<ProviderSync> {
    for (let started = Date.now(); Date.now() - started < 30_000; ) {
      const got = await rt.management('GET', '/~/billing/providers/zuora/sync');
      if (got.status === 200 && (got.body.status === 'completed' || got.body.status === 'failed')) return got.body as ProviderSync;
      await new Promise((done) => setTimeout(done, 200));
    }
    throw new Error('the sync did not finish within 30 s');
  }

  it('brings rate plans, usage charges, accounts and subscriptions in with one request, page by page, through a 500 and a lapsed token', async () => {
    zuora.failNext(1, 500, 'any');
    expect((await rt.management('POST', '/~/billing/providers/zuora/sync')).status).toBe(202);
    const sync = await completed();
    expect(sync).toMatchObject({ provider: 'zuora', status: 'completed', counts: { products: 1, prices: 2, customers: 150, subscriptions: 150 }, error: null });
    expect(sync.skipped).toEqual([{ object: 'product_rate_plan_charge', id: 'prpc-base', reason: 'a recurring charge (not usage)' }]);
    const price = async (id: string) => (await rt.management('GET', `/~/billing/catalog/prices/${id}`)).body;
    expect(await price('prpc-calls')).toMatchObject({
      provider: 'zuora',
      plan_id: 'prp-api',
      pricing_model: 'per_unit',
      price_in_decimal: '0.003',
      currency: 'usd',
    });
    expect(await price('prpc-data')).toMatchObject({
      pricing_model: 'volume',
      currency: 'eur',
      tiers: [
        { up_to: 10, unit_price_in_decimal: '2' },
        { up_to: 'inf', unit_price_in_decimal: '0', flat_price_in_decimal: '15' },
      ],
    });
    await rt.waitUntilConsumed(30_000);
    expect((await rt.management('GET', '/search/~/companies/A-00007')).status).toBe(200);

    // A sweep after every token lapsed gets a new one and reads the same.
    zuora.expireTokens();
    expect((await rt.management('POST', '/~/billing/providers/zuora/sync')).status).toBe(202);
    expect((await completed()).counts.subscriptions).toBe(150);
  }, 90_000);

  it('bills the synced subscriptions through a Zuora meter by charge number, with no subscription entered by hand', async () => {
    const meter = await rt.management(
      'POST',
      '/~/billing/meters',
      {},
      {
        name: 'zuora calls',
        slug: 'zuora-calls',
        es_query: { query: { match_all: {} } },
        billing_plan: { provider_slug: 'zuora', params: { zuora_params: { unit_of_measure: 'API Calls', charge_number: 'C-1' } } },
      },
    );
    expect(meter.status).toBe(201);
    meterId = meter.body._id;
    const { w1, at } = scenario;
    const call = numberedCalls();
    const events = [0, 1].flatMap((n) => Array.from({ length: 3 }, (_, k) => call({ company_id: `A-${String(n).padStart(5, '0')}` }, at(w1, 5 + k))));
    expect((await rt.collect('/v1/events/batch', events)).status).toBe(201);
    await rt.waitUntilConsumed(30_000);
    expect((await rt.billing.runOnce({ now: new Date(w1.getTime() + 3 * HOUR) })).errors).toEqual([]);
    // The meter's charge is C-1: only S-1 carries it; A-00000's usage stays unattributed.
    expect(zuora.totals()).toEqual({ 'S-1': 3n });
  }, 60_000);

  it("reconciles with the account's usage records, and corrects a planted difference with one action", async () => {
    const first = await rt.management('POST', `/~/billing/meters/${meterId}/reconciliation`);
    expect(first.body).toMatchObject({ provider: 'zuora', counts: { matched: 1, drift: 0, unknown: 0 } });
    zuora.plantUsage({
      AccountNumber: 'A-00001',
      SubscriptionNumber: 'S-1',
      ChargeNumber: 'C-1',
      UOM: 'API Calls',
      Quantity: 4,
      StartDateTime: new Date(now().getTime() - HOUR).toISOString(),
    });
    const drifted = await rt.management('POST', `/~/billing/meters/${meterId}/reconciliation`);
    expect(drifted.body.drift).toEqual([expect.objectContaining({ subscription_id: 'S-1', reported: 3, provider: 7, difference: 4 })]);
    const corrected = await rt.management('POST', `/~/billing/meters/${meterId}/reconciliation/corrections`);
    expect(corrected.status).toBe(200);
    expect(corrected.body.corrections).toEqual([expect.objectContaining({ subscription_id: 'S-1', sent: -4, outcome: 'sent' })]);
    expect(corrected.body.reconciliation.counts).toMatchObject({ matched: 1, drift: 0 });
    expect(zuora.totals()).toEqual({ 'S-1': 3n });
  }, 60_000);

  it("leaves drift the service caused itself (a refused delivery) to the window's next correction, saying so", async () => {
    const { w2, at } = scenario;
    const call = numberedCalls();
    const events = Array.from({ length: 2 }, (_unused, k) => call({ company_id: 'A-00001', transaction_id: randomUUID() }, at(w2, 10 + k)));
    expect((await rt.collect('/v1/events/batch', events)).status).toBe(201);
    await rt.waitUntilConsumed(30_000);
    zuora.failNext(1, { kind: 'status', status: 400, message: 'Invalid charge', code: 'INVALID_VALUE' });
    expect((await rt.billing.runOnce({ now: new Date(w2.getTime() + 2 * HOUR) })).failed).toBeGreaterThanOrEqual(1);
    const drifted = await rt.management('POST', `/~/billing/meters/${meterId}/reconciliation`);
    expect(drifted.body.drift).toEqual([expect.objectContaining({ subscription_id: 'S-1', reported: 5, provider: 3, difference: -2 })]);
    const corrected = await rt.management('POST', `/~/billing/meters/${meterId}/reconciliation/corrections`);
    expect(corrected.body.corrections).toEqual([
      expect.objectContaining({ subscription_id: 'S-1', outcome: 'failed', attempts: 0, reason: expect.stringContaining('refused by the provider') }),
    ]);
    expect(zuora.totals()).toEqual({ 'S-1': 3n });
  }, 60_000);

  it('keeps accounts, subscriptions and charges current by callout notification: basic authentication (challenged first), once per notification id', async () => {
    const { org_id, app_id } = rt.credentials;
    const path = `/public/providers/zuora/webhooks/${org_id}/${app_id}`;
    const basic = `Basic ${Buffer.from(`zuora:${WEBHOOK_SECRET}`).toString('base64')}`;
    const callout = (body: Record<string, unknown>, headers: Record<string, string>) =>
      rt.management('POST', path, { authorization: '', 'content-type': 'application/json', ...headers }, body);

    zuora.catalog.put('accounts', zuoraObjects.account('acc-7', 'A-00007', 'Renamed Seven'));
    const accountEdited = { event: 'AccountEdit', account_number: 'A-00007' };
    // Zuora sends a callout without credentials first (no preemptive authentication): the challenge makes it send them.
    const challenged = await callout(accountEdited, { 'zuora-notification-id': 'n-acc-7' });
    expect(challenged.status).toBe(401);
    expect(challenged.headers.get('www-authenticate')).toMatch(/^Basic realm=/);
    expect((await callout(accountEdited, { 'zuora-notification-id': 'n-acc-7', authorization: basic })).body).toEqual({
      received: true,
      event_id: 'n-acc-7',
      outcome: 'applied',
    });
    // A retry carries the same notification id.
    expect((await callout(accountEdited, { 'zuora-notification-id': 'n-acc-7', authorization: basic })).body.outcome).toBe('duplicate');
    const anonymous = await callout(accountEdited, { authorization: basic });
    expect(anonymous.status).toBe(400);
    expect(anonymous.body.error.details).toEqual([expect.objectContaining({ field: 'zuora-notification-id' })]);

    zuora.catalog.put('subscriptions', zuoraObjects.subscription('zsub-8', 'S-8', 'A-00008', [{ ...calls, chargeNumber: 'C-8' }], 'Cancelled'));
    const cancelled = { event: 'SubscriptionCancelled', subscription_number: 'S-8', account_number: 'A-00008' };
    expect((await callout(cancelled, { 'zuora-notification-id': 'n-sub-8', authorization: basic })).body.outcome).toBe('applied');
    zuora.catalog.put(
      'product-rate-plan-charges',
      zuoraObjects.charge('prpc-calls', 'prp-api', { productRatePlanChargeTiers: [{ currency: 'USD', price: 0.004 }] }),
    );
    const repriced = { event: 'ProductRatePlanChargeUpdated', product_rate_plan_charge_id: 'prpc-calls' };
    expect((await callout(repriced, { 'zuora-notification-id': 'n-prpc', authorization: basic })).body.outcome).toBe('applied');
    expect((await callout({ event: 'PaymentProcessed' }, { 'zuora-notification-id': 'n-pay', authorization: basic })).body.outcome).toBe('ignored');

    expect((await rt.management('GET', '/~/billing/catalog/prices/prpc-calls')).body).toMatchObject({ price_in_decimal: '0.004' });
    await rt.waitUntilConsumed(30_000);
    expect(JSON.stringify((await rt.management('GET', '/search/~/companies/A-00007')).body)).toContain('Renamed Seven');
    const subscriptions = await rt.management('GET', '/search/~/companies/A-00008/subscriptions');
    const listed = (subscriptions.body.hits?.hits ?? subscriptions.body).map((hit: { _source?: Record<string, unknown> }) => hit._source ?? hit);
    expect(listed.find((s: { subscription_id: string }) => s.subscription_id === 'S-8')).toMatchObject({ status: 'cancelled' });
  }, 60_000);
});
