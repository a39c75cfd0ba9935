import type Stripe from 'stripe';
import { createStripeClient } from '../../functions/billing/providers/stripe-client';
import { stripeReader } from '../../functions/billing/sync/stripe-pages';
import { stripeUsageTotals } from '../../functions/billing/reconcile/stripe-usage-totals';
import { stripeSdk } from '../../functions/billing/providers/stripe-sdk';
import { companyOfCustomer, planOfProduct, priceOfStripe, subscriptionOfStripe } from '../../functions/billing/sync/stripe-records';
import { StripeParams } from '../../schemas/billing/provider-params';
import { instantRuntime, reportRequest } from '../support/fake-providers/report-request';
import { freePort } from './support/service-process';
import { startStripeMock, STRIPE_MOCK_VERSION, type StripeMock } from './support/stripe-mock';

/**
 * The Stripe provider client against Stripe's own mock server, which checks every request against
 * Stripe's OpenAPI document: what the billing run sends is a request Stripe's API takes. (Failure
 * scenarios, retries and idempotent replays are scripted against test/support/fake-providers.)
 */
describe(`Stripe client against stripe-mock ${STRIPE_MOCK_VERSION}`, () => {
  let mock: StripeMock;
  beforeAll(async () => {
    mock = await startStripeMock(await freePort());
  }, 300_000);
  afterAll(() => mock?.stop());

  const retry = { maxAttempts: 1, timeoutMs: 10_000 };
  const params = StripeParams.parse({ event_name: 'api_calls' });

  it('reports a window’s usage as a billing meter event Stripe’s API accepts', async () => {
    const client = createStripeClient({ apiKey: 'sk_test_123', baseUrl: mock.url }, { retry, runtime: instantRuntime() });
    const outcome = await client.report(reportRequest(params, { destination: 'stripe', customerId: 'cus_mock', quantity: 42n }));
    expect(outcome.requests).toEqual([expect.objectContaining({ status_code: 200 })]);
    expect(outcome.success).toBe(true);
  });

  it('reports a correction (a negative change) as Stripe’s API accepts it', async () => {
    const client = createStripeClient({ apiKey: 'sk_test_123', baseUrl: mock.url }, { retry, runtime: instantRuntime() });
    const outcome = await client.report(
      reportRequest(params, { destination: 'stripe', customerId: 'cus_mock', quantity: 40n, previousQuantity: 42n, version: 2 }),
    );
    expect(outcome.success).toBe(true);
  });

  it('records the refusal of a key that is not a secret test-mode key, with Stripe’s message, and does not retry it', async () => {
    const client = createStripeClient(
      { apiKey: 'rk_not_a_secret_key', baseUrl: mock.url },
      { retry: { maxAttempts: 3, timeoutMs: 10_000 }, runtime: instantRuntime() },
    );
    const outcome = await client.report(reportRequest(params, { destination: 'stripe', customerId: 'cus_mock', quantity: 1n }));
    expect(outcome.success).toBe(false);
    expect(outcome.requests).toEqual([expect.objectContaining({ status_code: 401, error_message: expect.stringContaining('testmode secret API key') })]);
  });

  it('reads every list a sync in reads (products, prices with tiers, customers, subscriptions with their customer) as Stripe’s API takes it', async () => {
    const pages = stripeReader({ apiKey: 'sk_test_123', baseUrl: mock.url });
    const at = new Date();
    const products = await pages.page('products', null);
    expect(products.objects.length).toBeGreaterThan(0);
    for (const product of products.objects as Stripe.Product[]) expect(planOfProduct(product).provider).toBe('stripe');
    const prices = await pages.page('prices', null);
    // Each fixture price becomes a catalog price, or is left out with a reason: never an error.
    for (const price of prices.objects as Stripe.Price[]) {
      const mapped = priceOfStripe(price);
      expect('skipped' in mapped ? mapped.skipped : mapped.id).toEqual(expect.any(String));
    }
    const customers = await pages.page('customers', null);
    for (const customer of customers.objects as Stripe.Customer[])
      expect(companyOfCustomer(customer, at)).toMatchObject({ metadata: { stripe_customer_id: customer.id } });
    const subscriptions = await pages.page('subscriptions', 'sub_mock');
    for (const subscription of subscriptions.objects as Stripe.Subscription[]) {
      expect(typeof subscription.customer).toBe('object');
      expect(subscriptionOfStripe(subscription, at)).toMatchObject({ subscription_id: subscription.id });
    }
  });

  it('reads back a meter’s usage for a customer and period (meters by event name, then event summaries) as Stripe’s API takes it', async () => {
    const meter = (await stripeSdk({ apiKey: 'sk_test_123', baseUrl: mock.url }, { maxNetworkRetries: 0 }).billing.meters.list({ limit: 1 })).data[0]!;
    const totals = stripeUsageTotals({ apiKey: 'sk_test_123', baseUrl: mock.url });
    const target = { subscriptionId: 'sub_mock', customer: 'cus_mock' };
    const held = await totals.totalOf({
      ...target,
      params: { event_name: meter.event_name },
      from: new Date('2026-11-01T00:00:30Z'),
      to: new Date('2026-11-29T12:00:00Z'),
    });
    expect(held).toEqual({ value: expect.any(Number) });
    expect(
      await totals.totalOf({
        ...target,
        params: { event_name: 'no_such_event' },
        from: new Date('2026-11-01T00:00:00Z'),
        to: new Date('2026-11-02T00:00:00Z'),
      }),
    ).toEqual({
      unknown: expect.stringContaining('no active meter'),
    });
  });
});
