import { createChargebeeClient } from '../../functions/billing/providers/chargebee-client';
import { createProviderClient, ProviderConnection } from '../../functions/billing/providers/provider-connections';
import { createRecurlyClient } from '../../functions/billing/providers/recurly-client';
import { createStripeClient } from '../../functions/billing/providers/stripe-client';
import { createWebhookClient } from '../../functions/billing/providers/webhook-client';
import { createZuoraClient } from '../../functions/billing/providers/zuora-client';
import { ChargebeeParams, RecurlyParams, StripeParams, WebhookParams, ZuoraParams } from '../../schemas/billing/provider-params';
import { FakeChargebee, FakeRecurly, FakeStripe, FakeWebhookReceiver, FakeZuora } from '../support/fake-providers';
import { instantRuntime, reportRequest } from '../support/fake-providers/report-request';

/** Behaviour particular to one provider, each against its fake on 127.0.0.1. */

const retry = { maxAttempts: 3, timeoutMs: 2_000 };

describe('Stripe', () => {
  const fake = new FakeStripe({ apiKey: 'sk_test_fake' });
  beforeAll(() => fake.start());
  afterAll(() => fake.stop());
  const params = StripeParams.parse({ event_name: 'api_calls' });

  it('marks the answer to a retried key as an idempotent replay', async () => {
    fake.failNext(1, 'timeout');
    const client = createStripeClient({ apiKey: 'sk_test_fake', baseUrl: fake.url }, { retry, runtime: instantRuntime() });
    const request = reportRequest(params, { destination: 'stripe', customerId: 'cus_replay', quantity: 9n });
    const outcome = await client.report(request);
    expect(outcome).toMatchObject({ success: true, duplicate: true, providerReference: request.idempotencyKey });
    expect(fake.events().filter((e) => e.customer === 'cus_replay')).toHaveLength(1);
    const sent = fake.requests().filter((r) => r.body.includes('cus_replay'));
    expect(sent.map((r) => r.headers['idempotency-key'])).toEqual([request.idempotencyKey, request.idempotencyKey]);
  });

  it("records a refused API key with Stripe's message and does not retry it", async () => {
    const client = createStripeClient({ apiKey: 'sk_test_wrong', baseUrl: fake.url }, { retry, runtime: instantRuntime() });
    const outcome = await client.report(reportRequest(params, { destination: 'stripe', customerId: 'cus_x', quantity: 1n }));
    expect(outcome.success).toBe(false);
    expect(outcome.requests).toEqual([expect.objectContaining({ status_code: 401, error_message: expect.stringContaining('Invalid API Key') })]);
  });
});

describe('Chargebee', () => {
  const fake = new FakeChargebee({ apiKey: 'cb_key', subscriptions: { sub_1: ['calls-USD'] } });
  beforeAll(() => fake.start());
  afterAll(() => fake.stop());

  it("sends basic auth, a form body and the idempotency header; an unknown subscription is a final 404 with Chargebee's message", async () => {
    const client = createChargebeeClient({ apiKey: 'cb_key', baseUrl: fake.url }, { retry, runtime: instantRuntime() });
    const outcome = await client.report(
      reportRequest(ChargebeeParams.parse({ item_price_id: 'calls-USD' }), { destination: 'chargebee', subscriptionId: 'sub_missing', quantity: 3n }),
    );
    expect(outcome.success).toBe(false);
    expect(outcome.requests).toEqual([
      expect.objectContaining({ status_code: 404, error_code: 'resource_not_found', error_message: expect.stringContaining("couldn't find") }),
    ]);
    const sent = fake.requests().at(-1)!;
    expect(sent.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(sent.headers.authorization).toBe(`Basic ${Buffer.from('cb_key:').toString('base64')}`);
    expect(sent.headers['chargebee-idempotency-key']).toMatch(/^uab_/);
  });
});

describe('Recurly', () => {
  const fake = new FakeRecurly({ apiKey: 'rk', subscriptions: { sub_1: ['code-calls'] } });
  beforeAll(() => fake.start());
  afterAll(() => fake.stop());

  it('looks for its merchant_tag before posting, with the versioned Accept header', async () => {
    const client = createRecurlyClient({ apiKey: 'rk', baseUrl: fake.url }, { retry, runtime: instantRuntime() });
    const outcome = await client.report(reportRequest(RecurlyParams.parse({ add_on_id: 'code-calls' }), { destination: 'recurly', quantity: 4n }));
    expect(outcome.success).toBe(true);
    expect(outcome.requests.map((r) => r.job_id.endsWith(':lookup'))).toEqual([true, false]);
    expect(fake.requests().map((r) => [r.method, r.headers.accept])).toEqual([
      ['GET', 'application/vnd.recurly.v2021-02-25+json'],
      ['POST', 'application/vnd.recurly.v2021-02-25+json'],
    ]);
  });

  it("fails with Recurly's message for an unknown add-on", async () => {
    const client = createRecurlyClient({ apiKey: 'rk', baseUrl: fake.url }, { retry, runtime: instantRuntime() });
    const outcome = await client.report(reportRequest(RecurlyParams.parse({ add_on_id: 'code-nope' }), { destination: 'recurly', quantity: 4n }));
    expect(outcome.success).toBe(false);
    expect(outcome.requests).toEqual([
      expect.objectContaining({ status_code: 404, error_code: 'not_found', error_message: "Couldn't find AddOn with id = code-nope" }),
    ]);
  });
});

describe('Zuora', () => {
  const fake = new FakeZuora({ clientId: 'zid', clientSecret: 'zsecret' });
  beforeAll(() => fake.start());
  afterAll(() => fake.stop());
  const params = ZuoraParams.parse({ unit_of_measure: 'Each' });

  it('reuses its token, and renews it when Zuora refuses it', async () => {
    const client = createZuoraClient({ clientId: 'zid', clientSecret: 'zsecret', baseUrl: fake.url }, { retry, runtime: instantRuntime() });
    await client.report(reportRequest(params, { destination: 'zuora', subscriptionId: 'S-1', quantity: 1n }));
    await client.report(reportRequest(params, { destination: 'zuora', subscriptionId: 'S-2', quantity: 2n }));
    expect(fake.tokensIssued()).toBe(1);
    fake.expireTokens();
    const outcome = await client.report(reportRequest(params, { destination: 'zuora', subscriptionId: 'S-3', quantity: 3n }));
    expect(outcome.success).toBe(true);
    expect(outcome.requests.map((r) => [r.job_id.split(':')[1] ?? 'usage', r.status_code])).toEqual([
      ['usage', 401],
      ['oauth', 200],
      ['usage', 200],
    ]);
    expect(fake.tokensIssued()).toBe(2);
    expect(fake.totals()).toMatchObject({ 'S-1': 1n, 'S-2': 2n, 'S-3': 3n });
  });

  it('records refused client credentials as a failed token request', async () => {
    const client = createZuoraClient({ clientId: 'zid', clientSecret: 'wrong', baseUrl: fake.url }, { retry, runtime: instantRuntime() });
    const outcome = await client.report(reportRequest(params, { destination: 'zuora', subscriptionId: 'S-9', quantity: 1n }));
    expect(outcome.success).toBe(false);
    expect(outcome.requests).toEqual([
      expect.objectContaining({ status_code: 401, error_code: 'invalid_client', error_message: 'Invalid client id or secret' }),
    ]);
  });
});

describe('webhook', () => {
  const fake = new FakeWebhookReceiver({ secrets: { ch_a: 'secret-a', ch_b: 'secret-b' } });
  beforeAll(() => fake.start());
  afterAll(() => fake.stop());
  const params = WebhookParams.parse({ channel_ids: ['ch_a', 'ch_b'], custom_plan: { plan_id: 'plan_1' } });

  it("signs with each channel's own secret; each channel gets its own event id", async () => {
    const runtime = instantRuntime();
    const outcomes = await Promise.all(
      ['ch_a', 'ch_b'].map((id) =>
        createWebhookClient(
          { id, url: fake.channelUrl(id), secret: id === 'ch_a' ? 'secret-a' : 'secret-b' },
          { retry, runtime, allowPrivateTargets: true },
        ).report(reportRequest(params, { destination: `webhook:${id}`, subscriptionId: 'sub_w', quantity: 5n })),
      ),
    );
    expect(outcomes.map((o) => o.success)).toEqual([true, true]);
    expect(fake.totals()).toMatchObject({ 'ch_a/sub_w': 5n, 'ch_b/sub_w': 5n });
    expect(new Set(fake.events().map((e) => e.id)).size).toBe(2);
  });

  it('a receiver refusing the signature is a final failure with its message', async () => {
    const client = createWebhookClient(
      { id: 'ch_a', url: fake.channelUrl('ch_a'), secret: 'not-the-secret' },
      { retry, runtime: instantRuntime(), allowPrivateTargets: true },
    );
    const outcome = await client.report(reportRequest(params, { destination: 'webhook:ch_a', subscriptionId: 'sub_bad', quantity: 1n }));
    expect(outcome.success).toBe(false);
    expect(outcome.requests).toEqual([expect.objectContaining({ status_code: 401, error_code: 'invalid_signature', error_message: 'signature mismatch' })]);
  });
});

describe('provider connections', () => {
  const fake = new FakeChargebee({ apiKey: 'cb_conn' });
  beforeAll(() => fake.start());
  afterAll(() => fake.stop());

  it("makes the provider's client from a stored connection", async () => {
    const connection = ProviderConnection.parse({ provider: 'chargebee', api_key: 'cb_conn', base_url: fake.url });
    const client = createProviderClient(connection, { retry, runtime: instantRuntime() });
    expect(client.provider).toBe('chargebee');
    const outcome = await client.report(
      reportRequest(ChargebeeParams.parse({ item_price_id: 'calls-USD' }), { destination: 'chargebee', subscriptionId: 'sub_c', quantity: 11n }),
    );
    expect(outcome.success).toBe(true);
    expect(fake.totals()).toEqual({ sub_c: 11n });
  });

  it('names what is missing or unknown', () => {
    const missing = ProviderConnection.safeParse({ provider: 'zuora', client_id: 'id', base_url: 'https://rest.zuora.com' });
    expect(missing.error?.issues.map((i) => i.path.join('.'))).toEqual(['client_secret']);
    expect(ProviderConnection.safeParse({ provider: 'paddle', api_key: 'k' }).success).toBe(false);
    expect(ProviderConnection.safeParse({ provider: 'stripe', api_key: 'k', base_url: 'not a url' }).success).toBe(false);
  });
});
