/**
 * The parsed search request: what `functions/search/dsl` turns a request body into, and what both
 * backends consume (the DuckDB compiler and the OpenSearch serializer). Declared as types because
 * the tree is recursive (zod needs the type spelled out for recursive schemas); the zod schema in
 * search-dsl.ts is typed against these, so the two cannot drift.
 *
 * Field names are source paths as a caller writes them (`request.route`, `metadata.plan`); a `.raw`
 * suffix selects the exact (keyword) form of a string field; `_id` is the document id.
 */
export type Scalar = string | number | boolean;

export type QueryNode =
  | { type: 'match_all' }
  | { type: 'match_none' }
  | {
      type: 'bool';
      must: QueryNode[];
      filter: QueryNode[];
      should: QueryNode[];
      must_not: QueryNode[];
      /** Absent: OpenSearch's default (1 when only should clauses exist, else 0). */
      minimum_should_match?: number | string;
    }
  | { type: 'term'; field: string; value: Scalar; case_insensitive: boolean }
  | { type: 'terms'; field: string; values: Scalar[] }
  | { type: 'range'; field: string; gt?: Scalar; gte?: Scalar; lt?: Scalar; lte?: Scalar; time_zone?: string; format?: string }
  | { type: 'exists'; field: string }
  | { type: 'match'; field: string; query: Scalar; operator: 'or' | 'and' }
  | { type: 'match_phrase'; field: string; query: string }
  | { type: 'prefix'; field: string; value: string; case_insensitive: boolean }
  | { type: 'wildcard'; field: string; value: string; case_insensitive: boolean }
  | { type: 'ids'; values: string[] }
  | { type: 'query_string'; query: string; default_field?: string; default_operator: 'or' | 'and' };

export type SortOrder = 'asc' | 'desc';

/** One sort value of a hit, as `hits[].sort` reports it and `search_after` takes it back: null for a document without the field. */
export type SortValue = Scalar | null;

/** The mapping types a sort may name for indices without the field (OpenSearch's unmapped_type). */
export const UNMAPPED_TYPES = [
  'keyword',
  'text',
  'long',
  'integer',
  'short',
  'byte',
  'double',
  'float',
  'half_float',
  'scaled_float',
  'unsigned_long',
  'date',
  'date_nanos',
  'boolean',
  'ip',
] as const;
export type UnmappedType = (typeof UNMAPPED_TYPES)[number];

export interface SortEntry {
  /** A source path, `_id`, or `_score` (constant: relevance is not computed). */
  field: string;
  order: SortOrder;
  /** '_last' (default) or '_first', or a value that stands in for a missing one. */
  missing: '_last' | '_first' | Scalar;
  unmapped_type?: UnmappedType;
}

export type BucketOrder = { key: '_count' | '_key' | string; order: SortOrder };

interface MetricField {
  field: string;
  /** Stands in for documents without the field (meters use sum of weight with missing: 1). */
  missing?: Scalar;
}

export type AggregationNode = (
  | { type: 'terms'; field: string; size: number; order: BucketOrder[]; min_doc_count: number; missing?: Scalar; shard_size?: number }
  | {
      type: 'date_histogram';
      field: string;
      /** Calendar units: minute, hour, day, week, month, quarter, year (1m, 1h, 1d, 1w, 1M, 1q, 1y). */
      calendar_interval?: string;
      /** Fixed durations: 30s, 5m, 12h, 2d (ms, s, m, h, d). */
      fixed_interval?: string;
      time_zone: string;
      min_doc_count: number;
      extended_bounds?: { min: Scalar; max: Scalar };
      format?: string;
      offset?: string;
      order: BucketOrder[];
    }
  | {
      type: 'histogram';
      field: string;
      interval: number;
      min_doc_count: number;
      extended_bounds?: { min: number; max: number };
      offset: number;
      order: BucketOrder[];
    }
  | { type: 'range'; field: string; ranges: { key?: string; from?: number | string; to?: number | string }[]; keyed: boolean }
  | { type: 'filter'; filter: QueryNode }
  | { type: 'filters'; filters: { key: string; filter: QueryNode }[]; keyed: boolean; other_bucket_key?: string }
  | ({ type: 'sum' | 'avg' | 'min' | 'max' | 'value_count' | 'stats' } & MetricField)
  /** `precision_threshold`: where OpenSearch's estimate stops being close to exact (DuckDB counts exactly). */
  | ({ type: 'cardinality'; precision_threshold?: number } & MetricField)
  | ({ type: 'percentiles'; percents: number[]; keyed: boolean } & MetricField)
  | { type: 'top_hits'; size: number; from: number; sort: SortEntry[]; _source: SourceFilter }
) & { aggs: Record<string, AggregationNode> };

export type SourceFilter = { includes: string[]; excludes: string[] } | false;

export interface SearchRequest {
  query: QueryNode;
  /** Filters hits only, after aggregations are computed (OpenSearch semantics). */
  post_filter?: QueryNode;
  size: number;
  from: number;
  sort: SortEntry[];
  /** One value per sort key (the sort with its `_id` tie-breaker); null where the previous hit had none. */
  search_after?: SortValue[];
  _source: SourceFilter;
  track_total_hits: boolean | number;
  aggs: Record<string, AggregationNode>;
}
