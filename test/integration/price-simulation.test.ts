import type { DeliveryChannel } from '../../functions/billing/channels/channel-delivery';
import type { CustomerUsage } from '../../schemas/billing/customer-usage';
import type { PriceSimulation } from '../../schemas/billing/price-simulation';
import type { PlanChangePreview } from '../../schemas/billing/plan-change';
import { FakeWebhookReceiver } from '../support/fake-providers';
import { GRADUATED_TIERS, HOUR } from './support/billing-scenario';
import { billedClosedPeriod, subscriptionInPeriod } from './support/simulation-scenario';
import { startTestRuntime, type TestRuntime } from './support/runtime';

/**
 * A meter's last period priced under other prices, on the real emulators: trying the subscriptions'
 * own graduated price reproduces what the customer page bills them, to the cent; a draft per-unit
 * price and a draft graduated price give what a hand calculation gives; the scope narrows to one
 * company or one plan; refusals name the field.
 */
describe('price simulation', () => {
  let rt: TestRuntime;
  let fake: FakeWebhookReceiver;
  let channel: DeliveryChannel;
  let meterId: string;
  let planId: string;
  const prices: Record<string, string> = {};
  const base = Math.floor(Date.now() / HOUR) * HOUR;
  const hoursAgo = (n: number) => new Date(base - n * HOUR);
  let closed: { current_period_start: string; current_period_end: string };
  const simulate = (body: Record<string, unknown>) =>
    rt.management('POST', '/~/billing/simulations', {}, { billing_meter_id: meterId, from: hoursAgo(24).toISOString(), to: new Date().toISOString(), ...body });
  const price = async (name: string, body: Record<string, unknown>) => {
    const created = await rt.management('POST', '/~/billing/catalog/prices', {}, { name, plan_id: planId, currency: 'USD', ...body });
    expect(created.status).toBe(201);
    return String(created.body.id);
  };

  beforeAll(async () => {
    rt = await startTestRuntime('price-simulation');
    fake = await new FakeWebhookReceiver({ secrets: { sim: 'whsec_sim' } }).start();
    channel = { id: 'sim', name: 'sim', url: fake.channelUrl('sim'), status: 'active', headers: {}, secrets: ['whsec_sim'] };
    planId = String((await rt.management('POST', '/~/billing/catalog/plans', {}, { name: 'API' })).body.id);
    prices['own'] = await price('graduated', { pricing_model: 'tiered_graduated', tiers: GRADUATED_TIERS });
    // Drafts: prices no subscription is on (inactive), to try.
    prices['per_unit'] = await price('a cent a call', { pricing_model: 'per_unit', price_in_decimal: '0.01', status: 'inactive' });
    prices['steeper'] = await price('steeper', {
      pricing_model: 'tiered_graduated',
      status: 'inactive',
      tiers: [
        { up_to: 4, unit_price_in_decimal: '0.25' },
        { up_to: 'inf', unit_price_in_decimal: '0.125', flat_price_in_decimal: '0.5' },
      ],
    });
    prices['euro'] = await price('in euros', { pricing_model: 'per_unit', price_in_decimal: '0.01', status: 'inactive', currency: 'EUR' });
    ({ meterId, period: closed } = await billedClosedPeriod(rt, planId, channel));
  }, 60_000);

  afterAll(async () => {
    await fake?.stop();
    await rt?.dispose();
  });

  it('reproduces what each subscription was billed, to the cent, when trying its own price', async () => {
    const answer = (await simulate({ price_id: prices['own'] })).body as PriceSimulation;
    expect(answer.subscriptions.map((s) => [s.subscription_id, s.usage, s.current_amount, s.simulated_amount, s.difference])).toEqual([
      ['sub-co-large', 12, '2.1', '2.1', '0'],
      ['sub-co-small', 5, '0.5', '0.5', '0'],
    ]);
    // What the customer page bills for that period (its invoice), for each company.
    for (const company of ['co-small', 'co-large']) {
      const minted = await rt.management('POST', '/~/customer_tokens', {}, { company_id: company });
      const usage = (
        await rt.management('GET', `/public/customers/${encodeURIComponent(minted.body.token)}/usage?period_start=${closed.current_period_start}`, {
          authorization: '',
        })
      ).body as CustomerUsage;
      const row = answer.subscriptions.find((s) => s.company_id === company)!;
      expect(usage.invoices.map((invoice) => invoice.totals)).toEqual([[{ currency: 'usd', amount: row.current_amount }]]);
    }
  });

  it('prices the same usage under draft prices as a hand calculation does', async () => {
    const perUnit = (await simulate({ price_id: prices['per_unit'] })).body as PriceSimulation;
    expect(perUnit.subscriptions.map((s) => [s.subscription_id, s.simulated_amount, s.difference])).toEqual([
      ['sub-co-large', '0.12', '-1.98'],
      ['sub-co-small', '0.05', '-0.45'],
    ]);
    expect(perUnit.totals).toEqual({ usage: 17, current_amount: '2.6', simulated_amount: '0.17', difference: '-2.43' });
    // 4 at 0.25, the rest at 0.125, plus 0.50 once the second tier is reached: 12 → 1 + 1 + 0.5; 5 → 1 + 0.125 + 0.5 (0.625 + 1 = 1.625 → 1.63).
    const steeper = (await simulate({ price_id: prices['steeper'] })).body as PriceSimulation;
    expect(steeper.subscriptions.map((s) => [s.subscription_id, s.simulated_amount])).toEqual([
      ['sub-co-small', '1.63'],
      ['sub-co-large', '2.5'],
    ]);
    expect(steeper.subscriptions[0]!.periods).toEqual([
      { period_start: closed.current_period_start, period_end: closed.current_period_end, usage: 5, current_amount: '0.5', simulated_amount: '1.63' },
    ]);
  });

  it('narrows to one company or one plan, lists other currencies apart, and refuses what it cannot price', async () => {
    expect(
      ((await simulate({ price_id: prices['per_unit'], company_id: 'co-small' })).body as PriceSimulation).subscriptions.map((s) => s.subscription_id),
    ).toEqual(['sub-co-small']);
    expect(((await simulate({ price_id: prices['per_unit'], plan_id: 'another-plan' })).body as PriceSimulation).subscriptions).toEqual([]);
    const euro = (await simulate({ price_id: prices['euro'] })).body as PriceSimulation;
    expect([euro.subscriptions, euro.other_currency.sort()]).toEqual([[], ['sub-co-large', 'sub-co-small']]);
    const refused = async (body: Record<string, unknown>, field: string) => {
      const answer = await simulate(body);
      expect(answer.status).toBe(400);
      expect(answer.body.error.details).toEqual(expect.arrayContaining([expect.objectContaining({ field })]));
    };
    // A company cohort as the scope: its members' subscriptions (members are company profiles).
    expect((await rt.collect('/v1/companies/batch', [{ company_id: 'co-small' }, { company_id: 'co-large' }])).status).toBe(201);
    await rt.waitUntilConsumed();
    const cohort = await rt.management(
      'POST',
      '/~/cohorts',
      {},
      { cohort_name: 'large', cohort_type: 'company', criteria: { term: { company_id: 'co-large' } } },
    );
    expect(cohort.status).toBe(201);
    expect(
      ((await simulate({ price_id: prices['per_unit'], cohort_id: cohort.body.cohort_id ?? cohort.body._id })).body as PriceSimulation).subscriptions.map(
        (s) => s.subscription_id,
      ),
    ).toEqual(['sub-co-large']);
    await refused({ price_id: prices['per_unit'], cohort_id: 'no-such-cohort' }, 'cohort_id');
    await refused({ price_id: 'no-such-price' }, 'price_id');
    await refused({ price_id: prices['own'], to: new Date(Date.now() + HOUR).toISOString() }, 'to');
    await refused({ price_id: prices['own'], company_id: 'co-small', plan_id: planId }, 'plan_id');
    await refused({ price_id: prices['own'], billing_meter_id: undefined }, 'billing_meter_id');
  });

  it('previews moving a subscription in its period to another price now: the usage so far at the old price, the rest at the new one', async () => {
    const open = await subscriptionInPeriod(rt, planId);
    const answer = await rt.management('POST', '/~/billing/plan-change-previews', {}, { subscription_id: 'sub-open', price_id: prices['per_unit'] });
    expect(answer.status).toBe(200);
    const preview = answer.body as PlanChangePreview;
    expect(preview).toMatchObject({
      subscription_id: 'sub-open',
      company_id: 'co-open',
      currency: 'usd',
      period: { start: open.current_period_start, end: open.current_period_end },
      left_out: [],
    });
    const [meter] = preview.meters;
    expect(meter!.usage).toBe(8);
    expect(meter!.estimated_usage).toBeGreaterThanOrEqual(8);
    // By hand: the graduated price (10 at 0.10, then 0.05 each plus 1.00), and a cent a call.
    const graduated = (units: number) => (units <= 10 ? units * 0.1 : 1 + (units - 10) * 0.05 + 1);
    const cents = (amount: number) => (Math.round(amount * 100) / 100).toString();
    expect(meter).toMatchObject({
      keep_amount: cents(graduated(meter!.estimated_usage)),
      before_change_amount: cents(graduated(8)),
      after_change_amount: cents((meter!.estimated_usage - 8) * 0.01),
    });
    expect(Number(meter!.change_amount)).toBeCloseTo(Number(meter!.before_change_amount) + Number(meter!.after_change_amount), 10);
    expect(preview.totals.difference).toBe(meter!.difference);
    const euro = (await rt.management('POST', '/~/billing/plan-change-previews', {}, { subscription_id: 'sub-open', price_id: prices['euro'] }))
      .body as PlanChangePreview;
    expect([euro.meters, euro.left_out]).toEqual([[], [expect.objectContaining({ reason: expect.stringContaining('EUR') })]]);
    expect((await rt.management('POST', '/~/billing/plan-change-previews', {}, { subscription_id: 'sub-nobody', price_id: prices['per_unit'] })).status).toBe(
      404,
    );
    const unknown = await rt.management('POST', '/~/billing/plan-change-previews', {}, { subscription_id: 'sub-open', price_id: 'no-such-price' });
    expect(unknown.body.error.details).toEqual([expect.objectContaining({ field: 'price_id' })]);
  });
});
