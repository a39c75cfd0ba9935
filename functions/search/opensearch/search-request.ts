import type { Client } from '@opensearch-project/opensearch';
import type { SearchBody } from './request-types';
import { serialiseBody } from './sort';

/** Reads that may target indices not created yet (no event in that month) find nothing instead of failing. */
export const LENIENT_TARGET = { ignore_unavailable: true, allow_no_indices: true } as const;

/** The most buckets a page of the adapter's own listings asks of the node: within its search.max_buckets (65,535). */
export const MOST_BUCKETS_A_PAGE = 65_000;

/**
 * One `_search` request, its body built to request-types.ts. Sent as text through the transport:
 * serialiseBody writes the long extremes of search_after exactly, which a JS number cannot hold,
 * and our body types fill gaps the client's own search signature does not know of. The promise
 * keeps the client's abort(), for query-signal cancellation.
 */
export function searchRequest(client: Client, index: string, body: SearchBody) {
  return client.transport.request({
    method: 'POST',
    path: `/${encodeURIComponent(index)}/_search`,
    querystring: LENIENT_TARGET,
    body: serialiseBody(body),
  });
}
