import type { AggregationNode, QueryNode, Scalar, SearchRequest, SortEntry } from '../../../schemas/search-tree';
import { ValidationError } from '../../shared/errors';
import { resolveDateMath } from '../dates/date-math';
import { parseCalendarInterval } from '../dates/intervals';
import { effectiveSort } from '../effective-sort';
import { resolveField, textRangeProblem, type FieldRef } from '../fields';
import type { SearchContext } from '../port';
import { parseQueryString } from '../query-string';
import { normalizeWildcard } from '../wildcard-patterns';
import { documentId } from './naming';
import { searchAfterValues, sortClause } from './sort';
import type { AggregationBody, Aggregations, DateRangeQuery, NumberRangeQuery, QueryClause, SearchBody } from './request-types';
import { DOC_ID_FIELD, mappedField } from './stored-source';

/**
 * The parsed search tree as an OpenSearch request body (the caller's body is never sent). Written
 * so OpenSearch answers exactly as the DuckDB backend does:
 * - `time` is stored as `index_meta.time`. OpenSearch's `_id` carries the app (`app:id`) and
 *   cannot be sorted or aggregated on, so only the `ids` query and exact terms use it (with the
 *   prefix); every other clause, aggregation and sort on `_id` uses `index_meta.doc_id`, the plain id.
 * - Dates are resolved here, with the request's now and time zone, to epoch millis (a term on a
 *   date is the range of what the value names, as OpenSearch itself does), so `now` means the
 *   same instant on both backends.
 * - query_string is expanded into the equivalent clauses (one parser for both backends).
 * - Text prefix and wildcard patterns are lower-cased, as the DuckDB backend compares them with
 *   lower-cased tokens.
 * - Sorts and search_after: sort.ts (doc_id, unmapped types, numeric_type, missing extremes).
 * - `_source` filtering is left to the adapter (after restoring bodies kept in index_meta, see
 *   stored-source.ts): the body asks for the whole source, or none.
 */

export function toOpenSearchQuery(node: QueryNode, ctx: SearchContext): QueryClause {
  return new Serializer(ctx).query(node);
}

/** Where a hit's sort values hold its id: a sort by `_id` alone (listings in id order); else none. */
export function idSortPosition(sort: readonly SortEntry[]): number | undefined {
  return sort.length === 1 && sort[0]!.field === '_id' ? 0 : undefined;
}

/**
 * The body of a search: the query inside the tenant wrap (filter clauses the caller cannot
 * loosen), post_filter also inside it, sort with the `_id` tie-breaker, page, aggregations.
 */
export function toOpenSearchSearchBody(request: SearchRequest, wrap: readonly QueryClause[], ctx: SearchContext): SearchBody {
  const serializer = new Serializer(ctx);
  const query = request.query.type === 'match_all' ? [] : [serializer.query(request.query)];
  const sort = effectiveSort(ctx.kind, request.sort);
  const body: SearchBody = {
    query: { bool: { filter: [...wrap, ...query] } },
    size: request.size,
    from: request.from,
    track_total_hits: request.track_total_hits,
  };
  // A request for no hits (a dashboard's aggregations) asks for no sort and no sources; search_after needs its sort.
  if (request.size > 0 || request.search_after !== undefined) {
    body.sort = sort.map((entry) => sortClause(ctx, entry));
    body._source = request._source !== false;
    if (request._source === false) {
      // A hit's id from doc values: fetching the stored `_id` decompresses a block of stored documents a hit
      // (best_compression): 10,000 ids of a listing took 430 ms that way, 30 from doc values. A listing
      // in id order has each id as its sort value already: 20,000 profiles' ids in 42–54 ms without
      // the doc values, 71–95 with them (a cohort's walk lists every profile).
      body.stored_fields = '_none_';
      if (idSortPosition(sort) === undefined) body.docvalue_fields = [DOC_ID_FIELD];
    }
  }
  // The post_filter narrows hits only; the tenant is already fixed by the query, which it cannot widen.
  if (request.post_filter !== undefined) body.post_filter = serializer.query(request.post_filter);
  if (request.search_after !== undefined) body.search_after = searchAfterValues(ctx, sort, request.search_after);
  if (Object.keys(request.aggs).length > 0) body.aggs = serializer.aggregations(request.aggs);
  return body;
}

class Serializer {
  constructor(private readonly ctx: SearchContext) {}

  query(node: QueryNode): QueryClause {
    switch (node.type) {
      case 'match_all':
        return { match_all: {} };
      case 'match_none':
        return { match_none: {} };
      case 'bool': {
        const bool: NonNullable<QueryClause['bool']> = {};
        for (const occur of ['must', 'filter', 'should', 'must_not'] as const) {
          if (node[occur].length > 0) bool[occur] = node[occur].map((clause) => this.query(clause));
        }
        if (node.minimum_should_match !== undefined) bool.minimum_should_match = node.minimum_should_match;
        return { bool };
      }
      case 'term':
        return this.term(node.field, node.value, node.case_insensitive);
      case 'terms': {
        const field = this.field(node.field);
        if (field.type === 'date') return { bool: { should: node.values.map((value) => this.dateEquals(field, value)), minimum_should_match: 1 } };
        if (node.values.length === 0) return { match_none: {} };
        if (field.path === '_id') return { ids: { values: node.values.map((value) => this.documentId(value)) } };
        return { terms: { [this.name(field)]: node.values } };
      }
      case 'range':
        return this.range(node);
      case 'exists': {
        const field = this.field(node.field);
        if (field.path === '_id' && !field.raw) return { match_all: {} };
        return { exists: { field: this.name(field) } };
      }
      case 'match': {
        const field = this.field(node.field);
        if (field.type === 'date' || field.path === '_id') return this.term(node.field, node.query, false);
        return { match: { [this.name(field)]: { query: node.query, operator: node.operator } } };
      }
      case 'match_phrase': {
        const field = this.field(node.field);
        if (field.type === 'date' || field.path === '_id') return this.term(node.field, node.query, false);
        return { match_phrase: { [this.name(field)]: { query: node.query } } };
      }
      case 'prefix':
      case 'wildcard': {
        const field = this.field(node.field);
        if (field.type === 'date') throw invalid(node.field, `${node.type} queries work on keyword and text fields; ${node.field} holds dates`);
        const text = field.type === 'text' || field.type === 'unknown';
        // Text compares lower-cased tokens.
        const pattern = node.type === 'wildcard' ? normalizeWildcard(node.value) : node.value;
        const value = text ? pattern.toLowerCase() : pattern;
        return { [node.type]: { [this.name(field)]: { value, ...(node.case_insensitive ? { case_insensitive: true } : {}) } } };
      }
      case 'ids':
        return { ids: { values: node.values.map((value) => this.documentId(value)) } };
      case 'query_string':
        return this.query(parseQueryString(node.query, node));
    }
  }

  private term(name: string, value: Scalar, caseInsensitive: boolean): QueryClause {
    const field = this.field(name);
    if (field.type === 'date') return this.dateEquals(field, value);
    // doc_id is kept as doc values only (templates.ts): the indexed `_id` answers an exact id at once.
    if (field.path === '_id' && !caseInsensitive) return { ids: { values: [this.documentId(value)] } };
    return { term: { [this.name(field)]: { value, ...(caseInsensitive ? { case_insensitive: true } : {}) } } };
  }

  /** What a date value names: from its start to its end (rounded up), like OpenSearch's own date term. */
  private dateEquals(field: FieldRef, value: Scalar): QueryClause {
    if (typeof value === 'boolean') return { match_none: {} };
    return {
      range: {
        [this.name(field)]: { gte: this.millis(field, value, false), lte: this.millis(field, value, true), format: 'epoch_millis' },
      },
    };
  }

  /**
   * Dates as epoch-millis text (the spec's date bounds are date-math strings), numbers as numbers
   * when every bound is one, anything else (keywords, booleans) as its text, which is how
   * OpenSearch reads a bound of those fields anyway.
   */
  private range(node: QueryNode & { type: 'range' }): QueryClause {
    const field = this.field(node.field);
    const problem = textRangeProblem(node, field);
    if (problem !== undefined) throw invalid(node.field, problem);
    const given = RANGE_BOUNDS.filter((bound) => node[bound] !== undefined);
    if (given.length === 0) return { exists: { field: this.name(field) } };
    const name = this.name(field);
    if (field.type === 'date') {
      const timeZone = node.time_zone ?? this.ctx.timeZone;
      const bounds: DateRangeQuery = { format: 'epoch_millis' };
      for (const bound of given) {
        const value = node[bound] as Scalar;
        bounds[bound] = typeof value === 'boolean' ? String(value) : this.millis(field, value, bound === 'gt' || bound === 'lte', timeZone, node.format);
      }
      return { range: { [name]: bounds } };
    }
    if (given.every((bound) => typeof node[bound] === 'number')) {
      const bounds: NumberRangeQuery = {};
      for (const bound of given) bounds[bound] = node[bound] as number;
      return { range: { [name]: bounds } };
    }
    const bounds: DateRangeQuery = {};
    for (const bound of given) bounds[bound] = String(node[bound]);
    return { range: { [name]: bounds } };
  }

  aggregations(aggs: Record<string, AggregationNode>): Aggregations {
    return Object.fromEntries(Object.entries(aggs).map(([name, node]) => [name, this.aggregation(node)]));
  }

  private aggregation(node: AggregationNode): AggregationBody {
    const body = this.aggregationBody(node);
    return Object.keys(node.aggs).length > 0 ? { ...body, aggs: this.aggregations(node.aggs) } : body;
  }

  private aggregationBody(node: AggregationNode): AggregationBody {
    switch (node.type) {
      case 'terms':
        return {
          terms: {
            field: this.fieldName(node.field),
            size: node.size,
            order: node.order.map((order) => ({ [order.key]: order.order })),
            min_doc_count: node.min_doc_count,
            ...(node.missing === undefined ? {} : { missing: node.missing }),
            ...(node.shard_size === undefined ? {} : { shard_size: node.shard_size }),
          },
        };
      case 'date_histogram': {
        const field = this.field(node.field);
        const bounds = node.extended_bounds;
        return {
          date_histogram: {
            field: this.name(field),
            // The unit's name: OpenSearch takes each spelling the parser does (1y included), its specification lists fewer.
            ...(node.calendar_interval === undefined ? {} : { calendar_interval: parseCalendarInterval(node.calendar_interval) }),
            ...(node.fixed_interval === undefined ? {} : { fixed_interval: node.fixed_interval }),
            time_zone: node.time_zone,
            min_doc_count: node.min_doc_count,
            order: node.order.map((order) => ({ [order.key]: order.order })),
            ...(node.format === undefined ? {} : { format: node.format }),
            ...(node.offset === undefined ? {} : { offset: node.offset }),
            ...(bounds === undefined
              ? {}
              : {
                  extended_bounds: {
                    min: this.boundInstant(field, bounds.min, node.time_zone, node.format),
                    max: this.boundInstant(field, bounds.max, node.time_zone, node.format),
                  },
                }),
          },
        };
      }
      case 'histogram':
        return {
          histogram: {
            field: this.fieldName(node.field),
            interval: node.interval,
            min_doc_count: node.min_doc_count,
            offset: node.offset,
            order: node.order.map((order) => ({ [order.key]: order.order })),
            ...(node.extended_bounds === undefined ? {} : { extended_bounds: node.extended_bounds }),
          },
        };
      case 'range':
        return { range: { field: this.fieldName(node.field), ranges: node.ranges, keyed: node.keyed } };
      case 'filter':
        return { filter: this.query(node.filter) };
      case 'filters':
        return {
          filters: {
            filters: node.keyed
              ? Object.fromEntries(node.filters.map((entry) => [entry.key, this.query(entry.filter)]))
              : node.filters.map((entry) => this.query(entry.filter)),
            ...(node.other_bucket_key === undefined ? {} : { other_bucket: true, other_bucket_key: node.other_bucket_key }),
          },
        };
      case 'percentiles':
        return {
          percentiles: {
            field: this.fieldName(node.field),
            percents: node.percents,
            keyed: node.keyed,
            ...(node.missing === undefined ? {} : { missing: node.missing }),
          },
        };
      case 'top_hits':
        return {
          top_hits: {
            size: node.size,
            from: node.from,
            sort: effectiveSort(this.ctx.kind, node.sort).map((entry) => sortClause(this.ctx, entry)),
            _source: node._source !== false,
          },
        };
      case 'cardinality':
        return {
          cardinality: {
            field: this.fieldName(node.field),
            ...(node.missing === undefined ? {} : { missing: node.missing }),
            ...(node.precision_threshold === undefined ? {} : { precision_threshold: node.precision_threshold }),
          },
        };
      default: {
        const metric = { field: this.fieldName(node.field), ...(node.missing === undefined ? {} : { missing: node.missing }) };
        switch (node.type) {
          case 'sum':
            return { sum: metric };
          case 'avg':
            return { avg: metric };
          case 'min':
            return { min: metric };
          case 'max':
            return { max: metric };
          case 'value_count':
            return { value_count: metric };
          case 'stats':
            return { stats: metric };
        }
      }
    }
  }

  private boundInstant(field: FieldRef, value: Scalar, timeZone: string, format?: string): string | number {
    return typeof value === 'boolean' ? String(value) : this.instant(field, value, false, timeZone, format);
  }

  private field(name: string): FieldRef {
    return resolveField(this.ctx.kind, name);
  }

  private fieldName(name: string): string {
    return this.name(this.field(name));
  }

  private name(field: FieldRef): string {
    return mappedField(field);
  }

  private documentId(value: Scalar): string {
    return documentId(this.ctx.scope.app_id, String(value));
  }

  /** A date bound as the epoch-millis text OpenSearch parses with `format: epoch_millis`. */
  private millis(field: FieldRef, value: string | number, roundUp: boolean, timeZone = this.ctx.timeZone, format?: string): string {
    return String(this.instant(field, value, roundUp, timeZone, format));
  }

  private instant(field: FieldRef, value: string | number, roundUp: boolean, timeZone = this.ctx.timeZone, format?: string): number {
    return resolveDateMath(value, this.ctx.now, timeZone, roundUp, { field: field.path, ...(format === undefined ? {} : { format }) });
  }
}

const RANGE_BOUNDS = ['gt', 'gte', 'lt', 'lte'] as const;

function invalid(field: string, reason: string): ValidationError {
  return new ValidationError(`Invalid query: ${reason}`, [{ field, reason }]);
}
