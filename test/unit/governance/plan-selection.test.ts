import { createDuckDbSearchIndex } from '../../../functions/search/duckdb/duckdb-index';
import { eventDocument, profileDocument } from '../../../functions/search/index-documents';
import type { SearchableIndex, TenantScope } from '../../../functions/search/port';
import { computeMembership } from '../../../functions/governance/membership';
import type { PlanSubscription } from '../../../functions/cohorts/subscription-periods';
import { selectByPlans, type BillingFacts } from '../../../functions/governance/plan-selection';
import { StoredRule } from '../../../schemas/governance';
import type { SpendCapStanding } from '../../../schemas/resources/spend-cap';

/** Which companies rules with plans select: quotas counted in the real (in-process) DuckDB index, balances and subscriptions as billing reports them. */

const TENANT: TenantScope = { org_id: 'org-1', app_id: 'app-1' };
const NOW = new Date('2027-03-15T12:00:00.000Z');
const PERIOD_START = new Date('2027-03-01T00:00:00.000Z');
const PERIOD_END = new Date('2027-04-01T00:00:00.000Z');

let index: SearchableIndex;
let sequence = 0;
const call = (companyId: string, time: string, extra: Record<string, unknown> = {}) =>
  eventDocument(TENANT, 'event', {
    id: `e${++sequence}`,
    time,
    received_at: time,
    data: { request: { time, uri: extra['uri'] ?? '/v1/widgets', verb: 'GET' }, response: { time, status: 200 }, company_id: companyId, ...extra },
  });

beforeAll(async () => {
  index = await createDuckDbSearchIndex({ path: ':memory:' });
  const outcome = await index.index([
    // busy: 3 calls this period (one of them to /v1/search, weight 10), 2 in the period before, and
    // 2 this period that a rule blocked (logged with blocked_by), which use no quota.
    call('busy', '2027-03-02T00:00:00.000Z'),
    call('busy', '2027-03-12T00:00:00.000Z', { blocked_by: 'r1' }),
    call('busy', '2027-03-13T00:00:00.000Z', { blocked_by: 'r1', weight: 10 }),
    call('busy', '2027-03-10T00:00:00.000Z'),
    call('busy', '2027-03-14T00:00:00.000Z', { uri: '/v1/search', weight: 10 }),
    call('busy', '2027-02-20T00:00:00.000Z'),
    call('busy', '2027-02-21T00:00:00.000Z'),
    call('quiet', '2027-03-03T00:00:00.000Z'),
    profileDocument(TENANT, 'users', 'u-busy', { user_id: 'u-busy', company_id: 'busy' }, 1, '2027-03-01T00:00:00.000Z'),
    profileDocument(TENANT, 'users', 'u-quiet', { user_id: 'u-quiet', company_id: 'quiet' }, 1, '2027-03-01T00:00:00.000Z'),
    profileDocument(TENANT, 'companies', 'busy', { company_id: 'busy', metadata: { tier: 'gold' } }, 1, '2027-03-01T00:00:00.000Z'),
  ]);
  expect(outcome.failures).toEqual([]);
});
afterAll(() => index.close());

const subscription = (subscriptionId: string, companyId: string, planId: string, fields: Partial<PlanSubscription> = {}): PlanSubscription => ({
  subscriptionId,
  companyId,
  status: 'active',
  periodStart: PERIOD_START,
  periodEnd: PERIOD_END,
  items: [{ plan_id: planId, price_id: `${planId}-monthly` }],
  ...fields,
});
const facts = (
  subscriptions: PlanSubscription[],
  balances: Record<string, string> = {},
  catalog: Record<string, number> = {},
  caps: SpendCapStanding[] = [],
): BillingFacts => ({
  subscriptions: async () => subscriptions,
  availableBalance: async (_scope, id) => balances[id],
  planQuota: async (_scope, _provider, planId) => catalog[planId],
  spendCaps: async () => caps,
});
const rule = (fields: Record<string, unknown>) =>
  StoredRule.parse({ _id: 'r1', type: 'company', block: true, state: 1, plans: [{ provider: 'webhook', plan_id: 'starter', price_ids: [] }], ...fields });
const select = async (rules: StoredRule[], billing: BillingFacts, now = NOW) => {
  const result = await selectByPlans({ index, scope: TENANT, timeZone: 'UTC', now, facts: billing }, rules);
  return { problems: result.problems, selected: Object.fromEntries([...(result.selections.get('r1') ?? new Map())]) };
};

describe('quota rules', () => {
  const starters = [subscription('s-busy', 'busy', 'starter'), subscription('s-quiet', 'quiet', 'starter')];

  it('select companies whose usage this period reached the limit, with the limit, usage and reset time', async () => {
    const { selected, problems } = await select([rule({ model: 'quota', quota: { limit: 3 } })], facts(starters));
    expect(problems).toEqual([]);
    expect(selected).toEqual({
      busy: {
        subscription_id: 's-busy',
        plan_id: 'starter',
        quota_limit: '3',
        quota_used: '3',
        quota_period_start: '2027-03-01T00:00:00.000Z',
        quota_reset: '2027-04-01T00:00:00.000Z',
        quota_reset_http: 'Thu, 01 Apr 2027 00:00:00 GMT',
      },
    });
    expect((await select([rule({ model: 'quota', quota: { limit: 4 } })], facts(starters))).selected).toEqual({});
  });

  it('count the weight, or only the events of their query, and take the limit from the catalog when the rule has none', async () => {
    expect(Object.keys((await select([rule({ model: 'quota', quota: { limit: 12, metric: 'weight' } })], facts(starters))).selected)).toEqual(['busy']);
    expect((await select([rule({ model: 'quota', quota: { limit: 13, metric: 'weight' } })], facts(starters))).selected).toEqual({});
    const searches = { limit: 1, query: { term: { 'request.route.raw': '/v1/search' } } };
    expect(Object.keys((await select([rule({ model: 'quota', quota: searches })], facts(starters))).selected)).toEqual(['busy']);
    expect(Object.keys((await select([rule({ model: 'quota' })], facts(starters, {}, { starter: 1 }))).selected).sort()).toEqual(['busy', 'quiet']);
    const missing = await select([rule({ model: 'quota' })], facts(starters));
    expect(missing.selected).toEqual({});
    expect(missing.problems).toEqual([{ rule_id: 'r1', reason: expect.stringContaining('no quota') }]);
  });

  it('lift at rollover: a period that ended counts again from zero in the next one', async () => {
    const ended = [subscription('s-busy', 'busy', 'starter', { periodStart: new Date('2027-02-01T00:00:00.000Z'), periodEnd: PERIOD_START })];
    // Without rolling, February's 2 calls would count; in March's period busy has 3.
    expect((await select([rule({ model: 'quota', quota: { limit: 3 } })], facts(ended))).selected['busy']?.['quota_period_start']).toBe(
      '2027-03-01T00:00:00.000Z',
    );
    expect((await select([rule({ model: 'quota', quota: { limit: 3 } })], facts(ended), new Date('2027-04-02T00:00:00.000Z'))).selected).toEqual({});
  });

  it('block a company with several subscriptions on the plans only when each is over its quota, and skip inactive or other plans', async () => {
    const two = [subscription('s-busy', 'busy', 'starter'), subscription('s-busy-2', 'busy', 'starter', { periodStart: new Date('2027-03-12T00:00:00.000Z') })];
    expect((await select([rule({ model: 'quota', quota: { limit: 2 } })], facts(two))).selected).toEqual({});
    const others = [subscription('s-busy', 'busy', 'pro'), subscription('s-quiet', 'quiet', 'starter', { status: 'cancelled' })];
    expect((await select([rule({ model: 'quota', quota: { limit: 1 } })], facts(others))).selected).toEqual({});
    const pricey = rule({ model: 'quota', quota: { limit: 1 }, plans: [{ provider: 'webhook', plan_id: 'starter', price_ids: ['starter-yearly'] }] });
    expect((await select([pricey], facts(starters))).selected).toEqual({});
  });
});

it('balance rules select companies whose prepaid balances on the plans are all used up; no balance is not prepaid', async () => {
  const subs = [subscription('s-busy', 'busy', 'starter'), subscription('s-quiet', 'quiet', 'starter'), subscription('s-none', 'none', 'starter')];
  const { selected } = await select([rule({ model: 'balance' })], facts(subs, { 's-busy': '0', 's-quiet': '0.01' }));
  expect(selected).toEqual({ busy: { subscription_id: 's-busy', plan_id: 'starter', balance: '0' } });
  expect(Object.keys((await select([rule({ model: 'balance' })], facts(subs, { 's-busy': '-2.50', 's-quiet': '-0.01' }))).selected).sort()).toEqual([
    'busy',
    'quiet',
  ]);
});

it('subscription rules select companies with subscriptions on the plans none of which is active', async () => {
  const subs = [
    subscription('s-busy', 'busy', 'starter', { status: 'cancelled' }),
    subscription('s-quiet', 'quiet', 'starter', { status: 'paused' }),
    subscription('s-quiet-2', 'quiet', 'starter', { status: 'trialing' }),
  ];
  expect((await select([rule({ model: 'subscription' })], facts(subs))).selected).toEqual({
    busy: { subscription_id: 's-busy', subscription_status: 'cancelled', plan_id: 'starter' },
  });
});

it('spend_cap rules select companies whose bill reached the hard cap they set, on any plan or only on the rule’s plans', async () => {
  const cap = (companyId: string, spent: string, fields: Partial<SpendCapStanding> = {}): SpendCapStanding => ({
    company_id: companyId,
    budget: '100',
    currency: 'USD',
    hard_cap: true,
    updated_at: NOW.toISOString(),
    spent,
    used_percent: Number(spent),
    period_end: PERIOD_END.toISOString(),
    warning: false,
    capped: Number(spent) >= 100,
    ...fields,
  });
  const caps = [cap('busy', '100'), cap('quiet', '99.99'), cap('soft', '250', { hard_cap: false, capped: false }), cap('other', '120')];
  const subs = [subscription('s-busy', 'busy', 'starter'), subscription('s-other', 'other', 'enterprise')];
  const reached = { spend_cap_budget: '100', spend_cap_currency: 'USD', spend_cap_reset: PERIOD_END.toISOString() };
  const anyPlan = await select([rule({ model: 'spend_cap', plans: [] })], facts(subs, {}, {}, caps));
  expect(anyPlan).toEqual({
    problems: [],
    selected: { busy: { ...reached, spend_cap_spent: '100' }, other: { ...reached, spend_cap_spent: '120' } },
  });
  expect((await select([rule({ model: 'spend_cap' })], facts(subs, {}, {}, caps))).selected).toEqual({ busy: { ...reached, spend_cap_spent: '100' } });
  // Two spend_cap rules, one reading of the caps (each reading computes every capped customer's bill).
  let readings = 0;
  const counted = {
    ...facts(subs, {}, {}, caps),
    spendCaps: async () => {
      readings += 1;
      return caps;
    },
  };
  await selectByPlans({ index, scope: TENANT, timeZone: 'UTC', now: NOW, facts: counted }, [
    rule({ model: 'spend_cap' }),
    rule({ _id: 'r2', model: 'spend_cap' }),
  ]);
  expect(readings).toBe(1);
});

it('a rule’s members: the selected companies, their users for a user rule, narrowed to its cohorts’ members', async () => {
  const subs = [subscription('s-busy', 'busy', 'starter'), subscription('s-quiet', 'quiet', 'starter')];
  const planned = rule({ model: 'cohort' });
  const { selections } = await selectByPlans({ index, scope: TENANT, timeZone: 'UTC', now: NOW, facts: facts(subs) }, [planned]);
  const membership = (rules: StoredRule[], cohorts: Record<string, { cohort_type: 'user' | 'company'; criteria: string }> = {}) =>
    computeMembership({ index, scope: TENANT, rules, cohorts: new Map(Object.entries(cohorts)), timeZone: 'UTC', now: NOW, selections });
  // No profile is needed for a company rule: quiet has none.
  expect((await membership([planned])).assignments.company_rules).toEqual({
    busy: [{ rules: 'r1', values: { subscription_id: 's-busy', plan_id: 'starter' } }],
    quiet: [{ rules: 'r1', values: { subscription_id: 's-quiet', plan_id: 'starter' } }],
  });
  const gold = { cohort_type: 'company' as const, criteria: JSON.stringify({ term: { 'metadata.tier.raw': 'gold' } }) };
  const narrowed = rule({ cohorts: [{ id: 'gold' }], variables: [{ name: 'tier', path: 'metadata.tier' }] });
  expect((await membership([narrowed], { gold })).assignments.company_rules).toEqual({
    busy: [{ rules: 'r1', values: { tier: 'gold', subscription_id: 's-busy', plan_id: 'starter' } }],
  });
  const users = StoredRule.parse({ ...planned, type: 'user' });
  expect((await membership([users])).assignments.user_rules).toEqual({
    'u-busy': [{ rules: 'r1', values: { subscription_id: 's-busy', plan_id: 'starter' } }],
    'u-quiet': [{ rules: 'r1', values: { subscription_id: 's-quiet', plan_id: 'starter' } }],
  });
});
