import type { DeliveryChannel } from '../../functions/billing/channels/channel-delivery';
import { runBilling } from '../../functions/billing/run/billing-run';
import type { EventVoid } from '../../schemas/event-voids';
import { FakeWebhookReceiver } from '../support/fake-providers';
import { billingDeps, GRADUATED_TIERS, HOUR, numberedCalls, settledWindows, tieredPlan } from './support/billing-scenario';
import { startTestRuntime, type TestRuntime } from './support/runtime';

/**
 * Voiding events on the real emulators with a webhook receiver: a customer's integration sent a
 * batch twice over two windows the billing run had already reported; one request voids the
 * duplicates by query; they leave every search and count (listed on request), the audit log shows
 * the void, and the next run delivers the corrections, so the receiver's totals equal the usage
 * without the duplicates. Bad requests are refused naming the field.
 */
describe('voiding events', () => {
  let rt: TestRuntime;
  let fake: FakeWebhookReceiver;
  let channel: DeliveryChannel;
  const { w1, w2, at } = settledWindows();
  const call = numberedCalls();
  const run = (now: Date) => runBilling({ now, ...billingDeps(rt, (ids) => new Map(ids.filter((id) => id === channel.id).map((id) => [id, channel]))) });
  const range = { from: w1.toISOString(), to: new Date(w2.getTime() + HOUR).toISOString() };
  const count = async (voided?: 'include' | 'only', query: unknown = { term: { company_id: 'void-co' } }) =>
    (await rt.management('POST', `/search/~/count/events?from=${range.from}&to=${range.to}${voided ? `&voided=${voided}` : ''}`, {}, { query })).body.count;

  beforeAll(async () => {
    rt = await startTestRuntime('event-voids');
    fake = await new FakeWebhookReceiver({ secrets: { voids: 'whsec_voids' } }).start();
    channel = { id: 'voids', name: 'voids', url: fake.channelUrl('voids'), status: 'active', headers: {}, secrets: ['whsec_voids'] };
    const planId = await tieredPlan(rt, 'void plan', 'tiered_graduated', GRADUATED_TIERS);
    const period = {
      current_period_start: new Date(w1.getTime() - HOUR).toISOString(),
      current_period_end: new Date(Date.now() + 20 * 86_400_000).toISOString(),
    };
    expect(
      (await rt.collect('/v1/subscriptions', { subscription_id: 'sub-void', company_id: 'void-co', status: 'active', items: [{ plan_id: planId }], ...period }))
        .status,
    ).toBe(201);
    const meter = {
      name: 'calls',
      slug: 'calls',
      es_query: { query: { match_all: {} } },
      billing_plan: { provider_slug: 'webhook', params: { webhook_params: { channel_ids: ['voids'], custom_plan: { plan_id: planId } } } },
    };
    expect((await rt.management('POST', '/~/billing/meters', {}, meter)).status).toBe(201);
    // 2 calls in w1 and 1 in w2, then the same batch again by a faulty integration (new ids, marked by its release: good, then bad).
    const batch = (release: string) => [
      call({ company_id: 'void-co', metadata: { release } }, at(w1, 5)),
      call({ company_id: 'void-co', metadata: { release } }, at(w1, 10)),
      call({ company_id: 'void-co', metadata: { release } }, at(w2, 5)),
    ];
    expect((await rt.collect('/v1/events/batch', [...batch('good'), ...batch('bad')])).status).toBe(201);
    await rt.waitUntilConsumed();
    expect((await run(new Date())).errors).toEqual([]);
    expect(fake.totals()).toEqual({ 'sub-void': 6n });
  }, 60_000);

  afterAll(async () => {
    await fake?.stop();
    await rt?.dispose();
  });

  it('voids a double send over two reported windows with one request; the next run corrects the bill', async () => {
    const voided = await rt.management(
      'POST',
      '/~/events/voids',
      {},
      { reason: 'release 1.1 sent every call twice', query: { term: { 'metadata.release': 'bad' } }, ...range },
    );
    expect(voided.status).toBe(201);
    const record = voided.body as EventVoid;
    expect(record).toMatchObject({ status: 'completed', matched: 3, voided: 3, billing_hours: 2, reason: 'release 1.1 sent every call twice', error: null });

    // Gone from every read, kept and listed on request.
    expect(await count()).toBe(3);
    expect(await count('include')).toBe(6);
    expect(await count('only')).toBe(3);
    const listed = await rt.management('POST', `/search/~/search/events?from=${range.from}&to=${range.to}&voided=only`, {}, { size: 10 });
    expect(listed.body.hits.hits.map((hit: { _source: Record<string, unknown> }) => hit._source)).toEqual(
      Array.from({ length: 3 }, () => expect.objectContaining({ void_id: record.id, voided_at: record.created_at })),
    );
    expect((await rt.management('POST', '/search/~/count/events?voided=sometimes', {}, {})).body.error.details).toEqual([
      expect.objectContaining({ field: 'voided' }),
    ]);

    // The audit log.
    const log = await rt.management('GET', '/~/events/voids');
    expect(log.body).toEqual([expect.objectContaining({ id: record.id, created_by: expect.any(String), query: { term: { 'metadata.release': 'bad' } } })]);
    expect((await rt.management('GET', `/~/events/voids/${record.id}`)).body).toEqual(record);

    // The run evaluates both windows again and delivers the difference.
    const summary = await run(new Date());
    expect(summary.errors).toEqual([]);
    expect(summary.corrections).toBe(2);
    expect(fake.totals()).toEqual({ 'sub-void': 3n });
    // A run after that has nothing more to correct.
    expect((await run(new Date())).corrections).toBe(0);
  }, 60_000);

  it('voids events by id, once: the same void again matches nothing', async () => {
    const ids = (
      await rt.management('POST', `/search/~/search/events?from=${range.from}&to=${range.to}`, {}, { size: 1, sort: [{ _id: 'asc' }] })
    ).body.hits.hits.map((hit: { _id: string }) => hit._id);
    const body = { reason: 'test call from our own staging', event_ids: ids };
    expect((await rt.management('POST', '/~/events/voids', {}, body)).body).toMatchObject({ matched: 1, voided: 1, event_ids: ids });
    const again = await rt.management('POST', '/~/events/voids', {}, body);
    expect(again.status).toBe(400);
    expect(again.body.error.details).toEqual([expect.objectContaining({ field: 'event_ids', reason: expect.stringContaining('matches no event') })]);
    await run(new Date());
    expect(fake.totals()).toEqual({ 'sub-void': 2n });
  }, 60_000);

  it('refuses a void without a reason, with both ids and a query, a query without its range, and a range beyond the reach, naming the field', async () => {
    const refused = async (body: Record<string, unknown>, field: string) => {
      const answer = await rt.management('POST', '/~/events/voids', {}, body);
      expect(answer.status).toBe(400);
      expect(answer.body.error.details).toEqual(expect.arrayContaining([expect.objectContaining({ field })]));
    };
    await refused({ event_ids: ['x'] }, 'reason');
    await refused({ reason: 'r', event_ids: ['x'], query: { match_all: {} }, ...range }, 'query');
    await refused({ reason: 'r', query: { match_all: {} } }, 'from');
    await refused({ reason: 'r', query: { match_all: {} }, from: new Date(Date.now() - 40 * 86_400_000).toISOString(), to: range.to }, 'from');
    await refused({ reason: 'r', query: { no_such_query: {} }, ...range }, 'query.no_such_query');
    // Nothing was logged for them.
    expect((await rt.management('GET', '/~/events/voids')).body).toHaveLength(2);
    // The mark is the service's to write: the collector refuses an event carrying it.
    const marked = await rt.collect('/v1/events', { ...call({ company_id: 'void-co' }, new Date()), voided_at: new Date().toISOString() });
    expect(marked.status).toBe(400);
    expect(JSON.stringify(marked.body)).toContain('voided_at');
  }, 60_000);

  it("replaces a window's events sent with the wrong company by the corrected set, once however often it is retried", async () => {
    const wrong = [call({ company_id: 'wrong-co' }, at(w2, 20)), call({ company_id: 'wrong-co' }, at(w2, 25))];
    expect((await rt.collect('/v1/events/batch', wrong)).status).toBe(201);
    await rt.waitUntilConsumed();
    const corrected: Record<string, unknown>[] = wrong.map(({ transaction_id: _id, ...event }) => ({ ...event, company_id: 'void-co' }));
    const body = {
      id: 'fix-wrong-company',
      reason: 'the gateway sent wrong-co for void-co',
      query: { term: { company_id: 'wrong-co' } },
      from: w2.toISOString(),
      to: new Date(w2.getTime() + HOUR).toISOString(),
      events: corrected,
    };
    // Refused as a whole, naming the record: one outside the range, one reusing an accepted id.
    const outside = await rt.management(
      'POST',
      '/~/events/replacements',
      {},
      { ...body, events: [{ ...corrected[0], request: { ...(corrected[0]!['request'] as object), time: at(w1, 1).toISOString() } }] },
    );
    expect(outside.status).toBe(400);
    expect(outside.body.error.details).toEqual([expect.objectContaining({ field: 'events[0].request.time' })]);
    const reused = await rt.management('POST', '/~/events/replacements', {}, { ...body, events: [wrong[0]] });
    expect(reused.status).toBe(400);
    expect(reused.body.error.details).toEqual(expect.arrayContaining([expect.objectContaining({ field: 'events[0].transaction_id' })]));
    const invalid = await rt.management('POST', '/~/events/replacements', {}, { ...body, events: [{ request: {} }] });
    expect(invalid.status).toBe(400);
    expect(JSON.stringify(invalid.body.error.details)).toContain('events[0].request');

    const replaced = await rt.management('POST', '/~/events/replacements', {}, body);
    expect(replaced.status).toBe(201);
    expect(replaced.body).toMatchObject({ id: 'fix-wrong-company', status: 'completed', matched: 2, voided: 2, replacement: { events: 2, actions: 0 } });
    const retried = await rt.management('POST', '/~/events/replacements', {}, body);
    expect(retried.status).toBe(200);
    expect(retried.body).toEqual(replaced.body);
    await rt.waitUntilConsumed();
    expect(await count(undefined, { term: { company_id: 'wrong-co' } })).toBe(0);
    expect(await count('only', { term: { company_id: 'wrong-co' } })).toBe(2);
    // Billed to void-co now: the replacement's events arrived late, so the run corrects w2.
    await run(new Date());
    expect(fake.totals()).toEqual({ 'sub-void': 4n });
  }, 60_000);
});
