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
export {
  MAX_SIZE,
  MAX_RESULT_WINDOW,
  MAX_AGGREGATION_DEPTH,
  MAX_TERMS_SIZE,
  MAX_TOP_HITS_WINDOW,
  MAX_BOOL_CLAUSES,
  MAX_TERMS_VALUES,
  MAX_BUCKETS,
  MAX_PRECISION_THRESHOLD,
  MAX_BODY_DEPTH,
} from './limits';
export type { ParseOptions } from './parse-support';
export { Query } from './query';
export { memberPath, parseSearchRequest, parseQuery } from './request';
