import { createDuckDbSearchIndex } from '../../../functions/search/duckdb/duckdb-index';
import { profileDocument } from '../../../functions/search/index-documents';
import type { SearchableIndex, TenantScope } from '../../../functions/search/port';
import { computeMembership, computeSampleRates } from '../../../functions/governance/membership';
import { readStoredCriteria } from '../../../functions/cohorts/cohort-criteria';
import { StoredRule, type StoredCohort } from '../../../schemas/governance';

/** Cohort membership of rules, computed through the real (in-process) DuckDB search index. */

const TENANT: TenantScope = { org_id: 'org-1', app_id: 'app-1' };
const OTHER: TenantScope = { org_id: 'org-1', app_id: 'app-2' };
const NOW = new Date('2026-03-15T10:30:00.000Z');

let index: SearchableIndex;
beforeAll(async () => {
  index = await createDuckDbSearchIndex({ path: ':memory:' });
  const users = [
    { user_id: 'alice', metadata: { plan: 'free', email: 'alice@example.com', quota: 100 } },
    { user_id: 'bob', metadata: { plan: 'free', email: 'bob@example.com' } },
    { user_id: 'carol', metadata: { plan: 'paid', email: 'carol@example.com' } },
    ...Array.from({ length: 7 }, (_, i) => ({ user_id: `bulk-${i}`, metadata: { plan: 'bulk' } })),
  ];
  const outcome = await index.index([
    ...users.map((u) => profileDocument(TENANT, 'users', u.user_id, u, 1, '2026-03-01T00:00:00.000Z')),
    // Another app's free user must never appear in this app's membership.
    profileDocument(OTHER, 'users', 'mallory', { user_id: 'mallory', metadata: { plan: 'free' } }, 1, '2026-03-01T00:00:00.000Z'),
    profileDocument(TENANT, 'companies', 'acme', { company_id: 'acme', metadata: { tier: 'gold' } }, 1, '2026-03-01T00:00:00.000Z'),
    profileDocument(TENANT, 'companies', 'initech', { company_id: 'initech', metadata: { tier: 'bronze' } }, 1, '2026-03-01T00:00:00.000Z'),
  ]);
  expect(outcome.failures).toEqual([]);
});
afterAll(() => index.close());

const rule = (fields: Record<string, unknown>) => StoredRule.parse({ _id: 'r1', type: 'user', block: true, state: 1, ...fields });
const cohort = (cohort_type: StoredCohort['cohort_type'], query: unknown): StoredCohort => ({ cohort_type, criteria: JSON.stringify(query) });
const run = (rules: StoredRule[], cohorts: Record<string, StoredCohort>, options: { pageSize?: number; maxMembersPerRule?: number } = {}) =>
  computeMembership({ index, scope: TENANT, rules, cohorts: new Map(Object.entries(cohorts)), timeZone: 'UTC', now: NOW, ...options });

test('users matching a rule’s cohort get the rule with their variable values, in the SDKs’ shape', async () => {
  const result = await run(
    [
      rule({
        cohorts: [{ id: 'free' }],
        variables: [
          { name: '0', path: 'metadata.email' },
          { name: 'quota', path: 'user.metadata.quota' },
        ],
      }),
    ],
    { free: cohort('user', { query: { term: { 'metadata.plan.raw': 'free' } } }) },
  );
  expect(result.problems).toEqual([]);
  expect(result.assignments).toEqual({
    user_rules: {
      alice: [{ rules: 'r1', values: { '0': 'alice@example.com', quota: '100' } }],
      // A variable the profile lacks is left out: the SDK falls back to the template's default.
      bob: [{ rules: 'r1', values: { '0': 'bob@example.com' } }],
    },
    company_rules: {},
  });
});

test('a rule with several cohorts lists their union once per member; company rules key by company_id', async () => {
  const result = await run(
    [
      rule({ _id: 'r-users', cohorts: [{ id: 'free' }, { id: 'paid' }] }),
      rule({ _id: 'r-co', type: 'company', cohorts: [{ id: 'gold' }], variables: [{ name: 'tier', path: 'metadata.tier' }] }),
    ],
    {
      free: cohort('user', { term: { 'metadata.plan.raw': 'free' } }),
      paid: cohort('user', { term: { 'metadata.plan.raw': 'paid' } }),
      gold: cohort('company', { query: { term: { 'metadata.tier.raw': 'gold' } } }),
    },
  );
  expect(Object.keys(result.assignments.user_rules).sort()).toEqual(['alice', 'bob', 'carol']);
  expect(result.assignments.user_rules['carol']).toEqual([{ rules: 'r-users', values: {} }]);
  expect(result.assignments.company_rules).toEqual({ acme: [{ rules: 'r-co', values: { tier: 'gold' } }] });
});

test('membership pages through the index and stops at the cap, saying so', async () => {
  const bulk = { bulk: cohort('user', { term: { 'metadata.plan.raw': 'bulk' } }) };
  const all = await run([rule({ cohorts: [{ id: 'bulk' }] })], bulk, { pageSize: 3 });
  expect(Object.keys(all.assignments.user_rules).sort()).toEqual(Array.from({ length: 7 }, (_, i) => `bulk-${i}`));
  expect(all.problems).toEqual([]);

  const cut = await run([rule({ cohorts: [{ id: 'bulk' }] })], bulk, { pageSize: 3, maxMembersPerRule: 5 });
  expect(Object.keys(cut.assignments.user_rules)).toHaveLength(5);
  expect(cut.problems).toEqual([{ rule_id: 'r1', reason: 'more than 5 members; the rest are not listed' }]);
});

test('regex rules, rules without cohorts, missing, mistyped and unreadable cohorts add no members and are reported', async () => {
  const result = await run(
    [
      rule({ _id: 'regex', type: 'regex', cohorts: [{ id: 'free' }] }),
      rule({ _id: 'none' }),
      rule({ _id: 'broken', cohorts: [{ id: 'gone' }, { id: 'gold' }, { id: 'bad' }, { id: 'script' }] }),
    ],
    {
      free: cohort('user', { term: { 'metadata.plan.raw': 'free' } }),
      gold: cohort('company', { term: { 'metadata.tier.raw': 'gold' } }),
      bad: { cohort_type: 'user', criteria: '{not json' },
      script: cohort('user', { script: { source: 'true' } }),
    },
  );
  expect(result.assignments).toEqual({ user_rules: {}, company_rules: {} });
  expect(result.problems.map((p) => [p.cohort_id, p.reason.split(':')[0]])).toEqual([
    ['gone', 'cohort not found'],
    ['gold', 'a company cohort cannot select for a user rule'],
    ['bad', 'criteria is not JSON'],
    ['script', 'Invalid criteria'],
  ]);
});

test('member ids named like Object.prototype members are ordinary keys', async () => {
  const odd = await createDuckDbSearchIndex({ path: ':memory:' });
  try {
    const ids = ['constructor', '__proto__', 'toString'];
    await odd.index(ids.map((id) => profileDocument(TENANT, 'users', id, { user_id: id, metadata: { plan: 'odd' } }, 1, '2026-03-01T00:00:00.000Z')));
    const result = await computeMembership({
      index: odd,
      scope: TENANT,
      rules: [rule({ cohorts: [{ id: 'odd' }] })],
      cohorts: new Map([['odd', cohort('user', { query: { term: { 'metadata.plan.raw': 'odd' } } })]]),
      timeZone: 'UTC',
      now: NOW,
    });
    expect(result.problems).toEqual([]);
    expect(Object.keys(result.assignments.user_rules).sort()).toEqual([...ids].sort());
    for (const id of ids) expect(Object.getOwnPropertyDescriptor(result.assignments.user_rules, id)?.value).toEqual([{ rules: 'r1', values: {} }]);
    expect(JSON.parse(JSON.stringify(result.assignments.user_rules))).toHaveProperty(['__proto__']);
  } finally {
    await odd.close();
  }
});

test('criteria are read as a search body or as a bare query', () => {
  expect(readStoredCriteria(JSON.stringify({ query: { match_all: {} } }), 'user')).toEqual({ profiles: { type: 'match_all' } });
  expect(readStoredCriteria(JSON.stringify({ exists: { field: 'metadata.email' } }), 'user')).toEqual({
    profiles: { type: 'exists', field: 'metadata.email' },
  });
});

describe('cohort sample rates (dynamic sampling)', () => {
  const sampled = (cohort_type: StoredCohort['cohort_type'], query: unknown, sample_rate: number | undefined, priority?: number): StoredCohort => ({
    cohort_type,
    criteria: JSON.stringify(query),
    ...(sample_rate === undefined ? {} : { sample_rate }),
    ...(priority === undefined ? {} : { priority }),
  });
  const rates = (cohorts: Record<string, StoredCohort>, options: { pageSize?: number; maxMembersPerRule?: number } = {}) =>
    computeSampleRates({ index, scope: TENANT, cohorts: new Map(Object.entries(cohorts)), timeZone: 'UTC', now: NOW, ...options });

  test('members of a user cohort get its rate in user_sample_rate, of a company cohort in company_sample_rate; other apps never', async () => {
    const result = await rates({
      free: sampled('user', { term: { 'metadata.plan.raw': 'free' } }, 10),
      gold: sampled('company', { query: { term: { 'metadata.tier.raw': 'gold' } } }, 0),
    });
    expect(result).toEqual({ rates: { user_sample_rate: { alice: 10, bob: 10 }, company_sample_rate: { acme: 0 } }, problems: [] });
  });

  test('an id in several cohorts gets the rate of the largest priority; without priorities, or on a tie, the lowest rate', async () => {
    const freeOrPaid = { terms: { 'metadata.plan.raw': ['free', 'paid'] } };
    const free = { term: { 'metadata.plan.raw': 'free' } };
    // No priorities: the lowest rate wins, whichever cohort it is.
    expect((await rates({ a: sampled('user', freeOrPaid, 50), b: sampled('user', free, 20) })).rates.user_sample_rate).toEqual({
      alice: 20,
      bob: 20,
      carol: 50,
    });
    // The larger priority wins even with a higher rate; a cohort without priority ranks below.
    expect(
      (await rates({ a: sampled('user', freeOrPaid, 50, 5), b: sampled('user', free, 20, 1), c: sampled('user', free, 1) })).rates.user_sample_rate,
    ).toEqual({ alice: 50, bob: 50, carol: 50 });
    // Equal priorities: the lowest rate.
    expect((await rates({ a: sampled('user', freeOrPaid, 50, 3), b: sampled('user', free, 20, 3) })).rates.user_sample_rate).toEqual({
      alice: 20,
      bob: 20,
      carol: 50,
    });
  });

  test('a cohort whose search fails is reported and adds no rates; the other cohorts still count', async () => {
    // The search refuses the paid cohort's query on its second page (after members were seen).
    let paidPages = 0;
    const flaky: SearchableIndex = Object.create(index, {
      search: {
        value: async (...args: Parameters<SearchableIndex['search']>) => {
          if (JSON.stringify(args[1]).includes('paid') && (paidPages += 1) > 1) throw new Error('search backend unavailable');
          return index.search(...args);
        },
      },
    });
    const result = await computeSampleRates({
      index: flaky,
      scope: TENANT,
      timeZone: 'UTC',
      now: NOW,
      pageSize: 1,
      cohorts: new Map(
        Object.entries({
          paid: sampled('user', { terms: { 'metadata.plan.raw': ['paid', 'free'] } }, 5, 9),
          free: sampled('user', { term: { 'metadata.plan.raw': 'free' } }, 40),
        }),
      ),
    });
    expect(result.rates.user_sample_rate).toEqual({ alice: 40, bob: 40 });
    expect(result.problems).toEqual([{ cohort_id: 'paid', reason: 'its members could not be searched: search backend unavailable' }]);
  });

  test('cohorts without a rate add nothing; unreadable criteria and out-of-range rates are reported; the cap is reported', async () => {
    const result = await rates({
      plain: sampled('user', { match_all: {} }, undefined),
      broken: { cohort_type: 'user', criteria: '{not json', sample_rate: 5 },
      odd: sampled('user', { match_all: {} }, 150),
    });
    expect(result.rates).toEqual({ user_sample_rate: {}, company_sample_rate: {} });
    expect(result.problems.map((p) => p.cohort_id).sort()).toEqual(['broken', 'odd']);

    const cut = await rates({ bulk: sampled('user', { term: { 'metadata.plan.raw': 'bulk' } }, 30) }, { pageSize: 3, maxMembersPerRule: 5 });
    expect(Object.values(cut.rates.user_sample_rate)).toEqual([30, 30, 30, 30, 30]);
    expect(cut.problems).toEqual([{ cohort_id: 'bulk', reason: "more than 5 members; the rest keep the app's sample rate" }]);
  });
});
