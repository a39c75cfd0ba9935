import { criteriaFromText, textOfCriteria } from './criteria';
import { isJsonObject } from '../../../lib/json-object';

/**
 * A behavioural cohort's event conditions as the editor holds them (one row per condition), and the
 * `criteria.events` the API takes (docs/cohorts.md): performed or not, an events query, a measure
 * compared with a number, within a rolling, calendar or billing-period window.
 */

export const MEASURES = ['count', 'sum_weight', 'distinct'] as const;
export const OPERATORS = ['gte', 'gt', 'lte', 'lt', 'eq'] as const;
export const ROLLING_UNITS = ['minutes', 'hours', 'days'] as const;
export const CALENDAR_UNITS = ['day', 'week', 'month', 'quarter', 'year'] as const;
export const WINDOWS = ['last', 'calendar', 'billing_period'] as const;
export type Measure = (typeof MEASURES)[number];
export type Operator = (typeof OPERATORS)[number];

export interface ConditionRow {
  performed: boolean;
  /** The events query as typed: query-string terms or JSON; empty for every event. */
  queryText: string;
  measure: Measure;
  field: string;
  operator: Operator;
  value: number;
  window: (typeof WINDOWS)[number];
  last: number;
  unit: (typeof ROLLING_UNITS)[number];
  calendar: (typeof CALENDAR_UNITS)[number];
  periodsAgo: number;
}

export interface EventConditions {
  match: 'all' | 'any';
  rows: ConditionRow[];
}

export const NEW_CONDITION: ConditionRow = {
  performed: true,
  queryText: '',
  measure: 'count',
  field: '',
  operator: 'gte',
  value: 1,
  window: 'last',
  last: 30,
  unit: 'days',
  calendar: 'month',
  periodsAgo: 0,
};

export const OPERATOR_LABELS: Record<Operator, string> = { gte: 'at least', gt: 'more than', lte: 'at most', lt: 'fewer than', eq: 'exactly' };

/** The `events` member of criteria for these rows; undefined when there are none. Throws a SyntaxError for a query that is not JSON. */
export function eventsOfRows(conditions: EventConditions): Record<string, unknown> | undefined {
  if (conditions.rows.length === 0) return undefined;
  return {
    ...(conditions.match === 'any' ? { match: 'any' } : {}),
    conditions: conditions.rows.map((row) => ({
      ...(row.performed ? {} : { performed: false }),
      ...(row.queryText.trim() === '' ? {} : { query: criteriaFromText(row.queryText) }),
      measure: row.measure,
      ...(row.measure === 'distinct' ? { field: row.field.trim() } : {}),
      operator: row.operator,
      value: row.value,
      window:
        row.window === 'last'
          ? { last: row.last, unit: row.unit }
          : row.window === 'calendar'
            ? { calendar: row.calendar, periods_ago: row.periodsAgo }
            : { billing_period: 'current' },
    })),
  };
}

/** The rows of stored `criteria.events` (what the API answers), for editing. */
export function rowsOfEvents(events: unknown): EventConditions {
  if (!isJsonObject(events) || !Array.isArray(events['conditions'])) return { match: 'all', rows: [] };
  const rows = events['conditions'].filter(isJsonObject).map((condition): ConditionRow => {
    const window = isJsonObject(condition['window']) ? condition['window'] : {};
    const query = condition['query'];
    return {
      performed: condition['performed'] !== false,
      queryText: isJsonObject(query) ? textOfCriteria(query) : '',
      measure: oneOf(condition['measure'], MEASURES, 'count'),
      field: typeof condition['field'] === 'string' ? condition['field'] : '',
      operator: oneOf(condition['operator'], OPERATORS, 'gte'),
      value: typeof condition['value'] === 'number' ? condition['value'] : 1,
      window: 'calendar' in window ? 'calendar' : 'billing_period' in window ? 'billing_period' : 'last',
      last: typeof window['last'] === 'number' ? window['last'] : NEW_CONDITION.last,
      unit: oneOf(window['unit'], ROLLING_UNITS, 'days'),
      calendar: oneOf(window['calendar'], CALENDAR_UNITS, 'month'),
      periodsAgo: typeof window['periods_ago'] === 'number' ? window['periods_ago'] : 0,
    };
  });
  return { match: events['match'] === 'any' ? 'any' : 'all', rows };
}

/** Criteria split for the editor: the profile query's text, and the event conditions. */
export function splitCriteria(criteria: Record<string, unknown>): { profileText: string; events: EventConditions } {
  const { events, ...profile } = criteria;
  const query = events !== undefined && isJsonObject(profile['query']) && Object.keys(profile).length === 1 ? profile['query'] : profile;
  return { profileText: textOfCriteria(query), events: rowsOfEvents(events) };
}

/** Criteria from the editor's two parts: a bare profile query, or a body holding it beside `events`. */
export function joinCriteria(profile: Record<string, unknown>, events: Record<string, unknown> | undefined): Record<string, unknown> {
  if (!events) return profile;
  return { query: 'query' in profile ? profile['query'] : profile, events };
}

/** The value when it is one of the options (a select's or a stored document's), else the fallback. */
export function oneOf<T extends string>(value: unknown, allowed: readonly T[], fallback: T): T {
  return allowed.find((option) => option === value) ?? fallback;
}
