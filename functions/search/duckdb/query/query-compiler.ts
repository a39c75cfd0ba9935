import type { QueryNode, Scalar } from '../../../../schemas/search-tree';
import { resolveDateMath } from '../../dates/date-math';
import { analyzeText, fieldNameProblem, isToken, RAW_IGNORE_ABOVE, resolveField, textRangeProblem, type FieldRef } from '../../fields';
import type { IndexKind } from '../../port';
import { parseQueryString } from '../../query-string';
import { literalWildcard, normalizeWildcard } from '../../wildcard-patterns';
import { METADATA_COLUMN, otherMetadataColumn, typedMetadataColumn, type TableContext, type TypedMetadataKey } from '../search-tables';
import { column, inStrings, type SqlParams } from './sql';
import { booleanOf, literalTest, numberOf, numberParam } from './query-values';
import {
  ELEMENT,
  JSON_NUMBER_TYPES,
  NOT_TOKEN,
  PLAIN_JSON_STRING,
  TOKEN_CHAR,
  type ValueTests,
  anyJsonValue,
  hotKind,
  invalid,
  jsonSource,
  minimumShouldMatch,
  wildcardRegex,
} from './field-sql';

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

export function compileQuery(node: QueryNode, kind: IndexKind, ctx: TableContext, params: SqlParams, alias = 'd'): string {
  return new QueryCompiler(kind, ctx, params, alias).compile(node);
}

export class QueryCompiler {
  private lambdas = 0;

  constructor(
    private readonly kind: IndexKind,
    private readonly ctx: TableContext,
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
        return node.values.length === 0 ? 'FALSE' : inStrings(this.params, column(this.alias, 'id'), node.values);
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
    if (field.hot !== undefined || this.typedMetadataKey(field) !== undefined || !(field.raw || field.type === 'keyword' || field.type === 'id')) return exact;
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
    const number = numberOf(field, value);
    if (number !== undefined) tests.number = (n) => `${n} = ${numberParam(this.params, number)}`;
    const boolean = booleanOf(field, value);
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
    const numbers = values.map((value) => numberOf(field, value)).filter((n): n is number => n !== undefined);
    const booleans = values.map((value) => booleanOf(field, value)).filter((b): b is boolean => b !== undefined);
    const tokens = strings.filter(isToken);
    const tests: ValueTests = {
      keyword: (s) => inStrings(this.params, s, strings),
    };
    if (tokens.length > 0) tests.text = (s) => this.tokensMatch(s, tokens);
    const exactShortValues = strings.every((text) => text.length <= RAW_IGNORE_ABOVE);
    const withNeedles = (exact: string) => this.withNeedles(field, tests, values, exact);
    if (numbers.length > 0) tests.number = (n) => `${n} IN (${numbers.map((number) => numberParam(this.params, number)).join(', ')})`;
    if (booleans.length > 0) tests.boolean = (b) => `${b} IN (${booleans.map((boolean) => this.params.add(boolean)).join(', ')})`;
    const dated = field.type === 'date' ? values.filter((value) => typeof value !== 'boolean') : [];
    if (dated.length > 0) {
      tests.date = (t) =>
        `(${dated
          .map(
            (value) =>
              `(${t} >= ${this.params.add(new Date(this.instant(field, value, false)))} AND ${t} <= ${this.params.add(new Date(this.instant(field, value, true)))})`,
          )
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
    const numbers = bounds.map((bound) => numberOf(field, node[bound] as Scalar));
    if (numbers.every((n) => n !== undefined)) {
      tests.number = (n) => compare(n, (bound) => numberParam(this.params, numbers[bounds.indexOf(bound)] as number));
    }
    if (field.type === 'date' && values.every((value) => typeof value !== 'boolean')) {
      const timeZone = node.time_zone ?? this.ctx.timeZone;
      // OpenSearch rounds gt and lte up (to the end of what the value names), gte and lt down.
      const instants = bounds.map((bound) => this.instant(field, node[bound] as string | number, bound === 'gt' || bound === 'lte', timeZone, node.format));
      tests.date = (t) => compare(t, (bound) => this.params.add(new Date(instants[bounds.indexOf(bound)] as number)));
    }
    const booleans = values.map((value) => booleanOf(field, value));
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
    return this.anyValue(
      field,
      {
        keyword: () => 'TRUE',
        text: () => 'TRUE',
        number: () => 'TRUE',
        boolean: () => 'TRUE',
        // A date that does not parse is not indexed (ignore_malformed).
        date: (t) => `${t} IS NOT NULL`,
      },
      { exists: true },
    );
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

  private wildcard(name: string, given: string, caseInsensitive: boolean): string {
    const field = this.field(name);
    this.assertStringQuery(field, name, 'wildcard');
    const value = normalizeWildcard(given);
    const literal = caseInsensitive ? undefined : literalWildcard(value);
    const tests: ValueTests = {
      // A literal with stars at its ends is a plain string test (a funnel step `*/search` over 10 M
      // events: a third of the query's time as a regular expression); anything else goes through
      // regexp_full_match, not an anchored regexp_matches: DuckDB rewrites the latter into a LIKE that backtracks.
      keyword: (s) =>
        literal === undefined
          ? `regexp_full_match(${s}, ${this.params.add(`${caseInsensitive ? '(?is)' : '(?s)'}${wildcardRegex(value, '.', false) as string}`)})`
          : literalTest(literal, s, this.params.add(literal.literal)),
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
    const strings = field.raw || field.type === 'keyword' || field.type === 'id' ? 'keyword' : field.type === 'date' ? 'date' : 'text';
    const stringTest = tests[strings];
    /** The test of one string value, as SQL of the string. */
    const ofString = (s: string) => {
      if (stringTest === undefined) return 'FALSE';
      const test = strings === 'date' ? stringTest(`TRY_CAST(${s} AS TIMESTAMPTZ)`) : stringTest(s);
      return lengthLimit ? `length(${s}) <= ${RAW_IGNORE_ABOVE} AND ${test}` : test;
    };
    /**
     * Some JSON value along the path (or in `valueSql`) passes its kind's test. Built only where
     * used: the tests add their values as parameters, and a statement must use every one it binds.
     */
    const fromJson = (valueSql?: string): string => {
      // The test of one JSON value, written once around a placeholder for the value it is applied to.
      const e = ELEMENT;
      const type = `json_type(${e})`;
      const branches: string[] = [];
      if (stringTest !== undefined) branches.push(`WHEN ${type} = 'VARCHAR' THEN ${ofString(`json_extract_string(${e}, '$')`)}`);
      // `.raw` exists for strings only (numbers and booleans have no keyword subfield).
      if (!field.raw) {
        if (tests.number !== undefined) branches.push(`WHEN ${type} IN ${JSON_NUMBER_TYPES} THEN ${tests.number(`CAST(${e} AS DOUBLE)`)}`);
        if (tests.boolean !== undefined) branches.push(`WHEN ${type} = 'BOOLEAN' THEN ${tests.boolean(`(${e} = 'true')`)}`);
        if (options.exists === true) branches.push(`WHEN ${type} = 'OBJECT' THEN ${e} <> '{}'`);
      }
      if (branches.length === 0) return 'FALSE';
      const predicate = `CASE ${branches.join(' ')} ELSE FALSE END`;
      return anyJsonValue(
        field.path,
        this.alias,
        (prefix) => this.lambdaName(prefix),
        (value) => predicate.replaceAll(ELEMENT, value),
        valueSql,
      );
    };
    const typed = this.typedMetadataKey(field);
    if (typed === undefined) return fromJson();
    // A typed metadata key (typed-metadata.ts): a string from its column, any other value from the
    // JSON of other values (NULL in nearly every row, so the scan never reads the metadata JSON).
    // A row holds one or the other or neither, so the OR is the CASE of the JSON path. Where no row
    // holds another value, the string's test alone is a filter DuckDB pushes into the scan.
    const value = column(this.alias, typedMetadataColumn(typed.key));
    const fromStrings = `(${value} IS NOT NULL AND ${ofString(value)})`;
    if (!typed.others) return fromStrings;
    const other = column(this.alias, otherMetadataColumn(typed.key));
    return `(${fromStrings} OR (${other} IS NOT NULL AND ${fromJson(other)}))`;
  }

  /** The metadata key of a field read from a typed column of the queried table, if it is one. */
  private typedMetadataKey(field: FieldRef): (TypedMetadataKey & { key: string }) | undefined {
    if (this.kind !== this.ctx.kind || this.ctx.typedMetadata === undefined) return undefined;
    const [root, key, ...rest] = field.path.split('.');
    if (root !== METADATA_COLUMN || key === undefined || rest.length > 0) return undefined;
    const typed = this.ctx.typedMetadata.get(key);
    return typed === undefined ? undefined : { ...typed, key };
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
