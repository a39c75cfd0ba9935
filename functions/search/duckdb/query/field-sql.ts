import { ValidationError } from '../../../shared/errors';
import { isToken, RAW_IGNORE_ABOVE, type FieldRef } from '../../fields';
import { METADATA_COLUMN } from '../search-tables';
import { column, jsonPath } from './sql';

/** SQL that reads a field's values from a search table row: typed columns, or every value along a JSON path (arrays flattened as OpenSearch does). */

export type ValueKind = 'keyword' | 'text' | 'date' | 'number' | 'boolean';

/** One test per kind of value; a kind without a test never matches. Each takes a SQL expression of the value. */
export type ValueTests = Partial<Record<ValueKind, (value: string) => string>>;

export const NOT_TOKEN = '[^\\p{L}\\p{N}]';
export const TOKEN_CHAR = '[\\p{L}\\p{N}]';
export const JSON_NUMBER_TYPES = "('UBIGINT', 'BIGINT', 'DOUBLE', 'HUGEINT')";

/**
 * Paths that are objects in every document (the collector validates them), so an array can only
 * sit below them: only the rest of a path needs the slower array-of-objects lookup.
 */
export const OBJECT_PATHS = new Set(['request', 'response', 'request.headers', 'response.headers', 'metadata', 'campaign', 'span']);
/**
 * Stands for the JSON value a test applies to while the test is written; replaced by the lambda
 * parameter of each place it is used. Control characters never occur in field names (the only
 * caller text spliced into SQL), so the marker cannot collide.
 */
export const ELEMENT = '\u0000value\u0000';

/** Strings JSON writers put in a document as they are (between quotes): no quote, backslash, control character or surrogate. */
export const PLAIN_JSON_STRING = /^[^"\\\u0000-\u001f\u2028\u2029\ud800-\udfff]*$/;

/** Array-of-objects lookups per path: all combinations of this many positions (2^n - 1 JSON paths). */
export const MAX_ARRAY_POSITIONS = 3;

/**
 * `valueSql`: where the value at the path is read from, when not from the document (a typed metadata
 * key's column of other values); the array-of-objects paths are still read from the document.
 */
export function anyJsonValue(
  path: string,
  alias: string,
  name: (prefix: string) => string,
  test: (value: string) => string,
  valueSql: string = jsonExtract(alias, path.split('.')),
): string {
  const keys = path.split('.');
  const v = name('v');
  const anyOf = (list: string) => {
    const e = name('e');
    return `coalesce(list_bool_or(list_transform(${list}, lambda ${e}: ${test(e)})), FALSE)`;
  };
  const arrayPaths = arrayOfObjectPaths(keys, alias);
  const missing =
    arrayPaths.length === 0
      ? 'FALSE'
      : anyOf(expandArrays(arrayPaths.length === 1 ? (arrayPaths[0] as string) : `list_concat(${arrayPaths.join(', ')})`, name('x')));
  return (
    `coalesce(list_transform([${valueSql}], lambda ${v}: ` +
    `CASE WHEN ${v} IS NULL THEN ${missing} WHEN json_type(${v}) = 'ARRAY' THEN ${anyOf(`json_extract(${v}, '$[*]')`)} ELSE ${test(v)} END)[1], FALSE)`
  );
}

/**
 * The stored JSON a path is read from: `metadata.*` from the metadata column (the path below
 * `metadata`), everything else from the document. `metadata` is in OBJECT_PATHS, so no array
 * wildcard can sit on the key the metadata column drops.
 */
export function jsonSource(alias: string, keys: readonly string[], wildcards: readonly boolean[] = []): { json: string; path: string } {
  if (keys.length > 1 && keys[0] === METADATA_COLUMN) {
    return { json: column(alias, METADATA_COLUMN), path: jsonPath(keys.slice(1), wildcards.slice(1)) };
  }
  return { json: column(alias, 'doc'), path: jsonPath(keys, wildcards) };
}

export function jsonExtract(alias: string, keys: readonly string[], wildcards: readonly boolean[] = []): string {
  const { json, path } = jsonSource(alias, keys, wildcards);
  return `json_extract(${json}, ${path})`;
}

/** The JSON paths that reach a field through arrays of objects (each a list), for the path's positions that could hold one. */
export function arrayOfObjectPaths(keys: readonly string[], alias: string): string[] {
  const positions = keys.slice(0, -1).flatMap((_key, position) => (OBJECT_PATHS.has(keys.slice(0, position + 1).join('.')) ? [] : [position]));
  const arrayPositions = positions.slice(0, MAX_ARRAY_POSITIONS);
  const paths: string[] = [];
  for (let mask = 1; mask < 1 << arrayPositions.length; mask += 1) {
    const wildcards = keys.map(() => false);
    arrayPositions.forEach((position, bit) => {
      if (mask & (1 << bit)) wildcards[position] = true;
    });
    paths.push(jsonExtract(alias, keys, wildcards));
  }
  return paths;
}

/** A list of JSON values with the arrays among them replaced by their elements. */
export function expandArrays(list: string, x: string): string {
  return `flatten(list_transform(${list}, lambda ${x}: CASE WHEN json_type(${x}) = 'ARRAY' THEN json_extract(${x}, '$[*]') ELSE [${x}] END))`;
}

/**
 * Every JSON value along a path, as a list of JSON with arrays expanded. The direct path is read
 * first; only when it misses (absent, or an array of objects on the way) are the array paths read.
 */
export function jsonValuesSql(path: string, alias: string, name: (prefix: string) => string): string {
  const keys = path.split('.');
  const v = name('v');
  const arrayPaths = arrayOfObjectPaths(keys, alias);
  const missing =
    arrayPaths.length === 0
      ? 'CAST([] AS JSON[])'
      : expandArrays(arrayPaths.length === 1 ? (arrayPaths[0] as string) : `list_concat(${arrayPaths.join(', ')})`, name('x'));
  return (
    `list_transform([${jsonExtract(alias, keys)}], lambda ${v}: ` +
    `CASE WHEN ${v} IS NULL THEN ${missing} WHEN json_type(${v}) = 'ARRAY' THEN ${expandArrays(`json_extract(${v}, '$[*]')`, name('x'))} ELSE [${v}] END)[1]`
  );
}

export function hotKind(field: FieldRef): ValueKind {
  if (field.raw || field.type === 'id' || field.type === 'keyword') return 'keyword';
  if (field.type === 'unknown') return 'text';
  return field.type;
}

/** OpenSearch minimum_should_match: N, -N, N%, -N%; with no must/filter at least one should clause must match. */
export function minimumShouldMatch(spec: number | string | undefined, optional: number, hasRequired: boolean): number {
  let required = 0;
  if (spec !== undefined) {
    const text = String(spec).trim();
    const percent = text.endsWith('%');
    const amount = Number.parseInt(percent ? text.slice(0, -1) : text, 10);
    const count = percent ? Math.trunc((optional * amount) / 100) : amount;
    required = count < 0 ? optional + count : count;
    if (required < 0) required = 0;
  }
  // Lucene: a boolean query without required clauses matches only through its optional ones.
  if (!hasRequired && optional > 0 && required < 1) required = 1;
  return required;
}

/**
 * A wildcard pattern (`*`, `?`, backslash escapes) as a regular expression in which `*` and `?`
 * stand for `any`. With `tokenOnly`, undefined when a literal character is not a token character
 * (no token could match).
 */
export function wildcardRegex(pattern: string, any: string, tokenOnly: boolean): string | undefined {
  let regex = '';
  const characters = [...pattern];
  for (let i = 0; i < characters.length; i += 1) {
    let ch = characters[i] as string;
    if (ch === '*' || ch === '?') {
      regex += ch === '*' ? `${any}*` : any;
      continue;
    }
    if (ch === '\\' && i + 1 < characters.length) {
      i += 1;
      ch = characters[i] as string;
    }
    if (tokenOnly && !isToken(ch)) return undefined;
    regex += escapeRegex(ch);
  }
  return regex;
}

export const escapeRegex = (ch: string): string => (/[\\^$.|?*+()[\]{}]/.test(ch) ? `\\${ch}` : ch);

export function invalid(field: string, reason: string): ValidationError {
  return new ValidationError(`Invalid query: ${reason}`, [{ field, reason }]);
}

/**
 * A field's single value as the aggregations read it: the typed column, or the value at the JSON
 * path when it is one scalar of the wanted kind (NULL otherwise, including arrays — use
 * fieldValuesSql to see every value). Keywords are strings; numbers DOUBLE; dates TIMESTAMPTZ.
 */
export function fieldValueSql(field: FieldRef, as: 'keyword' | 'number' | 'date' | 'boolean', alias = 'd'): string {
  if (field.hot !== undefined) {
    const value = column(alias, field.hot.name);
    if (field.raw) return `CASE WHEN length(${value}) <= ${RAW_IGNORE_ABOVE} THEN ${value} END`;
    switch (as) {
      case 'keyword':
        return field.hot.type === 'VARCHAR' ? value : `CAST(${value} AS VARCHAR)`;
      case 'number':
        return field.hot.type === 'TIMESTAMPTZ' ? `epoch_ms(${value})` : `TRY_CAST(${value} AS DOUBLE)`;
      case 'date':
        return field.hot.type === 'TIMESTAMPTZ' ? value : 'CAST(NULL AS TIMESTAMPTZ)';
      case 'boolean':
        return field.hot.type === 'BOOLEAN' ? value : 'CAST(NULL AS BOOLEAN)';
    }
  }
  const { json: doc, path } = jsonSource(alias, field.path.split('.'));
  switch (as) {
    case 'keyword': {
      const text = `json_extract_string(${doc}, ${path})`;
      const type = `json_type(${doc}, ${path})`;
      // Keyword fields index numbers and booleans as their text; `.raw` only strings up to ignore_above.
      return field.raw
        ? `CASE WHEN ${type} = 'VARCHAR' AND length(${text}) <= ${RAW_IGNORE_ABOVE} THEN ${text} END`
        : `CASE WHEN ${type} IN ('VARCHAR', 'BOOLEAN', 'UBIGINT', 'BIGINT', 'DOUBLE') THEN ${text} END`;
    }
    case 'number':
      return `CASE WHEN json_type(${doc}, ${path}) IN ${JSON_NUMBER_TYPES} THEN CAST(json_extract(${doc}, ${path}) AS DOUBLE) END`;
    case 'date':
      return `TRY_CAST(json_extract_string(${doc}, ${path}) AS TIMESTAMPTZ)`;
    case 'boolean':
      return `CASE json_extract(${doc}, ${path}) WHEN 'true' THEN TRUE WHEN 'false' THEN FALSE END`;
  }
}

/**
 * Every value of a field of one kind, as a typed list (VARCHAR[], DOUBLE[], TIMESTAMPTZ[],
 * BOOLEAN[]): one element per array element along the path; values of other kinds are left out.
 */
export function fieldValuesSql(field: FieldRef, as: 'keyword' | 'number' | 'date' | 'boolean', alias = 'd'): string {
  if (field.hot !== undefined) {
    const value = fieldValueSql(field, as, alias);
    return `list_filter([${value}], lambda hot_value: hot_value IS NOT NULL)`;
  }
  const e = 'json_value';
  const s = `json_extract_string(${e}, '$')`;
  const element = {
    keyword: field.raw
      ? `CASE WHEN json_type(${e}) = 'VARCHAR' AND length(${s}) <= ${RAW_IGNORE_ABOVE} THEN ${s} END`
      : `CASE WHEN json_type(${e}) IN ('VARCHAR', 'BOOLEAN', 'UBIGINT', 'BIGINT', 'DOUBLE') THEN ${s} END`,
    number: `CASE WHEN json_type(${e}) IN ${JSON_NUMBER_TYPES} THEN CAST(${e} AS DOUBLE) END`,
    date: `CASE WHEN json_type(${e}) = 'VARCHAR' THEN TRY_CAST(${s} AS TIMESTAMPTZ) END`,
    boolean: `CASE ${e} WHEN 'true' THEN TRUE WHEN 'false' THEN FALSE END`,
  }[as];
  let names = 0;
  const values = jsonValuesSql(field.path, alias, (prefix) => `values_${prefix}_${(names += 1)}`);
  return `list_filter(list_transform(${values}, lambda ${e}: ${element}), lambda typed_value: typed_value IS NOT NULL)`;
}
