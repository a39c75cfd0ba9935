import type { CohortEventCondition } from '../../schemas/resources/cohort';
import type { QueryNode } from '../../schemas/search-tree';
import type { BillingPeriod } from '../../values/billing-period';
import { meetsThreshold } from '../../values/threshold-comparison';
import { MAX_TERMS_SIZE } from '../search/dsl/limits';
import type { SearchableIndex, SearchHit, TenantScope } from '../search/port';
import type { AppCalendar } from './app-calendar';
import { PROFILE_KIND, readStoredCriteria, type CohortCriteria } from './cohort-criteria';
import { fixedWindow, type EventWindow } from './event-windows';
import { actorCondition, actorsMeeting, measureInOwnWindows, type MemberMeasure } from './member-measures';
import { PerformerCursor } from '../search/performer-cursor';
import { bothOf, forEachMember, memberCap, profilePages, visitUpTo, type SearchInput } from './profile-pages';
import { currentPeriodsByCompany, readOncePerRun, type SubscriptionFacts } from './subscription-periods';

/**
 * Who is in a cohort now: the one definition every use of a cohort reads (governance rules, dynamic
 * sampling, cohort notifications, email recipients, the management API's member lists).
 *
 * A member is a user or company profile matching the criteria's profile query and, when the
 * criteria hold `events`, meeting its behavioural conditions. When every condition has a fixed
 * window the engine answers the members whole (the port's membersMeeting: one statement on DuckDB;
 * on OpenSearch each condition's actors walked beside the profiles). With a condition over each
 * member's billing period, profiles are taken in `_id` order 10,000 at a time: fixed-window
 * conditions are walked the same way (actorsMeeting, the threshold applied in the engine), and a
 * batch's members are measured in their own windows (member-measures.ts).
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

/** A job's sources for one run: every cohort of an app shares one read of its subscriptions. */
export function sourcesForOneRun<T extends CohortSources>(sources: T): T {
  return sources.subscriptions ? { ...sources, subscriptions: readOncePerRun(sources.subscriptions) } : sources;
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
  const { conditions, match } = criteria.events;
  if (conditions.every(hasFixedWindow)) return visitUpTo(behavingMembers(input, cohort, conditions, match, profiles, includes), memberCap(input), visit);

  const judge = await conditionJudge(input, cohort, criteria);
  const reads = judge.needsCompany && !includes.includes('company_id') ? [...includes, 'company_id'] : includes;
  async function* passing(): AsyncGenerator<readonly SearchHit[]> {
    let batch: SearchHit[] = [];
    for await (const hits of profilePages(input, kind, profiles, reads)) {
      batch.push(...hits);
      if (batch.length >= MAX_TERMS_SIZE) {
        yield await judge.members(batch);
        batch = [];
      }
    }
    if (batch.length > 0) yield await judge.members(batch);
  }
  return visitUpTo(passing(), memberCap(input), visit);
}

type FixedWindowCondition = CohortEventCondition & { readonly window: Exclude<CohortEventCondition['window'], { billing_period: unknown }> };
const hasFixedWindow = (condition: CohortEventCondition): condition is FixedWindowCondition => !('billing_period' in condition.window);

/** Event windows resolve in the cohort's own time zone and week, else the app's. */
function windowSettings(input: CohortMemberInput, cohort: CohortDefinition) {
  return { now: input.now, timeZone: cohort.time_zone ?? input.timeZone, weekStartsOn: cohort.week_starts_on ?? input.weekStartsOn ?? 0 };
}

/**
 * Members when every condition has a fixed window: the engine answers them whole (membersMeeting:
 * DuckDB in one statement, OpenSearch walking each condition's actors beside the profiles), one past
 * the cap at most.
 */
function behavingMembers(
  input: CohortMemberInput,
  cohort: CohortDefinition,
  conditions: readonly FixedWindowCondition[],
  match: NonNullable<CohortCriteria['events']>['match'],
  profiles: QueryNode,
  includes: readonly string[],
): AsyncIterable<readonly SearchHit[]> {
  const settings = windowSettings(input, cohort);
  return input.index.membersMeeting(
    { scope: input.scope, kind: PROFILE_KIND[cohort.cohort_type], timeZone: input.timeZone, now: input.now },
    {
      profiles,
      conditions: conditions.map((condition) => {
        const window = fixedWindow(condition.window, settings);
        return {
          condition: actorCondition(input, cohort.cohort_type, condition),
          range: { from: window.start, to: window.end },
          performed: condition.performed ?? true,
        };
      }),
      match: match === 'any' ? 'any' : 'all',
      includes,
      limit: memberCap(input) + 1,
    },
  );
}

/** Decides, a batch of profiles at a time, which meet the cohort's conditions. */
async function conditionJudge(input: CohortMemberInput, cohort: CohortDefinition, criteria: CohortCriteria) {
  const events = criteria.events!;
  const settings = windowSettings(input, cohort);
  const needsPeriods = events.conditions.some((condition) => 'billing_period' in condition.window);
  let periods: Map<string, BillingPeriod> | undefined;
  if (needsPeriods) {
    if (!input.subscriptions) throw new CohortUnavailable('billing-period conditions need the app’s subscriptions, which this run cannot read');
    periods = await currentPeriodsByCompany(input.subscriptions, input.scope, input.now);
  }
  const entity = cohort.cohort_type;
  const companyOf = (hit: SearchHit) => (entity === 'company' ? hit._id : String(hit._source?.['company_id'] ?? ''));

  // A fixed window's performers, read once from the engine and walked as the batches come in _id order.
  const cursors = new Map<CohortEventCondition, PerformerCursor>();
  const cursorOf = (condition: CohortEventCondition, window: EventWindow): PerformerCursor => {
    let cursor = cursors.get(condition);
    if (!cursor) {
      cursor = new PerformerCursor(actorsMeeting(input, entity, condition, window));
      cursors.set(condition, cursor);
    }
    return cursor;
  };

  /** The members of the batch who performed the condition as stated (its `performed` set aside). */
  const performers = async (condition: CohortEventCondition, batch: readonly SearchHit[]): Promise<Set<string>> => {
    if (!('billing_period' in condition.window)) {
      const cursor = cursorOf(condition, fixedWindow(condition.window, settings));
      const did = new Set<string>();
      for (const hit of batch) if (await cursor.has(hit._id)) did.add(hit._id);
      return did;
    }
    const request = {
      entity,
      ...(condition.query ? { query: condition.query } : {}),
      measure: condition.measure ?? 'count',
      ...(condition.field ? { field: condition.field } : {}),
    };
    const performed = (measure: MemberMeasure | undefined) => measure !== undefined && measure.events > 0 && compares(measure.value, condition);
    // Each member's own period, up to now; a member without an active subscription has none.
    const windows = batch.flatMap((hit) => {
      const period = periods!.get(companyOf(hit));
      return period ? [{ id: hit._id, window: { start: period.start, end: new Date(Math.min(period.end.getTime(), input.now.getTime())) } }] : [];
    });
    const measured = await measureInOwnWindows(input, request, windows);
    return new Set(windows.filter(({ id, window }) => performed(measured(id, window))).map(({ id }) => id));
  };

  return {
    needsCompany: needsPeriods && entity === 'user',
    async members(batch: readonly SearchHit[]): Promise<SearchHit[]> {
      const meets: ((hit: SearchHit) => boolean)[] = [];
      for (const condition of events.conditions) {
        const did = await performers(condition, batch);
        const wanted = condition.performed ?? true;
        meets.push((hit) => did.has(hit._id) === wanted);
      }
      return batch.filter((hit) => (events.match === 'any' ? meets.some((meet) => meet(hit)) : meets.every((meet) => meet(hit))));
    },
  };
}

/** The measure against the condition's number (default: at least 1). */
function compares(measured: number, condition: CohortEventCondition): boolean {
  return meetsThreshold(measured, condition.operator ?? 'gte', condition.value ?? 1);
}
