import { SEARCH_TABLES, type HotColumn } from './duckdb/search-tables';
import type { QueryNode } from '../../schemas/search-tree';
import type { IndexKind } from './port';

/**
 * Field typing of the search DSL: the single source both backends and the OpenSearch templates
 * follow. A field's type is decided by its name where a name says it (identifiers and enums are
 * keywords, timestamps are dates), by a typed DuckDB column where there is one, and otherwise by
 * each stored value's JSON type ('unknown': strings are text, numbers numbers, booleans booleans).
 *
 * Where a name decides, it decides how *strings* are read: a number stored in a `*_id` field is
 * still compared as a number, as OpenSearch's dynamic templates only map string values by name.
 */

export type FieldType = 'keyword' | 'text' | 'date' | 'number' | 'boolean' | 'id' | 'unknown';

export interface FieldRef {
  /** The source path, without a `.raw` suffix. */
  readonly path: string;
  /** `.raw`: the exact keyword form of a string field (strings over RAW_IGNORE_ABOVE characters have none). */
  readonly raw: boolean;
  readonly type: FieldType;
  /** The typed DuckDB column holding this field, when there is one. */
  readonly hot?: HotColumn;
}

/** OpenSearch's `ignore_above` of the `.raw` subfield: longer strings are not in the keyword index. */
export const RAW_IGNORE_ABOVE = 1024;

/** Every document has these columns; `time` is the event time (profiles: last update), which `_source` does not hold. */
const KEY_COLUMNS: Readonly<Record<string, { column: HotColumn; type: FieldType }>> = {
  _id: { column: { name: 'id', type: 'VARCHAR', path: ['_id'] }, type: 'id' },
  org_id: { column: { name: 'org_id', type: 'VARCHAR', path: ['org_id'] }, type: 'keyword' },
  app_id: { column: { name: 'app_id', type: 'VARCHAR', path: ['app_id'] }, type: 'keyword' },
  time: { column: { name: 'time', type: 'TIMESTAMPTZ', path: ['time'] }, type: 'date' },
};

/**
 * Fields an events row holds in a key column too: every event is dated by its request.time
 * (documentProblem refuses one that is not), so dashboards over it read the typed column.
 */
const EVENT_KEY_ALIASES: Readonly<Record<string, string>> = { 'request.time': 'time' };

/** Enums and tokens matched exactly (full paths). */
const KEYWORD_PATHS = new Set(['event_type', 'request.verb', 'direction', 'session_token', 'virtual_event_types']);
/** Timestamps by full path; any last segment ending in `_time` or `_at` is one too. */
const DATE_PATHS = new Set(['time', 'request.time', 'response.time', 'current_period_start', 'current_period_end']);

const lastSegment = (path: string): string => path.slice(path.lastIndexOf('.') + 1);

/** Strings of this field are identifiers or enum values, matched exactly. */
export function isKeywordName(path: string): boolean {
  return KEYWORD_PATHS.has(path) || lastSegment(path).endsWith('_id');
}

/** Strings of this field are dates (ISO 8601; numbers stay numbers). */
export function isDateName(path: string): boolean {
  const last = lastSegment(path);
  return DATE_PATHS.has(path) || last.endsWith('_time') || last.endsWith('_at');
}

const hotColumnCache = new Map<IndexKind, Map<string, HotColumn>>();

function hotColumnOf(kind: IndexKind, path: string): HotColumn | undefined {
  let byPath = hotColumnCache.get(kind);
  if (byPath === undefined) {
    byPath = new Map(SEARCH_TABLES[kind].hotColumns.map((column) => [column.path.join('.'), column]));
    hotColumnCache.set(kind, byPath);
  }
  return byPath.get(path);
}

const HOT_TYPES: Record<HotColumn['type'], FieldType> = {
  VARCHAR: 'text',
  INTEGER: 'number',
  BIGINT: 'number',
  DOUBLE: 'number',
  BOOLEAN: 'boolean',
  TIMESTAMPTZ: 'date',
};

/** The key column a field is read from, when it has one: its own path, or an event field's alias. */
function keyColumnPath(kind: IndexKind, path: string, raw: boolean): string {
  return (kind === 'events' && !raw && EVENT_KEY_ALIASES[path]) || path;
}

/** The type and storage of a field as a query names it (`request.route`, `user_id.raw`, `_id`). */
export function resolveField(kind: IndexKind, name: string): FieldRef {
  const raw = name.endsWith('.raw') && name.length > 4;
  const path = raw ? name.slice(0, -4) : name;
  const key = KEY_COLUMNS[keyColumnPath(kind, path, raw)];
  if (key !== undefined) {
    if (!raw) return { path, raw, type: key.type, hot: key.column };
    return key.column.type === 'VARCHAR' ? { path, raw, type: 'keyword', hot: key.column } : { path, raw, type: 'keyword' };
  }
  const hot = hotColumnOf(kind, path);
  if (raw) {
    // The keyword form of a string; a typed column only holds it when the column is a string.
    return hot?.type === 'VARCHAR' ? { path, raw, type: 'keyword', hot } : { path, raw, type: 'keyword' };
  }
  const named: FieldType | undefined = isKeywordName(path) ? 'keyword' : isDateName(path) ? 'date' : undefined;
  if (hot !== undefined) return { path, raw, type: hot.type === 'VARCHAR' ? (named ?? 'text') : HOT_TYPES[hot.type], hot };
  return { path, raw, type: named ?? 'unknown' };
}

/**
 * The text analysis of both backends, approximating OpenSearch's standard analyzer: lower-case,
 * split on every run of characters that are not Unicode letters or digits, drop empty tokens.
 * (The standard analyzer's Unicode word-break rules keep some joiners, such as an apostrophe or a
 * dot between letters, inside a token; this does not.)
 */
export const TOKEN_SEPARATOR = /[^\p{L}\p{N}]+/u;

export function analyzeText(s: string): string[] {
  return s
    .toLowerCase()
    .split(TOKEN_SEPARATOR)
    .filter((token) => token !== '');
}

/** True when the string is one token as analyzeText makes them (only letters and digits, lower-case). */
export function isToken(s: string): boolean {
  return s !== '' && !TOKEN_SEPARATOR.test(s) && s === s.toLowerCase();
}

/** Longest field name a query may use; real paths are far shorter. */
const MAX_FIELD_NAME = 512;
/** Names that would reach other indices or internals rather than a document field. */
const RESERVED_FIELDS = new Set([
  '_all',
  '_index',
  '_type',
  '_source',
  '_routing',
  '_seq_no',
  '_primary_term',
  '_version',
  '_score',
  '_doc',
  '_field_names',
  '_ignored',
]);

/**
 * Why a query cannot use this field name, or undefined when it can. Field wildcards are refused,
 * as are characters a JSON path cannot quote, and the OpenSearch-only `index_meta` store.
 */
export function fieldNameProblem(name: string): string | undefined {
  if (name === '') return 'a field name cannot be empty';
  if (name.length > MAX_FIELD_NAME) return `a field name is at most ${MAX_FIELD_NAME} characters`;
  if (RESERVED_FIELDS.has(name)) return `${name} cannot be queried`;
  if (name === 'index_meta' || name.startsWith('index_meta.')) return 'index_meta is internal and cannot be queried';
  if (/[*?]/.test(name)) return 'field wildcards are not supported: name one field';
  if (/["\\\p{Cc}]/u.test(name)) return 'a field name cannot contain quotes, backslashes or control characters';
  if (name.split('.').some((segment) => segment === '')) return 'a field name cannot have an empty segment (leading, trailing or double dot)';
  return undefined;
}

/**
 * Range compares exact values, which text has not (only tokens): a range on a text field, or with a
 * bound that is not a number on a field whose strings are text, is refused ("use .raw").
 */
export function textRangeProblem(node: QueryNode & { type: 'range' }, field: FieldRef): string | undefined {
  const wordBound = (['gt', 'gte', 'lt', 'lte'] as const).some((bound) => {
    const value = node[bound];
    return typeof value === 'string' && !Number.isFinite(Number(value.trim() === '' ? Number.NaN : value));
  });
  if (field.type === 'text' || (field.type === 'unknown' && wordBound)) {
    return `${node.field} holds text: range compares exact values, use ${node.field}.raw`;
  }
  return undefined;
}

/** How a field's values order in a sort, on either backend. */
export type SortType = 'keyword' | 'number' | 'date' | 'boolean';

/** Ids and keywords sort as strings; untyped JSON fields by their numbers (text has no sort order). */
export function sortTypeOf(field: FieldRef): SortType {
  switch (field.type) {
    case 'id':
    case 'keyword':
      return 'keyword';
    case 'date':
    case 'boolean':
      return field.type;
    default:
      return 'number';
  }
}
