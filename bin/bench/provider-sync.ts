import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stripeSdk } from '../../functions/billing/providers/stripe-sdk';
import { FakeStripe } from '../../test/support/fake-providers';
import { stripeObjects } from '../../test/support/fake-providers/fake-stripe-catalog';
import { startEmulators } from '../local/emulators';
import { startLocalRuntime } from '../local/runtime';
import { timeMs } from './timing';

/**
 * Sync in and reconcile out at size: a fake Stripe account holding 3 products, 5 prices and 10,000
 * customers each with a subscription, brought in by one sync of the local runtime (emulators in
 * memory, DuckDB), against a baseline of the same pages read with Stripe's SDK alone; then one
 * usage event per customer billed to Stripe, and one reconciliation of every subscription.
 * Figures: times, Stripe requests, and what reaches the index.
 */

export const PROVIDER_SYNC_BENCH = { customers: 10_000 } as const;
const API_KEY = 'sk_test_bench';
const HOUR = 3_600_000;

export interface ProviderSyncBenchResult {
  customers: number;
  /** Reading every page of the four lists with the SDK alone (nothing written). */
  listingMs: number;
  listingRequests: number;
  /** The sync: from the request to `completed` (catalog written, companies and subscriptions on the ingest stream). */
  syncMs: number;
  syncRequests: number;
  /** From the request until every subscription is searchable. */
  searchableMs: number;
  ratio: number;
  /** One reconciliation of every reported subscription. */
  reconcileMs: number;
  reconcileRequests: number;
  reconciled: number;
}

export async function benchProviderSync(options: { customers?: number; log?: (line: string) => void } = {}): Promise<ProviderSyncBenchResult> {
  const customers = options.customers ?? PROVIDER_SYNC_BENCH.customers;
  const log = options.log ?? (() => {});
  const stripe = await new FakeStripe({ apiKey: API_KEY }).start();
  const now = Math.floor(Date.now() / 1000);
  for (const [id, name] of [
    ['prod_api', 'API'],
    ['prod_storage', 'Storage'],
    ['prod_support', 'Support'],
  ] as const)
    stripe.catalog.put('products', stripeObjects.product(id, name));
  stripe.catalog.put('prices', stripeObjects.price('price_calls', 'prod_api', { unit_amount_decimal: '0.25' }));
  stripe.catalog.put('prices', stripeObjects.price('price_seats', 'prod_api', { unit_amount: 1999 }));
  stripe.catalog.put('prices', stripeObjects.price('price_storage', 'prod_storage', { unit_amount_decimal: '0.5' }));
  stripe.catalog.put('prices', stripeObjects.price('price_bundles', 'prod_storage', { unit_amount: 100 }));
  stripe.catalog.put('prices', stripeObjects.price('price_support', 'prod_support', { unit_amount: 500 }));
  const customerId = (n: number) => `cus_${String(n).padStart(6, '0')}`;
  for (let n = 0; n < customers; n += 1) {
    stripe.catalog.put('customers', stripeObjects.customer(customerId(n), { name: `Customer ${n}` }));
    stripe.catalog.put(
      'subscriptions',
      stripeObjects.subscription(`sub_${String(n).padStart(6, '0')}`, customerId(n), [{ id: 'price_calls', product: 'prod_api' }], {
        start: now - 10 * 86_400,
        end: now + 20 * 86_400,
      }),
    );
  }
  const dataDir = await mkdtemp(join(tmpdir(), 'uab-bench-sync-'));
  await writeFile(join(dataDir, 'billing-providers.json'), JSON.stringify({ connections: [{ provider: 'stripe', api_key: API_KEY, base_url: stripe.url }] }));
  const emulators = await startEmulators({});
  let rt: Awaited<ReturnType<typeof startLocalRuntime>> | undefined;
  try {
    rt = await startLocalRuntime({ dataDir, billingIntervalMs: 0, endpoints: emulators.endpoints });
    const c = rt.credentials;
    const management = async (method: string, path: string, body?: unknown) => {
      const response = await fetch(`${c.management_url}${path}`, {
        method,
        headers: { authorization: `Bearer ${c.management_token}`, 'content-type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      const json = (await response.json()) as Record<string, unknown>;
      if (response.status >= 300) throw new Error(`provider sync bench: ${method} ${path} answered ${response.status}: ${JSON.stringify(json)}`);
      return json;
    };
    const requestsSoFar = () => stripe.requests().length;

    // Baseline: the same four lists, every page, through the SDK alone.
    const sdk = stripeSdk({ apiKey: API_KEY, baseUrl: stripe.url }, { maxNetworkRetries: 0 });
    let before = requestsSoFar();
    const listingMs = await timeMs(async () => {
      for await (const _ of sdk.products.list({ limit: 100 }));
      for await (const _ of sdk.prices.list({ limit: 100 }));
      for await (const _ of sdk.customers.list({ limit: 100 }));
      for await (const _ of sdk.subscriptions.list({ limit: 100, status: 'all' }));
    });
    const listingRequests = requestsSoFar() - before;
    log(`  baseline: every page of the 4 lists with the SDK alone: ${Math.round(listingMs)} ms, ${listingRequests} requests`);

    before = requestsSoFar();
    const started = Date.now();
    await management('POST', '/~/billing/providers/stripe/sync');
    let status = '';
    while (status !== 'completed') {
      await new Promise((resolve) => setTimeout(resolve, 100));
      status = String((await management('GET', '/~/billing/providers/stripe/sync'))['status']);
      if (status === 'failed') throw new Error('provider sync bench: the sync failed');
    }
    const syncMs = Date.now() - started;
    const syncRequests = requestsSoFar() - before;
    await rt.waitUntilConsumed(600_000);
    await rt.index.refresh();
    const scope = { org_id: c.org_id, app_id: c.app_id };
    const searchable = await rt.index.count(scope, 'subscriptions');
    if (searchable !== customers) throw new Error(`provider sync bench: ${searchable} of ${customers} subscriptions searchable`);
    const searchableMs = Date.now() - started;
    log(`  sync: ${Math.round(syncMs)} ms to completed, ${syncRequests} Stripe requests; every subscription searchable after ${Math.round(searchableMs)} ms`);

    // One call per customer, billed to a Stripe meter, then every subscription reconciled.
    const meter = await management('POST', '/~/billing/meters', {
      name: 'synced calls',
      slug: 'synced-calls',
      es_query: { query: { match_all: {} } },
      billing_plan: { provider_slug: 'stripe', params: { stripe_params: { event_name: 'api_calls', price_id: 'price_calls' } } },
    });
    const hour = Math.floor(Date.now() / HOUR) * HOUR - 3 * HOUR;
    for (let from = 0; from < customers; from += 1_000) {
      const batch = Array.from({ length: Math.min(1_000, customers - from) }, (_, k) => ({
        request: { time: new Date(hour + ((from + k) % 3_600) * 1_000).toISOString(), uri: 'https://api.example.com/v1/items', verb: 'GET', headers: {} },
        response: { time: new Date(hour + ((from + k) % 3_600) * 1_000 + 20).toISOString(), status: 200, headers: {} },
        company_id: customerId(from + k),
      }));
      const response = await fetch(`${c.collector_url}/v1/events/batch`, {
        method: 'POST',
        headers: { 'x-moesif-application-id': c.collector_application_id, 'content-type': 'application/json' },
        body: JSON.stringify(batch),
      });
      if (response.status !== 201) throw new Error(`provider sync bench: events answered ${response.status}`);
    }
    await rt.waitUntilConsumed(600_000);
    const billed = await rt.billing.runOnce({ now: new Date(hour + 2 * HOUR) });
    if (billed.errors.length > 0 || billed.delivered < customers)
      throw new Error(`provider sync bench: the billing run delivered ${billed.delivered} of ${customers}`);
    stripe.addMeter('mtr_calls', 'api_calls');
    before = requestsSoFar();
    let reconciliation: Record<string, unknown> = {};
    const reconcileMs = await timeMs(async () => {
      reconciliation = await management('POST', `/~/billing/meters/${String(meter['_id'])}/reconciliation`);
    });
    const reconcileRequests = requestsSoFar() - before;
    const counts = reconciliation['counts'] as { matched: number; drift: number; unknown: number };
    if (counts.matched !== customers) throw new Error(`provider sync bench: ${JSON.stringify(counts)} after reconciling ${customers}`);
    log(
      `  reconciliation of ${customers.toLocaleString('en')} subscriptions: ${Math.round(reconcileMs)} ms (${((reconcileMs / customers) * 1000).toFixed(0)} µs each), ${reconcileRequests} Stripe requests`,
    );
    return {
      customers,
      listingMs,
      listingRequests,
      syncMs,
      syncRequests,
      searchableMs,
      ratio: syncMs / listingMs,
      reconcileMs,
      reconcileRequests,
      reconciled: counts.matched,
    };
  } finally {
    await rt?.stop();
    await emulators.stop();
    await stripe.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
}
