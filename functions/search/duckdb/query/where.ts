import type { QueryNode, Scalar } from '../../../../schemas/search-tree';
import { ValidationError } from '../../../shared/errors';
import { resolveDateMath } from '../../dates/date-math';
import { analyzeText, fieldNameProblem, isToken, RAW_IGNORE_ABOVE, resolveField, textRangeProblem, type FieldRef } from '../../fields';
import type { IndexKind, SearchContext } from '../../port';
import { parseQueryString } from '../../query-string';
import { METADATA_COLUMN } from '../search-tables';
import { column, jsonPath, type SqlParams } from './sql';

/**
 * Compiles a query tree into a SQL boolean expression over one row of a search table (alias `d`).
 *
 * Values: a field with a typed ("hot") column is read from it; every other field from the JSON
 * document (`metadata.*` from the metadata column, the same values parsed from a smaller JSON), where a field holds every value found along its path: an array at the end or in the
 * middle of the path (an array of objects) contributes each element, as OpenSearch flattens arrays.
 * A document matches when ANY of its values does; missing, null and [] are no value.
 *
 * Types (fields.ts): hot columns by their column type; otherwise each value by its JSON type, strings
 * read as keywords (ids, enums, `.raw`), dates (timestamp names) or text (everything else).
 *
 * Text: analyzed like fields.ts#analyzeText, in SQL as a regular expression over the lower-cased
 * string in which a token is a maximal run of Unicode letters and digits; a query token matches
 * where it is delimited by the start, the end, or a character that is neither.
 *
 * The expression may be NULL where it means false (a comparison with a NULL column); negation and
 * counting wrap it in coalesce, so NOT never turns an unknown into a match.
 */

type ValueKind = 'keyword' | 'text' | 'date' | 'number' | 'boolean';

/** One test per kind of value; a kind without a test never matches. Each takes a SQL expression of the value. */
type ValueTests = Partial<Record<ValueKind, (value: string) => string>>;

const NOT_TOKEN = '[^\\p{L}\\p{N}]';
const TOKEN_CHAR = '[\\p{L}\\p{N}]';
const JSON_NUMBER_TYPES = "('UBIGINT', 'BIGINT', 'DOUBLE', 'HUGEINT')";

/**
 * Paths that are objects in every document (the collector validates them), so an array can only
 * sit below them: only the rest of a path needs the slower array-of-objects lookup.
 */
const OBJECT_PATHS = new Set(['request', 'response', 'request.headers', 'response.headers', 'metadata', 'campaign', 'span']);
/**
 * Stands for the JSON value a test applies to while the test is written; replaced by the lambda
 * parameter of each place it is used. Control characters never occur in field names (the only
 * caller text spliced into SQL), so the marker cannot collide.
 */
const ELEMENT = '\u0000value\u0000';

/** Strings JSON writers put in a document as they are (between quotes): no quote, backslash, control character or surrogate. */
const PLAIN_JSON_STRING = /^[^"\\\u0000-\u001f\u2028\u2029\ud800-\udfff]*$/;

/** Array-of-objects lookups per path: all combinations of this many positions (2^n - 1 JSON paths). */
const MAX_ARRAY_POSITIONS = 3;

export function compileQuery(node: QueryNode, kind: IndexKind, ctx: SearchContext, params: SqlParams, alias = 'd'): string {
  return new QueryCompiler(kind, ctx, params, alias).compile(node);
}

class QueryCompiler {
  private lambdas = 0;

  constructor(
    private readonly kind: IndexKind,
    private readonly ctx: SearchContext,
    private readonly params: SqlParams,
    private readonly alias: string,
  ) {}

  compile(node: QueryNode): string {
    switch (node.type) {
      case 'match_all':
        return 'TRUE';
      case 'match_none':
        return 'FALSE';
      case 'bool':
        return this.bool(node);
      case 'term':
        return this.term(node.field, node.value, node.case_insensitive);
      case 'terms':
        return this.terms(node.field, node.values);
      case 'range':
        return this.range(node);
      case 'exists':
        return this.exists(node.field);
      case 'match':
        return this.match(node.field, node.query, node.operator);
      case 'match_phrase':
        return this.matchPhrase(node.field, node.query);
      case 'prefix':
        return this.prefix(node.field, node.value, node.case_insensitive);
      case 'wildcard':
        return this.wildcard(node.field, node.value, node.case_insensitive);
      case 'ids':
        return node.values.length === 0 ? 'FALSE' : `${column(this.alias, 'id')} IN (${node.values.map((id) => this.params.add(id)).join(', ')})`;
      case 'query_string':
        return this.compile(parseQueryString(node.query, node));
    }
  }

  // -------------------------------------------------------------------------------------------
  // bool

  private bool(node: QueryNode & { type: 'bool' }): string {
    const conditions = [...node.must, ...node.filter].map((clause) => this.compile(clause));
    for (const clause of node.must_not) conditions.push(`NOT coalesce(${this.compile(clause)}, FALSE)`);
    const required = minimumShouldMatch(node.minimum_should_match, node.should.length, node.must.length + node.filter.length > 0);
    if (required > node.should.length) return 'FALSE';
    // Optional clauses that cannot change the result are not compiled (nor their parameters added).
    const should = required === 0 ? [] : node.should.map((clause) => this.compile(clause));
    if (required === 1) conditions.push(`(${should.join(' OR ')})`);
    else if (required === should.length && required > 0) conditions.push(...should);
    else if (required > 1) conditions.push(`(${should.map((clause) => `CAST(coalesce(${clause}, FALSE) AS INTEGER)`).join(' + ')}) >= ${required}`);
    if (conditions.length === 0) return 'TRUE';
    return conditions.length === 1 ? (conditions[0] as string) : `(${conditions.map((condition) => `(${condition})`).join(' AND ')})`;
  }

  // -------------------------------------------------------------------------------------------
  // Leaf queries

  private term(name: string, value: Scalar, caseInsensitive: boolean): string {
    const field = this.field(name);
    const tests = this.equalityTests(field, value, caseInsensitive);
    const exact = this.anyValue(field, tests, { exactShortValues: !caseInsensitive && String(value).length <= RAW_IGNORE_ABOVE });
    return caseInsensitive ? exact : this.withNeedles(field, tests, [value], exact);
  }

  /**
   * A keyword filter on a JSON field behind a cheap necessary condition: a document holding one of
   * the strings has its JSON text in the stored JSON, so a substring test (no JSON parsing) drops
   * nearly every other row before the exact test runs (DuckDB evaluates an AND's second operand
   * only for rows the first kept). On 1M events this makes a metadata filter cost what the
   * hand-written `json_extract_string(metadata, ...) = ...` does. Only where the field can match
   * strings alone (no number or boolean test), and only for strings JSON writes without escapes, so
   * their text is the same whether JSON.stringify or DuckDB (migrated rows) wrote the document.
   */
  private withNeedles(field: FieldRef, tests: ValueTests, values: readonly Scalar[], exact: string): string {
    if (field.hot !== undefined || !(field.raw || field.type === 'keyword' || field.type === 'id')) return exact;
    if (!field.raw && (tests.number !== undefined || tests.boolean !== undefined)) return exact;
    if (!values.every((value) => typeof value === 'string' && PLAIN_JSON_STRING.test(value))) return exact;
    const { json } = jsonSource(this.alias, field.path.split('.'));
    const text = `CAST(${json} AS VARCHAR)`;
    const needles = [...new Set(values.map((value) => JSON.stringify(value)))].map((needle) => `contains(${text}, ${this.params.add(needle)})`);
    return `(${needles.length === 1 ? needles[0] : `(${needles.join(' OR ')})`} AND ${exact})`;
  }

  /** term semantics per kind of value (shared by term, terms, match on non-text, match_phrase on keywords). */
  private equalityTests(field: FieldRef, value: Scalar, caseInsensitive: boolean): ValueTests {
    const tests: ValueTests = {};
    const text = String(value);
    tests.keyword = caseInsensitive ? (s) => `lower(${s}) = lower(${this.params.add(text)})` : (s) => `${s} = ${this.params.add(text)}`;
    // A term is not analyzed: it matches a text field only when it is one of its tokens exactly.
    const token = caseInsensitive ? text.toLowerCase() : text;
    if (isToken(token)) tests.text = (s) => this.tokensMatch(s, [token]);
    const number = this.numberOf(field, value);
    if (number !== undefined) tests.number = (n) => `${n} = ${this.params.add(number)}`;
    const boolean = this.booleanOf(field, value);
    if (boolean !== undefined) tests.boolean = (b) => `${b} = ${this.params.add(boolean)}`;
    if (field.type === 'date' && typeof value !== 'boolean') {
      // A date term covers what the value names: "2026-01-01" is that whole day (OpenSearch: gte v, lte v rounded up).
      const from = this.instant(field, value, false);
      const to = this.instant(field, value, true);
      tests.date = (t) => `(${t} >= ${this.params.add(new Date(from))} AND ${t} <= ${this.params.add(new Date(to))})`;
    }
    return tests;
  }

  private terms(name: string, values: readonly Scalar[]): string {
    if (values.length === 0) return 'FALSE';
    const field = this.field(name);
    if (values.length === 1) return this.term(name, values[0] as Scalar, false);
    const strings = values.map(String);
    const numbers = values.map((value) => this.numberOf(field, value)).filter((n): n is number => n !== undefined);
    const booleans = values.map((value) => this.booleanOf(field, value)).filter((b): b is boolean => b !== undefined);
    const tokens = strings.filter(isToken);
    const tests: ValueTests = {
      keyword: (s) => `${s} IN (${strings.map((text) => this.params.add(text)).join(', ')})`,
    };
    if (tokens.length > 0) tests.text = (s) => this.tokensMatch(s, tokens);
    const exactShortValues = strings.every((text) => text.length <= RAW_IGNORE_ABOVE);
    const withNeedles = (exact: string) => this.withNeedles(field, tests, values, exact);
    if (numbers.length > 0) tests.number = (n) => `${n} IN (${numbers.map((number) => this.params.add(number)).join(', ')})`;
    if (booleans.length > 0) tests.boolean = (b) => `${b} IN (${booleans.map((boolean) => this.params.add(boolean)).join(', ')})`;
    const dated = field.type === 'date' ? values.filter((value) => typeof value !== 'boolean') : [];
    if (dated.length > 0) {
      tests.date = (t) =>
        `(${dated
          .map((value) => `(${t} >= ${this.params.add(new Date(this.instant(field, value, false)))} AND ${t} <= ${this.params.add(new Date(this.instant(field, value, true)))})`)
          .join(' OR ')})`;
    }
    return withNeedles(this.anyValue(field, tests, { exactShortValues }));
  }

  private range(node: QueryNode & { type: 'range' }): string {
    const field = this.field(node.field);
    const problem = textRangeProblem(node, field);
    if (problem !== undefined) throw invalid(node.field, problem);
    const bounds = (['gt', 'gte', 'lt', 'lte'] as const).filter((bound) => node[bound] !== undefined);
    if (bounds.length === 0) return this.exists(node.field);
    const operators = { gt: '>', gte: '>=', lt: '<', lte: '<=' } as const;
    const tests: ValueTests = {};
    const compare = (value: string, to: (bound: 'gt' | 'gte' | 'lt' | 'lte') => string) =>
      bounds.map((bound) => `${value} ${operators[bound]} ${to(bound)}`).join(' AND ');

    const values = bounds.map((bound) => node[bound] as Scalar);
    tests.keyword = (s) => compare(s, (bound) => this.params.add(String(node[bound])));
    const numbers = bounds.map((bound) => this.numberOf(field, node[bound] as Scalar));
    if (numbers.every((n) => n !== undefined)) {
      tests.number = (n) => compare(n, (bound) => this.params.add(numbers[bounds.indexOf(bound)] as number));
    }
    if (field.type === 'date' && values.every((value) => typeof value !== 'boolean')) {
      const timeZone = node.time_zone ?? this.ctx.timeZone;
      // OpenSearch rounds gt and lte up (to the end of what the value names), gte and lt down.
      const instants = bounds.map((bound) => this.instant(field, node[bound] as string | number, bound === 'gt' || bound === 'lte', timeZone, node.format));
      tests.date = (t) => compare(t, (bound) => this.params.add(new Date(instants[bounds.indexOf(bound)] as number)));
    }
    const booleans = values.map((value) => this.booleanOf(field, value));
    if (booleans.every((b) => b !== undefined)) {
      tests.boolean = (b) => compare(`CAST(${b} AS INTEGER)`, (bound) => String(booleans[bounds.indexOf(bound)] ? 1 : 0));
    }
    return this.anyValue(field, tests);
  }

  private exists(name: string): string {
    const field = this.field(name);
    if (field.hot !== undefined) {
      const value = column(this.alias, field.hot.name);
      return field.raw ? `length(${value}) <= ${RAW_IGNORE_ABOVE}` : `${value} IS NOT NULL`;
    }
    return this.anyValue(field, {
      keyword: () => 'TRUE',
      text: () => 'TRUE',
      number: () => 'TRUE',
      boolean: () => 'TRUE',
      // A date that does not parse is not indexed (ignore_malformed).
      date: (t) => `${t} IS NOT NULL`,
    }, { exists: true });
  }

  private match(name: string, query: Scalar, operator: 'or' | 'and'): string {
    const field = this.field(name);
    const tests = this.equalityTests(field, query, false);
    const tokens = analyzeText(String(query));
    if (tokens.length === 0) delete tests.text;
    else if (operator === 'and') tests.text = (s) => tokens.map((token) => this.tokensMatch(s, [token])).join(' AND ');
    else tests.text = (s) => this.tokensMatch(s, tokens);
    return this.anyValue(field, tests);
  }

  private matchPhrase(name: string, query: string): string {
    const field = this.field(name);
    const tests = this.equalityTests(field, query, false);
    const tokens = analyzeText(query);
    if (tokens.length === 0) delete tests.text;
    else tests.text = (s) => this.regex(`lower(${s})`, `(^|${NOT_TOKEN})${tokens.join(`${NOT_TOKEN}+`)}(${NOT_TOKEN}|$)`);
    return this.anyValue(field, tests);
  }

  private prefix(name: string, value: string, caseInsensitive: boolean): string {
    const field = this.field(name);
    this.assertStringQuery(field, name, 'prefix');
    const tests: ValueTests = {
      keyword: caseInsensitive ? (s) => `starts_with(lower(${s}), lower(${this.params.add(value)}))` : (s) => `starts_with(${s}, ${this.params.add(value)})`,
    };
    // Text: some token starts with the lower-cased prefix.
    const lower = value.toLowerCase();
    if (lower === '') tests.text = (s) => this.regex(s, TOKEN_CHAR);
    else if (isToken(lower)) tests.text = (s) => this.regex(`lower(${s})`, `(^|${NOT_TOKEN})${lower}`);
    return this.anyValue(field, tests);
  }

  private wildcard(name: string, value: string, caseInsensitive: boolean): string {
    const field = this.field(name);
    this.assertStringQuery(field, name, 'wildcard');
    const tests: ValueTests = {
      keyword: (s) => this.regex(s, `${caseInsensitive ? '(?is)' : '(?s)'}^${wildcardRegex(value, '.', false) as string}$`),
    };
    // Text: some whole token matches the lower-cased pattern; its literal characters must be token characters.
    const pattern = wildcardRegex(value.toLowerCase(), TOKEN_CHAR, true);
    if (pattern !== undefined) tests.text = (s) => this.regex(`lower(${s})`, `(^|${NOT_TOKEN})${pattern}(${NOT_TOKEN}|$)`);
    return this.anyValue(field, tests);
  }

  // -------------------------------------------------------------------------------------------
  // Values of a field

  private field(name: string): FieldRef {
    // Trees built in code skip the parser: the name still goes into a JSON path.
    const problem = fieldNameProblem(name);
    if (problem !== undefined) throw invalid(name, problem);
    return resolveField(this.kind, name);
  }

  /**
   * "Some value of the field passes its kind's test." A typed column is one value of one kind; the
   * JSON document is every value along the path, each tested by its JSON type.
   * `exists`: an object with fields counts as a value. `exactShortValues`: the keyword test is
   * equality with strings of at most ignore_above characters, so `.raw`'s length limit holds by itself.
   */
  private anyValue(field: FieldRef, tests: ValueTests, options: { exists?: boolean; exactShortValues?: boolean } = {}): string {
    const lengthLimit = field.raw && options.exactShortValues !== true;
    if (field.hot !== undefined) {
      const value = column(this.alias, field.hot.name);
      const kind = hotKind(field);
      const test = tests[kind];
      if (test === undefined) return 'FALSE';
      return lengthLimit ? `(length(${value}) <= ${RAW_IGNORE_ABOVE} AND ${test(value)})` : test(value);
    }
    // The test of one JSON value, written once around a placeholder for the value it is applied to.
    const e = ELEMENT;
    const type = `json_type(${e})`;
    const branches: string[] = [];
    const strings = field.raw || field.type === 'keyword' || field.type === 'id' ? 'keyword' : field.type === 'date' ? 'date' : 'text';
    const stringTest = tests[strings];
    if (stringTest !== undefined) {
      const s = `json_extract_string(${e}, '$')`;
      const test = strings === 'date' ? stringTest(`TRY_CAST(${s} AS TIMESTAMPTZ)`) : stringTest(s);
      branches.push(`WHEN ${type} = 'VARCHAR' THEN ${lengthLimit ? `length(${s}) <= ${RAW_IGNORE_ABOVE} AND ${test}` : test}`);
    }
    // `.raw` exists for strings only (numbers and booleans have no keyword subfield).
    if (!field.raw) {
      if (tests.number !== undefined) branches.push(`WHEN ${type} IN ${JSON_NUMBER_TYPES} THEN ${tests.number(`CAST(${e} AS DOUBLE)`)}`);
      if (tests.boolean !== undefined) branches.push(`WHEN ${type} = 'BOOLEAN' THEN ${tests.boolean(`(${e} = 'true')`)}`);
      if (options.exists === true) branches.push(`WHEN ${type} = 'OBJECT' THEN ${e} <> '{}'`);
    }
    if (branches.length === 0) return 'FALSE';
    const predicate = `CASE ${branches.join(' ')} ELSE FALSE END`;
    return anyJsonValue(field.path, this.alias, (prefix) => this.lambdaName(prefix), (value) => predicate.replaceAll(ELEMENT, value));
  }

  private lambdaName(prefix: string): string {
    this.lambdas += 1;
    return `${prefix}_${this.lambdas}`;
  }

  // -------------------------------------------------------------------------------------------
  // Text

  /** Some token of the string is one of these (lower-case, letters and digits only, so no escaping is needed). */
  private tokensMatch(s: string, tokens: readonly string[]): string {
    const alternatives = tokens.length === 1 ? (tokens[0] as string) : `(?:${[...new Set(tokens)].join('|')})`;
    return this.regex(`lower(${s})`, `(^|${NOT_TOKEN})${alternatives}(${NOT_TOKEN}|$)`);
  }

  private regex(s: string, pattern: string): string {
    return `regexp_matches(${s}, ${this.params.add(pattern)})`;
  }

  // -------------------------------------------------------------------------------------------
  // Values of the query

  /** A number for numeric fields: numbers, and numeric strings (OpenSearch coerces "200" to 200). */
  private numberOf(field: FieldRef, value: Scalar): number | undefined {
    const number = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : Number.NaN;
    if (Number.isFinite(number)) return number;
    if (field.hot !== undefined && field.type === 'number') throw invalid(field.path, `${JSON.stringify(value)} is not a number`);
    return undefined;
  }

  private booleanOf(field: FieldRef, value: Scalar): boolean | undefined {
    if (typeof value === 'boolean') return value;
    if (value === 'true' || value === 'false') return value === 'true';
    if (field.hot !== undefined && field.type === 'boolean') throw invalid(field.path, `${JSON.stringify(value)} is not a boolean`);
    return undefined;
  }

  /** A date value or date math as epoch ms; values of a date field that do not parse are a 400. */
  private instant(field: FieldRef, value: string | number, roundUp: boolean, timeZone = this.ctx.timeZone, format?: string): number {
    return resolveDateMath(value, this.ctx.now, timeZone, roundUp, { field: field.path, ...(format === undefined ? {} : { format }) });
  }

  private assertStringQuery(field: FieldRef, name: string, query: string): void {
    if (field.type === 'date' || (field.hot !== undefined && (field.type === 'number' || field.type === 'boolean'))) {
      throw invalid(name, `${query} queries work on keyword and text fields; ${name} holds ${field.type === 'date' ? 'dates' : `${field.type}s`}`);
    }
  }
}

/**
 * "Some JSON value along the path passes the test", reading the document once: the value at the
 * path is tested directly when it is a scalar (the common case, no list is built), element by
 * element when it is an array, and through the array-of-objects paths only when the direct path
 * misses. Never NULL.
 */
function anyJsonValue(path: string, alias: string, name: (prefix: string) => string, test: (value: string) => string): string {
  const keys = path.split('.');
  const v = name('v');
  const anyOf = (list: string) => {
    const e = name('e');
    return `coalesce(list_bool_or(list_transform(${list}, lambda ${e}: ${test(e)})), FALSE)`;
  };
  const arrayPaths = arrayOfObjectPaths(keys, alias);
  const missing = arrayPaths.length === 0 ? 'FALSE' : anyOf(expandArrays(arrayPaths.length === 1 ? (arrayPaths[0] as string) : `list_concat(${arrayPaths.join(', ')})`, name('x')));
  return (
    `coalesce(list_transform([${jsonExtract(alias, keys)}], lambda ${v}: ` +
    `CASE WHEN ${v} IS NULL THEN ${missing} WHEN json_type(${v}) = 'ARRAY' THEN ${anyOf(`json_extract(${v}, '$[*]')`)} ELSE ${test(v)} END)[1], FALSE)`
  );
}

/**
 * The stored JSON a path is read from: `metadata.*` from the metadata column (the path below
 * `metadata`), everything else from the document. `metadata` is in OBJECT_PATHS, so no array
 * wildcard can sit on the key the metadata column drops.
 */
function jsonSource(alias: string, keys: readonly string[], wildcards: readonly boolean[] = []): { json: string; path: string } {
  if (keys.length > 1 && keys[0] === METADATA_COLUMN) {
    return { json: column(alias, METADATA_COLUMN), path: jsonPath(keys.slice(1), wildcards.slice(1)) };
  }
  return { json: column(alias, 'doc'), path: jsonPath(keys, wildcards) };
}

function jsonExtract(alias: string, keys: readonly string[], wildcards: readonly boolean[] = []): string {
  const { json, path } = jsonSource(alias, keys, wildcards);
  return `json_extract(${json}, ${path})`;
}

/** The JSON paths that reach a field through arrays of objects (each a list), for the path's positions that could hold one. */
function arrayOfObjectPaths(keys: readonly string[], alias: string): string[] {
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
function expandArrays(list: string, x: string): string {
  return `flatten(list_transform(${list}, lambda ${x}: CASE WHEN json_type(${x}) = 'ARRAY' THEN json_extract(${x}, '$[*]') ELSE [${x}] END))`;
}

/**
 * Every JSON value along a path, as a list of JSON with arrays expanded. The direct path is read
 * first; only when it misses (absent, or an array of objects on the way) are the array paths read.
 */
function jsonValuesSql(path: string, alias: string, name: (prefix: string) => string): string {
  const keys = path.split('.');
  const v = name('v');
  const arrayPaths = arrayOfObjectPaths(keys, alias);
  const missing = arrayPaths.length === 0 ? 'CAST([] AS JSON[])' : expandArrays(arrayPaths.length === 1 ? (arrayPaths[0] as string) : `list_concat(${arrayPaths.join(', ')})`, name('x'));
  return (
    `list_transform([${jsonExtract(alias, keys)}], lambda ${v}: ` +
    `CASE WHEN ${v} IS NULL THEN ${missing} WHEN json_type(${v}) = 'ARRAY' THEN ${expandArrays(`json_extract(${v}, '$[*]')`, name('x'))} ELSE [${v}] END)[1]`
  );
}

function hotKind(field: FieldRef): ValueKind {
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
function wildcardRegex(pattern: string, any: string, tokenOnly: boolean): string | undefined {
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

const escapeRegex = (ch: string): string => (/[\\^$.|?*+()[\]{}]/.test(ch) ? `\\${ch}` : ch);

function invalid(field: string, reason: string): ValidationError {
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
