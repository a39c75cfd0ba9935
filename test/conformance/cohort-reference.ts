import fc from 'fast-check';
import type { CohortEventCondition, CohortEventWindow } from '../../schemas/resources/cohort';
import { fixedWindow } from '../../functions/cohorts/event-windows';
import type { PlanSubscription } from '../../functions/cohorts/subscription-periods';
import { currentBillingPeriod, type BillingPeriod } from '../../values/billing-period';

/**
 * Behavioural cohorts by hand: random profiles, events and subscriptions, random conditions with
 * what they mean in plain code, and membership written out (docs/cohorts.md), for the conformance
 * tests of both backends. Windows come from fixedWindow and currentBillingPeriod, which have tests
 * of their own; everything a backend computes (matching, counting, summing, distinct values) is
 * done here by hand.
 */

export const DAY = 86_400_000;
/** Thursday 20 March 2025, 10:30 UTC: the membership's "now". */
export const NOW = Date.UTC(2025, 2, 20, 10, 30);

export const USERS = ['u1', 'u2', 'u3', 'u4', 'u5', 'u6'];
export const COMPANIES = ['c1', 'c2', 'c3'];
const VERBS = ['GET', 'POST', 'PUT'];
const PLANS = ['free', 'pro'];

export interface Call {
  readonly id: string;
  readonly user: string | undefined;
  readonly company: string | undefined;
  readonly verb: string;
  readonly status: number;
  /** Absent: weighs 1. */
  readonly weight: number | undefined;
  readonly at: number;
}

export interface World {
  readonly calls: readonly Call[];
  /** Profiles: user → its company and plan; company → its plan. */
  readonly users: ReadonlyMap<string, { company: string | undefined; plan: string }>;
  readonly companies: ReadonlyMap<string, { plan: string }>;
  readonly subscriptions: readonly PlanSubscription[];
}

// Half in the last three days (rolling windows of minutes and hours see some), half over four months.
const at = fc.oneof(fc.integer({ min: -3 * 24 * 60, max: 60 }), fc.integer({ min: -130 * 24 * 60, max: 24 * 60 })).map((minutes) => NOW + minutes * 60_000);

export const world: fc.Arbitrary<World> = fc
  .record({
    calls: fc.array(
      fc.record({
        user: fc.option(fc.constantFrom(...USERS), { freq: 6 }),
        verb: fc.constantFrom(...VERBS),
        status: fc.constantFrom(200, 404, 500),
        weight: fc.option(fc.integer({ min: 0, max: 5 }), { freq: 2 }),
        at,
      }),
      { minLength: 20, maxLength: 200 },
    ),
    userCompanies: fc.array(fc.option(fc.constantFrom(...COMPANIES), { freq: 5 }), { minLength: USERS.length, maxLength: USERS.length }),
    userPlans: fc.array(fc.constantFrom(...PLANS), { minLength: USERS.length, maxLength: USERS.length }),
    companyPlans: fc.array(fc.constantFrom(...PLANS), { minLength: COMPANIES.length, maxLength: COMPANIES.length }),
    subscriptions: fc.array(
      fc.record({
        company: fc.constantFrom(...COMPANIES),
        status: fc.constantFrom('active', 'trialing', 'canceled'),
        startDaysAgo: fc.integer({ min: 0, max: 100 }),
        lengthDays: fc.constantFrom(7, 30),
      }),
      { maxLength: 4 },
    ),
  })
  .map(({ calls, userCompanies, userPlans, companyPlans, subscriptions }) => {
    const users = new Map(USERS.map((id, k) => [id, { company: userCompanies[k] ?? undefined, plan: userPlans[k]! }]));
    return {
      // An event of a user carries the user's company, as the SDKs send it.
      calls: calls.map((call, k) => ({
        id: `e${k}`,
        user: call.user ?? undefined,
        company: call.user ? users.get(call.user)!.company : undefined,
        verb: call.verb,
        status: call.status,
        weight: call.weight ?? undefined,
        at: call.at,
      })),
      users,
      companies: new Map(COMPANIES.map((id, k) => [id, { plan: companyPlans[k]! }])),
      subscriptions: subscriptions.map((s, k) => {
        const start = NOW - s.startDaysAgo * DAY;
        return {
          subscriptionId: `s${k}`,
          companyId: s.company,
          status: s.status,
          periodStart: new Date(start),
          periodEnd: new Date(start + s.lengthDays * DAY),
          items: [],
        };
      }),
    };
  });

/** A condition with its events query written out as a predicate. */
export interface ConditionSpec {
  readonly condition: CohortEventCondition;
  readonly matches: (call: Call) => boolean;
}

const queries: fc.Arbitrary<Pick<ConditionSpec, 'matches'> & { query?: Record<string, unknown> }> = fc.oneof(
  fc.constant({ matches: () => true }),
  fc.constantFrom(...VERBS).map((verb) => ({ query: { term: { 'request.verb': verb } }, matches: (call: Call) => call.verb === verb })),
  fc.constantFrom(400, 500).map((status) => ({ query: { range: { 'response.status': { gte: status } } }, matches: (call: Call) => call.status >= status })),
);

const windows: fc.Arbitrary<CohortEventWindow> = fc.oneof(
  fc.record({ last: fc.integer({ min: 1, max: 90 }), unit: fc.constantFrom('minutes' as const, 'hours' as const, 'days' as const) }),
  fc.record(
    {
      calendar: fc.constantFrom('day' as const, 'week' as const, 'month' as const, 'quarter' as const, 'year' as const),
      periods_ago: fc.integer({ min: 0, max: 2 }),
    },
    { requiredKeys: ['calendar'] },
  ),
  fc.constant({ billing_period: 'current' as const }),
);

export const condition: fc.Arbitrary<ConditionSpec> = fc
  .record({
    performed: fc.option(fc.boolean(), { nil: undefined }),
    query: queries,
    measure: fc.constantFrom(undefined, 'count' as const, 'sum_weight' as const, 'distinct' as const),
    operator: fc.constantFrom(undefined, 'gte' as const, 'gt' as const, 'lte' as const, 'lt' as const, 'eq' as const),
    value: fc.option(fc.integer({ min: 0, max: 3 }), { nil: undefined }),
    window: windows,
  })
  .map(({ query, measure, ...rest }) => ({
    condition: {
      ...Object.fromEntries(Object.entries(rest).filter(([, v]) => v !== undefined)),
      window: rest.window,
      ...(query.query ? { query: query.query } : {}),
      ...(measure ? { measure } : {}),
      ...(measure === 'distinct' ? { field: 'request.verb' } : {}),
    } as CohortEventCondition,
    matches: query.matches,
  }));

export interface CohortSpec {
  readonly type: 'user' | 'company';
  readonly plan: string | undefined;
  readonly match: 'all' | 'any' | undefined;
  readonly conditions: readonly ConditionSpec[];
  readonly timeZone: string;
  readonly weekStartsOn: number;
}

export const cohort: fc.Arbitrary<CohortSpec> = fc.record({
  type: fc.constantFrom('user' as const, 'company' as const),
  plan: fc.option(fc.constantFrom(...PLANS), { nil: undefined, freq: 2 }),
  match: fc.constantFrom(undefined, 'all' as const, 'any' as const),
  conditions: fc.array(condition, { minLength: 1, maxLength: 2 }),
  timeZone: fc.constantFrom('UTC', 'America/New_York', 'Asia/Kolkata'),
  weekStartsOn: fc.integer({ min: 0, max: 6 }),
});

/** The stored criteria of a cohort spec. */
export function criteriaOf(spec: CohortSpec): Record<string, unknown> {
  return {
    query: spec.plan ? { term: { 'metadata.plan': spec.plan } } : { match_all: {} },
    events: { ...(spec.match ? { match: spec.match } : {}), conditions: spec.conditions.map((c) => c.condition) },
  };
}

/** The members, by hand. */
export function expectedMembers(world: World, spec: CohortSpec): string[] {
  const profiles: [string, { plan: string; company?: string | undefined }][] = spec.type === 'user' ? [...world.users] : [...world.companies];
  const periods = new Map<string, BillingPeriod>();
  for (const s of world.subscriptions) {
    if (s.status !== 'active' && s.status !== 'trialing') continue;
    const period = currentBillingPeriod(s.periodStart, s.periodEnd, new Date(NOW));
    const held = periods.get(s.companyId);
    if (!held || period.start.getTime() > held.start.getTime()) periods.set(s.companyId, period);
  }
  const members: string[] = [];
  for (const [id, profile] of profiles) {
    if (spec.plan && profile.plan !== spec.plan) continue;
    const company = spec.type === 'company' ? id : profile.company;
    const outcomes = spec.conditions.map(({ condition, matches }) => {
      let window: { start: number; end: number } | undefined;
      if ('billing_period' in condition.window) {
        const period = company ? periods.get(company) : undefined;
        window = period ? { start: period.start.getTime(), end: Math.min(period.end.getTime(), NOW) } : undefined;
      } else {
        const fixed = fixedWindow(condition.window, { now: new Date(NOW), timeZone: spec.timeZone, weekStartsOn: spec.weekStartsOn });
        window = { start: fixed.start.getTime(), end: fixed.end.getTime() };
      }
      const calls = window
        ? world.calls.filter(
            (call) => (spec.type === 'user' ? call.user : call.company) === id && call.at >= window.start && call.at < window.end && matches(call),
          )
        : [];
      const measured =
        condition.measure === 'sum_weight'
          ? calls.reduce((sum, call) => sum + (call.weight ?? 1), 0)
          : condition.measure === 'distinct'
            ? new Set(calls.map((call) => call.verb)).size
            : calls.length;
      const value = condition.value ?? 1;
      const compared = { gte: measured >= value, gt: measured > value, lte: measured <= value, lt: measured < value, eq: measured === value }[
        condition.operator ?? 'gte'
      ];
      const performed = calls.length > 0 && compared;
      return performed === (condition.performed ?? true);
    });
    if (spec.match === 'any' ? outcomes.some(Boolean) : outcomes.every(Boolean)) members.push(id);
  }
  return members.sort();
}
