import { ReportStore } from '../../functions/billing/reports/report-store';
import { runBilling } from '../../functions/billing/run/billing-run';
import { RunStateStore } from '../../functions/billing/run/run-state-store';
import { eventDocument } from '../../bin/bench/billing-fixtures';
import { profileDocument } from '../../functions/search/index-documents';
import type { IndexDocument } from '../../functions/search/port';
import { FakeWebhookReceiver } from '../support/fake-providers';
import { startTestRuntime, type TestRuntime } from './support/runtime';

/**
 * Thousands of subscriptions in one window: reports spread over several shards of one group, one
 * batched POST per 500 reports, every subscription billed exactly its usage. Also prints the run's
 * time next to the time of its bare aggregation queries.
 */
describe('billing run at scale', () => {
  let rt: TestRuntime;
  let receiver: FakeWebhookReceiver;
  const COMPANIES = 3000;
  const HOUR = 3_600_000;
  const w1 = new Date(Math.floor(Date.now() / HOUR) * HOUR - 3 * HOUR);

  beforeAll(async () => {
    rt = await startTestRuntime('billing-scale', { governanceRefreshMs: 0 });
    receiver = await new FakeWebhookReceiver({ secrets: { big: 'whsec_big' } }).start();
  }, 60_000);
  afterAll(async () => {
    await receiver?.stop();
    await rt?.dispose();
  });

  it(`bills ${COMPANIES} subscriptions in two windows exactly`, async () => {
    const scope = { org_id: rt.credentials.org_id, app_id: rt.credentials.app_id };
    const plan = await rt.management('POST', '/~/billing/catalog/plans', {}, { name: 'bulk' });
    const planId: string = plan.body.id ?? plan.body._id;
    const docs: IndexDocument[] = [];
    const expected: Record<string, bigint> = {};
    for (let i = 0; i < COMPANIES; i += 1) {
      const id = `sub-${String(i).padStart(5, '0')}`;
      docs.push(
        profileDocument(
          scope,
          'subscriptions',
          id,
          { subscription_id: id, company_id: `co-${i}`, status: 'active', items: [{ plan_id: planId }] },
          1,
          new Date().toISOString(),
        ),
      );
      // Company i: (i % 3) + 1 calls in w1, one sampled call of weight (i % 5) + 1 in w2.
      let total = 0;
      for (let n = 0; n <= i % 3; n += 1) {
        docs.push(eventDocument(scope, `e-${i}-${n}`, new Date(w1.getTime() + (n + 1) * 60_000), { company_id: `co-${i}` }, 'GET', 200));
        total += 1;
      }
      docs.push(eventDocument(scope, `e-${i}-w2`, new Date(w1.getTime() + HOUR + 120_000), { company_id: `co-${i}`, weight: (i % 5) + 1 }, 'GET', 200));
      total += (i % 5) + 1;
      expected[id] = BigInt(total);
    }
    for (let i = 0; i < docs.length; i += 2000) expect((await rt.index.index(docs.slice(i, i + 2000))).failures).toEqual([]);
    const meter = await rt.management(
      'POST',
      '/~/billing/meters',
      {},
      {
        name: 'bulk',
        slug: 'bulk',
        es_query: { query: { match_all: {} } },
        billing_plan: { provider_slug: 'webhook', params: { webhook_params: { channel_ids: ['big'], custom_plan: { plan_id: planId } } } },
      },
    );
    expect(meter.status).toBe(201);

    const started = Date.now();
    const run = (options: { reportsPerCommit?: number } = {}) =>
      runBilling({
        now: new Date(),
        deps: {
          ...rt.billingDeps,
          tenants: async () => [{ orgId: scope.org_id, appId: scope.app_id }],
          channels: async () =>
            new Map([['big', { id: 'big', name: 'big', url: receiver.channelUrl('big'), status: 'active' as const, headers: {}, secrets: ['whsec_big'] }]]),
          // The receiver is on localhost: the setting of local mode and tests (WEBHOOK_ALLOW_PRIVATE_TARGETS).
          webhookOptions: { allowPrivateTargets: true },
        },
        settings: options,
      });
    const summary = await run();
    const elapsed = Date.now() - started;
    console.log(`billing run: ${COMPANIES} subscriptions × 2 windows in ${elapsed} ms (aggregation queries ${summary.queryMs} ms)`);
    expect(summary.errors).toEqual([]);
    expect(summary.windowsEvaluated).toBe(2);
    expect(receiver.totals()).toEqual(expected);
    // 2 windows × 3000 reports in POSTs of at most 500 events and 100,000 bytes, each of them full but the last of a window.
    const posts = receiver.requests().filter((r) => r.method === 'POST');
    const sizes = posts.map((r) => ({
      bytes: Buffer.byteLength(r.body, 'utf8'),
      events: (JSON.parse(r.body) as { data: { events: unknown[] } }).data.events.length,
    }));
    expect(sizes.reduce((sum, s) => sum + s.events, 0)).toBe(2 * COMPANIES);
    expect(sizes.every((s) => s.bytes <= 100_000 && s.events <= 500)).toBe(true);
    const eventBytes = Math.max(...sizes.map((s) => s.bytes / s.events));
    expect(posts.length).toBeLessThanOrEqual(2 * Math.ceil(COMPANIES / Math.floor(100_000 / eventBytes - 1)));
    const group = await new ReportStore(rt.clients.documents, rt.names.tables.billing).readWindow(
      { orgId: scope.org_id, appId: scope.app_id },
      meter.body._id,
      w1,
    );
    expect(group!.reports).toHaveLength(COMPANIES);
    expect(group!.reports.every((r) => r.status === 'success')).toBe(true);

    // The same usage for a second meter, whose chunks end at 2,000 reports: one window per commit
    // (one more cursor revision), and again every subscription billed exactly.
    const small = await rt.management(
      'POST',
      '/~/billing/meters',
      {},
      {
        name: 'bulk small chunks',
        slug: 'bulk-small',
        es_query: { query: { match_all: {} } },
        billing_plan: { provider_slug: 'webhook', params: { webhook_params: { channel_ids: ['big'], custom_plan: { plan_id: planId } } } },
      },
    );
    expect(small.status).toBe(201);
    const second = await run({ reportsPerCommit: 2_000 });
    expect(second.errors).toEqual([]);
    expect(second.windowsEvaluated).toBe(2);
    expect(receiver.totals()).toEqual(Object.fromEntries(Object.entries(expected).map(([id, total]) => [id, total * 2n])));
    const state = new RunStateStore(rt.clients.documents, rt.names.tables.billing);
    const tenant = { orgId: scope.org_id, appId: scope.app_id };
    const [whole, split] = [await state.readCursor(tenant, meter.body._id), await state.readCursor(tenant, small.body._id)];
    expect(split!.revision).toBe(whole!.revision + 1);
    expect([...split!.totals.values()].map((t) => t.usage)).toEqual([...whole!.totals.values()].map((t) => t.usage));
    // The usage page reads a few keys' totals of every meter: only the shards holding them (several
    // here: 3,000 keys), the same totals as the run's own read.
    expect(whole!.totalsShards).toBeGreaterThan(1);
    const some = [...whole!.totals.keys()].filter((_, n) => n % 997 === 0).concat('S:no-such-subscription');
    const read = await state.readTotalsOf(tenant, some);
    expect([...read.keys()].sort()).toEqual([meter.body._id, small.body._id].sort());
    const only = (totals: ReadonlyMap<string, unknown>) => new Map([...totals].filter(([key]) => some.includes(key)));
    expect(read.get(meter.body._id)).toEqual(only(whole!.totals));
    expect(read.get(small.body._id)).toEqual(only(split!.totals));
    expect(read.get(meter.body._id)!.size).toBe(some.length - 1);
    expect((await state.readTotalsOf(tenant, [...whole!.totals.keys()])).get(meter.body._id)).toEqual(whole!.totals);
  }, 300_000);
});
