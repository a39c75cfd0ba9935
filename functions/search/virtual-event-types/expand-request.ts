import type { AggregationNode, BucketOrder, QueryNode, SearchRequest } from '../../../schemas/search-tree';
import { ValidationError } from '../../shared/errors';
import { parseMetricPath } from '../dsl/aggregation-rules';
import type { SearchResponse } from '../port';
import { expandQuery, isVirtualEventTypesField, queryMentions, VIRTUAL_EVENT_TYPES_FIELD } from './expand-query';

/**
 * A search request with `virtual_event_types` in it, made into one the backends can run: queries as
 * in expand-query.ts, and a `terms` aggregation by the field as a keyed `filters` aggregation (one
 * filter per type, so an event with two types counts in both, as a multi-valued keyword does),
 * whose answer `reshape` turns back into the terms answer OpenSearch would give: buckets ordered and
 * cut to `size`, `min_doc_count` and `missing` honoured, `sum_other_doc_count` for the cut ones.
 */

/** The filters bucket that holds events of no type when a terms aggregation asks for `missing`. */
const MISSING_BUCKET = '\u0000missing';

export function requestMentions(request: SearchRequest): boolean {
  return (
    queryMentions(request.query) ||
    (request.post_filter !== undefined && queryMentions(request.post_filter)) ||
    aggregationsMention(request.aggs) ||
    request.sort.some((entry) => isVirtualEventTypesField(entry.field))
  );
}

function aggregationsMention(aggs: Record<string, AggregationNode>): boolean {
  return Object.values(aggs).some(
    (agg) =>
      ('field' in agg && isVirtualEventTypesField(agg.field)) ||
      (agg.type === 'filter' && queryMentions(agg.filter)) ||
      (agg.type === 'filters' && agg.filters.some((entry) => queryMentions(entry.filter))) ||
      aggregationsMention(agg.aggs),
  );
}

export interface ExpandedRequest {
  readonly request: SearchRequest;
  /** The backend's answer to `request`, as the caller's request would have been answered. */
  readonly reshape: (response: SearchResponse) => SearchResponse;
}

/** Where a rewritten terms aggregation sits: its name, what it asked, and the rewrites inside it. */
interface RewrittenTerms {
  readonly size: number;
  readonly order: BucketOrder[];
  readonly minDocCount: number;
  readonly missing?: unknown;
}
interface AggregationPlan {
  readonly terms?: RewrittenTerms;
  readonly children: Map<string, AggregationPlan>;
}

export function expandRequest(request: SearchRequest, types: ReadonlyMap<string, QueryNode>): ExpandedRequest {
  const sorted = request.sort.findIndex((entry) => isVirtualEventTypesField(entry.field));
  if (sorted >= 0) {
    const reason = `${VIRTUAL_EVENT_TYPES_FIELD} is evaluated at query time and cannot be sorted on`;
    throw new ValidationError(`Invalid sort[${sorted}]: ${reason}`, [{ field: `sort[${sorted}]`, reason }]);
  }
  const plans = new Map<string, AggregationPlan>();
  const aggs = expandAggregations(request.aggs, types, 'aggs', plans);
  const expanded: SearchRequest = {
    ...request,
    query: expandQuery(request.query, types),
    ...(request.post_filter ? { post_filter: expandQuery(request.post_filter, types, 'post_filter') } : {}),
    aggs,
  };
  return {
    request: expanded,
    reshape: (response) =>
      response.aggregations === undefined || !hasRewrites(plans) ? response : { ...response, aggregations: reshapeLevel(response.aggregations, plans) },
  };
}

function expandAggregations(
  aggs: Record<string, AggregationNode>,
  types: ReadonlyMap<string, QueryNode>,
  path: string,
  plans: Map<string, AggregationPlan>,
): Record<string, AggregationNode> {
  const result: Record<string, AggregationNode> = {};
  for (const [name, agg] of Object.entries(aggs)) {
    const at = `${path}.${name}`;
    const children = new Map<string, AggregationPlan>();
    const subAggs = expandAggregations(agg.aggs, types, `${at}.aggs`, children);
    if ('field' in agg && isVirtualEventTypesField(agg.field)) {
      if (agg.type !== 'terms') {
        const reason = `${VIRTUAL_EVENT_TYPES_FIELD} takes terms aggregations only, not ${agg.type}`;
        throw new ValidationError(`Invalid ${at}.${agg.type}: ${reason}`, [{ field: `${at}.${agg.type}`, reason }]);
      }
      result[name] = {
        type: 'filters',
        filters: [...types].map(([key, filter]) => ({ key, filter })),
        keyed: true,
        ...(agg.missing !== undefined ? { other_bucket_key: MISSING_BUCKET } : {}),
        aggs: subAggs,
      };
      plans.set(name, {
        terms: { size: agg.size, order: agg.order, minDocCount: agg.min_doc_count, ...(agg.missing !== undefined ? { missing: agg.missing } : {}) },
        children,
      });
      continue;
    }
    if (agg.type === 'filter') result[name] = { ...agg, filter: expandQuery(agg.filter, types, `${at}.filter`), aggs: subAggs };
    else if (agg.type === 'filters')
      result[name] = {
        ...agg,
        filters: agg.filters.map((entry) => ({ ...entry, filter: expandQuery(entry.filter, types, `${at}.filters.${entry.key}`) })),
        aggs: subAggs,
      };
    else result[name] = { ...agg, aggs: subAggs } as AggregationNode;
    if (hasRewrites(children)) plans.set(name, { children });
  }
  return result;
}

function hasRewrites(plans: ReadonlyMap<string, AggregationPlan>): boolean {
  return [...plans.values()].some((plan) => plan.terms !== undefined || hasRewrites(plan.children));
}

type Bucket = Record<string, unknown> & { key?: unknown; doc_count?: number };

function reshapeLevel(level: Record<string, unknown>, plans: ReadonlyMap<string, AggregationPlan>): Record<string, unknown> {
  const result = { ...level };
  for (const [name, plan] of plans) {
    const answer = result[name] as Record<string, unknown> | undefined;
    if (answer === undefined) continue;
    result[name] = plan.terms ? termsAnswer(answer, plan.terms, plan.children) : withBucketsReshaped(answer, plan.children);
  }
  return result;
}

/** A bucket aggregation's answer with its buckets' sub-aggregations reshaped (a single-bucket one holds them itself). */
function withBucketsReshaped(answer: Record<string, unknown>, plans: ReadonlyMap<string, AggregationPlan>): Record<string, unknown> {
  const buckets = answer['buckets'];
  if (Array.isArray(buckets)) return { ...answer, buckets: buckets.map((bucket: Record<string, unknown>) => reshapeLevel(bucket, plans)) };
  if (typeof buckets === 'object' && buckets !== null) {
    return {
      ...answer,
      buckets: Object.fromEntries(Object.entries(buckets).map(([key, bucket]) => [key, reshapeLevel(bucket as Record<string, unknown>, plans)])),
    };
  }
  return reshapeLevel(answer, plans);
}

function termsAnswer(answer: Record<string, unknown>, terms: RewrittenTerms, children: ReadonlyMap<string, AggregationPlan>): Record<string, unknown> {
  const keyed = (answer['buckets'] ?? {}) as Record<string, Bucket>;
  const kept: Bucket[] = [];
  for (const [key, bucket] of Object.entries(keyed)) {
    const { doc_count: docCount = 0, ...subs } = bucket;
    // A type with no events shows only under min_doc_count 0; the missing bucket only when it holds events.
    const isMissing = key === MISSING_BUCKET;
    if (docCount < (isMissing ? Math.max(terms.minDocCount, 1) : terms.minDocCount)) continue;
    kept.push({ key: isMissing ? terms.missing : key, doc_count: docCount, ...reshapeLevel(subs, children) });
  }
  kept.sort((a, b) => compareBuckets(a, b, terms.order));
  const shown = kept.slice(0, terms.size);
  const other = kept.slice(terms.size).reduce((sum, bucket) => sum + (bucket.doc_count ?? 0), 0);
  return { doc_count_error_upper_bound: 0, sum_other_doc_count: other, buckets: shown };
}

function compareBuckets(a: Bucket, b: Bucket, orders: readonly BucketOrder[]): number {
  for (const { key, order } of orders) {
    const left = orderValue(a, key);
    const right = orderValue(b, key);
    // A bucket without the metric's value sorts last in either direction, as in OpenSearch.
    const leftMissing = left === null || left === undefined;
    const rightMissing = right === null || right === undefined;
    if (leftMissing || rightMissing) {
      if (leftMissing !== rightMissing) return leftMissing ? 1 : -1;
      continue;
    }
    const difference = compareValues(left, right);
    if (difference !== 0) return order === 'asc' ? difference : -difference;
  }
  return 0;
}

/** A bucket's value for an order key: `_count`, `_key`, or a metric path (`total`, `stats.max`, `pct[99]`). */
function orderValue(bucket: Bucket, key: string): unknown {
  if (key === '_count') return bucket.doc_count;
  if (key === '_key') return bucket.key;
  const path = parseMetricPath(key);
  const metric = bucket[path?.name ?? key] as Record<string, unknown> | undefined;
  const property = path?.property;
  if (metric === undefined || metric === null) return null;
  if (property === undefined || property === 'value') return metric['value'];
  const values = metric['values'] as Record<string, unknown> | undefined;
  if (values !== undefined) {
    const percentile = Object.entries(values).find(([percent]) => Number(percent) === Number(property));
    return percentile?.[1] ?? null;
  }
  return metric[property];
}

/** Numbers by value, anything else by its text in code units. */
function compareValues(left: unknown, right: unknown): number {
  if (typeof left === 'number' && typeof right === 'number') return left - right;
  const a = String(left);
  const b = String(right);
  return a < b ? -1 : a > b ? 1 : 0;
}
