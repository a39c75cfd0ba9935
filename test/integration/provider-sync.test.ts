import { mkdtemp, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import type Stripe from 'stripe';
import { providerConnections } from '../../functions/billing/run/provider-registry';
import { priceOfStripe } from '../../functions/billing/sync/stripe-records';
import { runDueSyncs, runSync } from '../../functions/billing/sync/sync-run';
import { readSync } from '../../functions/billing/sync/sync-records';
import { providerSyncDeps, reconcileDeps } from '../../functions/composition-root/billing-services';
import { reconcileDueMeters } from '../../functions/billing/reconcile/reconcile-due';
import type { ProviderSync } from '../../schemas/billing/provider-sync';
import { FakeStripe } from '../support/fake-providers';
import { signedStripeEvent, stripeObjects } from '../support/fake-providers/fake-stripe-catalog';
import { HOUR, numberedCalls, settledWindows } from './support/billing-scenario';
import { startTestRuntime, type TestRuntime } from './support/runtime';

/**
 * Sync in from Stripe on the real emulators against the fake Stripe's lists: 3 products, 5 prices,
 * 20 customers and 25 subscriptions brought in by one sync (catalog plans and prices, companies,
 * subscriptions with their items), a meter that bills them with no subscription entered by hand,
 * synced records refused to edits, the sweep bringing a price change in, and a provider answering
 * 429 and 500 meanwhile.
 */
describe('sync in from Stripe', () => {
  const API_KEY = 'sk_test_sync';
  const WEBHOOK_SECRET = 'whsec_sync_test';
  let stripe: FakeStripe;
  let rt: TestRuntime;
  const tenant = () => ({ orgId: rt.credentials.org_id, appId: rt.credentials.app_id });
  const now = Math.floor(Date.now() / 1000);
  const period = { start: now - 10 * 86_400, end: now + 20 * 86_400 };
  const prices = [
    { id: 'price_calls', product: 'prod_api', fields: { unit_amount_decimal: '0.25', nickname: 'API calls' } },
    {
      id: 'price_seats',
      product: 'prod_api',
      fields: { unit_amount: 1999, recurring: { interval: 'month', interval_count: 1, usage_type: 'licensed', meter: null } },
    },
    {
      id: 'price_storage',
      product: 'prod_storage',
      fields: {
        billing_scheme: 'tiered',
        tiers_mode: 'graduated',
        tiers: [
          { up_to: 1000, unit_amount_decimal: '1', flat_amount: null, flat_amount_decimal: null, unit_amount: null },
          { up_to: null, unit_amount_decimal: '0.5', flat_amount: 500, flat_amount_decimal: '500', unit_amount: null },
        ],
      },
    },
    { id: 'price_bundles', product: 'prod_storage', fields: { unit_amount: 100, transform_quantity: { divide_by: 1000, round: 'up' } } },
    { id: 'price_support_jpy', product: 'prod_support', fields: { currency: 'jpy', unit_amount: 500 } },
  ];
  const customerIds = Array.from({ length: 20 }, (_, n) => `cus_${String(n).padStart(3, '0')}`);
  // Half the customers carry the team's own company id; the others are companies by their customer id.
  const companyOf = (n: number) => (n % 2 === 0 ? `acme-${n}` : customerIds[n]!);

  beforeAll(async () => {
    stripe = await new FakeStripe({ apiKey: API_KEY }).start();
    stripe.catalog.put('products', stripeObjects.product('prod_api', 'API'));
    stripe.catalog.put('products', stripeObjects.product('prod_storage', 'Storage'));
    stripe.catalog.put('products', stripeObjects.product('prod_support', 'Support'));
    for (const price of prices) stripe.catalog.put('prices', stripeObjects.price(price.id, price.product, price.fields));
    customerIds.forEach((id, n) =>
      stripe.catalog.put(
        'customers',
        stripeObjects.customer(id, { name: `Customer ${n}`, ...(n % 2 === 0 ? { metadata: { company_id: companyOf(n) } } : {}) }),
      ),
    );
    // 25 subscriptions: one per customer on API calls, and five more on storage; one of them cancelled.
    customerIds.forEach((customer, n) =>
      stripe.catalog.put('subscriptions', stripeObjects.subscription(`sub_calls_${n}`, customer, [{ id: 'price_calls', product: 'prod_api' }], period)),
    );
    for (let n = 0; n < 5; n += 1)
      stripe.catalog.put(
        'subscriptions',
        stripeObjects.subscription(
          `sub_storage_${n}`,
          customerIds[n]!,
          [{ id: 'price_storage', product: 'prod_storage' }],
          period,
          n === 4 ? 'canceled' : 'active',
        ),
      );
    const dataDir = await mkdtemp(join(tmpdir(), 'uab-provider-sync-'));
    await writeFile(
      join(dataDir, 'billing-providers.json'),
      JSON.stringify({ connections: [{ provider: 'stripe', api_key: API_KEY, base_url: stripe.url, webhook_secret: WEBHOOK_SECRET }] }),
    );
    rt = await startTestRuntime('provider-sync', { dataDir, governanceRefreshMs: 0 });
  }, 120_000);

  afterAll(async () => {
    await rt?.stop();
    await stripe?.stop();
  });

  async function completed(): Promise<ProviderSync> {
    for (let started = Date.now(); Date.now() - started < 30_000; ) {
      const got = await rt.management('GET', '/~/billing/providers/stripe/sync');
      if (got.status === 200 && (got.body.status === 'completed' || got.body.status === 'failed')) return got.body as ProviderSync;
      await new Promise((done) => setTimeout(done, 200));
    }
    throw new Error('the sync did not finish within 30 s');
  }

  it('brings every product, price, customer and subscription in with one request, through 429s and 500s', async () => {
    stripe.failNext(2, 429, 'any').failNext(1, 500, 'any');
    const requested = await rt.management('POST', '/~/billing/providers/stripe/sync');
    expect(requested.status).toBe(202);
    expect(requested.body).toMatchObject({ provider: 'stripe', status: expect.stringMatching(/requested|running/) });
    const sync = await completed();
    expect(sync).toMatchObject({ status: 'completed', counts: { products: 3, prices: 5, customers: 20, subscriptions: 25 }, skipped: [], error: null });
    expect(Date.parse(sync.next_sweep_at!)).toBeGreaterThan(Date.now());
    expect(stripe.requests().filter((r) => r.injected)).toHaveLength(3);

    const plans = await rt.management('GET', '/~/billing/catalog/plans?provider=stripe&includes=prices');
    expect(plans.body.map((p: { id: string }) => p.id).sort()).toEqual(['prod_api', 'prod_storage', 'prod_support']);
    const price = async (id: string) => (await rt.management('GET', `/~/billing/catalog/prices/${id}`)).body;
    // Stripe's amounts are in the currency's smallest unit; the catalog's in its main unit.
    expect(await price('price_calls')).toMatchObject({
      pricing_model: 'per_unit',
      price_in_decimal: '0.0025',
      currency: 'usd',
      plan_id: 'prod_api',
      provider: 'stripe',
    });
    expect(await price('price_seats')).toMatchObject({ price_in_decimal: '19.99' });
    expect(await price('price_storage')).toMatchObject({
      pricing_model: 'graduated',
      tiers: [
        { up_to: 1000, unit_price_in_decimal: '0.01' },
        { up_to: 'inf', unit_price_in_decimal: '0.005', flat_price_in_decimal: '5' },
      ],
    });
    expect(await price('price_bundles')).toMatchObject({
      pricing_model: 'package',
      price_in_decimal: '1',
      transform_quantity: { divide_by: 1000, round: 'up' },
    });
    expect(await price('price_support_jpy')).toMatchObject({ price_in_decimal: '500', currency: 'jpy' });
    expect((await price('price_calls')).synced_from).toMatchObject({ provider: 'stripe', object: 'price', id: 'price_calls' });

    await rt.waitUntilConsumed(30_000);
    const subscriptions = await rt.management('GET', `/search/~/companies/${companyOf(0)}/subscriptions`);
    expect(subscriptions.status).toBe(200);
    const listed = (subscriptions.body.hits?.hits ?? subscriptions.body).map((hit: { _source?: Record<string, unknown> }) => hit._source ?? hit);
    expect(listed.map((s: { subscription_id: string }) => s.subscription_id).sort()).toEqual(['sub_calls_0', 'sub_storage_0']);
    expect(listed.find((s: { subscription_id: string }) => s.subscription_id === 'sub_calls_0')).toMatchObject({
      status: 'active',
      items: [expect.objectContaining({ price_id: 'price_calls', plan_id: 'prod_api' })],
      metadata: expect.objectContaining({ stripe_customer_id: 'cus_000' }),
    });
    const company = await rt.management('GET', `/search/~/companies/${companyOf(3)}`);
    expect(company.status).toBe(200);
  }, 60_000);

  let meterId: string;

  it('bills the synced subscriptions through a meter, with no subscription entered by hand', async () => {
    const meter = await rt.management(
      'POST',
      '/~/billing/meters',
      {},
      {
        name: 'synced calls',
        slug: 'synced-calls',
        es_query: { query: { match_all: {} } },
        billing_plan: { provider_slug: 'stripe', params: { stripe_params: { event_name: 'api_calls', price_id: 'price_calls' } } },
      },
    );
    expect(meter.status).toBe(201);
    meterId = meter.body._id;
    const { w1, at } = settledWindows();
    const call = numberedCalls();
    const calls = [0, 1, 2].flatMap((n) => Array.from({ length: n + 2 }, (_, k) => call({ company_id: companyOf(n) }, at(w1, 5 + k))));
    expect((await rt.collect('/v1/events/batch', calls)).status).toBe(201);
    await rt.waitUntilConsumed(30_000);
    const summary = await rt.billing.runOnce({ now: new Date(w1.getTime() + 3 * HOUR) });
    expect(summary.errors).toEqual([]);
    await rt.billing.runOnce({ now: new Date(w1.getTime() + 3 * HOUR) });
    // Each customer's Stripe meter receives its calls, by the customer id the sync stored beside the company.
    expect(stripe.totals()).toEqual({ cus_000: 2n, cus_001: 3n, cus_002: 4n });
  }, 60_000);

  it('reconciles what was reported with what Stripe holds: every subscription matched, then a planted difference reported as drift', async () => {
    stripe.addMeter('mtr_calls', 'api_calls');
    const first = await rt.management('POST', `/~/billing/meters/${meterId}/reconciliation`);
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ billing_meter_id: meterId, provider: 'stripe', counts: { drift: 0, unknown: 0 }, drift: [] });
    expect(first.body.counts.matched).toBeGreaterThanOrEqual(3);

    // Usage Stripe holds that was never reported (another integration sending to the same meter).
    stripe.plantEvent({ event_name: 'api_calls', customer: 'cus_001', value: 5n, timestamp: Math.floor(Date.now() / 1000) - 3600 });
    const drifted = await rt.management('POST', `/~/billing/meters/${meterId}/reconciliation`);
    expect(drifted.body.counts).toMatchObject({ drift: 1, unknown: 0 });
    expect(drifted.body.drift).toEqual([
      expect.objectContaining({ subscription_id: 'sub_calls_1', customer: 'cus_001', reported: 3, provider: 8, difference: 5, since: drifted.body.checked_at }),
    ]);
    // Seen again: the same drift keeps the time it was first seen.
    const again = await rt.management('POST', `/~/billing/meters/${meterId}/reconciliation`);
    expect(again.body.drift[0].since).toBe(drifted.body.checked_at);
    expect((await rt.management('GET', `/~/billing/meters/${meterId}/reconciliation`)).body).toEqual(again.body);

    // An alert on reconciliation_drift tells the team, per meter and subscription.
    const posts: string[] = [];
    const slack = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
      request.on('end', () => {
        posts.push(body);
        response.writeHead(200).end('ok');
      });
    });
    await new Promise<void>((listening) => slack.listen(0, '127.0.0.1', listening));
    try {
      const alert = await rt.management(
        'POST',
        '/~/alerts',
        {},
        {
          name: 'Billing drift',
          state: 1,
          metric: 'reconciliation_drift',
          window_minutes: 60,
          interval_minutes: 1,
          condition: { type: 'static', operator: 'above', threshold: 0 },
          channels: { slack_urls: [`http://127.0.0.1:${(slack.address() as AddressInfo).port}/slack`] },
        },
      );
      expect(alert.status).toBe(201);
      expect(await rt.alerts.runOnce()).toMatchObject({ fired: 1 });
      // On the schedule: checked again once the last check is 6 hours old, not before.
      const connections = async () => providerConnections({ connections: [{ provider: 'stripe', api_key: API_KEY, base_url: stripe.url }] });
      const scheduled = (at: Date) => ({ ...reconcileDeps(rt.stores, rt.index, connections), now: () => at });
      expect(await reconcileDueMeters(scheduled(new Date()), 30_000)).toEqual({ checked: 0, failed: 0 });
      const later = new Date(Date.now() + 6 * HOUR + 60_000);
      expect(await reconcileDueMeters(scheduled(later), 30_000)).toEqual({ checked: 1, failed: 0 });
      expect((await rt.management('GET', `/~/billing/meters/${meterId}/reconciliation`)).body.checked_at).toBe(later.toISOString());
      expect(posts.join()).toContain(`Billing drift fired for ${meterId}/sub_calls_1: reconciliation_drift 5`);
    } finally {
      slack.close();
    }
  }, 60_000);

  it('corrects the drift with one action, through a versioned correction Stripe takes once, and then matches', async () => {
    const before = stripe.totals();
    const corrected = await rt.management('POST', `/~/billing/meters/${meterId}/reconciliation/corrections`);
    expect(corrected.status).toBe(200);
    expect(corrected.body.corrections).toEqual([
      expect.objectContaining({ subscription_id: 'sub_calls_1', customer: 'cus_001', sent: -5, correction_version: 1, outcome: 'sent', attempts: 1 }),
    ]);
    expect(corrected.body.reconciliation).toMatchObject({ counts: { drift: 0, unknown: 0 }, drift: [] });
    expect(corrected.body.reconciliation.corrections[0]).toEqual(corrected.body.corrections[0]);
    // Stripe now holds what was reported: the planted 5 taken back by a meter event of −5.
    expect(stripe.totals()).toEqual({ ...before, cus_001: before['cus_001']! - 5n });
    // Nothing left to correct: a second action sends nothing and keeps the first one's record.
    const again = await rt.management('POST', `/~/billing/meters/${meterId}/reconciliation/corrections`, {}, { subscription_ids: ['sub_calls_1'] });
    expect(again.body.corrections).toEqual([]);
    expect(again.body.reconciliation.corrections).toHaveLength(1);
    // A body that is not what the action takes is refused, naming the field.
    const bad = await rt.management('POST', `/~/billing/meters/${meterId}/reconciliation/corrections`, {}, { subscription_ids: [] });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toContain('subscription_ids');
  }, 60_000);

  it('refuses edits of a synced price, naming the provider', async () => {
    const edit = await rt.management('PUT', '/~/billing/catalog/prices/price_calls', {}, { name: 'renamed' });
    expect(edit.status).toBe(409);
    expect(edit.body.error.message).toContain('synced from Stripe');
    expect((await rt.management('DELETE', '/~/billing/catalog/plans/prod_api')).status).toBe(409);
  });

  it('brings a price changed at the provider in with the sweep, writing nothing that did not change', async () => {
    stripe.catalog.update('prices', 'price_calls', { unit_amount_decimal: '0.5' });
    const before = (await rt.management('GET', '/~/billing/catalog/prices/price_seats')).body;
    const sync = (await readSync(rt.stores.resources, tenant(), 'stripe'))!;
    const sweepAt = new Date(Date.parse(sync.next_sweep_at!) + 1000);
    const deps = {
      ...providerSyncDeps(rt.stores, providerConnections({ connections: [{ provider: 'stripe', api_key: API_KEY, base_url: stripe.url }] })),
      now: () => sweepAt,
    };
    expect(await runDueSyncs(deps, 60_000)).toEqual({ synced: 1, failed: 0 });
    expect((await rt.management('GET', '/~/billing/catalog/prices/price_calls')).body).toMatchObject({ price_in_decimal: '0.005' });
    expect((await rt.management('GET', '/~/billing/catalog/prices/price_seats')).body.updated_at).toBe(before.updated_at);
    // Not due again until the next sweep.
    expect(await runDueSyncs(deps, 60_000)).toEqual({ synced: 0, failed: 0 });
  }, 60_000);

  it('resumes an interrupted sync after its cursor, and records a provider that keeps failing', async () => {
    const deps = providerSyncDeps(rt.stores, providerConnections({ connections: [{ provider: 'stripe', api_key: API_KEY, base_url: stripe.url }] }));
    const found = (await readSync(rt.stores.resources, tenant(), 'stripe'))!;
    const seen = stripe.requests().length;
    const resumed: ProviderSync = { ...found, status: 'running', phase: 'customers', cursor: 'cus_010', lease_until: null };
    expect(await runSync(deps, tenant(), resumed, Date.now() + 60_000)).toBe('completed');
    const lists = stripe
      .requests()
      .slice(seen)
      .map((r) => `${r.path}?${r.query.get('starting_after') ?? ''}`);
    expect(lists[0]).toBe('/v1/customers?cus_010');
    expect(lists.some((path) => path.startsWith('/v1/products'))).toBe(false);

    // Five answers of 500: the first list and the SDK's four retries of it.
    stripe.failNext(5, 500, 'any');
    const failed = await runSync(deps, tenant(), { ...found, status: 'requested' }, Date.now() + 60_000);
    expect(failed).toBe('failed');
    const stored = (await readSync(rt.stores.resources, tenant(), 'stripe'))!;
    expect(stored).toMatchObject({ status: 'failed', error: expect.any(String) });
    // Tried again after a quarter of an hour, not at once.
    expect(Date.parse(stored.next_sweep_at!) - Date.parse(stored.finished_at!)).toBe(15 * 60_000);
  }, 120_000);

  /** Delivers an event to the app's webhook URL as Stripe would (signed now with `secret`). */
  async function deliver(event: Record<string, unknown>, secret = WEBHOOK_SECRET, at = new Date()) {
    const { body, signature } = signedStripeEvent(secret, event, at);
    const { org_id, app_id, management_url } = rt.credentials;
    const response = await fetch(`${management_url}/public/providers/stripe/webhooks/${org_id}/${app_id}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'stripe-signature': signature },
      body,
    });
    return { status: response.status, body: (await response.json()) as Record<string, any> };
  }
  const event = (id: string, type: string, object: Record<string, unknown>, created = Math.floor(Date.now() / 1000)) => ({
    id,
    object: 'event',
    type,
    created,
    data: { object },
  });

  it('keeps synced records current by webhook: applied at once, once per event, in any order, and only when signed', async () => {
    stripe.catalog.update('prices', 'price_seats', { unit_amount: 2499 });
    const newer = event('evt_2', 'price.updated', { id: 'price_seats' });
    expect(await deliver(newer)).toEqual({ status: 200, body: { received: true, event_id: 'evt_2', outcome: 'applied' } });
    expect((await rt.management('GET', '/~/billing/catalog/prices/price_seats')).body).toMatchObject({ price_in_decimal: '24.99' });
    // Delivered again: nothing happens. An older event arriving late reads the price as it is now.
    expect((await deliver(newer)).body.outcome).toBe('duplicate');
    expect((await deliver(event('evt_1', 'price.updated', { id: 'price_seats' }, Math.floor(Date.now() / 1000) - 60))).body.outcome).toBe('applied');
    expect((await rt.management('GET', '/~/billing/catalog/prices/price_seats')).body).toMatchObject({ price_in_decimal: '24.99' });

    // A subscription cancelled at Stripe is cancelled here once its event is in.
    stripe.catalog.update('subscriptions', 'sub_calls_5', { status: 'canceled' });
    expect((await deliver(event('evt_3', 'customer.subscription.deleted', { id: 'sub_calls_5' }))).body.outcome).toBe('applied');
    await rt.waitUntilConsumed(30_000);
    const subscriptions = await rt.management('GET', `/search/~/companies/${companyOf(5)}/subscriptions`);
    const listed = (subscriptions.body.hits?.hits ?? subscriptions.body).map((hit: { _source?: Record<string, unknown> }) => hit._source ?? hit);
    expect(listed.find((s: { subscription_id: string }) => s.subscription_id === 'sub_calls_5')).toMatchObject({ status: 'cancelled' });

    // A deleted product stays in the catalog, inactive; events the sync does not follow are acknowledged.
    stripe.catalog.remove('products', 'prod_support');
    expect((await deliver(event('evt_4', 'product.deleted', { id: 'prod_support' }))).body.outcome).toBe('applied');
    expect((await rt.management('GET', '/~/billing/catalog/plans/prod_support')).body).toMatchObject({ status: 'inactive' });
    expect((await deliver(event('evt_5', 'invoice.paid', { id: 'in_1' }))).body.outcome).toBe('ignored');

    // Refused: another secret, a stale signature, no signature; an app without a webhook secret answers 404.
    const refused = await deliver(event('evt_6', 'price.updated', { id: 'price_seats' }), 'whsec_other');
    expect(refused.status).toBe(400);
    expect(refused.body.error.details).toEqual([{ field: 'stripe-signature', reason: expect.stringContaining('does not match') }]);
    expect((await deliver(event('evt_7', 'price.updated', { id: 'price_seats' }), WEBHOOK_SECRET, new Date(Date.now() - 10 * 60_000))).status).toBe(400);
    const unsigned = await fetch(`${rt.credentials.management_url}/public/providers/stripe/webhooks/${rt.credentials.org_id}/${rt.credentials.app_id}`, {
      method: 'POST',
      body: '{}',
    });
    expect(unsigned.status).toBe(400);
    const elsewhere = await fetch(`${rt.credentials.management_url}/public/providers/stripe/webhooks/${rt.credentials.org_id}/app_unknown`, {
      method: 'POST',
      body: '{}',
    });
    expect(elsewhere.status).toBe(404);
  }, 60_000);

  it('converges to the provider: any changes, their events delivered in any order, twice or never, then the sweep', async () => {
    const connections = providerConnections({ connections: [{ provider: 'stripe', api_key: API_KEY, base_url: stripe.url }] });
    let eventNumber = 100;
    const change = fc.record({
      price: fc.constantFrom('price_calls', 'price_seats', 'price_bundles'),
      amount: fc.integer({ min: 1, max: 100_000 }),
      active: fc.boolean(),
      nickname: fc.constantFrom('Calls', 'Seats', 'Bundles', 'Renamed'),
    });
    // Each change's event: delivered once, twice, or lost.
    const delivery = fc.constantFrom(1, 2, 0);
    await fc.assert(
      fc.asyncProperty(fc.array(fc.tuple(change, delivery), { minLength: 1, maxLength: 6 }), fc.boolean(), async (changes, reversed) => {
        const events: Record<string, unknown>[] = [];
        for (const [{ price, amount, active, nickname }, times] of changes) {
          stripe.catalog.update('prices', price, { unit_amount: amount, unit_amount_decimal: null, active, nickname });
          const sent = event(`evt_${(eventNumber += 1)}`, 'price.updated', { id: price });
          for (let n = 0; n < times; n += 1) events.push(sent);
        }
        for (const sent of reversed ? events.reverse() : events) expect((await deliver(sent)).status).toBe(200);
        if (changes.some(([, times]) => times === 0)) {
          const sync = (await readSync(rt.stores.resources, tenant(), 'stripe'))!;
          const sweepAt = new Date(Math.max(Date.now(), Date.parse(sync.next_sweep_at ?? new Date().toISOString())) + 1000);
          expect((await runDueSyncs({ ...providerSyncDeps(rt.stores, connections), now: () => sweepAt }, 60_000)).failed).toBe(0);
        }
        for (const id of new Set(changes.map(([c]) => c.price))) {
          const expected = priceOfStripe(stripe.catalog.get('prices', id) as unknown as Stripe.Price) as Record<string, unknown>;
          const stored = (await rt.management('GET', `/~/billing/catalog/prices/${id}`)).body;
          expect({ price: stored.price_in_decimal, status: stored.status, name: stored.name }).toEqual({
            price: expected['price_in_decimal'],
            status: expected['status'],
            name: expected['name'],
          });
        }
      }),
      { numRuns: 15 },
    );
  }, 180_000);
});
