import { meterSetupWarnings } from '../../../functions/billing/meter-check/meter-setup-warnings';
import { SubscriptionDirectory, subscriptionItems, type KnownSubscription } from '../../../functions/billing/run/subscription-directory';

const subscription = (id: string, status: string, items: KnownSubscription['items']): KnownSubscription => ({
  subscriptionId: id,
  companyId: `company-of-${id}`,
  status,
  periodStart: null,
  periodEnd: null,
  items,
  createdAt: null,
  metadata: {},
});
const directoryOf = (...subscriptions: KnownSubscription[]) => new SubscriptionDirectory(new Map(subscriptions.map((s) => [s.subscriptionId, s])));
const meter = (ids: string[], perSubscription = false) => ({ billedIds: new Set(ids), perSubscription });

describe('meterSetupWarnings', () => {
  it('says nothing when a billable subscription carries one of the ids, as plan, price or item id', () => {
    for (const item of [{ plan_id: 'pro' }, { price_id: 'pro' }, { subscription_item_id: 'pro' }]) {
      expect(meterSetupWarnings(meter(['pro', 'other']), directoryOf(subscription('s1', 'active', [item])))).toEqual([]);
    }
    expect(meterSetupWarnings(meter([]), directoryOf(subscription('s1', 'trialing', [])))).toEqual([]);
  });

  it('names the ids when no billable subscription carries them, and what happens to the usage', () => {
    const directory = directoryOf(subscription('s1', 'active', [{ plan_id: 'basic' }]), subscription('s2', 'cancelled', [{ plan_id: 'pro' }]));
    const [company] = meterSetupWarnings(meter(['pro']), directory);
    expect(company).toEqual({
      code: 'no_matching_subscription',
      message: expect.stringContaining(
        'None of the app\'s 1 active or trialing subscriptions has an item whose plan_id, price_id or subscription_item_id is "pro"',
      ),
    });
    expect(company!.message).toMatch(/unattributed reports/);
    expect(meterSetupWarnings(meter(['pro'], true), directory)[0]!.message).toMatch(/nothing is queried or billed/);
  });

  it('says when the app has no billable subscription at all', () => {
    expect(meterSetupWarnings(meter(['pro']), directoryOf(subscription('s1', 'paused', [{ plan_id: 'pro' }])))).toEqual([
      { code: 'no_billable_subscription', message: expect.stringContaining('no active or trialing subscription') },
    ]);
    expect(meterSetupWarnings(meter([]), directoryOf())[0]!.code).toBe('no_billable_subscription');
  });

  it('names the billable subscriptions that have no items, which no meter bills', () => {
    const directory = directoryOf(subscription('s1', 'active', [{ plan_id: 'pro' }]), subscription('s2', 'active', []), subscription('s3', 'cancelled', []));
    expect(meterSetupWarnings(meter(['pro']), directory)).toEqual([
      {
        code: 'subscriptions_without_items',
        message: expect.stringContaining('1 active or trialing subscriptions have no items and no metadata.plan_id (s2)'),
      },
    ]);
  });
});

describe('subscriptionItems', () => {
  it('takes the items sent, else one item named by metadata.plan_id and metadata.price_id, else none', () => {
    expect(subscriptionItems({ items: [{ plan_id: 'pro' }], metadata: { plan_id: 'basic' } })).toEqual({
      items: [{ plan_id: 'pro', price_id: null, subscription_item_id: null }],
      fromMetadata: false,
    });
    expect(subscriptionItems({ items: [], metadata: { plan_id: 'starter' } })).toEqual({
      items: [{ plan_id: 'starter', price_id: null, subscription_item_id: null }],
      fromMetadata: true,
    });
    expect(subscriptionItems({ metadata: { price_id: 'price_1', plan_id: '' } }).items).toEqual([
      { plan_id: null, price_id: 'price_1', subscription_item_id: null },
    ]);
    expect(subscriptionItems({ metadata: { plan_id: 7 } })).toEqual({ items: [], fromMetadata: false });
    expect(subscriptionItems({})).toEqual({ items: [], fromMetadata: false });
  });
});
