import type { API, Types } from '@opensearch-project/opensearch';

/**
 * The shapes of the requests the adapter sends, from the client's types (generated from the
 * official OpenSearch API specification), so the compiler checks every body we build against
 * what OpenSearch documents. One place names them; the builders import from here.
 */

export type QueryClause = Types.Common_QueryDsl.QueryContainer;
export type DateRangeQuery = Types.Common_QueryDsl.DateRangeQuery;
export type NumberRangeQuery = Types.Common_QueryDsl.NumberRangeQuery;
export type SortClause = Types.Common.SortCombinations;
export type FieldSort = Types.Common.FieldSort;
/** A missing keyword sort value pages on as `null`, which OpenSearch reads; the types leave null out. */
export type SearchAfter = (Types.Common.FieldValue | null)[];
export type SearchBody = Omit<API.Search_RequestBody, 'aggs' | 'aggregations' | 'search_after'> & { aggs?: Aggregations; search_after?: SearchAfter };
export type CountBody = API.Count_RequestBody;
export type DeleteByQueryBody = API.DeleteByQuery_RequestBody;
export type BulkOperation = Types.Core_Bulk.OperationContainer;

// The generator drops the spec's values-source base of terms and metric aggregations: their
// `field` is missing from the types, though OpenSearch documents it.
type OnField = { field: string };
// OpenSearch takes a list of orders (ties broken by the next) for histograms as for terms; the
// types allow one `_key` or `_count` only.
type Ordered<Fields> = Omit<Fields, 'order'> & { order?: Types.Common_Aggregations.AggregateOrder };
export type TermsFields = Types.Common_Aggregations.TermsAggregationFields & OnField;
type MetricFields = Types.Common_Aggregations.MetricAggregationBase & OnField;

/** An aggregation as the adapter writes one: the generated kinds it uses, with the two gaps above filled. */
export type AggregationBody = { aggs?: Aggregations } & (
  | { terms: TermsFields }
  | { date_histogram: Ordered<Types.Common_Aggregations.DateHistogramAggregationFields> }
  | { histogram: Ordered<Types.Common_Aggregations.HistogramAggregationFields> }
  | { range: Types.Common_Aggregations.RangeAggregationFields }
  | { filter: QueryClause }
  | { filters: Types.Common_Aggregations.FiltersAggregationFields }
  | { composite: Types.Common_Aggregations.CompositeAggregationFields }
  | { top_hits: Types.Common_Aggregations.TopHitsAggregation }
  | { percentiles: Types.Common_Aggregations.PercentilesAggregation & OnField }
  | { cardinality: Types.Common_Aggregations.CardinalityAggregation & OnField }
  | { sum: MetricFields }
  | { avg: MetricFields }
  | { min: MetricFields }
  | { max: MetricFields }
  | { value_count: MetricFields }
  | { stats: MetricFields }
  | { scripted_metric: Types.Common_Aggregations.ScriptedMetricAggregation }
  | { bucket_selector: Types.Common_Aggregations.BucketSelectorAggregation }
);
export type Aggregations = Record<string, AggregationBody>;
