import type { RuleAssignment, RuleAssignments, StoredCohort, StoredRule } from '../../schemas/governance';
import { MAX_SIZE, parseQuery } from '../search/dsl';
import type { QueryNode, SortValue } from '../../schemas/search-tree';
import type { IndexKind, SearchableIndex, TenantScope } from '../search/port';
import type { PlanSelection } from './plan-selection';

/**
 * Cohort membership of user and company rules: for each enabled rule with cohorts, every profile
 * matching any of its cohorts' criteria (searched page by page in the profile index), with the
 * values of the rule's variables read from the profile at each variable's path. And the members of
 * cohorts with a `sample_rate` (dynamic sampling), with the rate each gets.
 */

/** Members listed per rule; past this the rule's membership is cut and the refresh says so. */
export const MAX_MEMBERS_PER_RULE = 100_000;

const KIND_OF_RULE: Record<string, { kind: IndexKind; cohortType: StoredCohort['cohort_type'] } | undefined> = {
  user: { kind: 'users', cohortType: 'user' },
  company: { kind: 'companies', cohortType: 'company' },
};

/** Problems of a rule's membership name the rule; problems of a sampled cohort name only the cohort. */
export interface MembershipProblem {
  readonly rule_id?: string;
  readonly cohort_id?: string;
  readonly reason: string;
}

export interface MembershipResult {
  readonly assignments: Pick<RuleAssignments, 'user_rules' | 'company_rules'>;
  readonly problems: MembershipProblem[];
}

export interface MembershipInput {
  readonly index: SearchableIndex;
  readonly scope: TenantScope;
  readonly rules: readonly StoredRule[];
  readonly cohorts: ReadonlyMap<string, StoredCohort>;
  /** The app's time zone: date math in cohort criteria (`now-30d/d`) resolves in it. */
  readonly timeZone: string;
  readonly now: Date;
  readonly pageSize?: number;
  readonly maxMembersPerRule?: number;
  /**
   * Rules that select by plans or a billing model (plan-selection.ts): the companies each selects,
   * with their values. Such a rule hits those companies (or their users), narrowed to its cohorts' members.
   */
  readonly selections?: ReadonlyMap<string, PlanSelection>;
}

export async function computeMembership(input: MembershipInput): Promise<MembershipResult> {
  // Maps, not objects: a member id such as `constructor` or `__proto__` must not meet Object.prototype.
  const byKind = { users: new Map<string, RuleAssignment[]>(), companies: new Map<string, RuleAssignment[]>() };
  const problems: MembershipProblem[] = [];
  for (const rule of input.rules) {
    const target = KIND_OF_RULE[rule.type];
    const selection = input.selections?.get(rule._id);
    if (!target || (rule.cohorts.length === 0 && !selection)) continue;
    const queries: QueryNode[] = [];
    for (const { id } of rule.cohorts) {
      const cohort = input.cohorts.get(id);
      if (!cohort) {
        problems.push({ rule_id: rule._id, cohort_id: id, reason: 'cohort not found' });
      } else if (cohort.cohort_type !== target.cohortType) {
        problems.push({ rule_id: rule._id, cohort_id: id, reason: `a ${cohort.cohort_type} cohort cannot select for a ${rule.type} rule` });
      } else {
        const query = criteriaQuery(cohort.criteria);
        if (typeof query === 'string') problems.push({ rule_id: rule._id, cohort_id: id, reason: query });
        else queries.push(query);
      }
    }
    if (rule.cohorts.length > 0 && queries.length === 0) continue;
    const byEntity = target.kind === 'users' ? byKind.users : byKind.companies;
    const assign = (entityId: string, values: Record<string, string>) => {
      const assignment: RuleAssignment = { rules: rule._id, values };
      const list = byEntity.get(entityId);
      if (list) list.push(assignment);
      else byEntity.set(entityId, [assignment]);
    };
    const includes = rule.variables.map((variable) => sourcePath(variable.path, target.cohortType));
    const listed = selection
      ? await forEachSelected(input, rule, target.cohortType, selection, queries.length > 0 ? anyOf(queries) : undefined, includes, assign)
      : await forEachMember(input, target.kind, anyOf(queries), includes, (entityId, source) =>
          assign(entityId, variableValues(rule, source, target.cohortType)),
        );
    if (listed === 'cut')
      problems.push({ rule_id: rule._id, reason: `more than ${input.maxMembersPerRule ?? MAX_MEMBERS_PER_RULE} members; the rest are not listed` });
  }
  // fromEntries defines own properties, so even `__proto__` is an ordinary key of the result.
  return { assignments: { user_rules: Object.fromEntries(byKind.users), company_rules: Object.fromEntries(byKind.companies) }, problems };
}

/** Companies per `terms` filter when narrowing a search to a plan selection. */
const SELECTED_PER_SEARCH = 10_000;

/**
 * The members of a rule that selects by plans: the selected companies (all of them for a company rule
 * without cohorts, profile or not), else the companies' profiles or their users' matching `cohorts`.
 * Each gets the rule's profile variables and the selection's values (which win on a shared name).
 */
async function forEachSelected(
  input: SearchInput,
  rule: StoredRule,
  entity: 'user' | 'company',
  selection: PlanSelection,
  cohorts: QueryNode | undefined,
  includes: string[],
  assign: (entityId: string, values: Record<string, string>) => void,
): Promise<'all' | 'cut'> {
  const companies = [...selection.keys()];
  if (entity === 'company' && !cohorts) {
    // Variables are read from the profiles that exist; a company with usage but no profile is still hit.
    const fromProfiles = new Map<string, Record<string, string>>();
    for (let i = 0; includes.length > 0 && i < companies.length; i += SELECTED_PER_SEARCH) {
      const chunk = parseQuery({ terms: { company_id: companies.slice(i, i + SELECTED_PER_SEARCH) } });
      await forEachMember(input, 'companies', chunk, includes, (id, source) => fromProfiles.set(id, variableValues(rule, source, entity)));
    }
    const cap = input.maxMembersPerRule ?? MAX_MEMBERS_PER_RULE;
    for (const companyId of companies.slice(0, cap)) assign(companyId, { ...fromProfiles.get(companyId), ...selection.get(companyId) });
    return companies.length > cap ? 'cut' : 'all';
  }
  const reads = entity === 'user' ? [...includes, 'company_id'] : includes;
  let listed: 'all' | 'cut' = 'all';
  for (let i = 0; listed === 'all' && i < companies.length; i += SELECTED_PER_SEARCH) {
    const inSelection = parseQuery({ terms: { company_id: companies.slice(i, i + SELECTED_PER_SEARCH) } });
    const query: QueryNode = cohorts ? { type: 'bool', must: [], filter: [cohorts, inSelection], should: [], must_not: [] } : inSelection;
    listed = await forEachMember(input, entity === 'user' ? 'users' : 'companies', query, reads, (id, source) => {
      const companyId = entity === 'user' ? String(source['company_id'] ?? '') : id;
      assign(id, { ...variableValues(rule, source, entity), ...selection.get(companyId) });
    });
  }
  return listed;
}

export interface SampleRateInput extends SearchInput {
  /** The app's cohorts that have a `sample_rate`, by id. */
  readonly cohorts: ReadonlyMap<string, StoredCohort>;
}

export interface SampleRateResult {
  readonly rates: Pick<RuleAssignments, 'user_sample_rate' | 'company_sample_rate'>;
  readonly problems: MembershipProblem[];
}

/**
 * Dynamic sampling: every member of a cohort with a `sample_rate` gets that rate (user cohorts in
 * user_sample_rate, company cohorts in company_sample_rate). A member of several sampled cohorts of
 * one type gets the rate of the cohort with the largest `priority` (a cohort without one ranks below
 * every cohort with one); on a tie the lowest rate wins, so overlapping cohorts never send more than
 * one of them asked for. Members per cohort are capped like a rule's.
 */
export async function computeSampleRates(input: SampleRateInput): Promise<SampleRateResult> {
  // Maps, not objects: a member id such as `constructor` must not meet Object.prototype.
  const byType = { user: new Map<string, number>(), company: new Map<string, number>() };
  const problems: MembershipProblem[] = [];
  // Visiting cohorts winner-first lets the first rate set for an id stand.
  const ordered = [...input.cohorts]
    .flatMap(([id, cohort]) => (cohort.sample_rate === undefined ? [] : [{ id, cohort, rate: cohort.sample_rate }]))
    .sort(winnerFirst);
  for (const { id, cohort, rate } of ordered) {
    if (!Number.isInteger(rate) || rate < 0 || rate > 100) {
      problems.push({ cohort_id: id, reason: `sample_rate ${rate} is not an integer from 0 to 100` });
      continue;
    }
    const query = criteriaQuery(cohort.criteria);
    if (typeof query === 'string') {
      problems.push({ cohort_id: id, reason: query });
      continue;
    }
    const byEntity = byType[cohort.cohort_type];
    // Members are applied once the cohort's search has finished: a cohort whose search fails is
    // reported and leaves no partial rates, and the other cohorts (and the rules) are still refreshed.
    const members: string[] = [];
    let listed: Awaited<ReturnType<typeof forEachMember>>;
    try {
      listed = await forEachMember(input, cohort.cohort_type === 'user' ? 'users' : 'companies', query, [], (entityId) => {
        members.push(entityId);
      });
    } catch (error) {
      problems.push({ cohort_id: id, reason: `its members could not be searched: ${error instanceof Error ? error.message : String(error)}` });
      continue;
    }
    for (const entityId of members) if (!byEntity.has(entityId)) byEntity.set(entityId, rate);
    if (listed === 'cut')
      problems.push({ cohort_id: id, reason: `more than ${input.maxMembersPerRule ?? MAX_MEMBERS_PER_RULE} members; the rest keep the app's sample rate` });
  }
  return { rates: { user_sample_rate: Object.fromEntries(byType.user), company_sample_rate: Object.fromEntries(byType.company) }, problems };
}

/** Larger priority first (none last), then lower rate, then id: the same order on every run. */
function winnerFirst(a: { id: string; cohort: StoredCohort; rate: number }, b: { id: string; cohort: StoredCohort; rate: number }): number {
  const priorityA = a.cohort.priority ?? -Infinity;
  const priorityB = b.cohort.priority ?? -Infinity;
  if (priorityA !== priorityB) return priorityA > priorityB ? -1 : 1;
  if (a.rate !== b.rate) return a.rate - b.rate;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/**
 * A cohort's stored criteria (a JSON string) as a query: either a search body (`{"query": …}`) or a
 * bare query. A message instead when it cannot be read (the cohort then selects nobody).
 */
export function criteriaQuery(criteria: string): QueryNode | string {
  let body: unknown;
  try {
    body = JSON.parse(criteria);
  } catch {
    return 'criteria is not JSON';
  }
  const hasQueryMember = typeof body === 'object' && body !== null && !Array.isArray(body) && 'query' in body;
  try {
    return parseQuery(hasQueryMember ? (body as { query: unknown }).query : body);
  } catch (error) {
    return `criteria: ${error instanceof Error ? error.message : String(error)}`;
  }
}

function anyOf(queries: QueryNode[]): QueryNode {
  return queries.length === 1 ? queries[0]! : { type: 'bool', must: [], filter: [], should: queries, must_not: [], minimum_should_match: 1 };
}

export type SearchInput = Pick<MembershipInput, 'index' | 'scope' | 'timeZone' | 'now' | 'pageSize' | 'maxMembersPerRule'>;

/** Pages through every matching profile in `_id` order, reading only `includes`; 'cut' when the cap stopped it. */
export async function forEachMember(
  input: SearchInput,
  kind: IndexKind,
  query: QueryNode,
  includes: string[],
  visit: (id: string, source: Record<string, unknown>) => void,
): Promise<'all' | 'cut'> {
  const pageSize = Math.min(input.pageSize ?? MAX_SIZE, MAX_SIZE);
  const cap = input.maxMembersPerRule ?? MAX_MEMBERS_PER_RULE;
  let searchAfter: SortValue[] | undefined;
  let seen = 0;
  for (;;) {
    const response = await input.index.search(
      { scope: input.scope, kind, timeZone: input.timeZone, now: input.now },
      {
        query,
        size: pageSize,
        from: 0,
        sort: [{ field: '_id', order: 'asc', missing: '_last' }],
        ...(searchAfter ? { search_after: searchAfter } : {}),
        // Only the variables' fields are needed; no variables, no source at all.
        _source: includes.length > 0 ? { includes, excludes: [] } : false,
        track_total_hits: false,
        aggs: {},
      },
    );
    for (const hit of response.hits.hits) {
      if (seen === cap) return 'cut';
      visit(hit._id, hit._source ?? {});
      seen++;
    }
    const last = response.hits.hits.at(-1);
    if (response.hits.hits.length < pageSize || !last?.sort) return 'all';
    searchAfter = last.sort;
  }
}

/** Variable paths may name the profile kind first (`user.metadata.plan`); the index's source does not. */
function sourcePath(path: string, entity: 'user' | 'company'): string {
  return path.startsWith(`${entity}.`) ? path.slice(entity.length + 1) : path;
}

function variableValues(rule: StoredRule, source: Record<string, unknown>, entity: 'user' | 'company'): Record<string, string> {
  const values: Record<string, string> = {};
  for (const variable of rule.variables) {
    const value = valueAt(source, sourcePath(variable.path, entity));
    // Absent values are left out: the SDK then uses the template's default (`{{name|default}}`).
    if (value === undefined || value === null) continue;
    values[variable.name] = typeof value === 'object' ? JSON.stringify(value) : String(value);
  }
  return values;
}

function valueAt(source: Record<string, unknown>, path: string): unknown {
  if (path in source) return source[path];
  let current: unknown = source;
  for (const part of path.split('.')) {
    if (current === null || typeof current !== 'object' || Array.isArray(current)) return undefined;
    current = (current as Record<string, unknown>)[part];
  }
  return current;
}
