import type { DeliveryChannel } from '../../functions/billing/channels/channel-delivery';
import { runBilling } from '../../functions/billing/run/billing-run';
import type { BillingReport } from '../../schemas/billing/report';
import { FakeWebhookReceiver } from '../support/fake-providers';
import { billingDeps, GRADUATED_TIERS, HOUR, numberedCalls, settledWindows, tieredPlan } from './support/billing-scenario';
import { startTestRuntime, type TestRuntime } from './support/runtime';

type AnsweredReport = BillingReport & { period_status: string | null };

/**
 * Completeness before close, on the real emulators and a webhook receiver: a meter with a 30-minute
 * grace period reports a window only once the grace has passed; its subscription's period shows
 * `in_grace` until every window of it is reported, then `final`; a late event after that is still
 * billed, as a correction marked and counted as late after final; the lateness of its events is
 * measured from their arrival times.
 */
describe('completeness before close', () => {
  let rt: TestRuntime;
  let fake: FakeWebhookReceiver;
  let channel: DeliveryChannel;
  let meterId: string;
  const { w1, w2, at } = settledWindows();
  // The subscription's period: one hour before w1 to the end of w2 (it ended two hours ago).
  const period = { current_period_start: new Date(w1.getTime() - HOUR).toISOString(), current_period_end: new Date(w2.getTime() + HOUR).toISOString() };
  const call = numberedCalls();
  const run = (now: Date) =>
    runBilling({
      now,
      ...billingDeps(rt, (ids) => new Map(ids.filter((id) => id === channel.id).map((id) => [id, channel])), { settings: { backfillMs: 8 * HOUR } }),
    });
  const reports = async (): Promise<AnsweredReport[]> =>
    (await rt.management('GET', `/~/billing/reports?billing_meter_id=${meterId}&subscription_id=sub-late`)).body as AnsweredReport[];
  const completeness = async () => (await rt.management('GET', `/~/billing/meters/${meterId}/completeness`)).body;

  beforeAll(async () => {
    rt = await startTestRuntime('completeness');
    fake = await new FakeWebhookReceiver({ secrets: { grace: 'whsec_grace' } }).start();
    channel = { id: 'grace', name: 'grace', url: fake.channelUrl('grace'), status: 'active', headers: {}, secrets: ['whsec_grace'] };
    const planId = await tieredPlan(rt, 'grace plan', 'tiered_graduated', GRADUATED_TIERS);
    expect(
      (await rt.collect('/v1/subscriptions', { subscription_id: 'sub-late', company_id: 'late-co', status: 'active', items: [{ plan_id: planId }], ...period }))
        .status,
    ).toBe(201);
    const meter = {
      name: 'calls with grace',
      slug: 'calls-with-grace',
      es_query: { query: { match_all: {} } },
      billing_plan: {
        provider_slug: 'webhook',
        params: { grace_period_minutes: 30, webhook_params: { channel_ids: ['grace'], custom_plan: { plan_id: planId } } },
      },
    };
    // Less than the 6 minutes late-event marks need is refused, naming the field.
    const tooShort = await rt.management(
      'POST',
      '/~/billing/meters',
      {},
      { ...meter, billing_plan: { ...meter.billing_plan, params: { ...meter.billing_plan.params, grace_period_minutes: 3 } } },
    );
    expect(tooShort.status).toBe(400);
    expect(JSON.stringify(tooShort.body)).toContain('grace_period_minutes');
    const created = await rt.management('POST', '/~/billing/meters', {}, meter);
    expect(created.status).toBe(201);
    meterId = created.body._id;
    expect((await rt.collect('/v1/events/batch', [call({ company_id: 'late-co' }, at(w1, 5)), call({ company_id: 'late-co' }, at(w2, 5))])).status).toBe(201);
    await rt.waitUntilConsumed();
  }, 60_000);

  afterAll(async () => {
    await fake?.stop();
    await rt?.dispose();
  });

  it('reports a window only after its grace period, and shows the period in grace until every window of it is reported', async () => {
    // 10 minutes after the period's last window closed: w1 is past its grace, w2 is not.
    expect((await run(new Date(w2.getTime() + HOUR + 10 * 60_000))).errors).toEqual([]);
    expect(fake.totals()).toEqual({ 'sub-late': 1n });
    expect((await reports()).map((r) => [r.usage_start_time, r.period_status])).toEqual([[w1.toISOString(), 'in_grace']]);
    expect(await completeness()).toMatchObject({
      grace: { minutes: 30, source: 'configured' },
      windows: { final_through: w2.toISOString(), next_report_at: new Date(w2.getTime() + HOUR + 30 * 60_000).toISOString() },
      late_after_final: { corrections: 0, usage: 0 },
    });

    // Past the grace: w2 is reported, the cursor passes the period's end, and the period is final.
    expect((await run(new Date(w2.getTime() + HOUR + 31 * 60_000))).errors).toEqual([]);
    expect(fake.totals()).toEqual({ 'sub-late': 2n });
    expect((await reports()).map((r) => r.period_status)).toEqual(['final', 'final']);
  }, 60_000);

  it('bills a late event after final as a correction, marked and counted as late after final', async () => {
    expect((await rt.collect('/v1/events/batch', [call({ company_id: 'late-co' }, at(w1, 20))])).status).toBe(201);
    await rt.waitUntilConsumed();
    const summary = await run(new Date());
    expect(summary.corrections).toBeGreaterThanOrEqual(1);
    expect(fake.totals()).toEqual({ 'sub-late': 3n });
    const corrected = (await reports()).find((r) => r.usage_start_time === w1.toISOString())!;
    expect(corrected).toMatchObject({ report_version: 2, meter_usage: 2, period_status: 'final' });
    expect(corrected.versions.map((v) => [v.report_version, v.delta, v.after_final ?? false])).toEqual([
      [1, 1, false],
      [2, 1, true],
    ]);
    expect((await completeness()).late_after_final).toEqual({ corrections: 1, usage: 1 });
  }, 60_000);

  it('reconciles a webhook meter with what its receiver acknowledged: matched, then drift once the receiver refuses a correction', async () => {
    const matched = await rt.management('POST', `/~/billing/meters/${meterId}/reconciliation`);
    expect(matched.status).toBe(200);
    // sub-late's current period is the one that follows (its stated period ended): the check reads what the run reported for it.
    expect(matched.body).toMatchObject({ provider: 'webhook', counts: { drift: 0, unknown: 0 } });
    // A late event in w2, whose correction the receiver refuses (a 4xx): reported 2 for the window, acknowledged 1.
    fake.failNext(1, { kind: 'status', status: 422, message: 'closed period', code: 'period_closed' });
    expect((await rt.collect('/v1/events/batch', [call({ company_id: 'late-co' }, at(w2, 30))])).status).toBe(201);
    await rt.waitUntilConsumed();
    await run(new Date());
    const drifted = await rt.management('POST', `/~/billing/meters/${meterId}/reconciliation`);
    expect(drifted.body.drift).toEqual([expect.objectContaining({ subscription_id: 'sub-late', reported: 4, provider: 3, difference: -1 })]);
    const refused = await rt.management('POST', `/~/billing/meters/${meterId}/reconciliation/corrections`);
    expect(refused.status).toBe(400);
    expect(refused.body.error.message).toContain('refused or never confirmed');
  }, 60_000);

  it("measures how late the meter's events arrive, and keeps the configured grace when there is too little to choose from", async () => {
    const measured = await rt.management('POST', `/~/billing/meters/${meterId}/completeness`);
    expect(measured.status).toBe(200);
    const { lateness } = measured.body;
    // Four events, each sent 2 to 5 hours after its time: all in the bucket of 1 to 6 hours.
    expect(lateness.meter.events).toBe(4);
    expect(lateness.meter.buckets.map((b: { up_to_minutes: number | null; events: number }) => [b.up_to_minutes, b.events])).toEqual([
      [1, 0],
      [5, 0],
      [15, 0],
      [60, 0],
      [360, 4],
      [1440, 0],
      [4320, 0],
      [null, 0],
    ]);
    expect(lateness).toMatchObject({ p50_minutes: 360, p99_minutes: 360 });
    expect(lateness).toMatchObject({ observed_grace_minutes: null, reason: expect.stringContaining('at least 1000') });
    expect(lateness.app.events).toBeGreaterThanOrEqual(4);
    expect(measured.body.grace).toEqual({ minutes: 30, source: 'configured' });
    expect((await completeness()).lateness).toEqual(lateness);
    expect((await rt.management('GET', '/~/billing/meters/no-such-meter/completeness')).status).toBe(404);
  }, 60_000);
});
