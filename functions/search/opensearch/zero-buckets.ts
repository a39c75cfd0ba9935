import type { AggregationNode, Scalar } from '../../../schemas/search-tree';
import { ValidationError } from '../../shared/errors';
import type { AggregationBody, Aggregations, QueryClause, SearchBody, TermsFields } from './request-types';

/**
 * terms with `min_doc_count: 0` on OpenSearch, tenant-safely. OpenSearch lists a zero bucket for
 * every term of the field in the shard: in our shared indices, other tenants' terms too. So the
 * adapter first asks for the caller's own terms of each such field (tenant filter only, no time
 * window: the terms of the tenant's whole index, as the DuckDB backend lists them), then sends
 * the search with those terms as the aggregation's `include`. OpenSearch then builds the zero
 * buckets, their order, size cut and sub-aggregations itself, from the caller's terms only.
 */

type Json = Record<string, unknown>;

/** The most distinct terms of one field a zero-bucket listing reads (OpenSearch's default max_buckets is 65,535). */
export const MAX_TENANT_TERMS = 10_000;

export interface ZeroBucketTerms {
  /** The `terms` object of the outgoing body, completed by applyTenantTerms. */
  readonly terms: TermsFields;
  readonly field: string;
  readonly missing?: Scalar;
  /** Where the aggregation sits in the request, for errors: `aggs.users.aggs.routes`. */
  readonly member: string;
}

/**
 * Every terms aggregation of the body: each asks for buckets with documents only (min_doc_count at
 * least 1), and those the request wants zero buckets for are returned, to complete once the
 * tenant's terms are known.
 */
export function zeroBucketTerms(bodies: Aggregations, nodes: Record<string, AggregationNode>, path = 'aggs'): ZeroBucketTerms[] {
  const found: ZeroBucketTerms[] = [];
  for (const [name, node] of Object.entries(nodes)) {
    const body = bodies[name];
    if (body === undefined) continue;
    const member = `${path}.${name}`;
    if (node.type === 'terms' && 'terms' in body) {
      body.terms.min_doc_count = Math.max(1, node.min_doc_count);
      if (node.min_doc_count === 0) {
        found.push({ terms: body.terms, field: body.terms.field, ...(node.missing === undefined ? {} : { missing: node.missing }), member });
      }
    }
    if (body.aggs !== undefined) found.push(...zeroBucketTerms(body.aggs, node.aggs, `${member}.aggs`));
  }
  return found;
}

const termsAggName = (position: number): string => `tenant_terms_${position}`;

/** One request for the tenant's terms of every field that wants zero buckets. */
export function tenantTermsBody(tenant: readonly QueryClause[], wanted: readonly ZeroBucketTerms[]): SearchBody {
  return {
    size: 0,
    track_total_hits: false,
    query: { bool: { filter: [...tenant] } },
    aggs: Object.fromEntries(
      wanted.map((entry, position) => [
        termsAggName(position),
        {
          terms: { field: entry.field, size: MAX_TENANT_TERMS, order: { _key: 'asc' }, ...(entry.missing === undefined ? {} : { missing: entry.missing }) },
        } satisfies AggregationBody,
      ]),
    ),
  };
}

/**
 * Completes each terms aggregation with the tenant's terms: `min_doc_count: 0` limited to them.
 * A tenant without any term of the field has no zero bucket to list, so it stays at 1.
 */
export function applyTenantTerms(wanted: readonly ZeroBucketTerms[], aggregations: Json | undefined): void {
  wanted.forEach((entry, position) => {
    const answer = aggregations?.[termsAggName(position)];
    const buckets = isObject(answer) && Array.isArray(answer.buckets) ? (answer.buckets as Json[]) : [];
    if (isObject(answer) && Number(answer.sum_other_doc_count ?? 0) > 0) {
      const reason = `min_doc_count 0 lists at most ${MAX_TENANT_TERMS} distinct terms of ${entry.field}; this app has more: use min_doc_count 1`;
      throw new ValidationError(`Invalid aggregation: ${reason}`, [{ field: `${entry.member}.terms.min_doc_count`, reason }]);
    }
    if (buckets.length === 0) return;
    // Dates and booleans are listed by their text (what `include` parses), numbers and strings by their key.
    entry.terms.include = buckets.map((bucket) => String(bucket.key_as_string ?? bucket.key));
    entry.terms.min_doc_count = 0;
  });
}

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
