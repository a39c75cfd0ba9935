import * as z from 'zod';
import { resolveDateMath } from '../functions/search/dates/date-math';
import { assertDateFormat } from '../functions/search/dates/date-format';
import { parseCalendarInterval, parseFixedInterval, parseOffset } from '../functions/search/dates/intervals';
import { assertTimeZone } from '../functions/search/dates/time-zone';
import { effectiveSort } from '../functions/search/effective-sort';
import { fieldNameProblem, isDateName, resolveField, sortTypeOf, textRangeProblem, type SortType } from '../functions/search/fields';
import type { IndexKind } from '../functions/search/port';
import { parseQueryString, QueryStringError } from '../functions/search/query-string';
import { ValidationError, type FieldIssue } from '../functions/shared/errors';
import type { AggregationNode, BucketOrder, QueryNode, Scalar, SearchRequest, SortEntry, SourceFilter } from './search-tree';

/**
 * The search DSL as callers send it (OpenSearch's request body surface forms), parsed into the
 * typed tree of search-tree.ts. Everything not listed here is refused with a 400 naming the member:
 * scripts anywhere, index names, administrative and expensive features, unknown parameters.
 *
 * Caps: size ≤ 1000, from + size ≤ 10000, aggregations nest at most 5 deep, terms size ≤ 10000,
 * top_hits from + size ≤ 100, ≤ 1024 clauses per bool list, ≤ 65536 terms/ids values, ≤ 10000
 * buckets per response (all bucket aggregations together; enforced by both backends, see
 * functions/search/bucket-cap.ts).
 */

export const MAX_SIZE = 1000;
export const MAX_RESULT_WINDOW = 10_000;
export const MAX_AGGREGATION_DEPTH = 5;
export const MAX_TERMS_SIZE = 10_000;
export const MAX_TOP_HITS_WINDOW = 100;
export const MAX_BOOL_CLAUSES = 1024;
export const MAX_TERMS_VALUES = 65_536;
/**
 * The most buckets one response may hold, every bucket aggregation at every level counted (OpenSearch's
 * search.max_buckets, lowered from its 65,536). Beyond it: 400 naming the aggregation that passes it.
 */
export const MAX_BUCKETS = 10_000;
/** OpenSearch's largest `precision_threshold` of a cardinality aggregation. */
export const MAX_PRECISION_THRESHOLD = 40_000;
/** Deeper JSON than this is refused before parsing (a hostile body could otherwise exhaust the stack). */
export const MAX_BODY_DEPTH = 64;

type Ctx = z.core.$RefinementCtx;
type Path = (string | number)[];

export interface ParseOptions {
  /** The request's time zone: the default of date_histogram's `time_zone`. Default UTC. */
  readonly timeZone?: string;
}

// ---------------------------------------------------------------------------------------------
// Reasons for refused members.

const NOT_SUPPORTED = new Set([
  'profile',
  'runtime_mappings',
  'suggest',
  'highlight',
  'rescore',
  'collapse',
  'pit',
  'stored_fields',
  'docvalue_fields',
  'indices_boost',
  'explain',
  'version',
  'seq_no_primary_term',
  'min_score',
  'terminate_after',
  'stats',
  'ext',
  'slice',
  'fields',
  'search_type',
  'scroll',
  'timeout',
  'meta',
]);

/** Why a member the schema does not know is refused. */
function unknownMemberReason(key: string): string {
  if (/(^|[_.])script/i.test(key)) return 'scripts are not supported';
  if (key === 'index' || key === '_index' || key === 'indices') return 'index names cannot be given: the index follows from the endpoint';
  if (key === '_all') return '_all is not supported';
  if (NOT_SUPPORTED.has(key)) return `${key} is not supported`;
  return 'unknown parameter';
}

function issue(ctx: Ctx, path: Path, message: string): void {
  ctx.addIssue({ code: 'custom', message, path, input: undefined });
}

const INVALID = Symbol('invalid');
type Parsed<T> = T | typeof INVALID;

/** Parses a nested value with its own schema, reporting its issues under `path`. */
function parseAt<T>(schema: z.ZodType<T>, value: unknown, ctx: Ctx, path: Path): Parsed<T> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  for (const found of result.error.issues) {
    if (found.code === 'unrecognized_keys') {
      for (const key of found.keys) issue(ctx, [...path, ...(found.path as Path), key], unknownMemberReason(key));
    } else {
      issue(ctx, [...path, ...(found.path as Path)], found.message);
    }
  }
  return INVALID;
}

/** Runs a check of the dates module (which throws ValidationError) and reports its reason under `path`. */
function checkAt<T>(ctx: Ctx, path: Path, check: () => T): Parsed<T> {
  try {
    return check();
  } catch (error) {
    if (!(error instanceof ValidationError)) throw error;
    issue(ctx, path, error.details[0]?.reason ?? error.message);
    return INVALID;
  }
}

const isPlainObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

// ---------------------------------------------------------------------------------------------
// Leaves.

const Scalar: z.ZodType<Scalar> = z.union([z.string(), z.number().finite(), z.boolean()], { error: 'must be a string, number or boolean' });
/** OpenSearch accepts numbers as numeric strings too. */
const IntLike = (min: number, max: number, what: string) =>
  z.preprocess(
    (value) => (typeof value === 'string' && /^-?\d+$/.test(value.trim()) ? Number(value) : value),
    z
      .number({ error: `${what} must be an integer` })
      .int({ error: `${what} must be an integer` })
      .min(min, { error: `${what} must be at least ${min}` })
      .max(max, { error: `${what} must be at most ${max}` }),
  );
/** Relevance is not computed, so boosts change nothing; accepted for compatibility. */
const Boost = z.number({ error: 'boost must be a number' }).optional();
const QueryName = z.string({ error: '_name must be a string' }).optional();
const FieldName = z.string({ error: 'a field name must be a string' }).superRefine((name, ctx) => {
  const problem = fieldNameProblem(name);
  if (problem !== undefined) issue(ctx, [], problem);
});
const Order = z.preprocess(
  (value) => (typeof value === 'string' ? value.toLowerCase() : value),
  z.enum(['asc', 'desc'], { error: 'order must be "asc" or "desc"' }),
);
const Operator = z.preprocess(
  (value) => (typeof value === 'string' ? value.toLowerCase() : value),
  z.enum(['or', 'and'], { error: 'operator must be "or" or "and"' }),
);

// ---------------------------------------------------------------------------------------------
// Queries.

/** Field names whose strings are dates: their range/term values must parse as dates or date math. */
function checkDateValue(ctx: Ctx, path: Path, field: string, value: Scalar, roundUp: boolean, format?: string, timeZone = 'UTC'): void {
  if (field.endsWith('.raw') || !isDateName(field) || typeof value === 'boolean') return;
  checkAt(ctx, path, () => resolveDateMath(value, new Date(0), timeZone, roundUp, { format }));
}

/** The keys of a single-field body that name fields (not boost/_name); a script parameter is refused. */
function fieldKeys(body: Record<string, unknown>, ctx: Ctx): Parsed<string[]> {
  const script = Object.keys(body).find((key) => /(^|[_.])script/i.test(key) && !key.includes('.'));
  if (script !== undefined) {
    issue(ctx, [script], 'scripts are not supported');
    return INVALID;
  }
  return Object.keys(body).filter((key) => key !== 'boost' && key !== '_name');
}

/**
 * The single-field form `{kind: {field: value}}` or `{kind: {field: {...params}}}`; `boost` and
 * `_name` may sit beside the field. Reports a problem when there is not exactly one field.
 */
function singleField<T>(kind: string, parse: (field: string, spec: unknown, ctx: Ctx) => Parsed<T>) {
  return z.unknown().transform((body, ctx): T => {
    if (!isPlainObject(body)) {
      issue(ctx, [], `${kind} takes an object: {"${kind}": {"field": ...}}`);
      return z.NEVER;
    }
    const fields = fieldKeys(body, ctx);
    if (fields === INVALID || parseAt(z.object({ boost: Boost, _name: QueryName }), body, ctx, []) === INVALID) return z.NEVER;
    if (fields.length !== 1) {
      issue(ctx, fields.length === 0 ? [] : [fields[1] as string], `${kind} takes exactly one field`);
      return z.NEVER;
    }
    const field = fields[0] as string;
    if (parseAt(FieldName, field, ctx, [field]) === INVALID) return z.NEVER;
    const parsed = parse(field, body[field], ctx);
    return parsed === INVALID ? z.NEVER : parsed;
  });
}

/** A value given directly (`{field: value}`) or as the `valueKey` member of a parameter object. */
function valueOrParams<P extends Record<string, unknown>>(
  spec: unknown,
  ctx: Ctx,
  path: Path,
  value: z.ZodType,
  params: z.ZodType<P>,
  valueKey: string,
): Parsed<P> {
  if (isPlainObject(spec)) return parseAt(params, spec, ctx, path);
  const direct = parseAt(value, spec, ctx, path);
  return direct === INVALID ? INVALID : ({ [valueKey]: direct } as P);
}

const TermParams = z.strictObject({ value: Scalar, case_insensitive: z.boolean().optional(), boost: Boost, _name: QueryName });
const term = singleField('term', (field, spec, ctx): Parsed<QueryNode> => {
  const params = valueOrParams(spec, ctx, [field], Scalar, TermParams, 'value');
  if (params === INVALID) return INVALID;
  checkDateValue(ctx, [field], field, params.value, false);
  return { type: 'term', field, value: params.value, case_insensitive: params.case_insensitive ?? false };
});

const terms = z.unknown().transform((body, ctx): QueryNode => {
  if (!isPlainObject(body)) {
    issue(ctx, [], 'terms takes an object: {"terms": {"field": [values]}}');
    return z.NEVER;
  }
  const fields = fieldKeys(body, ctx);
  if (fields === INVALID || parseAt(z.object({ boost: Boost, _name: QueryName }), body, ctx, []) === INVALID) return z.NEVER;
  if (fields.length !== 1) {
    issue(ctx, fields.length === 0 ? [] : [fields[1] as string], 'terms takes exactly one field');
    return z.NEVER;
  }
  const field = fields[0] as string;
  if (parseAt(FieldName, field, ctx, [field]) === INVALID) return z.NEVER;
  if (isPlainObject(body[field])) {
    issue(ctx, [field], 'terms lookup (values read from another document) is not supported');
    return z.NEVER;
  }
  const values = parseAt(z.array(Scalar, { error: 'terms takes an array of values' }).max(MAX_TERMS_VALUES), body[field], ctx, [field]);
  if (values === INVALID) return z.NEVER;
  values.forEach((value, position) => checkDateValue(ctx, [field, position], field, value, false));
  return { type: 'terms', field, values };
});

const Bound = Scalar.nullable().optional();
const RangeParams = z.strictObject({
  gt: Bound,
  gte: Bound,
  lt: Bound,
  lte: Bound,
  from: Bound,
  to: Bound,
  include_lower: z.boolean().optional(),
  include_upper: z.boolean().optional(),
  format: z.string().optional(),
  time_zone: z.string().optional(),
  boost: Boost,
  _name: QueryName,
});
const range = singleField('range', (field, spec, ctx): Parsed<QueryNode> => {
  const params = parseAt(RangeParams, spec, ctx, [field]);
  if (params === INVALID) return INVALID;
  const node: QueryNode & { type: 'range' } = { type: 'range', field };
  // The older from/to form: inclusive unless include_lower / include_upper say otherwise.
  const lower: [keyof typeof params, 'gt' | 'gte'][] = [
    ['gt', 'gt'],
    ['gte', 'gte'],
    ['from', params.include_lower === false ? 'gt' : 'gte'],
  ];
  const upper: [keyof typeof params, 'lt' | 'lte'][] = [
    ['lt', 'lt'],
    ['lte', 'lte'],
    ['to', params.include_upper === false ? 'lt' : 'lte'],
  ];
  for (const bounds of [lower, upper]) {
    const given = bounds.filter(([key]) => params[key] !== undefined && params[key] !== null);
    if (given.length > 1) {
      issue(ctx, [field, given[1]![0]], `give one of ${bounds.map(([key]) => key).join(', ')}`);
      return INVALID;
    }
    const [key, bound] = given[0] ?? [];
    if (key !== undefined && bound !== undefined) node[bound] = params[key] as Scalar;
  }
  if (params.format !== undefined) {
    const format = checkAt(ctx, [field, 'format'], () => assertDateFormat(params.format as string));
    if (format === INVALID) return INVALID;
    node.format = format;
  }
  if (params.time_zone !== undefined) {
    const zone = checkAt(ctx, [field, 'time_zone'], () => assertTimeZone(params.time_zone as string));
    if (zone === INVALID) return INVALID;
    node.time_zone = zone;
  }
  for (const bound of ['gt', 'gte', 'lt', 'lte'] as const) {
    const value = node[bound];
    if (value !== undefined) checkDateValue(ctx, [field, bound], field, value, bound === 'gt' || bound === 'lte', node.format, node.time_zone);
  }
  // Typed by name only (no index kind here): a text column is refused again when the query compiles.
  const problem = textRangeProblem(node, resolveField('events', field));
  if (problem !== undefined) {
    issue(ctx, [field], problem);
    return INVALID;
  }
  return node;
});

const exists = z
  .strictObject({ field: FieldName, boost: Boost, _name: QueryName })
  .transform(({ field }): QueryNode => ({ type: 'exists', field }));

const MatchParams = z.strictObject({ query: Scalar, operator: Operator.optional(), boost: Boost, _name: QueryName });
const match = singleField('match', (field, spec, ctx): Parsed<QueryNode> => {
  const params = valueOrParams(spec, ctx, [field], Scalar, MatchParams, 'query');
  if (params === INVALID) return INVALID;
  checkDateValue(ctx, [field], field, params.query, false);
  return { type: 'match', field, query: params.query, operator: params.operator ?? 'or' };
});

const MatchPhraseParams = z.strictObject({
  query: Scalar,
  slop: z.literal(0, { error: 'slop other than 0 is not supported' }).optional(),
  boost: Boost,
  _name: QueryName,
});
const matchPhrase = singleField('match_phrase', (field, spec, ctx): Parsed<QueryNode> => {
  const params = valueOrParams(spec, ctx, [field], Scalar, MatchPhraseParams, 'query');
  if (params === INVALID) return INVALID;
  return { type: 'match_phrase', field, query: String(params.query) };
});

const PatternValue = z.string({ error: 'must be a string' });
const PrefixParams = z.strictObject({ value: PatternValue, case_insensitive: z.boolean().optional(), boost: Boost, _name: QueryName });
const prefix = singleField('prefix', (field, spec, ctx): Parsed<QueryNode> => {
  const params = valueOrParams(spec, ctx, [field], PatternValue, PrefixParams, 'value');
  if (params === INVALID) return INVALID;
  return { type: 'prefix', field, value: params.value, case_insensitive: params.case_insensitive ?? false };
});

const WildcardParams = z.strictObject({
  value: PatternValue.optional(),
  wildcard: PatternValue.optional(),
  case_insensitive: z.boolean().optional(),
  boost: Boost,
  _name: QueryName,
});
const wildcard = singleField('wildcard', (field, spec, ctx): Parsed<QueryNode> => {
  const params = valueOrParams(spec, ctx, [field], PatternValue, WildcardParams, 'value');
  if (params === INVALID) return INVALID;
  const value = params.value ?? params.wildcard;
  if (value === undefined || (params.value !== undefined && params.wildcard !== undefined)) {
    issue(ctx, [field], 'wildcard takes one of value or wildcard');
    return INVALID;
  }
  return { type: 'wildcard', field, value, case_insensitive: params.case_insensitive ?? false };
});

const ids = z
  .strictObject({
    values: z.array(z.union([z.string(), z.number().int()], { error: 'ids are strings' }), { error: 'values must be an array of ids' }).max(MAX_TERMS_VALUES),
    boost: Boost,
    _name: QueryName,
  })
  .transform(({ values }): QueryNode => ({ type: 'ids', values: values.map(String) }));

const matchAll = z.strictObject({ boost: Boost, _name: QueryName }).transform((): QueryNode => ({ type: 'match_all' }));
const matchNone = z.strictObject({ boost: Boost, _name: QueryName }).transform((): QueryNode => ({ type: 'match_none' }));

/** OpenSearch's simple forms: an integer, a negative integer, a percentage, a negative percentage. */
const MSM_MESSAGE = 'minimum_should_match must be an integer or a percentage such as "75%" or "-25%"';
const MinimumShouldMatch = z.union([z.number().int({ error: MSM_MESSAGE }), z.string().regex(/^\s*-?\d+\s*%?\s*$/, { error: MSM_MESSAGE })], { error: MSM_MESSAGE });

const QueryStringParams = z.strictObject({
  query: z.string({ error: 'query must be a string' }),
  default_field: FieldName.optional(),
  default_operator: Operator.optional(),
  boost: Boost,
  _name: QueryName,
});
const queryString = z.unknown().transform((body, ctx): QueryNode => {
  const params = parseAt(QueryStringParams, body, ctx, []);
  if (params === INVALID) return z.NEVER;
  const node: QueryNode = {
    type: 'query_string',
    query: params.query,
    default_operator: params.default_operator ?? 'or',
    ...(params.default_field === undefined ? {} : { default_field: params.default_field }),
  };
  try {
    parseQueryString(node.query, node, (field) => {
      const problem = fieldNameProblem(field);
      if (problem !== undefined) throw new QueryStringError(`${field}: ${problem}`);
    });
  } catch (error) {
    if (!(error instanceof QueryStringError)) throw error;
    issue(ctx, ['query'], error.message);
    return z.NEVER;
  }
  return node;
});

const UNSUPPORTED_QUERIES = new Set([
  'regexp',
  'fuzzy',
  'multi_match',
  'simple_query_string',
  'match_phrase_prefix',
  'match_bool_prefix',
  'combined_fields',
  'nested',
  'has_child',
  'has_parent',
  'parent_id',
  'more_like_this',
  'percolate',
  'wrapper',
  'terms_set',
  'function_score',
  'dis_max',
  'boosting',
  'distance_feature',
  'rank_feature',
  'pinned',
  'intervals',
  'knn',
  'neural',
  'hybrid',
  'type',
  'geo_bounding_box',
  'geo_distance',
  'geo_polygon',
  'geo_shape',
  'shape',
  'span_term',
  'span_near',
  'span_or',
  'span_not',
  'span_first',
  'span_multi',
  'span_containing',
  'span_within',
  'field_masking_span',
]);

/** One key names the kind; the dispatch reports an unknown or refused kind under that key. */
function oneOf<T>(what: string, kinds: Record<string, z.ZodType<T>>, refused: (key: string) => string) {
  return z.unknown().transform((body, ctx): T => {
    if (!isPlainObject(body)) {
      issue(ctx, [], `a ${what} is an object with one ${what} type`);
      return z.NEVER;
    }
    const keys = Object.keys(body);
    if (keys.length !== 1) {
      issue(ctx, keys.length === 0 ? [] : [keys[1] as string], `a ${what} has exactly one ${what} type${keys.length === 0 ? '' : `; found ${keys.join(', ')}`}`);
      return z.NEVER;
    }
    const key = keys[0] as string;
    const schema = Object.hasOwn(kinds, key) ? kinds[key] : undefined;
    if (schema === undefined) {
      issue(ctx, [key], refused(key));
      return z.NEVER;
    }
    const parsed = parseAt(schema, body[key], ctx, [key]);
    return parsed === INVALID ? z.NEVER : parsed;
  });
}

function refusedQuery(key: string): string {
  if (/(^|[_.])script/i.test(key)) return 'scripts are not supported';
  if (UNSUPPORTED_QUERIES.has(key)) return `the ${key} query is not supported`;
  return `unknown query type "${key}"`;
}

export const Query: z.ZodType<QueryNode> = z.lazy(() =>
  oneOf<QueryNode>(
    'query',
    {
      match_all: matchAll,
      match_none: matchNone,
      bool,
      term,
      terms,
      range,
      exists,
      match,
      match_phrase: matchPhrase,
      prefix,
      wildcard,
      ids,
      query_string: queryString,
      constant_score: constantScore,
    },
    refusedQuery,
  ),
);

/** A bool clause list: one query or an array of them. */
const Clauses = z.preprocess(
  (value) => (Array.isArray(value) ? value : [value]),
  z.array(Query).max(MAX_BOOL_CLAUSES, { error: `at most ${MAX_BOOL_CLAUSES} clauses` }),
);

const bool = z
  .strictObject({
    must: Clauses.optional(),
    filter: Clauses.optional(),
    should: Clauses.optional(),
    must_not: Clauses.optional(),
    minimum_should_match: MinimumShouldMatch.optional(),
    boost: Boost,
    _name: QueryName,
  })
  .transform(
    (body): QueryNode => ({
      type: 'bool',
      must: body.must ?? [],
      filter: body.filter ?? [],
      should: body.should ?? [],
      must_not: body.must_not ?? [],
      ...(body.minimum_should_match === undefined ? {} : { minimum_should_match: body.minimum_should_match }),
    }),
  );

/** Every match scores the same (relevance is not computed), so constant_score is a filter. */
const constantScore = z
  .strictObject({ filter: Query, boost: Boost, _name: QueryName })
  .transform((body): QueryNode => ({ type: 'bool', must: [], filter: [body.filter], should: [], must_not: [] }));

// ---------------------------------------------------------------------------------------------
// Sort, _source.

const UNMAPPED_TYPES = ['keyword', 'text', 'long', 'integer', 'short', 'byte', 'double', 'float', 'half_float', 'scaled_float', 'unsigned_long', 'date', 'date_nanos', 'boolean', 'ip'] as const;
type UnmappedType = (typeof UNMAPPED_TYPES)[number];
/**
 * How each unmapped_type sorts. It must be how the field sorts anyway (fields.ts decides that for both
 * backends): OpenSearch would otherwise sort indices without the field one way and the others another,
 * and page through them with search_after values of the wrong type. text and ip sort in no way we serve.
 */
const UNMAPPED_SORT_TYPE: Partial<Record<UnmappedType, SortType>> = {
  keyword: 'keyword',
  long: 'number',
  integer: 'number',
  short: 'number',
  byte: 'number',
  double: 'number',
  float: 'number',
  half_float: 'number',
  scaled_float: 'number',
  unsigned_long: 'number',
  date: 'date',
  date_nanos: 'date',
  boolean: 'boolean',
};
const SortParams = z.strictObject({
  order: Order.optional(),
  missing: Scalar.optional(),
  unmapped_type: z.enum(UNMAPPED_TYPES, { error: `unmapped_type must be one of ${UNMAPPED_TYPES.join(', ')}` }).optional(),
});

function sortEntry(kind: IndexKind) {
  return z.unknown().transform((item, ctx): SortEntry => {
    const entry = (field: string, params: z.infer<typeof SortParams>, path: Path): SortEntry | typeof z.NEVER => {
      if (field === '_doc') {
        issue(ctx, path, 'sorting by _doc (index order) is not supported; sort by a field or _id');
        return z.NEVER;
      }
      if (field !== '_score') {
        if (parseAt(FieldName, field, ctx, path) === INVALID) return z.NEVER;
        const ref = resolveField(kind, field);
        if (ref.type === 'text') {
          issue(ctx, path, `${field} is a text field and cannot be sorted on; use ${field}.raw`);
          return z.NEVER;
        }
        if (params.unmapped_type !== undefined && UNMAPPED_SORT_TYPE[params.unmapped_type] !== sortTypeOf(ref)) {
          const fitting = UNMAPPED_TYPES.filter((type) => UNMAPPED_SORT_TYPE[type] === sortTypeOf(ref));
          issue(ctx, [...path, 'unmapped_type'], `${field} sorts as ${sortTypeOf(ref)}: unmapped_type must be one of ${fitting.join(', ')}`);
          return z.NEVER;
        }
      }
      return {
        field,
        order: params.order ?? (field === '_score' ? 'desc' : 'asc'),
        missing: params.missing ?? '_last',
        ...(params.unmapped_type === undefined ? {} : { unmapped_type: params.unmapped_type }),
      };
    };
    if (typeof item === 'string') return entry(item, {}, []);
    if (!isPlainObject(item)) {
      issue(ctx, [], 'a sort entry is a field name or {"field": "asc"|"desc"|{"order": ...}}');
      return z.NEVER;
    }
    const keys = Object.keys(item);
    if (keys.length !== 1) {
      issue(ctx, keys.length === 0 ? [] : [keys[1] as string], 'a sort entry names exactly one field');
      return z.NEVER;
    }
    const field = keys[0] as string;
    if (/(^|[_.])script/i.test(field)) {
      issue(ctx, [field], 'scripts are not supported');
      return z.NEVER;
    }
    if (field.startsWith('_geo')) {
      issue(ctx, [field], `${field} sorting is not supported`);
      return z.NEVER;
    }
    const spec = item[field];
    const params = typeof spec === 'string' ? parseAt(z.object({ order: Order }), { order: spec }, ctx, [field]) : parseAt(SortParams, spec, ctx, [field]);
    if (params === INVALID) return z.NEVER;
    return entry(field, params, [field]);
  });
}

const sortList = (kind: IndexKind) => z.preprocess((value) => (Array.isArray(value) ? value : [value]), z.array(sortEntry(kind)));

const Patterns = z.preprocess(
  (value) => (typeof value === 'string' ? [value] : value),
  z.array(z.string().min(1, { error: 'a pattern cannot be empty' }), { error: 'a pattern or an array of patterns' }),
);
const SourceSpec: z.ZodType<SourceFilter> = z.unknown().transform((value, ctx): SourceFilter => {
  if (value === false) return false;
  if (value === true) return { includes: [], excludes: [] };
  if (typeof value === 'string' || Array.isArray(value)) {
    const includes = parseAt(Patterns, value, ctx, []);
    return includes === INVALID ? z.NEVER : { includes, excludes: [] };
  }
  const parsed = parseAt(
    z.strictObject({ includes: Patterns.optional(), include: Patterns.optional(), excludes: Patterns.optional(), exclude: Patterns.optional() }),
    value,
    ctx,
    [],
  );
  if (parsed === INVALID) return z.NEVER;
  return { includes: parsed.includes ?? parsed.include ?? [], excludes: parsed.excludes ?? parsed.exclude ?? [] };
});

// ---------------------------------------------------------------------------------------------
// Aggregations.

const BUCKET_TYPES = new Set(['terms', 'date_histogram', 'histogram', 'range', 'filter', 'filters']);
const SINGLE_VALUE_METRICS = new Set(['sum', 'avg', 'min', 'max', 'value_count', 'cardinality']);
const STATS_PROPERTIES = new Set(['count', 'min', 'max', 'avg', 'sum']);
const UNSUPPORTED_AGGREGATIONS = new Set([
  'date_range',
  'ip_range',
  'composite',
  'significant_terms',
  'significant_text',
  'rare_terms',
  'multi_terms',
  'auto_date_histogram',
  'variable_width_histogram',
  'nested',
  'reverse_nested',
  'children',
  'parent',
  'sampler',
  'diversified_sampler',
  'adjacency_matrix',
  'missing',
  'extended_stats',
  'weighted_avg',
  'median_absolute_deviation',
  'percentile_ranks',
  'matrix_stats',
  'geo_bounds',
  'geo_centroid',
  'geohash_grid',
  'geotile_grid',
  'geo_distance',
  'avg_bucket',
  'sum_bucket',
  'min_bucket',
  'max_bucket',
  'stats_bucket',
  'extended_stats_bucket',
  'percentiles_bucket',
  'derivative',
  'cumulative_sum',
  'moving_avg',
  'moving_fn',
  'serial_diff',
  'bucket_sort',
]);

function refusedAggregation(key: string): string {
  if (/(^|[_.])script/i.test(key)) return 'scripts are not supported';
  if (key === 'global') return 'global aggregations are not supported (they would ignore the query)';
  if (UNSUPPORTED_AGGREGATIONS.has(key)) return `the ${key} aggregation is not supported`;
  return `unknown aggregation type "${key}"`;
}

/** A field an aggregation reads: text fields have no per-document values to group or compute on. */
function aggregatableField(kind: IndexKind, ctx: Ctx, field: string, numeric: boolean): boolean {
  const type = resolveField(kind, field).type;
  if (type === 'text') {
    issue(ctx, [], `${field} is a text field and cannot be aggregated; use ${field}.raw`);
    return false;
  }
  if (numeric && (type === 'keyword' || type === 'id')) {
    issue(ctx, [], `${field} is a keyword field; this aggregation needs numbers or dates`);
    return false;
  }
  return true;
}

const OrderSpec = z.preprocess(
  (value) => (Array.isArray(value) ? value : [value]),
  z.array(z.record(z.string(), Order).refine((entry) => Object.keys(entry).length === 1, { error: 'each order entry names one key' })),
);

type OrderRequest = z.infer<typeof OrderSpec>;

/** Bucket orders when the request names none. */
const DEFAULT_ORDERS: Readonly<Record<string, BucketOrder[]>> = {
  terms: [
    { key: '_count', order: 'desc' },
    { key: '_key', order: 'asc' },
  ],
  date_histogram: [{ key: '_key', order: 'asc' }],
  histogram: [{ key: '_key', order: 'asc' }],
};

/**
 * The order of a bucket aggregation, checked once its sub-aggregations are known: each key names
 * `_count`, `_key` (`_term`) or a single-value metric among them.
 */
function bucketOrder(ctx: Ctx, path: Path, raw: OrderRequest | undefined, fallback: BucketOrder[], subAggs: Record<string, AggregationNode>): Parsed<BucketOrder[]> {
  if (raw === undefined) return fallback;
  const orders: BucketOrder[] = [];
  for (const [position, entry] of raw.entries()) {
    const [key, order] = Object.entries(entry)[0] as [string, 'asc' | 'desc'];
    const name = key === '_term' ? '_key' : key;
    if (name !== '_count' && name !== '_key') {
      const problem = metricPathProblem(name, subAggs);
      if (problem !== undefined) {
        issue(ctx, [...path, 'order', position, key], problem);
        return INVALID;
      }
    }
    orders.push({ key: name, order });
  }
  // OpenSearch breaks ties by key ascending unless the order already involves the key.
  if (!orders.some((order) => order.key === '_key')) orders.push({ key: '_key', order: 'asc' });
  return orders;
}

function metricPathProblem(path: string, subAggs: Record<string, AggregationNode>): string | undefined {
  const match = /^([^.[\]>]+)(?:\.([^.[\]]+)|\[([^\]]+)\])?$/.exec(path);
  const name = match?.[1];
  const property = match?.[2] ?? match?.[3];
  const target = name === undefined ? undefined : subAggs[name];
  if (target === undefined) return `order names "${path}", which is not a sub-aggregation`;
  if (SINGLE_VALUE_METRICS.has(target.type) && (property === undefined || property === 'value')) return undefined;
  if (target.type === 'stats' && property !== undefined && STATS_PROPERTIES.has(property)) return undefined;
  if (target.type === 'percentiles' && property !== undefined && Number.isFinite(Number(property))) {
    return target.percents.includes(Number(property)) ? undefined : `percentile ${property} is not among the sub-aggregation's percents`;
  }
  return `order by "${path}" needs a single-value metric (sum, avg, min, max, value_count, cardinality, a stats property, a percentile)`;
}

const Missing = Scalar.optional();

/** The schemas of every aggregation type (built once per index kind and request time zone). */
function aggregationSchemas(kind: IndexKind, options: Required<ParseOptions>): Record<string, z.ZodType<Record<string, unknown>>> {
  const field = (numeric: boolean) =>
    FieldName.superRefine((name, ctx) => {
      aggregatableField(kind, ctx, name, numeric);
    });

  const terms = z
    .strictObject({
      field: field(false),
      size: IntLike(1, MAX_TERMS_SIZE, 'size').optional(),
      shard_size: IntLike(1, Number.MAX_SAFE_INTEGER, 'shard_size').optional(),
      order: OrderSpec.optional(),
      min_doc_count: IntLike(0, Number.MAX_SAFE_INTEGER, 'min_doc_count').optional(),
      missing: Missing,
    })
    .transform((body) => {
      return {
        type: 'terms' as const,
        field: body.field,
        size: body.size ?? 10,
        order: body.order,
        min_doc_count: body.min_doc_count ?? 1,
        ...(body.missing === undefined ? {} : { missing: body.missing }),
        ...(body.shard_size === undefined ? {} : { shard_size: body.shard_size }),
      };
    });

  const Bounds = z.strictObject({ min: Scalar, max: Scalar });
  const dateHistogram = z
    .strictObject({
      field: field(true),
      calendar_interval: z.string().optional(),
      fixed_interval: z.string().optional(),
      interval: z.unknown().optional(),
      time_zone: z.string().optional(),
      min_doc_count: IntLike(0, Number.MAX_SAFE_INTEGER, 'min_doc_count').optional(),
      extended_bounds: Bounds.optional(),
      format: z.string().optional(),
      offset: z.union([z.string(), z.number().int()]).optional(),
      order: OrderSpec.optional(),
    })
    .transform((body, ctx) => {
      if (body.interval !== undefined) {
        issue(ctx, ['interval'], 'interval is deprecated and ambiguous: use calendar_interval or fixed_interval');
        return z.NEVER;
      }
      if ((body.calendar_interval === undefined) === (body.fixed_interval === undefined)) {
        issue(ctx, body.calendar_interval === undefined ? [] : ['fixed_interval'], 'give exactly one of calendar_interval or fixed_interval');
        return z.NEVER;
      }
      const valid = [
        body.calendar_interval === undefined ? true : checkAt(ctx, ['calendar_interval'], () => parseCalendarInterval(body.calendar_interval as string)),
        body.fixed_interval === undefined ? true : checkAt(ctx, ['fixed_interval'], () => parseFixedInterval(body.fixed_interval as string)),
        body.offset === undefined ? true : checkAt(ctx, ['offset'], () => parseOffset(body.offset as string | number)),
        body.format === undefined ? true : checkAt(ctx, ['format'], () => assertDateFormat(body.format as string)),
      ];
      const timeZone = body.time_zone === undefined ? options.timeZone : checkAt(ctx, ['time_zone'], () => assertTimeZone(body.time_zone as string));
      if (valid.includes(INVALID) || timeZone === INVALID) return z.NEVER;
      if (body.extended_bounds !== undefined) {
        for (const bound of ['min', 'max'] as const) {
          const value = body.extended_bounds[bound];
          if (typeof value === 'boolean') issue(ctx, ['extended_bounds', bound], 'must be a date or epoch milliseconds');
          else checkAt(ctx, ['extended_bounds', bound], () => resolveDateMath(value, new Date(0), timeZone, false, { format: body.format }));
        }
      }
      return {
        type: 'date_histogram' as const,
        field: body.field,
        ...(body.calendar_interval === undefined ? {} : { calendar_interval: body.calendar_interval }),
        ...(body.fixed_interval === undefined ? {} : { fixed_interval: body.fixed_interval }),
        time_zone: timeZone,
        min_doc_count: body.min_doc_count ?? 0,
        ...(body.extended_bounds === undefined ? {} : { extended_bounds: body.extended_bounds }),
        ...(body.format === undefined ? {} : { format: body.format }),
        ...(body.offset === undefined ? {} : { offset: String(body.offset) }),
        order: body.order,
      };
    });

  const histogram = z
    .strictObject({
      field: field(true),
      interval: z.number({ error: 'interval must be a number' }).positive({ error: 'interval must be above 0' }),
      min_doc_count: IntLike(0, Number.MAX_SAFE_INTEGER, 'min_doc_count').optional(),
      extended_bounds: z.strictObject({ min: z.number(), max: z.number() }).optional(),
      offset: z.number().optional(),
      order: OrderSpec.optional(),
    })
    .transform((body) => ({
      type: 'histogram' as const,
      field: body.field,
      interval: body.interval,
      min_doc_count: body.min_doc_count ?? 0,
      ...(body.extended_bounds === undefined ? {} : { extended_bounds: body.extended_bounds }),
      offset: body.offset ?? 0,
      order: body.order,
    }));

  const RangeBound = z.union([z.number(), z.string()]).nullable().optional();
  const rangeAgg = z
    .strictObject({
      field: field(true),
      ranges: z
        .array(z.strictObject({ key: z.string().optional(), from: RangeBound, to: RangeBound }))
        .min(1, { error: 'give at least one range' })
        .max(MAX_TERMS_SIZE),
      keyed: z.boolean().optional(),
    })
    .transform((body) => ({
      type: 'range' as const,
      field: body.field,
      ranges: body.ranges.map((r) => ({
        ...(r.key === undefined ? {} : { key: r.key }),
        ...(r.from === undefined || r.from === null ? {} : { from: r.from }),
        ...(r.to === undefined || r.to === null ? {} : { to: r.to }),
      })),
      keyed: body.keyed ?? false,
    }));

  const filter = Query.transform((query) => ({ type: 'filter' as const, filter: query }));

  const filters = z
    .strictObject({
      filters: z.union([z.record(z.string(), Query), z.array(Query)], { error: 'filters is an object of named queries or an array of queries' }),
      other_bucket: z.boolean().optional(),
      other_bucket_key: z.string().min(1).optional(),
    })
    .superRefine((body, ctx) => {
      const count = Array.isArray(body.filters) ? body.filters.length : Object.keys(body.filters).length;
      if (count > MAX_TERMS_SIZE) issue(ctx, ['filters'], `at most ${MAX_TERMS_SIZE} filters`);
    })
    .transform((body) => {
      const keyed = !Array.isArray(body.filters);
      const entries = Array.isArray(body.filters) ? body.filters.map((query, position) => [String(position), query] as const) : Object.entries(body.filters);
      const other = body.other_bucket_key ?? (body.other_bucket === true ? '_other_' : undefined);
      return {
        type: 'filters' as const,
        filters: entries.map(([key, query]) => ({ key, filter: query })),
        keyed,
        ...(other === undefined || body.other_bucket === false ? {} : { other_bucket_key: other }),
      };
    });

  const metric = <T extends 'sum' | 'avg' | 'min' | 'max' | 'value_count' | 'cardinality' | 'stats'>(type: T, numeric: boolean) =>
    z
      .strictObject({
        field: field(numeric),
        missing: Missing,
        ...(type === 'cardinality' ? { precision_threshold: z.number().int().min(0).max(MAX_PRECISION_THRESHOLD, { error: `precision_threshold is at most ${MAX_PRECISION_THRESHOLD}` }).optional() } : {}),
      })
      .transform((body) => ({
        type,
        field: body.field,
        ...(body.missing === undefined ? {} : { missing: body.missing }),
        ...('precision_threshold' in body && typeof body.precision_threshold === 'number' ? { precision_threshold: body.precision_threshold } : {}),
      }));

  const percentiles = z
    .strictObject({
      field: field(true),
      percents: z.array(z.number().min(0).max(100), { error: 'percents must be numbers from 0 to 100' }).min(1).max(100).optional(),
      keyed: z.boolean().optional(),
      missing: Missing,
    })
    .transform((body) => ({
      type: 'percentiles' as const,
      field: body.field,
      percents: body.percents ?? [1, 5, 25, 50, 75, 95, 99],
      keyed: body.keyed ?? true,
      ...(body.missing === undefined ? {} : { missing: body.missing }),
    }));

  const topHits = z
    .strictObject({
      size: IntLike(0, MAX_TOP_HITS_WINDOW, 'size').optional(),
      from: IntLike(0, MAX_TOP_HITS_WINDOW, 'from').optional(),
      sort: sortList(kind).optional(),
      _source: SourceSpec.optional(),
    })
    .superRefine((body, ctx) => {
      if ((body.from ?? 0) + (body.size ?? 3) > MAX_TOP_HITS_WINDOW) issue(ctx, ['size'], `from + size must be at most ${MAX_TOP_HITS_WINDOW}`);
    })
    .transform((body) => ({
      type: 'top_hits' as const,
      size: body.size ?? 3,
      from: body.from ?? 0,
      sort: body.sort ?? [],
      _source: body._source ?? { includes: [], excludes: [] },
    }));

  return {
    terms,
    date_histogram: dateHistogram,
    histogram,
    range: rangeAgg,
    filter,
    filters,
    sum: metric('sum', true),
    avg: metric('avg', true),
    min: metric('min', true),
    max: metric('max', true),
    value_count: metric('value_count', false),
    cardinality: metric('cardinality', false),
    stats: metric('stats', true),
    percentiles,
    top_hits: topHits,
  };
}

const AGGREGATION_NAME = /^[^[\]>]+$/;

/** The aggregations of one level; `depth` is 1 for the request's own. */
function aggregationMap(kind: IndexKind, options: Required<ParseOptions>, depth: number): z.ZodType<Record<string, AggregationNode>> {
  return memoized(`aggregation-map|${kind}|${options.timeZone}|${depth}`, () => aggregationLevel(kind, options, depth));
}

function aggregationLevel(kind: IndexKind, options: Required<ParseOptions>, depth: number): z.ZodType<Record<string, AggregationNode>> {
  return z.unknown().transform((body, ctx): Record<string, AggregationNode> => {
    if (!isPlainObject(body)) {
      issue(ctx, [], 'aggregations are an object of named aggregations');
      return z.NEVER;
    }
    if (depth > MAX_AGGREGATION_DEPTH) {
      for (const name of Object.keys(body)) issue(ctx, [name], `aggregations may nest at most ${MAX_AGGREGATION_DEPTH} levels deep`);
      return z.NEVER;
    }
    const result: Record<string, AggregationNode> = {};
    let valid = true;
    for (const [name, spec] of Object.entries(body)) {
      if (!AGGREGATION_NAME.test(name)) {
        issue(ctx, [name], 'aggregation names cannot be empty or contain [, ] or >');
        valid = false;
        continue;
      }
      const node = aggregation(kind, options, depth, spec, ctx, [name]);
      if (node === INVALID) valid = false;
      else result[name] = node;
    }
    return valid ? result : z.NEVER;
  });
}

function aggregation(kind: IndexKind, options: Required<ParseOptions>, depth: number, spec: unknown, ctx: Ctx, path: Path): Parsed<AggregationNode> {
  if (!isPlainObject(spec)) {
    issue(ctx, path, 'an aggregation is an object with one aggregation type');
    return INVALID;
  }
  const subKeys = ['aggs', 'aggregations'].filter((key) => key in spec);
  if (subKeys.length > 1) {
    issue(ctx, [...path, 'aggregations'], 'give aggs or aggregations, not both');
    return INVALID;
  }
  const subKey = subKeys[0];
  const types = Object.keys(spec).filter((key) => key !== 'aggs' && key !== 'aggregations');
  if (types.length !== 1) {
    issue(ctx, types.length === 0 ? path : [...path, types[1] as string], types.length === 0 ? 'an aggregation names its type' : 'an aggregation has exactly one type');
    return INVALID;
  }
  const type = types[0] as string;
  const schemas = memoized(`aggregations|${kind}|${options.timeZone}`, () => aggregationSchemas(kind, options));
  const schema = Object.hasOwn(schemas, type) ? schemas[type] : undefined;
  if (schema === undefined) {
    issue(ctx, [...path, type], refusedAggregation(type));
    return INVALID;
  }
  let subAggs: Record<string, AggregationNode> = {};
  if (subKey !== undefined) {
    if (!BUCKET_TYPES.has(type)) {
      issue(ctx, [...path, subKey], `a ${type} aggregation cannot have sub-aggregations`);
      return INVALID;
    }
    const parsed = parseAt(aggregationMap(kind, options, depth + 1), spec[subKey], ctx, [...path, subKey]);
    if (parsed === INVALID) return INVALID;
    subAggs = parsed;
  }
  const body = parseAt(schema, spec[type], ctx, [...path, type]);
  if (body === INVALID) return INVALID;
  const fallback = DEFAULT_ORDERS[type];
  if (fallback !== undefined) {
    const order = bucketOrder(ctx, [...path, type], body.order as OrderRequest | undefined, fallback, subAggs);
    if (order === INVALID) return INVALID;
    return { ...body, order, aggs: subAggs } as AggregationNode;
  }
  return { ...body, aggs: subAggs } as AggregationNode;
}

// ---------------------------------------------------------------------------------------------
// The request.

function searchRequest(kind: IndexKind, options: Required<ParseOptions>): z.ZodType<SearchRequest> {
  const aggs = aggregationMap(kind, options, 1);
  return z
    .strictObject({
      query: Query.optional(),
      post_filter: Query.optional(),
      size: IntLike(0, MAX_SIZE, 'size').optional(),
      from: IntLike(0, MAX_RESULT_WINDOW, 'from').optional(),
      sort: sortList(kind).optional(),
      search_after: z.array(Scalar.nullable(), { error: 'search_after is an array of sort values' }).min(1).optional(),
      _source: SourceSpec.optional(),
      track_total_hits: z.union([z.boolean(), z.number().int().nonnegative()], { error: 'track_total_hits is a boolean or an integer' }).optional(),
      aggs: aggs.optional(),
      aggregations: aggs.optional(),
    })
    .transform((body, ctx): SearchRequest => {
      const size = body.size ?? 10;
      const from = body.from ?? 0;
      if (from + size > MAX_RESULT_WINDOW) issue(ctx, ['from'], `from + size must be at most ${MAX_RESULT_WINDOW}; page deeper with search_after`);
      if (body.aggs !== undefined && body.aggregations !== undefined) issue(ctx, ['aggregations'], 'give aggs or aggregations, not both');
      const sort = effectiveSort(kind, body.sort ?? []);
      if (body.search_after !== undefined) {
        if (from > 0) issue(ctx, ['from'], 'from must be 0 when search_after is used');
        if (body.search_after.length !== sort.length) {
          issue(ctx, ['search_after'], `search_after needs ${sort.length} values, one per sort field (${sort.map((entry) => entry.field).join(', ')})`);
        }
      }
      const request: SearchRequest = {
        query: body.query ?? { type: 'match_all' },
        size,
        from,
        sort,
        _source: body._source ?? { includes: [], excludes: [] },
        track_total_hits: body.track_total_hits ?? true,
        aggs: body.aggs ?? body.aggregations ?? {},
      };
      if (body.post_filter !== undefined) request.post_filter = body.post_filter;
      // A null sort value stands for a document without one, as the hits' `sort` reports it.
      if (body.search_after !== undefined) request.search_after = body.search_after;
      return request;
    });
}

// ---------------------------------------------------------------------------------------------
// Entry points.

/**
 * Schemas depend only on the index kind and the request's time zone: built once and reused (building
 * them costs more than parsing a body). Time zones are validated names, so the cache stays small.
 */
const schemaCache = new Map<string, unknown>();
function memoized<T>(key: string, build: () => T): T {
  if (!schemaCache.has(key)) schemaCache.set(key, build());
  return schemaCache.get(key) as T;
}

/** Dotted member path with array positions in brackets: `query.bool.must[1].script`. */
export function memberPath(path: readonly PropertyKey[]): string {
  let text = '';
  for (const part of path) {
    if (typeof part === 'number') text += `[${part}]`;
    else text += text === '' ? String(part) : `.${String(part)}`;
  }
  return text === '' ? 'body' : text;
}

function depthProblem(body: unknown): Path | undefined {
  const stack: { value: unknown; path: Path }[] = [{ value: body, path: [] }];
  while (stack.length > 0) {
    const { value, path } = stack.pop()!;
    if (typeof value !== 'object' || value === null) continue;
    if (path.length >= MAX_BODY_DEPTH) return path;
    if (Array.isArray(value)) value.forEach((child, position) => stack.push({ value: child, path: [...path, position] }));
    else for (const [key, child] of Object.entries(value)) stack.push({ value: child, path: [...path, key] });
  }
  return undefined;
}

function parseWith<T>(schema: z.ZodType<T>, body: unknown, what: string, prefix: Path): T {
  const tooDeep = depthProblem(body);
  if (tooDeep !== undefined) {
    throw new ValidationError(`Invalid ${what}: nested too deeply`, [{ field: memberPath([...prefix, ...tooDeep]), reason: `nested more than ${MAX_BODY_DEPTH} levels deep` }]);
  }
  const result = schema.safeParse(body);
  if (result.success) return result.data;
  const details: FieldIssue[] = [];
  for (const found of result.error.issues) {
    if (found.code === 'unrecognized_keys') {
      for (const key of found.keys) details.push({ field: memberPath([...prefix, ...found.path, key]), reason: unknownMemberReason(key) });
    } else {
      details.push({ field: memberPath([...prefix, ...found.path]), reason: found.message });
    }
  }
  const first = details[0];
  throw new ValidationError(first === undefined ? `Invalid ${what}` : `Invalid ${what}: ${first.field}: ${first.reason}`, details);
}

/** Parses a search request body (`POST .../search/{kind}`); throws ValidationError naming each refused member. */
export function parseSearchRequest(body: unknown, kind: IndexKind, options: ParseOptions = {}): SearchRequest {
  if (!isPlainObject(body)) throw new ValidationError('A search body is a JSON object', [{ field: 'body', reason: 'not a JSON object' }]);
  const timeZone = options.timeZone === undefined ? 'UTC' : assertTimeZone(options.timeZone);
  const schema = memoized(`request|${kind}|${timeZone}`, () => searchRequest(kind, { timeZone }));
  return parseWith(schema, body, 'search request', []);
}

/** Parses a bare query (`{"term": {...}}`): count criteria, cohorts, deletes. */
export function parseQuery(body: unknown): QueryNode {
  return parseWith(Query, body, 'query', []);
}
