import { createDuckDbSearchIndex } from '../../../functions/search/duckdb/duckdb-index';
import { eventDocument } from '../../../functions/search/index-documents';
import type { IndexDocument, SearchableIndex } from '../../../functions/search/port';
import { runMeterOf, type RunMeter } from '../../../functions/billing/run/run-meter';
import { SubscriptionDirectory, type KnownSubscription } from '../../../functions/billing/run/subscription-directory';
import { metricValue, UsageGroupLimitError, windowUsage } from '../../../functions/billing/run/usage-query';
import { attribute } from '../../../functions/billing/run/window-reports';

/**
 * Window usage of distinct meters on a real in-memory DuckDB index: the union count of subscriptions
 * that receive both groups (in several union queries when there are many), and the clear refusal of
 * a window with more groups than one grouped query returns.
 */

const scope = { org_id: 'org-1', app_id: 'app-1' };
const window = { start: new Date('2026-03-10T10:00:00Z'), end: new Date('2026-03-10T11:00:00Z') };
const now = new Date('2026-03-11T00:00:00Z');

let n = 0;
function event(data: Record<string, unknown>, minute = 1): IndexDocument {
  n += 1;
  const time = new Date(window.start.getTime() + minute * 60_000).toISOString();
  return eventDocument(scope, 'event', {
    id: `e${n}`,
    time,
    received_at: time,
    data: { request: { time, uri: 'https://api.example.test/', verb: 'GET' }, response: { time, status: 200 }, ...data },
  });
}

async function indexOf(documents: IndexDocument[]): Promise<SearchableIndex> {
  const index = await createDuckDbSearchIndex({ path: ':memory:' });
  const outcome = await index.index(documents);
  if (outcome.failures.length > 0) throw new Error(JSON.stringify(outcome.failures));
  return index;
}

function uniqueUsers(): RunMeter {
  const meter = runMeterOf({
    _id: 'm-users',
    name: 'users',
    created_at: '2026-03-01T00:00:00Z',
    es_query: JSON.stringify({ aggs: { u: { cardinality: { field: 'user_id' } } } }),
    billing_plan: { provider_slug: 'webhook', params: { webhook_params: { channel_ids: ['c1'], custom_plan: { plan_id: 'plan-1' } } } },
  });
  if ('error' in meter) throw new Error(meter.error);
  return meter;
}

const subscription = (id: string, company: string): KnownSubscription => ({
  subscriptionId: id,
  companyId: company,
  status: 'active',
  periodStart: null,
  periodEnd: null,
  items: [{ plan_id: 'plan-1' }],
  createdAt: '2026-01-01T00:00:00Z',
  metadata: {},
});

describe('billing run: distinct usage of a window', () => {
  it('counts the union for every subscription receiving both groups, over several union queries, exactly', async () => {
    // 600 companies: company i has users u<i>-0..2 on events naming s<i>, and u<i>-2..4 without subscription_id
    // (u<i>-2 in both: 5 distinct, not 3 + 3); every third company also has a user on both sides twice.
    const documents: IndexDocument[] = [];
    const subscriptions = new Map<string, KnownSubscription>();
    const expected = new Map<string, number>();
    for (let i = 0; i < 600; i += 1) {
      subscriptions.set(`s${i}`, subscription(`s${i}`, `c${i}`));
      for (const u of [0, 1, 2]) documents.push(event({ company_id: `c${i}`, subscription_id: `s${i}`, user_id: `u${i}-${u}` }, u + 1));
      for (const u of [2, 3, 4]) documents.push(event({ company_id: `c${i}`, user_id: `u${i}-${u}` }, u + 10));
      if (i % 3 === 0)
        documents.push(
          event({ company_id: `c${i}`, user_id: `u${i}-0` }, 30),
          event({ company_id: `c${i}`, subscription_id: `s${i}`, user_id: `u${i}-4` }, 31),
        );
      expected.set(`S:s${i}`, 5);
    }
    // A subscription with usage on one side only adds no union query, and keeps its own count.
    subscriptions.set('solo', subscription('solo', 'solo-co'));
    documents.push(
      event({ company_id: 'solo-co', subscription_id: 'solo', user_id: 'x' }),
      event({ company_id: 'solo-co', subscription_id: 'solo', user_id: 'y' }),
    );
    expected.set('S:solo', 2);
    const index = await indexOf(documents);
    const searches = jest.spyOn(index, 'search');
    const directory = new SubscriptionDirectory(subscriptions);
    const meter = uniqueUsers();

    const usage = await windowUsage(index, scope, meter, window, now, directory);
    // One grouped query, then 600 unions in three queries of at most 250.
    expect(searches).toHaveBeenCalledTimes(4);
    expect(usage.distinctUnions?.size).toBe(600);
    expect(usage.bySubscription.get('s0')?.toString()).toBe('4');
    expect(usage.byCompany.get('c0')?.toString()).toBe('4');
    const attributed = attribute(usage, directory, meter);
    expect(new Map([...attributed].map(([key, entry]) => [key, Number(entry.raw.toString())]))).toEqual(expected);
    expect(attributed.get('S:s7')).toMatchObject({ fromSubscriptionId: true, fromCompany: true, companyId: 'c7' });
  });

  it('refuses a distinct window with more than 10,000 groups, saying why and what to do', async () => {
    const documents = Array.from({ length: 10_001 }, (_, i) => event({ company_id: `c${i}`, user_id: `u${i}` }));
    const index = await indexOf(documents);
    const meter = uniqueUsers();
    const failure = windowUsage(index, scope, meter, window, now, new SubscriptionDirectory(new Map()));
    await expect(failure).rejects.toThrow(UsageGroupLimitError);
    await expect(failure).rejects.toThrow(
      'meter m-users: window 2026-03-10T10:00:00.000Z–2026-03-10T11:00:00.000Z has usage from more than 10000 subscriptions (events naming one) or 10000 companies (events naming none); ' +
        'a distinct count of user_id cannot be split into shorter time ranges and added up (a user active in both would count twice), so the window is not billed. ' +
        'Use a shorter reporting_period, or a query naming {{subscription_id}} / {{company_id}} (evaluated once per subscription).',
    );
  }, 60_000);

  it('bills a window whose two groups together pass the 10,000 buckets of one answer, each fitting alone', async () => {
    // 6,000 subscriptions named on events and 5,000 companies without: 11,000 terms buckets in all.
    const documents = Array.from({ length: 11_000 }, (_, i) =>
      event(i < 6_000 ? { company_id: `c${i}`, subscription_id: `s${i}`, weight: 2 } : { company_id: `c${i}` }),
    );
    const index = await indexOf(documents);
    const meter = runMeterOf({
      _id: 'm-calls',
      es_query: '{}',
      billing_plan: { provider_slug: 'webhook', params: { webhook_params: { channel_ids: ['c1'], custom_plan: { plan_id: 'plan-1' } } } },
    }) as RunMeter;
    const usage = await windowUsage(index, scope, meter, window, now);
    expect([usage.bySubscription.size, usage.byCompany.size]).toEqual([6_000, 5_000]);
    expect([usage.bySubscription.get('s5999')?.toString(), usage.byCompany.get('c6000')?.toString()]).toEqual(['2', '1']);
  }, 60_000);

  it('reads metric values without the noise of binary floating point sums', () => {
    const read = (value: unknown) => metricValue({ value }).toString();
    // What the backends answer for 0.1 + 0.2, and for three events weighing 1 / 0.3.
    expect(read(0.1 + 0.2)).toBe('0.3');
    expect(read(3 * (1 / 0.3))).toBe('10');
    expect(read(3.75)).toBe('3.75');
    expect(read(1e-7)).toBe('0.0000001');
    // Long sums and cancellation: noise far below a billed unit, gone.
    let thousandTenths = 0;
    for (let i = 0; i < 1000; i += 1) thousandTenths += 0.1;
    expect(thousandTenths).not.toBe(100);
    expect(read(thousandTenths)).toBe('100');
    expect(read(0.1 + 0.2 - 0.3)).toBe('0');
    expect(metricValue({ value: -(0.1 + 0.2 - 0.3) }).isZero()).toBe(true);
    // Tiny values read as 0 (not a RangeError past Decimal's 40 places); huge ones stay whole.
    expect(read(1e-30)).toBe('0');
    expect(read(1e22)).toBe('10000000000000000000000');
    expect(read(12.3456789012)).toBe('12.345678901');
    // Whole numbers up to 2^53 are exact as they are (no rounding to 15 digits).
    expect(read(9_007_199_254_740_991)).toBe('9007199254740991');
    expect(read('12.345678901234567890')).toBe('12.34567890123456789');
    expect(read(null)).toBe('0');
    expect(metricValue(undefined).isZero()).toBe(true);
  });
});
