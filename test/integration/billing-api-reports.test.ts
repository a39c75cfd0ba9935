import { reportId, subscriptionReportKey, companyReportKey } from '../../functions/billing/reports/report-id';
import { ReportStore, type ReportTenant } from '../../functions/billing/reports/report-store';
import type { BillingReport } from '../../schemas/billing/report';
import { apiCall, startTestRuntime, uuid, type TestRuntime } from './support/runtime';

const HOUR = 3_600_000;

describe('billing reports read API (/~/billing/reports, /metrics, /{id}, /{id}/explain)', () => {
  let rt: TestRuntime;
  let store: ReportStore;
  let tenant: ReportTenant;
  let meterId: string;
  let otherAuth: Record<string, string>;
  // Hour-aligned windows a few hours back (events must be inside the collector's 30-day acceptance).
  const base = Math.floor(Date.now() / HOUR) * HOUR - 6 * HOUR;
  const w = (n: number) => ({ start: new Date(base + n * HOUR), end: new Date(base + (n + 1) * HOUR) });
  const iso = (ms: number) => new Date(ms).toISOString();

  function report(
    meter: string,
    window: number,
    fields: Partial<BillingReport> & { subscription_id: string | null; company_id: string | null },
  ): BillingReport {
    const { start, end } = w(window);
    const key = fields.subscription_id !== null ? subscriptionReportKey(fields.subscription_id) : companyReportKey(fields.company_id ?? '');
    const usage = fields.meter_usage ?? 0;
    return {
      _id: reportId({ windowStart: start, meterId: meter, reportKey: key }),
      org_id: tenant.orgId,
      app_id: tenant.appId,
      type: 'usage',
      status: 'success',
      success: true,
      usage_start_time: start.toISOString(),
      usage_end_time: end.toISOString(),
      billing_meter_id: meter,
      provider: 'webhook',
      meter_metric: usage,
      meter_metric_exact: String(usage),
      meter_usage: usage,
      report_total_usage: usage,
      report_version: 1,
      last_success_time: end.toISOString(),
      idempotency_key: `uab_${key}_${window}`,
      delivery_runs: 1,
      provider_requests: [],
      subscription_period_start: null,
      subscription_period_end: null,
      usage: { aggregator: 'sum' },
      versions: [{ report_version: 1, meter_metric: String(usage), meter_usage: usage, delta: usage, created_at: end.toISOString() }],
      created_at: end.toISOString(),
      updated_at: end.toISOString(),
      ...fields,
    };
  }
  /** Seeds one (meter, window) group through the billing run's store; true when committed. */
  const commit = async (meter: string, window: number, reports: BillingReport[]) =>
    (await store.commitWindow({ tenant, meterId: meter, window: w(window), reports, previous: undefined, evaluatedAt: new Date(), now: new Date() })) !==
    'conflict';
  const balance = (sequence: number, current: number) => ({ sequence_id: sequence, current_balance: current, pending_activity: 0, available_balance: current });

  let seeded: BillingReport[] = [];
  // A report as the API answers it: as stored, with its billing period's status (these seeded reports name no period).
  const answered = (report: BillingReport) => ({ ...report, period_status: report.subscription_period_end === null ? null : expect.any(String) });
  beforeAll(async () => {
    rt = await startTestRuntime('billing-api-reports', { managementAuth: { rateLimitPerMinute: 100_000 } });
    tenant = { orgId: rt.credentials.org_id, appId: rt.credentials.app_id };
    store = new ReportStore(rt.clients.documents, rt.names.tables.billing);
    await rt.apps.createOrgWithApp({ orgId: 'org_other', orgName: 'Other', appId: 'app_other', appName: 'Other' });
    otherAuth = { authorization: `Bearer ${await rt.issueToken({ org_id: 'org_other', app_id: 'app_other' })}` };
    const meter = await rt.management(
      'POST',
      '/~/billing/meters',
      {},
      {
        name: 'API calls',
        slug: 'api-calls',
        es_query: { query: { bool: { filter: [{ term: { 'request.verb': 'GET' } }] } } },
        billing_plan: { provider_slug: 'webhook', params: { webhook_params: { channel_ids: ['ch-1'], custom_plan: { plan_id: 'plan-1' } } } },
      },
    );
    expect(meter.status).toBe(201);
    meterId = meter.body._id;

    seeded = [
      report(meterId, 0, {
        subscription_id: 'sub-a',
        company_id: 'company-a',
        meter_usage: 10,
        amount: 1.25,
        amount_exact: '1.25',
        currency: 'usd',
        ending_balance: balance(1, 98.75),
      }),
      report(meterId, 0, {
        subscription_id: 'sub-b',
        company_id: 'company-b',
        meter_usage: 4,
        status: 'failed',
        success: false,
        amount: 0.5,
        amount_exact: '0.5',
        currency: 'eur',
      }),
      report(meterId, 1, {
        subscription_id: 'sub-a',
        company_id: 'company-a',
        meter_usage: 5,
        attribution: 'both',
        amount: 0.625,
        amount_exact: '0.625',
        currency: 'usd',
        ending_balance: balance(2, 98.125),
      }),
      report(meterId, 1, {
        subscription_id: 'sub-b',
        company_id: 'company-b',
        meter_usage: 7,
        attribution: 'subscription_id',
        status: 'retrying',
        success: false,
      }),
      report(meterId, 1, { subscription_id: null, company_id: 'company-x', meter_usage: 3, status: 'unattributed', success: false }),
      report('meter-2', 1, { subscription_id: 'sub-a', company_id: 'company-a', meter_usage: 100, provider: 'stripe' }),
      report(meterId, 2, { subscription_id: 'sub-a', company_id: 'company-a', meter_usage: 1, status: 'pending', success: false }),
    ];
    for (const [meter, window] of [
      [meterId, 0],
      [meterId, 1],
      ['meter-2', 1],
      [meterId, 2],
    ] as const) {
      expect(
        await commit(
          meter,
          window,
          seeded.filter((r) => r.billing_meter_id === meter && r.usage_start_time === w(window).start.toISOString()),
        ),
      ).toBe(true);
    }

    // Events behind window 1: sub-a has 3 of its own and 2 company events without subscription_id; sub-b has 1; a POST does not count.
    const at = (minute: number) => new Date(base + HOUR + minute * 60_000);
    const events = [
      apiCall({ transaction_id: uuid(1), subscription_id: 'sub-a', company_id: 'company-a' }, at(1)),
      apiCall({ transaction_id: uuid(2), subscription_id: 'sub-a', company_id: 'company-a' }, at(2)),
      apiCall({ transaction_id: uuid(3), subscription_id: 'sub-a', company_id: 'company-a' }, at(59)),
      apiCall({ transaction_id: uuid(4), company_id: 'company-a' }, at(3)),
      apiCall({ transaction_id: uuid(5), company_id: 'company-a' }, at(4)),
      apiCall({ transaction_id: uuid(6), subscription_id: 'sub-b', company_id: 'company-b' }, at(5)),
      apiCall(
        {
          transaction_id: uuid(7),
          subscription_id: 'sub-a',
          company_id: 'company-a',
          request: { time: at(6).toISOString(), uri: 'https://api.example.com/x', verb: 'POST', headers: {} },
        },
        at(6),
      ),
      // On the window's end boundary: belongs to window 2, not 1.
      apiCall({ transaction_id: uuid(8), subscription_id: 'sub-a', company_id: 'company-a' }, new Date(base + 2 * HOUR)),
    ];
    expect((await rt.collect('/v1/events/batch', events)).status).toBe(201);
    await rt.waitUntilConsumed();
  });
  afterAll(() => rt?.dispose());

  const list = (query = '', headers: Record<string, string> = {}) => rt.management('GET', `/~/billing/reports${query ? `?${query}` : ''}`, headers);
  const ids = (body: BillingReport[]) => body.map((r) => r._id);

  it('lists every report newest window first, in a stable order, as stored', async () => {
    const all = await list();
    expect(all.status).toBe(200);
    expect(all.body).toHaveLength(seeded.length);
    const starts = all.body.map((r: BillingReport) => r.usage_start_time);
    expect(starts).toEqual([...starts].sort().reverse());
    expect(all.body[0]).toEqual(answered(seeded[seeded.length - 1]!));
    expect(all.headers.get('x-next-before-id')).toBeNull();
    expect((await list()).body).toEqual(all.body);
  });

  it('filters by meter, company, subscription, provider, success, status, type and window overlap', async () => {
    const cases: [string, (r: BillingReport) => boolean][] = [
      [`billing_meter_id=${meterId}`, (r) => r.billing_meter_id === meterId],
      ['company_id=company-b', (r) => r.company_id === 'company-b'],
      ['subscription_id=sub-a', (r) => r.subscription_id === 'sub-a'],
      ['provider=stripe', (r) => r.provider === 'stripe'],
      ['success=false', (r) => !r.success],
      ['status=failed,retrying', (r) => r.status === 'failed' || r.status === 'retrying'],
      ['type=usage', () => true],
      [`from=${iso(base + HOUR + 1)}&to=${iso(base + 2 * HOUR)}`, (r) => r.usage_start_time === w(1).start.toISOString()],
      [`from=${iso(base + 2 * HOUR)}`, (r) => r.usage_start_time === w(2).start.toISOString()],
      [`to=${iso(base + HOUR)}`, (r) => r.usage_start_time === w(0).start.toISOString()],
      [
        `subscription_id=sub-a&billing_meter_id=${meterId}&status=success`,
        (r) => r.subscription_id === 'sub-a' && r.billing_meter_id === meterId && r.status === 'success',
      ],
    ];
    const everything: BillingReport[] = (await list()).body;
    for (const [query, keep] of cases) {
      const answer = await list(query);
      expect([query, answer.status]).toEqual([query, 200]);
      expect([query, ids(answer.body)]).toEqual([query, ids(everything.filter(keep))]);
    }
    expect((await list('subscription_id=nobody')).body).toEqual([]);
  });

  it('pages with take and before_id (x-next-before-id) through exactly every report once, also with a filter', async () => {
    for (const [query, take] of [
      ['', 2],
      ['', 1],
      ['success=false', 2],
      ['', 7],
    ] as const) {
      const everything = ids((await list(query)).body);
      const seen: string[] = [];
      let before: string | null = null;
      for (let guard = 0; guard < 20; guard += 1) {
        const answer = await list([query, `take=${take}`, before ? `before_id=${encodeURIComponent(before)}` : ''].filter(Boolean).join('&'));
        expect(answer.status).toBe(200);
        expect(answer.body.length).toBeLessThanOrEqual(take);
        seen.push(...ids(answer.body));
        before = answer.headers.get('x-next-before-id');
        if (!before) break;
      }
      expect(seen).toEqual(everything);
    }
    // A window committed after the first page does not shift the pages that follow.
    const before = ids((await list()).body);
    const first = await list('take=3');
    expect(await commit(meterId, 3, [report(meterId, 3, { subscription_id: 'sub-late', company_id: 'company-a', meter_usage: 2 })])).toBe(true);
    const second = await list(`take=10&before_id=${encodeURIComponent(first.headers.get('x-next-before-id')!)}`);
    expect([...ids(first.body), ...ids(second.body)]).toEqual(before);
    expect(ids(second.body)).not.toContain(reportId({ windowStart: w(3).start, meterId, reportKey: 'S:sub-late' }));
  });

  it('answers 400 naming the parameter for bad filters and paging', async () => {
    const cases: [string, string][] = [
      ['take=0', 'take'],
      ['take=1001', 'take'],
      ['take=ten', 'take'],
      ['status=bogus', 'status'],
      ['status=', 'status'],
      ['success=maybe', 'success'],
      ['provider=paypal', 'provider'],
      ['type=invoice', 'type'],
      ['from=yesterday', 'from'],
      ['to=2026-13-01', 'to'],
      ['from=now&to=-1d', 'from'],
      ['time_zone=Mars/Olympus', 'time_zone'],
      ['before_id=not*an*id', 'before_id'],
      ['before_id=abc', 'before_id'],
      ['subscriptionId=sub-a', 'subscriptionId'],
    ];
    for (const [query, field] of cases) {
      const answer = await list(query);
      expect([query, answer.status]).toEqual([query, 400]);
      expect([query, answer.body.error.details.map((d: { field: string }) => d.field)]).toEqual([query, expect.arrayContaining([field])]);
    }
  });

  it('gets one report by id; unknown and malformed ids are 404; other tenants see nothing', async () => {
    const one = seeded[2]!;
    const got = await rt.management('GET', `/~/billing/reports/${one._id}`);
    expect(got.status).toBe(200);
    expect(got.body).toEqual(answered(one));
    expect((await rt.management('GET', `/v1/~/billing/reports/${one._id}`)).body).toEqual(answered(one));
    expect((await rt.management('GET', `/~/billing/reports/${reportId({ windowStart: w(1).start, meterId, reportKey: 'S:nobody' })}`)).status).toBe(404);
    expect((await rt.management('GET', '/~/billing/reports/%2A%2A%2A')).status).toBe(404);
    expect((await rt.management('GET', `/~/billing/reports/${one._id}`, otherAuth)).status).toBe(404);
    expect((await rt.management('GET', `/~/billing/reports/${one._id}/explain`, otherAuth)).status).toBe(404);
    expect((await list('', otherAuth)).body).toEqual([]);
    const metrics = await rt.management('GET', `/~/billing/reports/metrics?from=${iso(base)}&to=${iso(base + 3 * HOUR)}&interval=1h`, otherAuth);
    expect(metrics.body.buckets.map((b: { metric: number }) => b.metric)).toEqual([0, 0, 0]);
  });

  it('requires read:reports', async () => {
    const noReports = { authorization: `Bearer ${await rt.issueToken({ scopes: ['read:events'] })}` };
    expect((await list('', noReports)).status).toBe(401);
    expect((await rt.management('GET', '/~/billing/reports/metrics', noReports)).status).toBe(401);
    expect((await rt.management('GET', `/~/billing/reports/${seeded[0]!._id}/explain`, noReports)).status).toBe(401);
  });

  it('metrics: hourly buckets of usage with exact amounts per currency and summed ending balances', async () => {
    const range = `from=${iso(base)}&to=${iso(base + 3 * HOUR)}&billing_meter_id=${meterId}`;
    const sum = await rt.management('GET', `/~/billing/reports/metrics?${range}&interval=1h`);
    expect(sum.status).toBe(200);
    expect(sum.body.buckets).toEqual([
      {
        start: iso(base),
        metric: 14,
        amounts: { eur: 0.5, usd: 1.25 },
        ending_balance: { current_balance: 98.75, pending_activity: 0, available_balance: 98.75 },
      },
      {
        start: iso(base + HOUR),
        metric: 15,
        amounts: { usd: 0.625 },
        ending_balance: { current_balance: 98.125, pending_activity: 0, available_balance: 98.125 },
      },
      { start: iso(base + 2 * HOUR), metric: 1, amounts: {}, ending_balance: { current_balance: 0, pending_activity: 0, available_balance: 0 } },
    ]);
    const metricOf = async (query: string) =>
      (await rt.management('GET', `/~/billing/reports/metrics?${range}&${query}`)).body.buckets.map((b: { metric: number | null }) => b.metric);
    expect(await metricOf('interval=1h&aggregator=avg')).toEqual([7, 5, 1]);
    expect(await metricOf('interval=1h&aggregator=min')).toEqual([4, 3, 1]);
    expect(await metricOf('interval=1h&aggregator=max')).toEqual([10, 7, 1]);
    expect(await metricOf('interval=1h&aggregator=terms')).toEqual([2, 3, 1]);
    expect(await metricOf('interval=1h&aggregator=sum&success=true')).toEqual([10, 5, 0]);
    expect(await metricOf('interval=1h&aggregator=max&subscription_id=nobody')).toEqual([null, null, null]);
    // One bucket for the day: the latest balance of sub-a (sequence 2) wins.
    const day = await rt.management('GET', `/~/billing/reports/metrics?${range}&interval=1d`);
    expect(day.body.buckets.reduce((total: number, b: { metric: number }) => total + b.metric, 0)).toBe(30);
    expect(
      day.body.buckets.map((b: { ending_balance: { current_balance: number } }) => b.ending_balance.current_balance).filter((v: number) => v !== 0),
    ).toEqual(expect.arrayContaining([98.125]));
  });

  it('metrics: group_by series and time-zone buckets', async () => {
    const range = `from=${iso(base)}&to=${iso(base + 3 * HOUR)}&interval=1h`;
    const grouped = await rt.management('GET', `/~/billing/reports/metrics?${range}&group_by=subscription_id`);
    expect(grouped.status).toBe(200);
    expect(grouped.body.group_by).toBe('subscription_id');
    const series = Object.fromEntries(
      grouped.body.series.map((s: { key: string | null; buckets: { metric: number }[] }) => [String(s.key), s.buckets.map((b) => b.metric)]),
    );
    expect(series).toEqual({ 'sub-a': [10, 105, 1], 'sub-b': [4, 7, 0], null: [0, 3, 0] });
    expect(grouped.body.series[0].key).toBe('sub-a');
    const byMeter = await rt.management('GET', `/~/billing/reports/metrics?${range}&group_by=billing_meter_id`);
    expect(byMeter.body.series.map((s: { key: string }) => s.key)).toEqual(['meter-2', meterId]);

    // Day buckets start at local midnight of the requested zone.
    const zoned = await rt.management('GET', `/~/billing/reports/metrics?from=${iso(base)}&to=${iso(base + 3 * HOUR)}&interval=day&time_zone=Asia/Kolkata`);
    expect(zoned.status).toBe(200);
    expect(zoned.body.time_zone).toBe('Asia/Kolkata');
    for (const bucket of zoned.body.buckets) expect((Date.parse(bucket.start) + 5.5 * HOUR) % (24 * HOUR)).toBe(0);
    expect(zoned.body.buckets.reduce((t: number, b: { metric: number }) => t + b.metric, 0)).toBe(130);
  });

  it('metrics: 400s name the parameter', async () => {
    const cases: [string, string][] = [
      ['aggregator=median', 'aggregator'],
      ['interval=fortnight', 'interval'],
      ['group_by=colour', 'group_by'],
      ['interval=1m&from=-1M', 'interval'],
      ['from=garbage', 'from'],
      ['time_zone=Nowhere/Land', 'time_zone'],
      ['bucket=1', 'bucket'],
    ];
    for (const [query, field] of cases) {
      const answer = await rt.management('GET', `/~/billing/reports/metrics?${query}`);
      expect([query, answer.status]).toEqual([query, 400]);
      expect([query, answer.body.error.details.map((d: { field: string }) => d.field)]).toEqual([query, expect.arrayContaining([field])]);
    }
  });

  it('explain: re-runs the meter query for the report and traces the billed usage to its events', async () => {
    const subA = seeded[2]!;
    const answer = await rt.management('GET', `/~/billing/reports/${subA._id}/explain`);
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({
      report: subA,
      recomputed_metric: '5',
      recomputed_usage: 5,
      matches: true,
      company_usage_included: true,
      event_count: 5,
      range: { from: w(1).start.toISOString(), to: w(1).end.toISOString(), time_zone: 'UTC' },
    });
    expect([...answer.body.sample_event_ids].sort()).toEqual([uuid(1), uuid(2), uuid(3), uuid(4), uuid(5)].sort());
    expect(JSON.stringify(answer.body.query)).toContain('"sub-a"');
    expect(answer.body.query.aggs.usage).toEqual({ sum: { field: 'weight', missing: 1 } });

    // The query is a search body: sending it to the search API over the same window gives the same count.
    const replay = await rt.management(
      'POST',
      `/search/~/search/events?from=${encodeURIComponent(answer.body.range.from)}&to=${encodeURIComponent(answer.body.range.to)}`,
      {},
      answer.body.query,
    );
    expect(replay.status).toBe(200);
    expect(replay.body.hits.total).toBe(5);

    // sub-b counts only its own events: the report says 7, the events say 1.
    const subB = await rt.management('GET', `/~/billing/reports/${seeded[3]!._id}/explain`);
    expect(subB.body).toMatchObject({ recomputed_usage: 1, matches: false, company_usage_included: false, event_count: 1, sample_event_ids: [uuid(6)] });
    // Unattributed company usage: the company's events without subscription_id (none for company-x).
    const unattributed = await rt.management('GET', `/~/billing/reports/${seeded[4]!._id}/explain`);
    expect(unattributed.body).toMatchObject({ recomputed_usage: 0, matches: false, event_count: 0, sample_event_ids: [] });

    // A report whose meter does not exist (meter-2) cannot be explained: 404 names the meter.
    expect((await rt.management('GET', `/~/billing/reports/${seeded[5]!._id}/explain`)).status).toBe(404);
    expect((await rt.management('GET', `/~/billing/reports/${reportId({ windowStart: w(1).start, meterId, reportKey: 'S:nobody' })}/explain`)).status).toBe(
      404,
    );
  });
});
