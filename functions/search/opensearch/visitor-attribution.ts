import { ServiceUnavailableError } from '../../shared/errors';
import type { TenantScope } from '../port';
import { readTarget } from './naming';
import type { QueryClause } from './request-types';
import { LENIENT_TARGET, searchRequest } from './search-request';
import type { OpenSearchTarget } from './opensearch-search';

/** Events updated per bulk request. */
const PAGE = 1000;

interface AnonymousHit {
  readonly _index: string;
  readonly _id: string;
}

/**
 * Sets user_id on the tenant's events of an anonymous visitor that carry none, by partial-document
 * updates (no script: the cluster needs no scripting module). The events index is refreshed first,
 * so events indexed a moment ago are found; each page is refreshed after its update, so updated
 * events leave the query and the next page finds the rest.
 */
export async function attributeVisitorOpenSearch(target: OpenSearchTarget, scope: TenantScope, anonymousId: string, userId: string): Promise<number> {
  const index = readTarget(target.prefix, 'events');
  await target.client.indices.refresh({ index, ...LENIENT_TARGET });
  const query: QueryClause = {
    bool: {
      filter: [...target.wrap(scope), { term: { anonymous_id: anonymousId } }],
      must_not: [{ exists: { field: 'user_id' } }],
    },
  };
  let attributed = 0;
  for (;;) {
    const answer = (await searchRequest(target.client, index, { query, size: PAGE, _source: false, sort: ['_doc'] })).body as {
      hits?: { hits?: AnonymousHit[] };
    };
    const hits = answer.hits?.hits ?? [];
    if (hits.length === 0) return attributed;
    const lines = hits.flatMap((hit) => [JSON.stringify({ update: { _index: hit._index, _id: hit._id } }), JSON.stringify({ doc: { user_id: userId } })]);
    const response = await target.client.transport.request({
      method: 'POST',
      path: '/_bulk',
      querystring: { refresh: 'true' },
      bulkBody: `${lines.join('\n')}\n`,
    });
    const result = response.body as { errors?: boolean; items?: { update?: { status: number; error?: { reason?: string } } }[] };
    const failed = (result.items ?? []).filter((item) => (item.update?.status ?? 500) >= 300);
    if (result.errors === true && failed.length > 0) {
      throw new ServiceUnavailableError(
        `OpenSearch attributed ${hits.length - failed.length} events of a visitor, then failed: ${failed[0]?.update?.error?.reason ?? 'unknown reason'}`,
      );
    }
    attributed += hits.length;
  }
}
