import { createChargebeeClient } from '../../functions/billing/providers/chargebee-client';
import type { ProviderClient, ProviderOutcome } from '../../functions/billing/providers/provider-port';
import { createRecurlyClient } from '../../functions/billing/providers/recurly-client';
import type { RetryPolicy } from '../../functions/billing/providers/retry-policy';
import { createStripeClient } from '../../functions/billing/providers/stripe-client';
import { createWebhookClient } from '../../functions/billing/providers/webhook-client';
import { createZuoraClient } from '../../functions/billing/providers/zuora-client';
import { ChargebeeParams, RecurlyParams, StripeParams, WebhookParams, ZuoraParams } from '../../schemas/billing/provider-params';
import { FakeChargebee, FakeRecurly, FakeStripe, FakeWebhookReceiver, FakeZuora, type FakeProviderServer } from '../support/fake-providers';
import { instantRuntime, reportRequest } from '../support/fake-providers/report-request';

/**
 * Every provider client against its fake server on 127.0.0.1: the same scenarios for each, and each
 * ends with the subscription billed exactly the right total.
 */

const retry: Partial<RetryPolicy> = { maxAttempts: 4, timeoutMs: 2_000 };

interface Harness {
  readonly name: string;
  readonly fake: FakeProviderServer;
  client(runtime: ReturnType<typeof instantRuntime>): ProviderClient<unknown>;
  readonly params: unknown;
  /** The key the fake totals usage under. */
  readonly totalKey: string;
  /** HTTP requests per attempt that is not a usage POST (Recurly looks up before it posts). */
  readonly lookupsPerAttempt: number;
}

const harnesses: (() => Harness)[] = [
  () => {
    const fake = new FakeStripe({ apiKey: 'sk_test_fake' });
    return {
      name: 'stripe',
      fake,
      totalKey: 'cus_1',
      lookupsPerAttempt: 0,
      params: StripeParams.parse({ event_name: 'api_calls' }),
      client: (runtime) => createStripeClient({ apiKey: 'sk_test_fake', baseUrl: fake.url }, { retry, runtime }) as ProviderClient<unknown>,
    };
  },
  () => {
    const fake = new FakeChargebee({ apiKey: 'cb_test_key', subscriptions: { sub_1: ['api-calls-USD-monthly'] } });
    return {
      name: 'chargebee',
      fake,
      totalKey: 'sub_1',
      lookupsPerAttempt: 0,
      params: ChargebeeParams.parse({ item_price_id: 'api-calls-USD-monthly' }),
      client: (runtime) => createChargebeeClient({ apiKey: 'cb_test_key', baseUrl: fake.url }, { retry, runtime }) as ProviderClient<unknown>,
    };
  },
  () => {
    const fake = new FakeRecurly({ apiKey: 'recurly_key', subscriptions: { sub_1: ['code-api_calls'] } });
    return {
      name: 'recurly',
      fake,
      totalKey: 'sub_1',
      lookupsPerAttempt: 1,
      params: RecurlyParams.parse({ add_on_id: 'code-api_calls' }),
      client: (runtime) => createRecurlyClient({ apiKey: 'recurly_key', baseUrl: fake.url }, { retry, runtime }) as ProviderClient<unknown>,
    };
  },
  () => {
    const fake = new FakeZuora({ clientId: 'zid', clientSecret: 'zsecret' });
    return {
      name: 'zuora',
      fake,
      totalKey: 'sub_1',
      lookupsPerAttempt: 0,
      params: ZuoraParams.parse({ unit_of_measure: 'API Calls', charge_number: 'C-00000007' }),
      client: (runtime) => createZuoraClient({ clientId: 'zid', clientSecret: 'zsecret', baseUrl: fake.url }, { retry, runtime }) as ProviderClient<unknown>,
    };
  },
  () => {
    const fake = new FakeWebhookReceiver({ secrets: { ch_1: 'whsec_one' } });
    return {
      name: 'webhook',
      fake,
      totalKey: 'sub_1',
      lookupsPerAttempt: 0,
      params: WebhookParams.parse({ channel_ids: ['ch_1'], custom_plan: { plan_id: 'plan_api' } }),
      client: (runtime) =>
        createWebhookClient(
          { id: 'ch_1', url: fake.channelUrl('ch_1'), secret: 'whsec_one' },
          { retry, runtime, allowPrivateTargets: true },
        ) as ProviderClient<unknown>,
    };
  },
];

/** Records of usage POSTs only (lookups and token calls left out). */
function usageAttempts(outcome: ProviderOutcome) {
  return outcome.requests.filter((r) => !r.job_id.includes(':'));
}

describe.each(harnesses.map((make) => [make().name, make] as const))('%s', (_name, make) => {
  let harness: Harness;
  let runtime: ReturnType<typeof instantRuntime>;
  let client: ProviderClient<unknown>;

  beforeEach(async () => {
    harness = make();
    await harness.fake.start();
    runtime = instantRuntime();
    client = harness.client(runtime);
  });

  afterEach(async () => {
    await harness.fake.stop();
  });

  const send = (quantity: bigint, extra: { version?: number; previousQuantity?: bigint } = {}) =>
    client.report(reportRequest(harness.params, { destination: harness.name, customerId: 'cus_1', quantity, ...extra }));

  it('reports usage once', async () => {
    const outcome = await send(42n);
    expect(outcome.success).toBe(true);
    expect(usageAttempts(outcome)).toHaveLength(1);
    expect(usageAttempts(outcome)[0]).toMatchObject({ success: true, error_code: null, error_message: null });
    expect(harness.fake.totals()).toEqual({ [harness.totalKey]: 42n });
  });

  it('retries after a 500 and bills one total, not two', async () => {
    harness.fake.failNext(1, 500);
    const outcome = await send(42n);
    expect(outcome.success).toBe(true);
    expect(usageAttempts(outcome).map((r) => [r.success, r.status_code])).toEqual([
      [false, 500],
      [true, expect.any(Number)],
    ]);
    expect(runtime.slept).toHaveLength(1);
    expect(harness.fake.totals()).toEqual({ [harness.totalKey]: 42n });
  });

  it('retries after a timeout whose request got through, and the idempotency key keeps it to one count', async () => {
    harness.fake.failNext(1, { kind: 'timeout', processFirst: true });
    const outcome = await send(42n);
    expect(outcome.success).toBe(true);
    const attempts = usageAttempts(outcome);
    expect(attempts[0]).toMatchObject({ success: false, status_code: 0, error_code: 'timeout' });
    expect(outcome.requests.at(-1)?.success).toBe(true);
    // Recurly finds the first attempt's usage by merchant_tag and posts nothing more.
    if (harness.lookupsPerAttempt > 0) expect(outcome.duplicate).toBe(true);
    expect(harness.fake.totals()).toEqual({ [harness.totalKey]: 42n });
  });

  it('honours Retry-After on a 429', async () => {
    harness.fake.failNext(1, { kind: 'status', status: 429, retryAfterSeconds: 7 });
    const outcome = await send(42n);
    expect(outcome.success).toBe(true);
    expect(usageAttempts(outcome)[0]).toMatchObject({ success: false, status_code: 429 });
    expect(runtime.slept).toEqual([7_000]);
    expect(harness.fake.totals()).toEqual({ [harness.totalKey]: 42n });
  });

  it('records a 4xx as failed with the provider message, without retrying', async () => {
    harness.fake.failNext(1, { kind: 'status', status: 400, message: 'quantity is not valid for this price', code: 'param_wrong_value' });
    const outcome = await send(42n);
    expect(outcome.success).toBe(false);
    expect(usageAttempts(outcome)).toEqual([
      expect.objectContaining({ success: false, status_code: 400, error_code: 'param_wrong_value', error_message: 'quantity is not valid for this price' }),
    ]);
    expect(runtime.slept).toEqual([]);
    expect(harness.fake.totals()).toEqual({});
  });

  it('gives up after the last attempt when the provider keeps failing', async () => {
    harness.fake.failNext(10, 503);
    const outcome = await send(42n);
    expect(outcome.success).toBe(false);
    expect(usageAttempts(outcome)).toHaveLength(4);
    expect(harness.fake.totals()).toEqual({});
  });

  it('applies a correction with a negative delta so the window ends at the corrected total', async () => {
    expect((await send(100n)).success).toBe(true);
    const correction = await send(70n, { version: 2, previousQuantity: 100n });
    expect(correction.success).toBe(true);
    expect(harness.fake.totals()).toEqual({ [harness.totalKey]: 70n });
    // The same correction again (a resumed run) changes nothing.
    expect((await send(70n, { version: 2, previousQuantity: 100n })).success).toBe(true);
    expect(harness.fake.totals()).toEqual({ [harness.totalKey]: 70n });
  });

  it('sends the repeat of a delivered version without counting it again', async () => {
    await send(42n);
    const again = await send(42n);
    expect(again.success).toBe(true);
    expect(harness.fake.totals()).toEqual({ [harness.totalKey]: 42n });
  });
});
