import { Decimal } from '../../../values/decimal';
import { parseReportId, reportId } from '../../../functions/billing/reports/report-id';
import { attributionIds, runMeterOf, type RunMeter } from '../../../functions/billing/run/run-meter';
import type { PeriodTotal } from '../../../functions/billing/run/run-state-store';
import { SubscriptionDirectory, type KnownSubscription } from '../../../functions/billing/run/subscription-directory';
import { attribute, billingPeriod, buildWindowReports, DistinctUnionMissingError } from '../../../functions/billing/run/window-reports';
import { distinctOverlaps } from '../../../functions/billing/run/window-usage';
import type { BillingReport } from '../../../schemas/billing/report';

const HOUR = 3_600_000;
const w1 = { start: new Date('2026-03-10T10:00:00Z'), end: new Date('2026-03-10T11:00:00Z') };
const w2 = { start: new Date('2026-03-10T11:00:00Z'), end: new Date('2026-03-10T12:00:00Z') };
const tenant = { orgId: 'org1', appId: 'app1' };

function meter(overrides: Record<string, unknown> = {}): RunMeter {
  const m = runMeterOf({
    _id: 'm1',
    name: 'calls',
    created_at: '2026-03-01T00:00:00Z',
    es_query: '{"query":{"match_all":{}}}',
    billing_plan: { provider_slug: 'webhook', params: { webhook_params: { channel_ids: ['c1'], custom_plan: { plan_id: 'plan-1' } } } },
    ...overrides,
  });
  if ('error' in m) throw new Error(m.error);
  return m;
}

const sub = (id: string, company: string, extra: Partial<KnownSubscription> = {}): KnownSubscription => ({
  subscriptionId: id,
  companyId: company,
  status: 'active',
  periodStart: null,
  periodEnd: null,
  items: [{ plan_id: 'plan-1' }],
  createdAt: '2026-01-01T00:00:00Z',
  metadata: {},
  ...extra,
});

const graduated = {
  id: 'price-1',
  pricing_model: 'graduated' as const,
  currency: 'usd',
  tiers: [
    { up_to: 10, unit_price_in_decimal: '0.1' },
    { up_to: 'inf' as const, unit_price_in_decimal: '0.05' },
  ],
};
const pricing = { priceFor: () => graduated };

describe('billing run: meters', () => {
  it('reads the metric of the es_query (sum of a field, distinct users) and defaults to the weighted count', () => {
    expect(meter().metric).toEqual({ type: 'sum', field: 'weight', missing: 1 });
    expect(meter({ es_query: JSON.stringify({ aggs: { u: { cardinality: { field: 'user_id' } } } }) }).metric).toEqual({
      type: 'cardinality',
      field: 'user_id',
    });
    expect(meter({ es_query: JSON.stringify({ aggs: { t: { sum: { field: 'metadata.tokens' } } } }) }).metric).toEqual({
      type: 'sum',
      field: 'metadata.tokens',
    });
    expect(meter({ es_query: JSON.stringify({ query: { term: { company_id: '{{company_id}}' } } }) }).perSubscription).toBe(true);
    expect(meter().periodMs).toBe(HOUR);
  });

  it('collects the plan and price ids of the provider params for attribution', () => {
    expect([...attributionIds({ custom_plan: { plan_id: 'p1' }, channel_ids: ['c'] })]).toEqual(['p1']);
    expect([...attributionIds({ item_price_id: 'ip', add_on_id: 'code-gold' })].sort()).toEqual(['gold', 'ip']);
    expect(runMeterOf({ _id: 'bad', billing_plan: { provider_slug: 'stripe', params: {} }, es_query: '{}' })).toMatchObject({
      id: 'bad',
      error: expect.stringContaining('stripe_params'),
    });
  });
});

describe('billing run: attribution and reports', () => {
  const directory = new SubscriptionDirectory(
    new Map([
      ['s-a', sub('s-a', 'acme')],
      ['s-a2', sub('s-a2', 'acme', { items: [{ plan_id: 'other' }], createdAt: '2020-01-01T00:00:00Z' })],
      ['s-b', sub('s-b', 'globex')],
      ['s-x', sub('s-x', 'initech', { status: 'cancelled' })],
    ]),
  );

  it('sends explicit subscriptions to themselves, company usage to the subscription carrying the plan, the rest to unattributed reports', () => {
    const usage = attribute(
      {
        bySubscription: new Map([
          ['s-b', Decimal.from(4)],
          ['s-x', Decimal.from(1)],
          ['s-a', Decimal.from(2)],
        ]),
        byCompany: new Map([
          ['acme', Decimal.from('7.5')],
          ['hooli', Decimal.from(3)],
        ]),
      },
      directory,
      meter(),
    );
    expect(usage.get('S:s-a')).toMatchObject({ fromCompany: true, fromSubscriptionId: true });
    expect(usage.get('S:s-a')!.raw.toString()).toBe('9.5');
    expect(usage.get('S:s-b')!.subscription?.subscriptionId).toBe('s-b');
    expect(usage.get('S:s-x')!.subscription).toBeUndefined();
    expect(usage.get('C:hooli')).toMatchObject({ companyId: 'hooli', subscriptionId: null });
    expect(usage.has('S:s-a2')).toBe(false);

    const totals = new Map<string, PeriodTotal>();
    const built = buildWindowReports({
      tenant,
      meter: meter(),
      window: w1,
      usage,
      previous: new Map(),
      totals,
      pricing,
      directory,
      now: new Date('2026-03-10T12:10:00Z'),
    });
    const byKey = Object.fromEntries(built.reports.map((r) => [r.subscription_id ?? `C:${r.company_id}`, r]));
    // 9.5 rounds (nearest, half away from zero) to 10.
    expect(byKey['s-a']).toMatchObject({
      status: 'pending',
      meter_usage: 10,
      meter_metric_exact: '9.5',
      report_total_usage: 10,
      amount_exact: '1',
      currency: 'usd',
      subscription_period_start: '2026-03-01T00:00:00.000Z',
      subscription_period_end: '2026-04-01T00:00:00.000Z',
    });
    expect(byKey['s-x']).toMatchObject({ status: 'unattributed', success: false, meter_usage: 1 });
    expect(byKey['C:hooli']).toMatchObject({ status: 'unattributed', subscription_id: null });
    expect(byKey['C:hooli']!.amount).toBeUndefined();
    expect(totals.get('S:s-a')).toEqual({ periodStart: '2026-03-01T00:00:00.000Z', periodEnd: '2026-04-01T00:00:00.000Z', usage: 10 });
    expect(parseReportId(byKey['s-a']!._id)).toEqual({ windowStart: w1.start, meterId: 'm1', reportKey: 'S:s-a' });
  });

  it('distinct meters: a subscription receiving both groups takes the union count, never their sum', () => {
    const unique = meter({ es_query: JSON.stringify({ aggs: { u: { cardinality: { field: 'user_id' } } } }) });
    // s-a: 2 users on events naming it, 2 on acme's events without subscription_id (one user in both).
    const grouped = {
      bySubscription: new Map([
        ['s-a', Decimal.from(2)],
        ['s-b', Decimal.from(4)],
      ]),
      byCompany: new Map([
        ['acme', Decimal.from(2)],
        ['globex', Decimal.from(1)],
        ['hooli', Decimal.from(5)],
      ]),
    };
    // globex's company usage goes to s-b too; hooli has no subscription (unattributed, no union).
    expect(distinctOverlaps(grouped, directory, unique)).toEqual([
      { subscriptionId: 's-a', companyId: 'acme' },
      { subscriptionId: 's-b', companyId: 'globex' },
    ]);
    expect(() => attribute(grouped, directory, unique)).toThrow(DistinctUnionMissingError);
    expect(() => attribute(grouped, directory, unique)).toThrow(/subscription s-a needs the union with company acme/);
    const usage = attribute(
      {
        ...grouped,
        distinctUnions: new Map([
          ['s-a', Decimal.from(3)],
          ['s-b', Decimal.from(4)],
        ]),
      },
      directory,
      unique,
    );
    expect(usage.get('S:s-a')).toMatchObject({ fromCompany: true, fromSubscriptionId: true, companyId: 'acme' });
    expect(usage.get('S:s-a')!.raw.toString()).toBe('3');
    expect(usage.get('S:s-b')!.raw.toString()).toBe('4');
    expect(usage.get('C:hooli')!.raw.toString()).toBe('5');
    // Additive metrics still add the groups (no union needed).
    expect(distinctOverlaps(grouped, directory, meter())).toHaveLength(2);
    expect(attribute(grouped, directory, meter()).get('S:s-a')!.raw.toString()).toBe('4');
  });

  it('prices graduated tiers exactly across windows and corrections: the versions add up to the price of the period total', () => {
    const totals = new Map<string, PeriodTotal>();
    const common = { tenant, meter: meter(), totals, pricing, directory, now: new Date('2026-03-10T13:00:00Z') };
    const only = (n: number) =>
      new Map([
        [
          'S:s-a',
          { raw: Decimal.from(n), subscription: sub('s-a', 'acme'), companyId: 'acme', subscriptionId: 's-a', fromSubscriptionId: true, fromCompany: false },
        ],
      ]);
    const first = buildWindowReports({ ...common, window: w1, usage: only(9), previous: new Map() }).reports[0]!;
    const second = buildWindowReports({ ...common, window: w2, usage: only(5), previous: new Map() }).reports[0]!;
    expect([first.amount_exact, second.amount_exact]).toEqual(['0.9', '0.3']);
    // w1 gets 2 late units: version 2, delta 2, the period total moves to 16 and the correction bills 0.10.
    const corrected = buildWindowReports({ ...common, window: w1, usage: only(11), previous: new Map([['S:s-a', first]]) });
    const v2 = corrected.reports[0]!;
    expect(v2).toMatchObject({ report_version: 2, meter_usage: 11, report_total_usage: 16, status: 'pending', amount_exact: '1' });
    expect(v2.versions.map((v) => [v.report_version, v.delta, v.amount_exact])).toEqual([
      [1, 9, '0.9'],
      [2, 2, '0.1'],
    ]);
    expect(v2.created_at).toBe(first.created_at);
    expect(totals.get('S:s-a')!.usage).toBe(16);
    // Re-evaluating with unchanged usage changes nothing.
    const same = buildWindowReports({ ...common, window: w1, usage: only(11), previous: new Map([['S:s-a', v2]]) });
    expect(same.changed).toBe(0);
    expect(same.reports[0]).toBe(v2);
    expect(totals.get('S:s-a')!.usage).toBe(16);
  });

  it('a new period restarts the total; a window outside the subscription period counts in its UTC month', () => {
    const s = sub('s-a', 'acme', { periodStart: new Date('2026-03-10T11:00:00Z'), periodEnd: new Date('2026-04-10T11:00:00Z') });
    expect(billingPeriod(s, w2)).toEqual({ start: s.periodStart, end: s.periodEnd });
    expect(billingPeriod(s, w1)).toEqual({ start: new Date('2026-03-01T00:00:00Z'), end: new Date('2026-04-01T00:00:00Z') });
    const totals = new Map<string, PeriodTotal>([['S:s-a', { periodStart: '2026-02-10T11:00:00.000Z', periodEnd: '2026-03-10T11:00:00.000Z', usage: 500 }]]);
    const usage = new Map([
      ['S:s-a', { raw: Decimal.from(3), subscription: s, companyId: 'acme', subscriptionId: 's-a', fromSubscriptionId: true, fromCompany: false }],
    ]);
    const [report] = buildWindowReports({
      tenant,
      meter: meter(),
      window: w2,
      usage,
      previous: new Map<string, BillingReport>(),
      totals,
      pricing,
      directory,
      now: new Date(),
    }).reports;
    expect(report).toMatchObject({ report_total_usage: 3, amount_exact: '0.3' });
  });

  it("keeps the totals of the periods before, as reported and corrected: what a customer's last invoices were billed", () => {
    const feb = sub('s-a', 'acme', { periodStart: new Date('2026-02-10T11:00:00Z'), periodEnd: new Date('2026-03-10T11:00:00Z') });
    const mar = sub('s-a', 'acme', { periodStart: new Date('2026-03-10T11:00:00Z'), periodEnd: new Date('2026-04-10T11:00:00Z') });
    const totals = new Map<string, PeriodTotal>();
    const usageOf = (subscription: KnownSubscription, raw: number) =>
      new Map([['S:s-a', { raw: Decimal.from(raw), subscription, companyId: 'acme', subscriptionId: 's-a', fromSubscriptionId: true, fromCompany: false }]]);
    const common = { tenant, meter: meter(), totals, pricing, directory, now: new Date('2026-03-10T13:00:00Z') };
    const [inFeb] = buildWindowReports({ ...common, window: w1, usage: usageOf(feb, 2), previous: new Map<string, BillingReport>() }).reports;
    expect(totals.get('S:s-a')).toEqual({ periodStart: '2026-02-10T11:00:00.000Z', periodEnd: '2026-03-10T11:00:00.000Z', usage: 2 });
    buildWindowReports({ ...common, window: w2, usage: usageOf(mar, 4), previous: new Map<string, BillingReport>() });
    expect(totals.get('S:s-a')).toEqual({
      periodStart: '2026-03-10T11:00:00.000Z',
      periodEnd: '2026-04-10T11:00:00.000Z',
      usage: 4,
      earlier: [{ periodStart: '2026-02-10T11:00:00.000Z', periodEnd: '2026-03-10T11:00:00.000Z', usage: 2 }],
    });
    // Late events in February's last window: its total moves with the correction; March's stays.
    buildWindowReports({ ...common, window: w1, usage: usageOf(feb, 5), previous: new Map([['S:s-a', inFeb!]]) });
    expect(totals.get('S:s-a')).toMatchObject({ usage: 4, earlier: [{ periodStart: '2026-02-10T11:00:00.000Z', usage: 5 }] });
  });

  it('marks a correction of a final period (every window reported) as late after final, and counts it on the period', () => {
    const feb = sub('s-a', 'acme', { periodStart: new Date('2026-02-10T11:00:00Z'), periodEnd: new Date('2026-03-10T11:00:00Z') });
    const mar = sub('s-a', 'acme', { periodStart: new Date('2026-03-10T11:00:00Z'), periodEnd: new Date('2026-04-10T11:00:00Z') });
    const totals = new Map<string, PeriodTotal>();
    const usageOf = (subscription: KnownSubscription, raw: number) =>
      new Map([['S:s-a', { raw: Decimal.from(raw), subscription, companyId: 'acme', subscriptionId: 's-a', fromSubscriptionId: true, fromCompany: false }]]);
    const common = { tenant, meter: meter(), totals, pricing, directory, now: new Date('2026-03-10T13:00:00Z') };
    const [inFeb] = buildWindowReports({ ...common, window: w1, usage: usageOf(feb, 2), previous: new Map<string, BillingReport>() }).reports;
    // Before the cursor passes February's end, a change to it is an ordinary correction (the period is in grace).
    const [inGrace] = buildWindowReports({
      ...common,
      window: w1,
      usage: usageOf(feb, 3),
      previous: new Map([['S:s-a', inFeb!]]),
      finalThrough: new Date('2026-03-10T10:00:00Z'),
    }).reports;
    expect(inGrace!.versions.at(-1)!.after_final).toBeUndefined();
    expect(totals.get('S:s-a')!.lateCorrections).toBeUndefined();
    buildWindowReports({ ...common, window: w2, usage: usageOf(mar, 4), previous: new Map<string, BillingReport>() });
    // Once it has passed: late after final, counted on February's total (one correction, +2 units).
    const [late] = buildWindowReports({
      ...common,
      window: w1,
      usage: usageOf(feb, 5),
      previous: new Map([['S:s-a', inGrace!]]),
      finalThrough: new Date('2026-03-10T14:00:00Z'),
    }).reports;
    expect(late!.versions.at(-1)).toMatchObject({ report_version: 3, delta: 2, after_final: true });
    expect(totals.get('S:s-a')).toMatchObject({
      usage: 4,
      earlier: [{ periodStart: '2026-02-10T11:00:00.000Z', usage: 5, lateCorrections: 1, lateUsage: 2 }],
    });
    expect(totals.get('S:s-a')!.lateCorrections).toBeUndefined();
  });

  it('report ids round-trip and refuse anything else', () => {
    const id = reportId({ windowStart: w1.start, meterId: 'm#1', reportKey: 'C:a company' });
    expect(parseReportId(id)).toEqual({ windowStart: w1.start, meterId: 'm#1', reportKey: 'C:a company' });
    for (const bad of ['', 'not base64!', Buffer.from('x').toString('base64url'), Buffer.from('1\u001fm\u001fX:y').toString('base64url')])
      expect(parseReportId(bad)).toBeUndefined();
  });
});
