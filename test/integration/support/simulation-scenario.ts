import type { DeliveryChannel } from '../../../functions/billing/channels/channel-delivery';
import { runBilling } from '../../../functions/billing/run/billing-run';
import { billingDeps, HOUR, numberedCalls } from './billing-scenario';
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
