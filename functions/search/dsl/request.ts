import * as z from 'zod';
import { assertTimeZone } from '../dates/time-zone';
import { effectiveSort } from '../effective-sort';
import type { IndexKind } from '../port';
import { ValidationError } from '../../shared/errors';
import { fieldPath, parseOrRefuse } from '../../shared/invalid-input';
import type { QueryNode, SearchRequest } from '../../../schemas/search-tree';
import { aggregationMap } from './aggregations';
import { MAX_BODY_DEPTH, MAX_RESULT_WINDOW, MAX_SIZE } from './limits';
import { IntLike, type ParseOptions, type Path, ScalarValue, isPlainObject, issue, memoized, unknownMemberReason } from './parse-support';
import { Query } from './query';
import { SourceSpec, sortList } from './sort';

/** The whole search request, its entry points, and the depth check before parsing. */

// ---------------------------------------------------------------------------------------------
// The request.

export function searchRequest(kind: IndexKind, options: Required<ParseOptions>): z.ZodType<SearchRequest> {
  const aggs = aggregationMap(kind, options, 1);
  return z
    .strictObject({
      query: Query.optional(),
      post_filter: Query.optional(),
      size: IntLike(0, MAX_SIZE, 'size').optional(),
      from: IntLike(0, MAX_RESULT_WINDOW, 'from').optional(),
      sort: sortList(kind).optional(),
      search_after: z.array(ScalarValue.nullable(), { error: 'search_after is an array of sort values' }).min(1).optional(),
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

/** Dotted member path with array positions in brackets: `query.bool.must[1].script`. */
export const memberPath = (path: readonly PropertyKey[]): string => fieldPath(path, 'body');

export function depthProblem(body: unknown): Path | undefined {
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

export function parseWith<T>(schema: z.ZodType<T>, body: unknown, what: string, prefix: Path): T {
  const tooDeep = depthProblem(body);
  if (tooDeep !== undefined) {
    throw new ValidationError(`Invalid ${what}: nested too deeply`, [
      { field: memberPath([...prefix, ...tooDeep]), reason: `nested more than ${MAX_BODY_DEPTH} levels deep` },
    ]);
  }
  return parseOrRefuse(schema, body, what, { root: 'body', prefix, unknownMember: unknownMemberReason });
}

/** Parses a search request body (`POST .../search/{kind}`); throws ValidationError naming each refused member. */
export function parseSearchRequest(body: unknown, kind: IndexKind, options: ParseOptions = {}): SearchRequest {
  if (!isPlainObject(body)) throw new ValidationError('A search body is a JSON object', [{ field: 'body', reason: 'not a JSON object' }]);
  const timeZone = options.timeZone === undefined ? 'UTC' : assertTimeZone(options.timeZone);
  const schema = memoized(`request|${kind}|${timeZone}`, () => searchRequest(kind, { timeZone }));
  return parseWith(schema, body, 'search request', []);
}

/** Parses a bare query (`{"term": {...}}`): count criteria, cohorts, deletes; `prefix` is where it sits in the caller's body. */
export function parseQuery(body: unknown, prefix: Path = []): QueryNode {
  return parseWith(Query, body, 'query', prefix);
}
