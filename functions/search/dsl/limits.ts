/** The caps a search request must stay within (each refusal names the member). */

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
