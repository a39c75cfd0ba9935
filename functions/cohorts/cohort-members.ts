import type { CohortEventCondition } from '../../schemas/resources/cohort';
import type { QueryNode } from '../../schemas/search-tree';
import type { BillingPeriod } from '../../values/billing-period';
import { MAX_TERMS_SIZE } from '../search/dsl/limits';
import type { SearchableIndex, SearchHit, TenantScope } from '../search/port';
import type { AppCalendar } from './app-calendar';
import { PROFILE_KIND, readStoredCriteria, type CohortCriteria } from './cohort-criteria';
import { fixedWindow, type EventWindow } from './event-windows';
import { measureMembers, type MemberMeasure } from './member-measures';
import { bothOf, forEachMember, MAX_MEMBERS_PER_RULE, profilePages, type SearchInput } from './profile-pages';
import { currentPeriodsByCompany, type SubscriptionFacts } from './subscription-periods';

/**
 * Who is in a cohort now: the one definition every use of a cohort reads (governance rules, dynamic
 * sampling, cohort notifications, email recipients, the management API's member lists).
 *
 * A member is a user or company profile matching the criteria's profile query and, when the
 * criteria hold `events`, meeting its behavioural conditions: profiles are taken in `_id` order,
 * 10,000 at a time, and each condition measures what those did in its window with one grouped
 * events search (member-measures.ts).
 */

/** A cohort as membership needs it (the stored document's fields). */
export interface CohortDefinition {
  readonly cohort_type: 'user' | 'company';
  /** The stored criteria (JSON text). */
  readonly criteria: string;
  readonly time_zone?: string | undefined;
  readonly week_starts_on?: number | undefined;
}

export interface CohortMemberInput extends SearchInput {
  /** Subscriptions, for conditions over a member's billing period; none: such a cohort cannot be computed. */
  readonly subscriptions?: SubscriptionFacts;
  /** The app's first day of the week (0 Sunday), where the cohort names none. */
  readonly weekStartsOn?: number;
}

/** What a job that computes cohorts is given (its composition root wires them). */
export interface CohortSources {
  readonly index: SearchableIndex;
  /** Subscriptions, for conditions over a member's billing period. */
  readonly subscriptions?: SubscriptionFacts;
  /** The app's time zone and first day of the week, for calendar windows (UTC, Sunday without it). */
  readonly calendar?: AppCalendar;
}

/** The input for computing an app's cohorts now, from a job's sources. */
export async function cohortMemberInput(sources: CohortSources, scope: TenantScope, now: Date, cap?: number): Promise<CohortMemberInput> {
  const calendar = await sources.calendar?.(scope);
  return {
    index: sources.index,
    scope,
    now,
    timeZone: calendar?.timeZone ?? 'UTC',
    weekStartsOn: calendar?.weekStartsOn ?? 0,
    ...(cap === undefined ? {} : { maxMembersPerRule: cap }),
    ...(sources.subscriptions ? { subscriptions: sources.subscriptions } : {}),
  };
}

/** Thrown when a cohort cannot be computed (unreadable criteria, no subscriptions where it needs them). */
export class CohortUnavailable extends Error {}

/**
 * Visits each member in `_id` order with the `includes` fields of its profile, up to the cap
 * ('cut' then). `narrow` further restricts the profiles (a rule's plan selection).
 */
export async function forEachCohortMember(
  input: CohortMemberInput,
  cohort: CohortDefinition,
  includes: readonly string[],
  visit: (id: string, source: Record<string, unknown>) => void,
  narrow?: QueryNode,
): Promise<'all' | 'cut'> {
  const criteria = readStoredCriteria(cohort.criteria, cohort.cohort_type);
  if (typeof criteria === 'string') throw new CohortUnavailable(criteria);
  const kind = PROFILE_KIND[cohort.cohort_type];
  const profiles = bothOf(criteria.profiles, narrow);
  if (!criteria.events) return forEachMember(input, kind, profiles, includes, visit);

  const judge = await conditionJudge(input, cohort, criteria);
  const reads = judge.needsCompany && !includes.includes('company_id') ? [...includes, 'company_id'] : includes;
  const cap = input.maxMembersPerRule ?? MAX_MEMBERS_PER_RULE;
  let seen = 0;
  let batch: SearchHit[] = [];
  const flush = async (): Promise<'all' | 'cut'> => {
    const passing = await judge.members(batch);
    batch = [];
    for (const hit of passing) {
      if (seen === cap) return 'cut';
      visit(hit._id, hit._source ?? {});
      seen++;
    }
    return 'all';
  };
  for await (const hits of profilePages(input, kind, profiles, reads)) {
    batch.push(...hits);
    if (batch.length >= MAX_TERMS_SIZE && (await flush()) === 'cut') return 'cut';
  }
  return batch.length > 0 ? flush() : 'all';
}

/** Decides, a batch of profiles at a time, which meet the cohort's conditions. */
async function conditionJudge(input: CohortMemberInput, cohort: CohortDefinition, criteria: CohortCriteria) {
  const events = criteria.events!;
  const settings = { now: input.now, timeZone: cohort.time_zone ?? input.timeZone, weekStartsOn: cohort.week_starts_on ?? input.weekStartsOn ?? 0 };
  const needsPeriods = events.conditions.some((condition) => 'billing_period' in condition.window);
  let periods: Map<string, BillingPeriod> | undefined;
  if (needsPeriods) {
    if (!input.subscriptions) throw new CohortUnavailable('billing-period conditions need the app’s subscriptions, which this run cannot read');
    periods = await currentPeriodsByCompany(input.subscriptions, input.scope, input.now);
  }
  const entity = cohort.cohort_type;
  const companyOf = (hit: SearchHit) => (entity === 'company' ? hit._id : String(hit._source?.['company_id'] ?? ''));

  /** The members of the batch who performed the condition as stated (its `performed` set aside). */
  const performers = async (condition: CohortEventCondition, batch: readonly SearchHit[]): Promise<Set<string>> => {
    const measure = condition.measure ?? 'count';
    const ask = (ids: readonly string[], window: EventWindow) =>
      measureMembers(input, {
        entity,
        ids,
        ...(condition.query ? { query: condition.query } : {}),
        measure,
        ...(condition.field ? { field: condition.field } : {}),
        window,
      });
    const measured = new Map<string, MemberMeasure>();
    if ('billing_period' in condition.window) {
      // One search per distinct period; a member without an active subscription has no period.
      const byPeriod = new Map<string, { period: BillingPeriod; ids: string[] }>();
      for (const hit of batch) {
        const period = periods!.get(companyOf(hit));
        if (!period) continue;
        const key = `${period.start.toISOString()}/${period.end.toISOString()}`;
        const entry = byPeriod.get(key) ?? { period, ids: [] };
        entry.ids.push(hit._id);
        byPeriod.set(key, entry);
      }
      for (const { period, ids } of byPeriod.values()) {
        const end = Math.min(period.end.getTime(), input.now.getTime());
        for (const [id, value] of await ask(ids, { start: period.start, end: new Date(end) })) measured.set(id, value);
      }
    } else {
      for (const [id, value] of await ask(
        batch.map((hit) => hit._id),
        fixedWindow(condition.window, settings),
      ))
        measured.set(id, value);
    }
    const passed = new Set<string>();
    for (const [id, { events: count, value }] of measured) if (count > 0 && compares(value, condition)) passed.add(id);
    return passed;
  };

  return {
    needsCompany: needsPeriods && entity === 'user',
    async members(batch: readonly SearchHit[]): Promise<SearchHit[]> {
      const outcomes: boolean[][] = batch.map(() => []);
      for (const condition of events.conditions) {
        const did = await performers(condition, batch);
        const wanted = condition.performed ?? true;
        batch.forEach((hit, k) => outcomes[k]!.push(did.has(hit._id) === wanted));
      }
      const any = events.match === 'any';
      return batch.filter((_, k) => (any ? outcomes[k]!.some(Boolean) : outcomes[k]!.every(Boolean)));
    },
  };
}

/** The measure against the condition's number (default: at least 1). */
function compares(measured: number, condition: CohortEventCondition): boolean {
  const value = condition.value ?? 1;
  switch (condition.operator ?? 'gte') {
    case 'gte':
      return measured >= value;
    case 'gt':
      return measured > value;
    case 'lte':
      return measured <= value;
    case 'lt':
      return measured < value;
    case 'eq':
      return measured === value;
  }
}
