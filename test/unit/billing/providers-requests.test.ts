import { chargebeeUsageForm } from '../../../functions/billing/providers/chargebee-client';
import { jsonWithBigInts } from '../../../functions/billing/providers/json-bigint';
import { correctionDelta } from '../../../functions/billing/providers/provider-port';
import { recurlyUsageBody } from '../../../functions/billing/providers/recurly-client';
import { stripeMeterEvent } from '../../../functions/billing/providers/stripe-client';
import { webhookEvent, webhookEventJson } from '../../../functions/billing/providers/webhook-client';
import { verifyWebhook, signWebhook } from '../../../functions/billing/providers/webhook-signature';
import { zuoraUsageRecord } from '../../../functions/billing/providers/zuora-client';
import { ChargebeeParams, RecurlyParams, StripeParams, WebhookParams, ZuoraParams } from '../../../schemas/billing/provider-params';
import { reportRequest } from '../../support/fake-providers/report-request';

const windowStart = new Date('2026-11-20T10:00:00Z');
const huge = 2n ** 64n + 1n; // beyond a double's exact integers
const now = new Date('2026-11-22T12:00:00Z');

describe('what each provider is sent', () => {
  it('Stripe: a meter event whose identifier is the idempotency key, value the delta, timestamp the window start', () => {
    const request = reportRequest(StripeParams.parse({ event_name: 'api_calls', value_payload_key: 'calls' }), {
      destination: 'stripe',
      customerId: 'cus_9',
      windowStart,
      version: 2,
      quantity: 70n,
      previousQuantity: 100n,
    });
    expect(stripeMeterEvent(request, now)).toEqual({
      event_name: 'api_calls',
      identifier: request.idempotencyKey,
      timestamp: windowStart.getTime() / 1000,
      payload: { stripe_customer_id: 'cus_9', calls: '-30' },
    });
  });

  it('Stripe: the company id stands in for the customer, and huge values stay exact', () => {
    const request = reportRequest(StripeParams.parse({ event_name: 'api_calls' }), {
      destination: 'stripe',
      companyId: 'cus_company',
      windowStart,
      quantity: huge,
    });
    expect(stripeMeterEvent(request, now).payload).toEqual({ stripe_customer_id: 'cus_company', value: '18446744073709551617' });
  });

  it('Stripe: a correction of a window older than 35 days is dated at the oldest time Stripe accepts', () => {
    const request = reportRequest(StripeParams.parse({ event_name: 'api_calls' }), {
      destination: 'stripe',
      windowStart: new Date('2026-10-01T00:00:00Z'),
      version: 2,
      quantity: 3n,
      previousQuantity: 1n,
    });
    const oldest = now.getTime() / 1000 - 35 * 86_400 + 3_600;
    expect(stripeMeterEvent(request, now).timestamp).toBe(oldest);
  });

  it("Chargebee: the window's whole quantity, skip on version 1, update_existing on corrections", () => {
    const params = ChargebeeParams.parse({ item_price_id: 'calls-USD' });
    const first = chargebeeUsageForm(reportRequest(params, { destination: 'chargebee', windowStart, quantity: 100n }));
    expect(Object.fromEntries(first)).toMatchObject({
      item_price_id: 'calls-USD',
      quantity: '100',
      usage_date: String(windowStart.getTime() / 1000),
      dedupe_option: 'skip',
    });
    const correction = chargebeeUsageForm(reportRequest(params, { destination: 'chargebee', windowStart, version: 2, quantity: 70n, previousQuantity: 100n }));
    expect(Object.fromEntries(correction)).toMatchObject({ quantity: '70', dedupe_option: 'update_existing' });
    expect(correction.get('id')).not.toBe(first.get('id'));
  });

  it('Recurly: amount is the delta, merchant_tag the key, timestamps ISO', () => {
    const request = reportRequest(RecurlyParams.parse({ add_on_id: 'code-calls' }), {
      destination: 'recurly',
      windowStart,
      version: 3,
      quantity: 5n,
      previousQuantity: 9n,
    });
    const recordedAt = new Date('2026-11-20T12:00:00Z');
    expect(recurlyUsageBody(request, recordedAt)).toEqual({
      amount: -4n,
      merchant_tag: request.idempotencyKey,
      usage_timestamp: '2026-11-20T10:00:00.000Z',
      recording_timestamp: '2026-11-20T12:00:00.000Z',
    });
  });

  it('Zuora: a usage record with UniqueKey, account, subscription, charge and UOM; Quantity written exactly', () => {
    const request = reportRequest(ZuoraParams.parse({ unit_of_measure: 'Each', charge_number: 'C-1' }), {
      destination: 'zuora',
      companyId: 'A-0001',
      subscriptionId: 'S-0001',
      windowStart,
      quantity: huge,
    });
    const record = zuoraUsageRecord(request);
    expect(record).toMatchObject({
      AccountNumber: 'A-0001',
      SubscriptionNumber: 'S-0001',
      ChargeNumber: 'C-1',
      UOM: 'Each',
      UniqueKey: request.idempotencyKey,
      StartDateTime: '2026-11-20T10:00:00.000Z',
      EndDateTime: '2026-11-20T11:00:00.000Z',
    });
    expect(jsonWithBigInts(record)).toContain('"Quantity":18446744073709551617');
  });

  it('Zuora: params may name the account', () => {
    const request = reportRequest(ZuoraParams.parse({ unit_of_measure: 'Each', account_number: 'A-9' }), { destination: 'zuora', windowStart, quantity: 1n });
    expect(zuoraUsageRecord(request)).toMatchObject({ AccountNumber: 'A-9' });
    expect(zuoraUsageRecord(request)).not.toHaveProperty('ChargeNumber');
  });

  it('webhook: event id is the key; quantities, delta, totals, amount and plan are carried', () => {
    const request = reportRequest(WebhookParams.parse({ channel_ids: ['ch'], custom_plan: { plan_id: 'plan_1' } }), {
      destination: 'webhook:ch',
      windowStart,
      version: 2,
      quantity: 70n,
      previousQuantity: 100n,
      reportTotalUsage: 1_070n,
    });
    const event = webhookEvent(request, new Date('2026-11-20T12:00:00Z'));
    expect(event).toEqual({
      id: request.idempotencyKey,
      type: 'billing.usage_report',
      created: '2026-11-20T12:00:00.000Z',
      data: {
        org_id: 'org-1',
        app_id: 'app-1',
        meter: { id: 'meter-1', name: 'API calls' },
        subscription: { id: 'sub_1', company_id: 'company-1' },
        plan_id: 'plan_1',
        window: { start: '2026-11-20T10:00:00.000Z', end: '2026-11-20T11:00:00.000Z' },
        report_version: 2,
        quantity: 70,
        previous_quantity: 100,
        delta: -30,
        report_total_usage: 1_070,
        amount: '1.25',
        currency: 'usd',
      },
    });
  });

  it('webhook: quantities past 2^53 stay exact bigints in the JSON', () => {
    const huge = 2n ** 64n + 1n;
    const request = reportRequest(WebhookParams.parse({ channel_ids: ['ch'], custom_plan: { plan_id: 'plan_1' } }), {
      destination: 'webhook:ch',
      windowStart,
      quantity: huge,
      previousQuantity: 0n,
      reportTotalUsage: huge,
    });
    const event = webhookEvent(request, new Date('2026-11-20T12:00:00Z'));
    expect(event.data).toMatchObject({ quantity: huge, previous_quantity: 0, delta: huge, report_total_usage: huge });
    expect(jsonWithBigInts(event)).toContain('"quantity":18446744073709551617,"previous_quantity":0,"delta":18446744073709551617');
  });

  it('webhook: the event JSON written directly is byte for byte the event object as JSON, whatever it holds', () => {
    const params = WebhookParams.parse({ channel_ids: ['ch'], custom_plan: { plan_id: 'plan "1" \\ ü' } });
    const base = reportRequest(params, { destination: 'webhook:ch', windowStart, version: 3, quantity: 70n, previousQuantity: 100n, reportTotalUsage: 1_070n });
    const { amount: _amount, ...withoutAmount } = base;
    const variants = [
      base,
      withoutAmount,
      { ...base, meter: { id: 'meter-1' } },
      { ...base, meter: { id: 'm\u2028"x"', name: '' }, subscription: { subscriptionId: 'sub\n1', companyId: 'c\u0000' } },
      reportRequest(params, { destination: 'webhook:ch', windowStart, quantity: huge, previousQuantity: -huge, reportTotalUsage: huge }),
      { ...base, params: { ...params, custom_plan: {} } } as unknown as typeof base,
    ];
    for (const request of variants) {
      for (const created of [new Date('2026-11-20T12:00:00Z'), new Date('2026-11-20T12:00:01.5Z')]) {
        expect(webhookEventJson(request, created)).toBe(jsonWithBigInts(webhookEvent(request, created)));
      }
    }
  });

  it('correction delta is the change since earlier versions', () => {
    expect(correctionDelta({ quantity: 5n, previousQuantity: 0n })).toBe(5n);
    expect(correctionDelta({ quantity: 5n, previousQuantity: 8n })).toBe(-3n);
  });
});

describe('webhook verification recipe (as documented for receivers)', () => {
  it('accepts the exact body and refuses a changed one or another secret', () => {
    const body = jsonWithBigInts({ id: 'uab_1', delta: 3n });
    const header = signWebhook(body, 'whsec_a', 1_800_000_000);
    expect(verifyWebhook(body, header, 'whsec_a', 1_800_000_010)).toEqual({ valid: true, timestamp: 1_800_000_000 });
    expect(verifyWebhook(body.replace('3', '4'), header, 'whsec_a', 1_800_000_010)).toEqual({ valid: false, reason: 'signature mismatch' });
    expect(verifyWebhook(body, header, 'whsec_b', 1_800_000_010).valid).toBe(false);
  });
});
