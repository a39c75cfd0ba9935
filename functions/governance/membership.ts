import type { RuleAssignment, RuleAssignments, StoredCohort, StoredRule } from '../../schemas/governance';
import { parseQuery } from '../search/dsl';
import type { QueryNode } from '../../schemas/search-tree';
import { CohortUnavailable, forEachCohortMember, type CohortMemberInput } from '../cohorts/cohort-members';
import { forEachMember, MAX_MEMBERS_PER_RULE } from '../cohorts/profile-pages';
import type { PlanSelection } from './plan-selection';

/**
 * Cohort membership of user and company rules: for each enabled rule with cohorts, every member of
 * any of its cohorts (cohorts/cohort-members.ts: profile criteria and behaviour), with the
 * values of the rule's variables read from the profile at each variable's path. And the members of
 * cohorts with a `sample_rate` (dynamic sampling), with the rate each gets.
 */

export { MAX_MEMBERS_PER_RULE };

const KIND_OF_RULE: Record<string, StoredCohort['cohort_type'] | undefined> = { user: 'user', company: 'company' };

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

export interface MembershipInput extends CohortMemberInput {
  readonly rules: readonly StoredRule[];
  readonly cohorts: ReadonlyMap<string, StoredCohort>;
  /**
   * Rules that select by plans or a billing model (plan-selection.ts): the companies each selects,
   * with their values. Such a rule hits those companies (or their users), narrowed to its cohorts' members.
   */
  readonly selections?: ReadonlyMap<string, PlanSelection>;
}

export async function computeMembership(input: MembershipInput): Promise<MembershipResult> {
  // Maps, not objects: a member id such as `constructor` or `__proto__` must not meet Object.prototype.
  const byKind = { user: new Map<string, RuleAssignment[]>(), company: new Map<string, RuleAssignment[]>() };
  const problems: MembershipProblem[] = [];
  for (const rule of input.rules) {
    const entity = KIND_OF_RULE[rule.type];
    const selection = input.selections?.get(rule._id);
    if (!entity || (rule.cohorts.length === 0 && !selection)) continue;
    const cohorts: { id: string; cohort: StoredCohort }[] = [];
    for (const { id } of rule.cohorts) {
      const cohort = input.cohorts.get(id);
      if (!cohort) problems.push({ rule_id: rule._id, cohort_id: id, reason: 'cohort not found' });
      else if (cohort.cohort_type !== entity)
        problems.push({ rule_id: rule._id, cohort_id: id, reason: `a ${cohort.cohort_type} cohort cannot select for a ${rule.type} rule` });
      else cohorts.push({ id, cohort });
    }
    if (rule.cohorts.length > 0 && cohorts.length === 0) continue;
    const byEntity = byKind[entity];
    const assign = (entityId: string, values: Record<string, string>) => {
      const assignment: RuleAssignment = { rules: rule._id, values };
      const list = byEntity.get(entityId);
      if (list) list.push(assignment);
      else byEntity.set(entityId, [assignment]);
    };
    const includes = rule.variables.map((variable) => sourcePath(variable.path, entity));
    const members: RuleMembers = { input, rule, entity, cohorts, includes, assign, problems, assigned: new Set(), cut: false };
    if (selection && cohorts.length === 0) await assignSelected(members, selection);
    else if (selection) {
      for (const inSelection of selectionFilters(selection))
        await assignCohortMembers(members, (source, id) => selection.get(entity === 'user' ? String(source['company_id'] ?? '') : id), inSelection);
    } else await assignCohortMembers(members, () => ({}));
    if (members.cut)
      problems.push({ rule_id: rule._id, reason: `more than ${input.maxMembersPerRule ?? MAX_MEMBERS_PER_RULE} members; the rest are not listed` });
  }
  // fromEntries defines own properties, so even `__proto__` is an ordinary key of the result.
  return { assignments: { user_rules: Object.fromEntries(byKind.user), company_rules: Object.fromEntries(byKind.company) }, problems };
}

/** Companies per `terms` filter when narrowing a search to a plan selection. */
const SELECTED_PER_SEARCH = 10_000;

/** The selected companies as `terms` filters on `company_id`, SELECTED_PER_SEARCH at a time. */
function* selectionFilters(selection: PlanSelection): Generator<QueryNode> {
  const companies = [...selection.keys()];
  for (let i = 0; i < companies.length; i += SELECTED_PER_SEARCH) yield parseQuery({ terms: { company_id: companies.slice(i, i + SELECTED_PER_SEARCH) } });
}

/** One rule's membership being listed: the members assigned so far, whether the cap cut it. */
interface RuleMembers {
  readonly input: MembershipInput;
  readonly rule: StoredRule;
  readonly entity: 'user' | 'company';
  readonly cohorts: readonly { id: string; cohort: StoredCohort }[];
  readonly includes: readonly string[];
  readonly assign: (entityId: string, values: Record<string, string>) => void;
  readonly problems: MembershipProblem[];
  readonly assigned: Set<string>;
  cut: boolean;
}

/**
 * The members of any of the rule's cohorts (within `narrow`), each once, with the rule's profile
 * variables and the values `extra` gives it (a plan selection's, which win on a shared name);
 * a member `extra` gives nothing for is left out. A cohort that cannot be computed is reported.
 */
async function assignCohortMembers(
  members: RuleMembers,
  extra: (source: Record<string, unknown>, id: string) => Record<string, string> | undefined,
  narrow?: QueryNode,
): Promise<void> {
  const { input, rule, entity, assigned } = members;
  const cap = input.maxMembersPerRule ?? MAX_MEMBERS_PER_RULE;
  const reads = entity === 'user' && narrow ? [...members.includes, 'company_id'] : members.includes;
  for (const { id: cohortId, cohort } of members.cohorts) {
    if (members.cut) return;
    try {
      const listed = await forEachCohortMember(
        input,
        cohort,
        reads,
        (id, source) => {
          const values = extra(source, id);
          if (!values || assigned.has(id)) return;
          if (assigned.size === cap) {
            members.cut = true;
            return;
          }
          assigned.add(id);
          members.assign(id, { ...variableValues(rule, source, entity), ...values });
        },
        narrow,
      );
      if (listed === 'cut') members.cut = true;
    } catch (error) {
      // Criteria that cannot be computed select nobody (reported); a failing search fails the refresh, keeping the last snapshot.
      if (!(error instanceof CohortUnavailable)) throw error;
      members.problems.push({ rule_id: rule._id, cohort_id: cohortId, reason: reasonOf(error) });
    }
  }
}

/** A company rule selecting by plans alone hits every selected company, profile or not; variables come from the profiles that exist. */
async function assignSelected(members: RuleMembers, selection: PlanSelection): Promise<void> {
  const { input, rule, entity, includes } = members;
  if (entity === 'user') {
    // Users of the selected companies: every user profile of each.
    for (const inSelection of selectionFilters(selection)) {
      if (members.cut) return;
      const listed = await forEachMember(input, 'users', inSelection, [...includes, 'company_id'], (id, source) => {
        members.assign(id, { ...variableValues(rule, source, entity), ...selection.get(String(source['company_id'] ?? '')) });
      });
      if (listed === 'cut') members.cut = true;
    }
    return;
  }
  const fromProfiles = new Map<string, Record<string, string>>();
  if (includes.length > 0)
    for (const inSelection of selectionFilters(selection))
      await forEachMember(input, 'companies', inSelection, includes, (id, source) => fromProfiles.set(id, variableValues(rule, source, entity)));
  const companies = [...selection.keys()];
  const cap = input.maxMembersPerRule ?? MAX_MEMBERS_PER_RULE;
  for (const companyId of companies.slice(0, cap)) members.assign(companyId, { ...fromProfiles.get(companyId), ...selection.get(companyId) });
  if (companies.length > cap) members.cut = true;
}

const reasonOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

export interface SampleRateInput extends CohortMemberInput {
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
    const byEntity = byType[cohort.cohort_type];
    // Members are applied once the cohort's search has finished: a cohort whose search fails is
    // reported and leaves no partial rates, and the other cohorts (and the rules) are still refreshed.
    const members: string[] = [];
    let listed: 'all' | 'cut';
    try {
      listed = await forEachCohortMember(input, cohort, [], (entityId) => {
        members.push(entityId);
      });
    } catch (error) {
      problems.push({ cohort_id: id, reason: error instanceof CohortUnavailable ? reasonOf(error) : `its members could not be searched: ${reasonOf(error)}` });
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
