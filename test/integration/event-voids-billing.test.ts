import fc from 'fast-check';
import type { DeliveryChannel } from '../../functions/billing/channels/channel-delivery';
import { runBilling } from '../../functions/billing/run/billing-run';
import { FakeWebhookReceiver } from '../support/fake-providers';
import { billingDeps, GRADUATED_TIERS, HOUR, numberedCalls, settledWindows, tieredPlan } from './support/billing-scenario';
import { startTestRuntime, type TestRuntime } from './support/runtime';

/**
 * The billing property of voids and replacements, on the real emulators with a webhook receiver: any
 * sequence of sends, voids, replacements and billing runs in between leaves the receiver holding, for
 * the subscription, exactly the usage of the events left live: what sending only the final set bills.
 */

type Step =
  | { readonly op: 'send'; readonly window: 0 | 1; readonly tag: string; readonly count: number }
  | { readonly op: 'void'; readonly tag: string }
  | { readonly op: 'replace'; readonly tag: string; readonly window: 0 | 1; readonly count: number }
  | { readonly op: 'bill' };

const TAGS = ['a', 'b', 'c'];
const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({
    op: fc.constant('send' as const),
    window: fc.constantFrom(0 as const, 1 as const),
    tag: fc.constantFrom(...TAGS),
    count: fc.integer({ min: 1, max: 3 }),
  }),
  fc.record({ op: fc.constant('void' as const), tag: fc.constantFrom(...TAGS) }),
  fc.record({
    op: fc.constant('replace' as const),
    tag: fc.constantFrom(...TAGS),
    window: fc.constantFrom(0 as const, 1 as const),
    count: fc.integer({ min: 1, max: 2 }),
  }),
  fc.constant<Step>({ op: 'bill' }),
);

describe('billing after voids and replacements', () => {
  let rt: TestRuntime;
  let fake: FakeWebhookReceiver;
  let channel: DeliveryChannel;
  let planId: string;
  const { w1, at } = settledWindows();
  const call = numberedCalls();
  const run = () =>
    runBilling({
      now: new Date(),
      ...billingDeps(rt, (ids) => new Map(ids.filter((id) => id === channel.id).map((id) => [id, channel])), { settings: { backfillMs: 48 * HOUR } }),
    });
  /** Each case bills two hours of its own, so no other case's late events make the run look at them again. */
  const hoursOf = (runNumber: number) => {
    const first = new Date(w1.getTime() - 2 * runNumber * HOUR);
    return {
      windows: [first, new Date(first.getTime() + HOUR)] as const,
      range: { from: first.toISOString(), to: new Date(first.getTime() + 2 * HOUR).toISOString() },
    };
  };

  beforeAll(async () => {
    rt = await startTestRuntime('event-voids-billing');
    fake = await new FakeWebhookReceiver({ secrets: { prop: 'whsec_prop' } }).start();
    channel = { id: 'prop', name: 'prop', url: fake.channelUrl('prop'), status: 'active', headers: {}, secrets: ['whsec_prop'] };
    planId = await tieredPlan(rt, 'property plan', 'tiered_graduated', GRADUATED_TIERS);
    const meter = {
      name: 'calls',
      slug: 'calls',
      es_query: { query: { match_all: {} } },
      billing_plan: { provider_slug: 'webhook', params: { webhook_params: { channel_ids: ['prop'], custom_plan: { plan_id: planId } } } },
    };
    expect((await rt.management('POST', '/~/billing/meters', {}, meter)).status).toBe(201);
  }, 60_000);

  afterAll(async () => {
    await fake?.stop();
    await rt?.dispose();
  });

  it('bills exactly the events left live, whatever was sent, voided and replaced, and whenever the runs came', async () => {
    let runNumber = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 5 }), async (steps) => {
        runNumber += 1;
        const { windows, range } = hoursOf(runNumber);
        const company = `prop-co-${runNumber}`;
        const subscription = `prop-sub-${runNumber}`;
        const period = {
          current_period_start: new Date(w1.getTime() - HOUR).toISOString(),
          current_period_end: new Date(Date.now() + 20 * 86_400_000).toISOString(),
        };
        expect(
          (
            await rt.collect('/v1/subscriptions', {
              subscription_id: subscription,
              company_id: company,
              status: 'active',
              items: [{ plan_id: planId }],
              ...period,
            })
          ).status,
        ).toBe(201);
        // The live events by tag, as the model of what sending only the final set would have sent.
        const live = new Map<string, number>(TAGS.map((tag) => [tag, 0]));
        let minute = 1;
        const events = (window: 0 | 1, tag: string, count: number) =>
          Array.from({ length: count }, () => call({ company_id: company, metadata: { tag } }, at(windows[window], (minute += 1))));
        const tagQuery = (tag: string) => ({ bool: { filter: [{ term: { company_id: company } }, { term: { 'metadata.tag': tag } }] } });
        for (const [n, current] of steps.entries()) {
          if (current.op === 'send') {
            expect((await rt.collect('/v1/events/batch', events(current.window, current.tag, current.count))).status).toBe(201);
            await rt.waitUntilConsumed();
            live.set(current.tag, live.get(current.tag)! + current.count);
          } else if (current.op === 'void') {
            const voided = await rt.management('POST', '/~/events/voids', {}, { reason: 'property', query: tagQuery(current.tag), ...range });
            // A void that matches nothing is refused, and changes nothing.
            expect(voided.status).toBe(live.get(current.tag)! > 0 ? 201 : 400);
            live.set(current.tag, 0);
          } else if (current.op === 'replace') {
            const corrected = events(current.window, current.tag, current.count).map(({ transaction_id: _id, ...event }) => event);
            const replaced = await rt.management(
              'POST',
              '/~/events/replacements',
              {},
              { id: `prop-${runNumber}-${n}`, reason: 'property', query: tagQuery(current.tag), ...range, events: corrected },
            );
            expect(replaced.status).toBe(201);
            await rt.waitUntilConsumed();
            live.set(current.tag, current.count);
          } else {
            expect((await run()).errors).toEqual([]);
          }
        }
        expect((await run()).errors).toEqual([]);
        const expected = [...live.values()].reduce((sum, count) => sum + count, 0);
        expect(fake.totals()[subscription] ?? 0n).toBe(BigInt(expected));
      }),
      { numRuns: 12 },
    );
  }, 240_000);
});
