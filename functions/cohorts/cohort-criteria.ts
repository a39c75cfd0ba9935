import { CohortEvents, type CohortEventCondition, type CohortType } from '../../schemas/resources/cohort';
import type { QueryNode } from '../../schemas/search-tree';
import { parseSearchRequest } from '../search/dsl';
import type { IndexKind } from '../search/port';
import { parseCriteria } from '../search/stored-criteria';
import { ValidationError } from '../shared/errors';
import type * as z from 'zod';
import { fieldIssuesOf, invalidInput, REQUIRED_WHEN_MISSING } from '../shared/invalid-input';

/**
 * A cohort's criteria: a profile query (a search body or a bare query over users or companies) and,
 * in a body, `events`: behavioural conditions on what each member did (schemas/resources/cohort.ts).
 */
export interface CohortCriteria {
  /** Which profiles may be members. */
  readonly profiles: QueryNode;
  readonly events?: CohortEvents;
}

export const PROFILE_KIND: Record<CohortType, IndexKind> = { user: 'users', company: 'companies' };

/** The field naming a member of each kind, in events and in the member's own profile. */
export const MEMBER_FIELD: Record<CohortType, 'user_id' | 'company_id'> = { user: 'user_id', company: 'company_id' };

/** Checks criteria as a cohort of `type` takes them; a 400 names the member at fault (`criteria.events.conditions[0].window`). */
export function parseCohortCriteria(criteria: Record<string, unknown>, type: CohortType, field = 'criteria'): CohortCriteria {
  const { events, ...rest } = criteria;
  const parsed = parseCriteria(rest, PROFILE_KIND[type], field);
  const profiles = parsed.form === 'query' ? parsed.query : parsed.request.query;
  if (events === undefined) return { profiles };
  if (parsed.form === 'query') {
    throw new ValidationError(`Invalid ${field}: events: belongs in a search body, beside "query"`, [
      { field: `${field}.events`, reason: 'belongs in a search body, beside "query" (put the profile query under "query")' },
    ]);
  }
  const checked = CohortEvents.safeParse(events, REQUIRED_WHEN_MISSING);
  if (!checked.success) {
    const naming = { root: `${field}.events`, prefix: [field, 'events'], unknownMember: () => 'is not a known field' };
    throw invalidInput(
      field,
      fieldIssuesOf(
        checked.error.issues.flatMap((issue) => windowBranchIssues(issue, events)),
        naming,
      ),
    );
  }
  const conditions = checked.data;
  conditions.conditions.forEach((condition, k) => checkCondition(condition, `${field}.events.conditions[${k}]`));
  return { profiles, events: conditions };
}

/** The member that picks a window's kind, in CohortEventWindow's order. */
const WINDOW_KEYS = ['last', 'calendar', 'billing_period'];

/**
 * A window matching none of its kinds is one zod union issue: named instead by the kind its own
 * member picks (`window.unit` of a rolling window), or as a window naming no kind.
 */
function windowBranchIssues(issue: z.core.$ZodIssue, events: unknown): z.core.$ZodIssue[] {
  if (issue.code !== 'invalid_union' || issue.path.at(-1) !== 'window') return [issue];
  let window: unknown = events;
  for (const key of issue.path) window = typeof window === 'object' && window !== null ? (window as Record<PropertyKey, unknown>)[key] : undefined;
  const branch = typeof window === 'object' && window !== null ? WINDOW_KEYS.findIndex((key) => key in window) : -1;
  const chosen = issue.errors[branch];
  if (!chosen) return [{ ...issue, message: 'must be {last, unit}, {calendar, periods_ago} or {billing_period: "current"}' }];
  return chosen.map((inner) => ({ ...inner, path: [...issue.path, ...inner.path] }));
}

/** Criteria as stored (JSON text): the parsed criteria, or why they cannot be read (the cohort then has no members). */
export function readStoredCriteria(stored: string, type: CohortType): CohortCriteria | string {
  let body: unknown;
  try {
    body = JSON.parse(stored);
  } catch {
    return 'criteria is not JSON';
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return 'criteria is not a JSON object';
  try {
    return parseCohortCriteria(body as Record<string, unknown>, type);
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

/** The measured search a condition runs, checked now (its query and field against the events' fields). */
function checkCondition(condition: CohortEventCondition, field: string): void {
  const measure = condition.measure ?? 'count';
  if (measure === 'distinct' && condition.field === undefined) {
    throw new ValidationError(`Invalid ${field}.field: is required when measure is distinct`, [
      { field: `${field}.field`, reason: 'is required when measure is distinct' },
    ]);
  }
  if (measure !== 'distinct' && condition.field !== undefined) {
    throw new ValidationError(`Invalid ${field}.field: only a distinct measure reads a field`, [
      { field: `${field}.field`, reason: 'only a distinct measure reads a field' },
    ]);
  }
  if (condition.query !== undefined && parseCriteria(condition.query, 'events', `${field}.query`).form === 'body') {
    throw new ValidationError(`Invalid ${field}.query: is a query (\`{"term": …}\`), not a search body`, [
      { field: `${field}.query`, reason: 'is a query ({"term": …}), not a search body' },
    ]);
  }
  if (measure === 'distinct') {
    try {
      parseSearchRequest({ size: 0, aggs: { distinct: { cardinality: { field: condition.field } } } }, 'events');
    } catch (error) {
      const reason = error instanceof ValidationError ? (error.details[0]?.reason ?? error.message) : String(error);
      throw new ValidationError(`Invalid ${field}.field: ${reason}`, [{ field: `${field}.field`, reason }]);
    }
  }
}
