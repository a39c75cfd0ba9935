import { createServer } from 'node:net';
import { Decimal } from '../../values/decimal';
import type { ProviderClient } from '../../functions/billing/providers/provider-port';
import { createStripeClient } from '../../functions/billing/providers/stripe-client';
import {
  DELIVERY_UNCONFIRMED,
  deliverReports,
  keyState,
  MAX_DELIVERY_RUNS,
  UNCONFIRMED_RESEND_MAX_AGE_MS,
  type DeliveryDeps,
} from '../../functions/billing/run/deliver-reports';
import { runMeterOf, type RunMeter } from '../../functions/billing/run/run-meter';
import { SubscriptionDirectory, type KnownSubscription } from '../../functions/billing/run/subscription-directory';
import { attribute, buildWindowReports } from '../../functions/billing/run/window-reports';
import type { BillingReport } from '../../schemas/billing/report';
import { FakeStripe } from '../support/fake-providers';
import { instantRuntime } from '../support/fake-providers/report-request';

/**
 * Delivery outcomes that are not known (timeouts, connection errors): never taken as delivered,
 * resent with the same key until the provider answers, and failed as `delivery_unconfirmed` when
 * that does not happen within the bounded runs or age. Against the fake Stripe (localhost), which
 * dedupes by identifier and Idempotency-Key like Stripe.
 */
const HOUR = 3_600_000;
const tenant = { orgId: 'org1', appId: 'app1' };
// A recent closed hour: inside Stripe's accepted past.
const windowStart = new Date(Math.floor(Date.now() / HOUR) * HOUR - 2 * HOUR);
const window = { start: windowStart, end: new Date(windowStart.getTime() + HOUR) };

const subscription: KnownSubscription = {
  subscriptionId: 'sub-a',
  companyId: 'acme',
  status: 'active',
  periodStart: null,
  periodEnd: null,
  items: [{ price_id: 'price_1' }],
  createdAt: '2026-01-01T00:00:00Z',
  metadata: { stripe_customer_id: 'cus_acme' },
};
const directory = new SubscriptionDirectory(new Map([['sub-a', subscription]]));

function stripeMeter(): RunMeter {
  const m = runMeterOf({
    _id: 'm1',
    name: 'calls',
    created_at: '2026-01-01T00:00:00Z',
    es_query: '{"query":{"match_all":{}}}',
    billing_plan: { provider_slug: 'stripe', params: { stripe_params: { event_name: 'api_calls', price_id: 'price_1' } } },
  });
  if ('error' in m) throw new Error(m.error);
  return m;
}

/** The window's report for sub-a with `usage` units: version 1, or the next version of `previous`. */
function report(meter: RunMeter, usage: number, now: Date, previous?: BillingReport): BillingReport {
  const built = buildWindowReports({
    tenant,
    meter,
    window,
    usage: attribute({ bySubscription: new Map([['sub-a', Decimal.from(String(usage))]]), byCompany: new Map() }, directory, meter),
    previous: new Map(previous ? [['S:sub-a', previous]] : []),
    totals: new Map(),
    pricing: undefined,
    directory,
    now,
  });
  const [only] = built.reports;
  if (!only) throw new Error('no report built');
  return only;
}

describe('billing delivery: unknown outcomes are not taken as delivered', () => {
  let stripe: FakeStripe;
  const meter = stripeMeter();

  beforeEach(async () => {
    stripe = await new FakeStripe({ apiKey: 'sk_test_unconfirmed' }).start();
  });
  afterEach(async () => {
    await stripe.stop();
  });

  function deps(client: ProviderClient<never>, now: Date): DeliveryDeps {
    return {
      tenant,
      meter,
      directory,
      providerClient: () => client,
      channelClients: new Map(),
      ledger: undefined,
      balances: undefined as never,
      concurrency: 4,
      webhookBatchSize: 500,
      webhookOptions: undefined,
      maxDeliveryRuns: MAX_DELIVERY_RUNS,
      now: () => now,
    };
  }

  const stripeClient = (baseUrl: string) =>
    createStripeClient(
      { apiKey: 'sk_test_unconfirmed', baseUrl },
      { retry: { maxAttempts: 1, timeoutMs: 400 }, runtime: instantRuntime() },
    ) as ProviderClient<never>;

  async function deliver(current: BillingReport, client: ProviderClient<never>, now = new Date()): Promise<BillingReport> {
    const result = await deliverReports(deps(client, now), [current]);
    return result.reports[0]!;
  }

  it('a timeout on the first run (nothing arrived) stays retrying; the next run delivers it once', async () => {
    const client = stripeClient(stripe.url);
    stripe.failNext(1, { kind: 'timeout', processFirst: false });
    const first = await deliver(report(meter, 10, new Date()), client);
    expect(first).toMatchObject({ status: 'retrying', success: false, delivery_runs: 1 });
    expect(first.error_code).toBeUndefined();
    expect(first.provider_requests.at(-1)).toMatchObject({ status_code: 0, error_code: 'timeout' });
    expect(keyState(first.provider_requests, first.idempotency_key)).toBe('unconfirmed');
    expect(stripe.totals()).toEqual({});

    const second = await deliver(first, client);
    expect(second).toMatchObject({ status: 'success', success: true, delivery_runs: 2 });
    expect(stripe.totals()).toEqual({ cus_acme: 10n });
    // Both attempts carried the same identifier and Idempotency-Key.
    const keys = stripe
      .requests()
      .filter((r) => r.method === 'POST')
      .map((r) => r.headers['idempotency-key']);
    expect(keys).toEqual([first.idempotency_key, first.idempotency_key]);
  });

  it('an accepted request whose answer timed out is resent with the same key, deduplicated: the total is right', async () => {
    const client = stripeClient(stripe.url);
    stripe.failNext(1, { kind: 'timeout', processFirst: true });
    const first = await deliver(report(meter, 7, new Date()), client);
    expect(first.status).toBe('retrying');
    // The provider has it already, the service does not know yet.
    expect(stripe.totals()).toEqual({ cus_acme: 7n });
    const second = await deliver(first, client);
    expect(second.status).toBe('success');
    expect(stripe.totals()).toEqual({ cus_acme: 7n });
    expect(stripe.events()).toHaveLength(1);
  });

  it('a permanently unreachable provider ends failed / delivery_unconfirmed after the bounded runs, never success', async () => {
    const client = stripeClient(await closedPortUrl());
    let current = report(meter, 5, new Date());
    for (let run = 1; run < MAX_DELIVERY_RUNS; run += 1) {
      current = await deliver(current, client);
      expect(current).toMatchObject({ status: 'retrying', delivery_runs: run });
    }
    current = await deliver(current, client);
    expect(current).toMatchObject({
      status: 'failed',
      success: false,
      delivery_runs: MAX_DELIVERY_RUNS,
      error_code: DELIVERY_UNCONFIRMED,
      last_success_time: null,
    });
    expect(current.error_message).toMatch(/stripe/);
    expect(current.provider_requests.every((r) => r.status_code === 0 && r.error_code === 'network_error' && r.job_id === current.idempotency_key)).toBe(true);
  });

  it("past the providers' deduplication window an unconfirmed version is not resent: failed / delivery_unconfirmed", async () => {
    const client = stripeClient(stripe.url);
    const created = new Date();
    stripe.failNext(1, { kind: 'timeout', processFirst: true });
    const first = await deliver(report(meter, 3, created), client, created);
    expect(first.status).toBe('retrying');
    const sent = stripe.requests().length;
    const late = await deliver(first, client, new Date(created.getTime() + UNCONFIRMED_RESEND_MAX_AGE_MS + 60_000));
    expect(late).toMatchObject({ status: 'failed', error_code: DELIVERY_UNCONFIRMED, delivery_runs: 2 });
    expect(late.error_message).toMatch(/deduplication window/);
    expect(stripe.requests().length).toBe(sent);
  });

  it('a correction on top of an unconfirmed version sends only its delta (never a double bill) and the report stays failed / delivery_unconfirmed', async () => {
    const down = stripeClient(await closedPortUrl());
    let v1 = report(meter, 10, new Date());
    for (let run = 0; run < MAX_DELIVERY_RUNS; run += 1) v1 = await deliver(v1, down);
    expect(v1).toMatchObject({ status: 'failed', error_code: DELIVERY_UNCONFIRMED });

    // Late events: 12 units now. The correction goes out relative to version 1 (it may be at the provider).
    const v2 = report(meter, 12, new Date(), v1);
    expect(v2).toMatchObject({ status: 'pending', report_version: 2 });
    const delivered = await deliver(v2, stripeClient(stripe.url));
    expect(stripe.events().map((e) => e.value)).toEqual([2n]);
    expect(delivered).toMatchObject({ status: 'failed', success: false, error_code: DELIVERY_UNCONFIRMED });
    expect(delivered.error_message).toMatch(/version 1 .*never confirmed.*version 2 was delivered/);
    expect(delivered.last_success_time).not.toBeNull();
    expect(keyState(delivered.provider_requests, delivered.idempotency_key)).toBe('delivered');
  });

  it("a 4xx after a timeout is a refusal: failed with the provider's code, carried by the next correction", async () => {
    const client = stripeClient(stripe.url);
    stripe.failNext(1, { kind: 'timeout', processFirst: false });
    const first = await deliver(report(meter, 4, new Date()), client);
    expect(first.status).toBe('retrying');
    stripe.failNext(1, { kind: 'status', status: 400, code: 'customer_missing', message: 'No such customer' });
    const refused = await deliver(first, client);
    expect(refused).toMatchObject({ status: 'failed', error_code: 'customer_missing', error_message: 'No such customer' });
    expect(keyState(refused.provider_requests, refused.idempotency_key)).toBe('not_delivered');
    // The correction carries the refused version: the provider gets the window's whole 6 units.
    const corrected = await deliver(report(meter, 6, new Date(), refused), client);
    expect(corrected).toMatchObject({ status: 'success', report_version: 2 });
    expect(corrected.error_code).toBeUndefined();
    expect(stripe.totals()).toEqual({ cus_acme: 6n });
  });
});

/** A localhost URL nothing listens on (connection refused: an unknown outcome to the client). */
async function closedPortUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}
