import fc from 'fast-check';
import { reportId, subscriptionReportKey, companyReportKey } from '../../../functions/billing/reports/report-id';
import { listReports, ReportListParams, reportSelection } from '../../../functions/billing/reports/report-query';
import type { ListWindowsRequest, ReportStore, WindowReports } from '../../../functions/billing/reports/report-store';
import { ValidationError } from '../../../functions/shared/errors';
import type { BillingReport } from '../../../schemas/billing/report';
import { parseQueryParams } from '../../../functions/shared/invalid-input';

const HOUR = 3_600_000;
const T0 = Date.parse('2026-10-01T00:00:00Z');
const tenant = { orgId: 'org', appId: 'app' };

function fakeReport(meterId: string, windowStart: number, subscription: string | null, fields: Partial<BillingReport> = {}): BillingReport {
  const company = fields.company_id ?? `company-of-${subscription ?? 'none'}`;
  const key = subscription !== null ? subscriptionReportKey(subscription) : companyReportKey(company);
  const start = new Date(windowStart).toISOString();
  const end = new Date(windowStart + HOUR).toISOString();
  return {
    _id: reportId({ windowStart: new Date(windowStart), meterId, reportKey: key }),
    org_id: tenant.orgId,
    app_id: tenant.appId,
    type: 'usage',
    status: 'success',
    success: true,
    usage_start_time: start,
    usage_end_time: end,
    subscription_id: subscription,
    company_id: company,
    billing_meter_id: meterId,
    provider: 'webhook',
    meter_metric: 1,
    meter_metric_exact: '1',
    meter_usage: 1,
    report_total_usage: 1,
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

const sortKey = (group: WindowReports) => `W#${group.window.start.toISOString()}#${encodeURIComponent(group.meterId)}#`;

/** The store's listing contract (report-store.ts): overlapping windows, sort-key order, maxWindows, an opaque cursor. */
class FakeReportStore implements Pick<ReportStore, 'listWindows'> {
  reads = 0;
  constructor(private readonly groups: WindowReports[]) {}

  async listWindows(_tenant: unknown, request: ListWindowsRequest): Promise<{ windows: WindowReports[]; cursor?: string }> {
    this.reads += 1;
    const newestFirst = request.newestFirst ?? true;
    const ordered = this.groups
      .filter((g) => g.window.start < request.to && g.window.end > request.from && (request.meterId === undefined || g.meterId === request.meterId))
      .sort((a, b) => (sortKey(a) < sortKey(b) ? -1 : 1));
    if (newestFirst) ordered.reverse();
    const after = request.cursor;
    const rest = after === undefined ? ordered : ordered.filter((g) => (newestFirst ? sortKey(g) < after : sortKey(g) > after));
    const windows = rest.slice(0, request.maxWindows ?? 50);
    return { windows, ...(rest.length > windows.length ? { cursor: sortKey(windows[windows.length - 1]!) } : {}) };
  }
}

function group(meterId: string, windowStart: number, reports: BillingReport[]): WindowReports {
  const sorted = [...reports].sort((a, b) => (keyOf(a) < keyOf(b) ? -1 : 1));
  return {
    meterId,
    window: { start: new Date(windowStart), end: new Date(windowStart + HOUR) },
    revision: 1,
    generation: 'g',
    shards: 1,
    evaluatedAt: new Date(windowStart + 2 * HOUR),
    reports: sorted,
  };
}
const keyOf = (r: BillingReport) => (r.subscription_id !== null ? subscriptionReportKey(r.subscription_id) : companyReportKey(r.company_id ?? ''));

const now = new Date('2026-11-01T00:00:00Z');
const everything = reportSelection(parseQueryParams(ReportListParams, {}), now);

async function allPages(store: FakeReportStore, take: number, selection = everything): Promise<string[][]> {
  const pages: string[][] = [];
  let before: string | undefined;
  for (let guard = 0; guard < 10_000; guard += 1) {
    const page = await listReports(store, tenant, selection, take, before);
    pages.push(page.reports.map((r) => r._id));
    if (page.nextBeforeId === undefined) return pages;
    before = page.nextBeforeId;
  }
  throw new Error('paging did not end');
}

describe('report list paging (listReports)', () => {
  // Meter ids where one is a prefix of another ('m', 'm-1') and ones that need URI encoding ('m é').
  const meters = ['m', 'm-1', 'm é', 'z'];
  const arbitraryGroups = fc
    .uniqueArray(
      fc.record({
        meter: fc.constantFrom(...meters),
        hour: fc.integer({ min: 0, max: 30 }),
        subs: fc.uniqueArray(fc.constantFrom('a', 'b', 'c', 'aa', 'b-2', null), { maxLength: 5 }),
      }),
      { selector: (g) => `${g.meter}|${g.hour}`, maxLength: 25 },
    )
    .map((specs) =>
      specs.map((s) =>
        group(
          s.meter,
          T0 + s.hour * HOUR,
          s.subs.map((sub) => fakeReport(s.meter, T0 + s.hour * HOUR, sub)),
        ),
      ),
    );

  it('visits every report exactly once, in the order of one unpaged listing, whatever the page size', async () => {
    await fc.assert(
      fc.asyncProperty(arbitraryGroups, fc.integer({ min: 1, max: 7 }), async (groups, take) => {
        const store = new FakeReportStore(groups);
        const [whole] = await allPages(store, 1000);
        const pages = await allPages(store, take);
        expect(pages.flat()).toEqual(whole);
        for (const page of pages) expect(page.length).toBeLessThanOrEqual(take);
        expect(new Set(whole).size).toBe(groups.reduce((n, g) => n + g.reports.length, 0));
      }),
      { numRuns: 60 },
    );
  });

  it('orders newest window first, then by the store key order of meters, then by subscription or company', async () => {
    const store = new FakeReportStore([
      group('m', T0, [fakeReport('m', T0, 'b'), fakeReport('m', T0, 'a')]),
      group('m-1', T0, [fakeReport('m-1', T0, 'a')]),
      group('m', T0 + HOUR, [fakeReport('m', T0 + HOUR, null, { company_id: 'acme' }), fakeReport('m', T0 + HOUR, 'a')]),
    ]);
    const [ids] = await allPages(store, 100);
    const named = (ids ?? []).map((id) =>
      Buffer.from(id, 'base64url')
        .toString('utf8')
        .replace(/\u001f/g, '|')
        .replace(/^\d+/, (ms) => String((Number(ms) - T0) / HOUR)),
    );
    expect(named).toEqual(['1|m|C:acme', '1|m|S:a', '0|m-1|S:a', '0|m|S:a', '0|m|S:b']);
  });

  it('stops a sparse page after 200 windows with a position that continues after the last window read', async () => {
    const groups = Array.from({ length: 450 }, (_, i) => group('m', T0 + i * HOUR, [fakeReport('m', T0 + i * HOUR, i === 5 ? 'needle' : 'hay')]));
    const store = new FakeReportStore(groups);
    const selection = reportSelection(parseQueryParams(ReportListParams, { subscription_id: 'needle' }), now);
    const first = await listReports(store, tenant, selection, 10);
    expect(first.reports).toEqual([]);
    expect(first.nextBeforeId).toBeDefined();
    const pages = await allPages(store, 10, selection);
    expect(pages.flat()).toEqual([groups[5]!.reports[0]!._id]);
    expect(pages.length).toBe(3);
  });

  it('refuses a before_id that is no report id', async () => {
    const store = new FakeReportStore([]);
    await expect(listReports(store, tenant, everything, 10, 'bm90LWFuLWlk')).rejects.toMatchObject({ status: 400, details: [{ field: 'before_id' }] });
  });
});

describe('report list parameters', () => {
  const fieldsOf = (query: Record<string, string>) => {
    try {
      reportSelection(parseQueryParams(ReportListParams, query), now);
    } catch (error) {
      expect(error).toBeInstanceOf(ValidationError);
      return (error as ValidationError).details.map((d) => d.field);
    }
    return [];
  };

  it('names each bad or unknown parameter', () => {
    expect(fieldsOf({ take: '0' })).toEqual(['take']);
    expect(fieldsOf({ take: '1000' })).toEqual([]);
    expect(fieldsOf({ status: 'success,nope' })).toEqual(['status']);
    expect(fieldsOf({ success: 'yes', provider: 'paypal' }).sort()).toEqual(['provider', 'success']);
    expect(fieldsOf({ subscriptionId: 'x', colour: 'red' }).sort()).toEqual(['colour', 'subscriptionId']);
    expect(fieldsOf({ from: '2026-11-02', to: '2026-11-01' })).toEqual(['from']);
    expect(fieldsOf({ from: '-1d', time_zone: 'Europe/Nowhere' })).toEqual(['time_zone']);
  });

  it('defaults to every window up to now and reads dates in the time zone', () => {
    const selection = reportSelection(parseQueryParams(ReportListParams, {}), now);
    expect(selection.from.getTime()).toBe(0);
    expect(selection.to).toEqual(now);
    const zoned = reportSelection(parseQueryParams(ReportListParams, { from: '2026-10-10', to: '2026-10-11', time_zone: 'America/New_York' }), now);
    expect(zoned.from.toISOString()).toBe('2026-10-10T04:00:00.000Z');
    expect(zoned.to.toISOString()).toBe('2026-10-11T04:00:00.000Z');
  });

  it('matches every filter as an equality, statuses as a set', () => {
    const r = fakeReport('m', T0, 'sub-1', { status: 'retrying', success: false, provider: 'stripe', company_id: 'acme' });
    const match = (query: Record<string, string>) => reportSelection(parseQueryParams(ReportListParams, query), now).matches(r);
    expect(
      match({
        status: 'failed,retrying',
        success: 'false',
        provider: 'stripe',
        company_id: 'acme',
        subscription_id: 'sub-1',
        billing_meter_id: 'm',
        type: 'usage',
      }),
    ).toBe(true);
    expect(match({ status: 'failed' })).toBe(false);
    expect(match({ success: 'true' })).toBe(false);
    expect(match({ company_id: 'other' })).toBe(false);
    expect(match({ billing_meter_id: 'm2' })).toBe(false);
  });
});
