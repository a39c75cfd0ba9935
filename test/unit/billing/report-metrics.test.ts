import { reportId, subscriptionReportKey } from '../../../functions/billing/reports/report-id';
import { parseMetricsInterval, reportMetrics, ReportMetricsParams } from '../../../functions/billing/reports/report-metrics';

import type { ListWindowsRequest, ReportStore, WindowReports } from '../../../functions/billing/reports/report-store';
import type { BillingReport } from '../../../schemas/billing/report';
import { parseQueryParams } from '../../../functions/shared/invalid-input';

const HOUR = 3_600_000;
const tenant = { orgId: 'org', appId: 'app' };
const now = new Date('2026-12-01T00:00:00Z');

function report(start: string, subscription: string, fields: Partial<BillingReport> = {}): BillingReport {
  const s = new Date(start);
  const end = new Date(s.getTime() + HOUR).toISOString();
  return {
    _id: reportId({ windowStart: s, meterId: fields.billing_meter_id ?? 'm', reportKey: subscriptionReportKey(subscription) }),
    org_id: 'org',
    app_id: 'app',
    type: 'usage',
    status: 'success',
    success: true,
    usage_start_time: s.toISOString(),
    usage_end_time: end,
    subscription_id: subscription,
    company_id: `co-${subscription}`,
    billing_meter_id: 'm',
    provider: 'webhook',
    meter_metric: 0,
    meter_metric_exact: '0',
    meter_usage: 0,
    report_total_usage: 0,
    report_version: 1,
    last_success_time: end,
    idempotency_key: 'k',
    delivery_runs: 1,
    provider_requests: [],
    subscription_period_start: null,
    subscription_period_end: null,
    usage: { aggregator: 'sum' },
    versions: [],
    created_at: end,
    updated_at: end,
    ...fields,
  };
}

/** One group per (meter, window start); listWindows honours the range, order and meter filter. */
function storeOf(reports: BillingReport[]): Pick<ReportStore, 'listWindows'> {
  const groups = new Map<string, WindowReports>();
  for (const r of reports) {
    const key = `${r.usage_start_time}|${r.billing_meter_id}`;
    const g = groups.get(key) ?? {
      meterId: r.billing_meter_id,
      window: { start: new Date(r.usage_start_time), end: new Date(r.usage_end_time) },
      revision: 1,
      generation: 'g',
      shards: 1,
      evaluatedAt: now,
      reports: [],
    };
    groups.set(key, { ...g, reports: [...g.reports, r] });
  }
  return {
    async listWindows(_t: unknown, request: ListWindowsRequest) {
      const windows = [...groups.values()].filter(
        (g) => g.window.start < request.to && g.window.end > request.from && (request.meterId === undefined || g.meterId === request.meterId),
      );
      windows.sort((a, b) => a.window.start.getTime() - b.window.start.getTime());
      return { windows: request.newestFirst === false ? windows : windows.reverse() };
    },
  };
}

const metrics = (reports: BillingReport[], query: Record<string, string>) =>
  reportMetrics(storeOf(reports), tenant, parseQueryParams(ReportMetricsParams, query), now);

describe('billing report metrics', () => {
  it('adds amounts exactly per currency and buckets by window start in the requested zone across DST', async () => {
    // Europe/Berlin leaves summer time on 2026-10-25: that local day has 25 hours.
    const reports = [
      report('2026-10-24T22:00:00Z', 'a', { meter_usage: 1, amount_exact: '0.1', amount: 0.1, currency: 'eur' }), // 25 Oct 00:00 local
      report('2026-10-25T22:00:00Z', 'a', { meter_usage: 2, amount_exact: '0.2', amount: 0.2, currency: 'eur' }), // 25 Oct 23:00 local (CET)
      report('2026-10-25T23:00:00Z', 'b', { meter_usage: 4, amount_exact: '0.7', amount: 0.7, currency: 'usd' }), // 26 Oct 00:00 local
    ];
    const answer = await metrics(reports, { from: '2026-10-25', to: '2026-10-27', interval: 'day', time_zone: 'Europe/Berlin' });
    expect(answer.buckets).toEqual([
      {
        start: '2026-10-25T00:00:00.000+02:00',
        metric: 3,
        amounts: { eur: 0.3 },
        ending_balance: { current_balance: 0, pending_activity: 0, available_balance: 0 },
      },
      {
        start: '2026-10-26T00:00:00.000+01:00',
        metric: 4,
        amounts: { usd: 0.7 },
        ending_balance: { current_balance: 0, pending_activity: 0, available_balance: 0 },
      },
    ]);
  });

  it('aggregates meter_usage with avg, min, max, and counts distinct subscriptions with terms', async () => {
    const reports = [
      report('2026-11-01T00:00:00Z', 'a', { meter_usage: 1 }),
      report('2026-11-01T01:00:00Z', 'a', { meter_usage: 2 }),
      report('2026-11-01T01:00:00Z', 'b', { meter_usage: 6 }),
    ];
    const of = async (aggregator: string) =>
      (await metrics(reports, { from: '2026-11-01', to: '2026-11-02', interval: '1d', aggregator })).buckets.map((b) => b.metric);
    expect(await of('sum')).toEqual([9]);
    expect(await of('avg')).toEqual([3]);
    expect(await of('min')).toEqual([1]);
    expect(await of('max')).toEqual([6]);
    expect(await of('terms')).toEqual([2]);
    const empty = await metrics(reports, { from: '2026-11-05', to: '2026-11-06', interval: '12h', aggregator: 'avg' });
    expect(empty.buckets.map((b) => b.metric)).toEqual([null, null]);
  });

  it('keeps running figures, so a bucket of 300,000 reports neither overflows the stack nor loses precision', async () => {
    const big = report('2026-11-01T00:00:00Z', 'a', { meter_usage: 2 ** 40 + 1 });
    const store: Pick<ReportStore, 'listWindows'> = {
      async listWindows() {
        return {
          windows: [
            {
              meterId: 'm',
              window: { start: new Date(big.usage_start_time), end: new Date(big.usage_end_time) },
              revision: 1,
              generation: 'g',
              shards: 1,
              evaluatedAt: now,
              reports: new Array(300_000).fill(big),
            },
          ],
        };
      },
    };
    const of = async (aggregator: string) =>
      (await reportMetrics(store, tenant, parseQueryParams(ReportMetricsParams, { from: '2026-11-01', to: '2026-11-02', aggregator }), now)).buckets[0]!.metric;
    expect(await of('max')).toBe(2 ** 40 + 1);
    expect(await of('min')).toBe(2 ** 40 + 1);
    expect(await of('avg')).toBe(2 ** 40 + 1);
    expect(await of('terms')).toBe(1);
    // The sum is exact until it is written as a JSON number (one rounding at the end, not one per report).
    expect(await of('sum')).toBe(Number(300_000n * (2n ** 40n + 1n)));
  });

  it("sums each subscription's latest ending balance in the bucket", async () => {
    const balance = (sequence: number, value: number) => ({ sequence_id: sequence, current_balance: value, pending_activity: 1, available_balance: value - 1 });
    const reports = [
      report('2026-11-01T00:00:00Z', 'a', { ending_balance: balance(1, 100) }),
      report('2026-11-01T05:00:00Z', 'a', { ending_balance: balance(2, 90.1) }),
      report('2026-11-01T03:00:00Z', 'b', { ending_balance: balance(7, 0.2) }),
      report('2026-11-01T04:00:00Z', 'c'),
    ];
    const [bucket] = (await metrics(reports, { from: '2026-11-01', to: '2026-11-02', interval: '1d' })).buckets;
    expect(bucket!.ending_balance).toEqual({ current_balance: 90.3, pending_activity: 2, available_balance: 88.3 });
  });

  it('group_by returns series ranked by usage, each with every bucket', async () => {
    const reports = [report('2026-11-01T00:00:00Z', 'a', { meter_usage: 1 }), report('2026-11-01T01:00:00Z', 'b', { meter_usage: 5, billing_meter_id: 'm2' })];
    const answer = await metrics(reports, { from: '2026-11-01T00:00:00Z', to: '2026-11-01T02:00:00Z', interval: '1h', group_by: 'billing_meter_id' });
    expect(answer.series).toEqual([
      { key: 'm2', buckets: [expect.objectContaining({ metric: 0 }), expect.objectContaining({ metric: 5 })] },
      { key: 'm', buckets: [expect.objectContaining({ metric: 1 }), expect.objectContaining({ metric: 0 })] },
    ]);
    expect(answer.buckets.map((b) => b.metric)).toEqual([1, 5]);
  });

  it('reads calendar and fixed intervals, and refuses others or too many buckets naming interval', async () => {
    expect(parseMetricsInterval('1M')).toEqual({ calendar: 'month' });
    expect(parseMetricsInterval('week')).toEqual({ calendar: 'week' });
    expect(parseMetricsInterval('6h')).toEqual({ fixedMs: 6 * HOUR });
    expect(() => parseMetricsInterval('fortnight')).toThrow(
      expect.objectContaining({ status: 400, details: [expect.objectContaining({ field: 'interval' })] }),
    );
    await expect(metrics([], { from: '-1M', interval: '1m' })).rejects.toMatchObject({ status: 400, details: [{ field: 'interval' }] });
    expect(() => parseQueryParams(ReportMetricsParams, { aggregator: 'median' })).toThrow(
      expect.objectContaining({ details: [expect.objectContaining({ field: 'aggregator' })] }),
    );
  });
});
