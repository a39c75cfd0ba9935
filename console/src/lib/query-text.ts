import { withClause } from './field-clauses';

/** A query-string phrase matching exactly this value (quotes and backslashes escaped). */
export function exactPhrase(value: string): string {
  return `"${value.replace(/["\\]/g, '\\$&')}"`;
}

/**
 * A search query from what an editor holds (a cohort's criteria, an alert's events): JSON (a query
 * or a body) when it starts with `{`, otherwise query-string terms (`metadata.plan:pro AND company_id.raw:acme`). Throws a SyntaxError naming the problem.
 */
export function queryFromText(text: string): Record<string, unknown> {
  const typed = text.trim();
  if (typed === '') return { match_all: {} };
  if (!typed.startsWith('{')) return { query_string: { query: typed } };
  const parsed = JSON.parse(typed) as unknown;
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new SyntaxError('criteria must be a JSON object');
  return parsed as Record<string, unknown>;
}

/** The editor's text for a stored query: the query-string text back when it was one, else pretty JSON. */
export function textOfQuery(criteria: Record<string, unknown>): string {
  const keys = Object.keys(criteria);
  const queryString = criteria['query_string'] as { query?: unknown } | undefined;
  if (keys.length === 1 && queryString && Object.keys(queryString).length === 1 && typeof queryString.query === 'string') return queryString.query;
  if (keys.length === 1 && keys[0] === 'match_all') return '';
  return JSON.stringify(criteria, null, 2);
}

/**
 * The editor's text with a picked query-string clause added (AND): appended to query-string text,
 * or, when the text is JSON, the JSON query and the clause both required (text that does not parse
 * is left as it is, for its own error to show).
 */
export function withQueryClause(text: string, clause: string): string {
  if (!text.trim().startsWith('{')) return withClause(text, clause);
  try {
    return JSON.stringify({ bool: { filter: [queryFromText(text), { query_string: { query: clause } }] } }, null, 2);
  } catch {
    return text;
  }
}
