import * as z from 'zod';
import { assertDateFormat } from '../dates/date-format';
import { assertTimeZone } from '../dates/time-zone';
import { fieldNameProblem, resolveField, textRangeProblem } from '../fields';
import { parseQueryString, QueryStringError } from '../query-string';
import type { QueryNode, Scalar } from '../../../schemas/search-tree';
import { MAX_BOOL_CLAUSES, MAX_TERMS_VALUES } from './limits';
import { patternProblem } from '../wildcard-patterns';
import {
  Boost,
  BoostAndName,
  FieldName,
  INVALID,
  Operator,
  type Parsed,
  QueryName,
  ScalarValue,
  checkAt,
  checkDateValue,
  fieldKeys,
  isPlainObject,
  issue,
  parseAt,
  singleField,
  valueOrParams,
} from './parse-support';

/** Queries: the leaf queries, bool and constant_score, and the Query union that refuses everything else by name. */

export const TermParams = z.strictObject({ value: ScalarValue, case_insensitive: z.boolean().optional(), boost: Boost, _name: QueryName });
export const term = singleField('term', (field, spec, ctx): Parsed<QueryNode> => {
  const params = valueOrParams(spec, ctx, [field], ScalarValue, TermParams, 'value');
  if (params === INVALID) return INVALID;
  checkDateValue(ctx, [field], field, params.value, false);
  return { type: 'term', field, value: params.value, case_insensitive: params.case_insensitive ?? false };
});

const TermsValues = z.array(ScalarValue, { error: 'terms takes an array of values' }).max(MAX_TERMS_VALUES);

export const terms = z.unknown().transform((body, ctx): QueryNode => {
  if (!isPlainObject(body)) {
    issue(ctx, [], 'terms takes an object: {"terms": {"field": [values]}}');
    return z.NEVER;
  }
  const fields = fieldKeys(body, ctx);
  if (fields === INVALID || parseAt(BoostAndName, body, ctx, []) === INVALID) return z.NEVER;
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
  const values = parseAt(TermsValues, body[field], ctx, [field]);
  if (values === INVALID) return z.NEVER;
  values.forEach((value, position) => checkDateValue(ctx, [field, position], field, value, false));
  return { type: 'terms', field, values };
});

export const Bound = ScalarValue.nullable().optional();
export const RangeParams = z.strictObject({
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
export const range = singleField('range', (field, spec, ctx): Parsed<QueryNode> => {
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

export const exists = z.strictObject({ field: FieldName, boost: Boost, _name: QueryName }).transform(({ field }): QueryNode => ({ type: 'exists', field }));

export const MatchParams = z.strictObject({ query: ScalarValue, operator: Operator.optional(), boost: Boost, _name: QueryName });
export const match = singleField('match', (field, spec, ctx): Parsed<QueryNode> => {
  const params = valueOrParams(spec, ctx, [field], ScalarValue, MatchParams, 'query');
  if (params === INVALID) return INVALID;
  checkDateValue(ctx, [field], field, params.query, false);
  return { type: 'match', field, query: params.query, operator: params.operator ?? 'or' };
});

export const MatchPhraseParams = z.strictObject({
  query: ScalarValue,
  slop: z.literal(0, { error: 'slop other than 0 is not supported' }).optional(),
  boost: Boost,
  _name: QueryName,
});
export const matchPhrase = singleField('match_phrase', (field, spec, ctx): Parsed<QueryNode> => {
  const params = valueOrParams(spec, ctx, [field], ScalarValue, MatchPhraseParams, 'query');
  if (params === INVALID) return INVALID;
  return { type: 'match_phrase', field, query: String(params.query) };
});

export const PatternValue = z.string({ error: 'must be a string' });
export const PrefixParams = z.strictObject({ value: PatternValue, case_insensitive: z.boolean().optional(), boost: Boost, _name: QueryName });
export const prefix = singleField('prefix', (field, spec, ctx): Parsed<QueryNode> => {
  const params = valueOrParams(spec, ctx, [field], PatternValue, PrefixParams, 'value');
  if (params === INVALID) return INVALID;
  const problem = patternProblem('prefix', params.value);
  if (problem !== undefined) {
    issue(ctx, [field], problem);
    return INVALID;
  }
  return { type: 'prefix', field, value: params.value, case_insensitive: params.case_insensitive ?? false };
});

export const WildcardParams = z.strictObject({
  value: PatternValue.optional(),
  wildcard: PatternValue.optional(),
  case_insensitive: z.boolean().optional(),
  boost: Boost,
  _name: QueryName,
});
export const wildcard = singleField('wildcard', (field, spec, ctx): Parsed<QueryNode> => {
  const params = valueOrParams(spec, ctx, [field], PatternValue, WildcardParams, 'value');
  if (params === INVALID) return INVALID;
  const value = params.value ?? params.wildcard;
  if (value === undefined || (params.value !== undefined && params.wildcard !== undefined)) {
    issue(ctx, [field], 'wildcard takes one of value or wildcard');
    return INVALID;
  }
  const problem = patternProblem('wildcard', value);
  if (problem !== undefined) {
    issue(ctx, [field], problem);
    return INVALID;
  }
  return { type: 'wildcard', field, value, case_insensitive: params.case_insensitive ?? false };
});

export const ids = z
  .strictObject({
    values: z.array(z.union([z.string(), z.number().int()], { error: 'ids are strings' }), { error: 'values must be an array of ids' }).max(MAX_TERMS_VALUES),
    boost: Boost,
    _name: QueryName,
  })
  .transform(({ values }): QueryNode => ({ type: 'ids', values: values.map(String) }));

export const matchAll = z.strictObject({ boost: Boost, _name: QueryName }).transform((): QueryNode => ({ type: 'match_all' }));
export const matchNone = z.strictObject({ boost: Boost, _name: QueryName }).transform((): QueryNode => ({ type: 'match_none' }));

/** OpenSearch's simple forms: an integer, a negative integer, a percentage, a negative percentage. */
export const MSM_MESSAGE = 'minimum_should_match must be an integer or a percentage such as "75%" or "-25%"';
export const MinimumShouldMatch = z.union([z.number().int({ error: MSM_MESSAGE }), z.string().regex(/^\s*-?\d+\s*%?\s*$/, { error: MSM_MESSAGE })], {
  error: MSM_MESSAGE,
});

export const QueryStringParams = z.strictObject({
  query: z.string({ error: 'query must be a string' }),
  default_field: FieldName.optional(),
  default_operator: Operator.optional(),
  boost: Boost,
  _name: QueryName,
});
export const queryString = z.unknown().transform((body, ctx): QueryNode => {
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

export const UNSUPPORTED_QUERIES = new Set([
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
export function oneOf<T>(what: string, kinds: Record<string, z.ZodType<T>>, refused: (key: string) => string) {
  return z.unknown().transform((body, ctx): T => {
    if (!isPlainObject(body)) {
      issue(ctx, [], `a ${what} is an object with one ${what} type`);
      return z.NEVER;
    }
    const keys = Object.keys(body);
    if (keys.length !== 1) {
      issue(
        ctx,
        keys.length === 0 ? [] : [keys[1] as string],
        `a ${what} has exactly one ${what} type${keys.length === 0 ? '' : `; found ${keys.join(', ')}`}`,
      );
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

export function refusedQuery(key: string): string {
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
export const Clauses = z.preprocess(
  (value) => (Array.isArray(value) ? value : [value]),
  z.array(Query).max(MAX_BOOL_CLAUSES, { error: `at most ${MAX_BOOL_CLAUSES} clauses` }),
);

export const bool = z
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
export const constantScore = z
  .strictObject({ filter: Query, boost: Boost, _name: QueryName })
  .transform((body): QueryNode => ({ type: 'bool', must: [], filter: [body.filter], should: [], must_not: [] }));
