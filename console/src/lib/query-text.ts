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
