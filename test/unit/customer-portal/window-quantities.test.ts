import fc from 'fast-check';
import { quantityRule } from '../../../functions/billing/pricing/usage-quantity';
import { runMeterOf, type RunMeter } from '../../../functions/billing/run/run-meter';
import type { KnownSubscription } from '../../../functions/billing/run/subscription-directory';
import { windowQuantities, type QuantityAsk } from '../../../functions/customer-portal/usage/window-quantities';
import { createDuckDbSearchIndex } from '../../../functions/search/duckdb/duckdb-index';
import { eventDocument } from '../../../functions/search/index-documents';
import type { SearchableIndex, TenantScope } from '../../../functions/search/port';
import { Decimal } from '../../../values/decimal';

/**
 * A customer page's usage: every meter's windows of every subscription measured in shared searches
 * (one histogram per window length, a filter per ask) equal each window measured on its own and
 * rounded as the run rounds it, also when a long period of short windows needs several searches.
 */

const DAY = 86_400_000;
const START = Date.parse('2027-03-01T00:00:00.000Z');
const NOW = new Date(START + 40 * DAY);

interface Call {
  readonly subscription: 's1' | 's2' | null;
  readonly route: '/a' | '/b';
  readonly weight: number;
  readonly at: number;
}

// A meter's metric: the default (the sum of weight, 1 when absent), or a count of its events.
const meterOf = (id: string, query: unknown, period: string, metric: 'weight' | 'count', multiplier: number): RunMeter => {
  const meter = runMeterOf({
    _id: id,
    name: id,
    es_query: JSON.stringify({ query, ...(metric === 'count' ? { aggs: { usage: { value_count: { field: 'time' } } } } : {}) }),
    billing_plan: {
      provider_slug: 'webhook',
      params: {
        usage_multiplier: multiplier,
        usage_rounding_mode: 'up',
        reporting_period: period,
        webhook_params: { channel_ids: ['c'], custom_plan: { plan_id: 'p' } },
      },
    },
  });
  if ('error' in meter) throw new Error(meter.error);
  return meter;
};
const METERS = [
  meterOf('hourly-calls', { match_all: {} }, '1h', 'weight', 0.3),
  meterOf('b-weight', { term: { 'request.route.raw': '/b' } }, '5m', 'weight', 1),
  meterOf('daily-a', { term: { 'request.route.raw': '/a' } }, '1d', 'count', 1),
];
const subscriptionOf = (id: 's1' | 's2', periodStart: number, periodEnd: number): KnownSubscription => ({
  subscriptionId: id,
  companyId: 'c1',
  status: 'active',
  periodStart: new Date(periodStart),
  periodEnd: new Date(periodEnd),
  items: [],
  createdAt: null,
  metadata: {},
});

let index: SearchableIndex;
let tenant = 0;
beforeAll(async () => {
  index = await createDuckDbSearchIndex({ path: ':memory:' });
});
afterAll(() => index.close());

/** What the run bills an ask: its events (its own; the company's others when attributed), per window, rounded per window. */
function expected(ask: QuantityAsk, calls: readonly Call[]): bigint {
  const { meter, subscription, companyAttributed, period } = ask;
  const end = Math.min(period.end.getTime(), NOW.getTime());
  const perWindow = new Map<number, number>();
  for (const call of calls) {
    const billedHere = call.subscription === subscription.subscriptionId || (call.subscription === null && companyAttributed);
    const matches = meter.id === 'hourly-calls' || (meter.id === 'b-weight' ? call.route === '/b' : call.route === '/a');
    if (!billedHere || !matches || call.at < period.start.getTime() || call.at >= end) continue;
    const window = Math.floor(call.at / meter.periodMs);
    perWindow.set(window, (perWindow.get(window) ?? 0) + (meter.id === 'daily-a' ? 1 : call.weight));
  }
  const quantityOf = quantityRule({ usage_multiplier: meter.multiplier, usage_rounding_mode: meter.rounding });
  return [...perWindow.values()].reduce((sum, usage) => sum + quantityOf(Decimal.from(usage)), 0n);
}

it('measures every ask in shared searches as each window alone would be billed (property)', async () => {
  const call = fc.record({
    subscription: fc.constantFrom('s1' as const, 's2' as const, null),
    route: fc.constantFrom('/a' as const, '/b' as const),
    weight: fc.integer({ min: 0, max: 9 }),
    // Over 40 days: the 5-minute meter's 30-day periods need two searches.
    at: fc.integer({ min: START, max: START + 40 * DAY - 1 }),
  });
  await fc.assert(
    fc.asyncProperty(fc.array(call, { minLength: 1, maxLength: 60 }), fc.integer({ min: 0, max: 9 }), async (calls, s2StartDay) => {
      const scope: TenantScope = { org_id: 'org', app_id: `app-${tenant++}` };
      const documents = calls.map((c, i) => {
        const time = new Date(c.at).toISOString();
        return eventDocument(scope, 'event', {
          id: `e${i}`,
          time,
          received_at: time,
          data: {
            request: { time, uri: `https://api.test${c.route}`, verb: 'GET' },
            response: { time, status: 200 },
            company_id: 'c1',
            weight: c.weight,
            ...(c.subscription ? { subscription_id: c.subscription } : {}),
          },
        });
      });
      expect((await index.index(documents)).failures).toEqual([]);
      const s1 = subscriptionOf('s1', START, START + 30 * DAY);
      const s2 = subscriptionOf('s2', START + s2StartDay * DAY, START + (s2StartDay + 31) * DAY);
      const asks: QuantityAsk[] = METERS.flatMap((meter) => [
        { meter, subscription: s1, companyAttributed: true, period: { start: s1.periodStart!, end: s1.periodEnd!, closed: true } },
        { meter, subscription: s2, companyAttributed: false, period: { start: s2.periodStart!, end: s2.periodEnd!, closed: false } },
      ]);
      const measured = await windowQuantities(index, scope, asks, NOW);
      expect(measured.map((quantities) => quantities.total)).toEqual(asks.map((ask) => expected(ask, calls)));
      measured.forEach((quantities) => expect(BigInt(quantities.daily.reduce((sum, day) => sum + day.usage, 0))).toBe(quantities.total));
    }),
    { numRuns: 15 },
  );
});
