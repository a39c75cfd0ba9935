import type { DeliveryChannel } from '../../../functions/billing/channels/channel-delivery';
import { runBilling } from '../../../functions/billing/run/billing-run';
import { FakeWebhookReceiver } from '../../support/fake-providers';
import { billingDeps, GRADUATED_TIERS, HOUR, numberedCalls } from './billing-scenario';
import type { TestRuntime } from './runtime';

/**
 * A period billed and closed, for price simulations: two subscriptions on `planId` (sub-co-small
 * with 5 calls, sub-co-large with 12) whose period ran from 7 to 1 hours ago, a webhook meter on
 * the plan delivering to `channel`, and one billing run over it all.
 */
export async function billedClosedPeriod(
  rt: TestRuntime,
  planId: string,
  channel: DeliveryChannel,
): Promise<{ meterId: string; period: { current_period_start: string; current_period_end: string } }> {
  const base = Math.floor(Date.now() / HOUR) * HOUR;
  const hoursAgo = (n: number) => new Date(base - n * HOUR);
  const period = { current_period_start: hoursAgo(7).toISOString(), current_period_end: hoursAgo(1).toISOString() };
  for (const company of ['co-small', 'co-large']) {
    const sent = await rt.collect('/v1/subscriptions', {
      subscription_id: `sub-${company}`,
      company_id: company,
      status: 'active',
      items: [{ plan_id: planId }],
      ...period,
    });
    if (sent.status !== 201) throw new Error(`the subscription of ${company} answered ${sent.status}`);
  }
  const meter = await rt.management(
    'POST',
    '/~/billing/meters',
    {},
    {
      name: 'calls',
      slug: 'calls',
      es_query: { query: { match_all: {} } },
      billing_plan: { provider_slug: 'webhook', params: { webhook_params: { channel_ids: [channel.id], custom_plan: { plan_id: planId } } } },
    },
  );
  if (meter.status !== 201) throw new Error(`creating the meter answered ${meter.status}`);
  const call = numberedCalls();
  const calls = (company: string, count: number) =>
    Array.from({ length: count }, (_, k) => call({ company_id: company }, new Date(hoursAgo(6).getTime() + k * 60_000)));
  const sent = await rt.collect('/v1/events/batch', [...calls('co-small', 5), ...calls('co-large', 12)]);
  if (sent.status !== 201) throw new Error(`the events answered ${sent.status}`);
  await rt.waitUntilConsumed();
  const run = await runBilling({ now: new Date(), ...billingDeps(rt, () => new Map([[channel.id, channel]]), { settings: { backfillMs: 8 * HOUR } }) });
  if (run.errors.length > 0) throw new Error(`the billing run failed: ${JSON.stringify(run.errors)}`);
  return { meterId: String(meter.body._id), period };
}

/** A subscription in its period now (from 2 hours ago to 2 hours on), sub-open of co-open on `planId`, with 8 calls so far. */
export async function subscriptionInPeriod(rt: TestRuntime, planId: string): Promise<{ current_period_start: string; current_period_end: string }> {
  const base = Math.floor(Date.now() / HOUR) * HOUR;
  const start = new Date(base - 2 * HOUR);
  const period = { current_period_start: start.toISOString(), current_period_end: new Date(base + 2 * HOUR).toISOString() };
  const sent = await rt.collect('/v1/subscriptions', {
    subscription_id: 'sub-open',
    company_id: 'co-open',
    status: 'active',
    items: [{ plan_id: planId }],
    ...period,
  });
  if (sent.status !== 201) throw new Error(`the subscription answered ${sent.status}`);
  // Without transaction ids: the collector gives each its own (other calls of the test used the numbered ones).
  const call = numberedCalls();
  const calls = Array.from({ length: 8 }, (_, k) => {
    const { transaction_id: _id, ...event } = call({ company_id: 'co-open' }, new Date(start.getTime() + k * 60_000));
    return event;
  });
  const events = await rt.collect('/v1/events/batch', calls);
  if (events.status !== 201) throw new Error(`the events answered ${events.status}`);
  await rt.waitUntilConsumed();
  return period;
}

/**
 * billedClosedPeriod on a plan of its own at the graduated test price, delivered to a fake webhook
 * receiver started for it (stop it after): the closed period customer pages and statements read.
 */
export async function closedPeriodOnGraduatedPrice(
  rt: TestRuntime,
): Promise<{ receiver: FakeWebhookReceiver; planId: string; meterId: string; period: { current_period_start: string; current_period_end: string } }> {
  const receiver = await new FakeWebhookReceiver({ secrets: { closed: 'whsec_closed' } }).start();
  const channel: DeliveryChannel = {
    id: 'closed',
    name: 'closed',
    url: receiver.channelUrl('closed'),
    status: 'active',
    headers: {},
    secrets: ['whsec_closed'],
  };
  const planId = String((await rt.management('POST', '/~/billing/catalog/plans', {}, { name: 'API' })).body.id);
  const price = await rt.management(
    'POST',
    '/~/billing/catalog/prices',
    {},
    { name: 'graduated', plan_id: planId, currency: 'USD', pricing_model: 'tiered_graduated', tiers: GRADUATED_TIERS },
  );
  if (price.status !== 201) throw new Error(`creating the price answered ${price.status}`);
  return { receiver, planId, ...(await billedClosedPeriod(rt, planId, channel)) };
}
