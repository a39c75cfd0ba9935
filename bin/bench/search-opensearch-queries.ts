import type { Client } from '@opensearch-project/opensearch';
import type { TenantScope } from '../../functions/search/port';

/**
 * The search bench's eight dashboard questions written by hand in OpenSearch's DSL, the way a
 * person who knows our index layout would write them against the same index: tenant terms and the
 * time window as filters, `index_meta.time` for the event time, `index_meta.doc_id` as the id
 * tie-breaker. Each reduces its answer to the plain answer the same-named query of
 * search-queries.ts gives, so the bench can check they agree before it times the adapter against
 * them (the adapter's overhead: parsing, the body it builds, reshaping the answer).
 */

export interface HandWrittenScope {
  readonly tenant: TenantScope;
  readonly from?: Date;
  readonly to?: Date;
}

export type HandWritten = (client: Client, scope: HandWrittenScope) => Promise<unknown>;

type Body = Record<string, unknown>;
type Hit = { _id: string; _source?: Record<string, unknown>; sort?: unknown[] };
interface Answer {
  hits: { total?: { value: number } | number; hits: Hit[] };
  aggregations?: Record<string, { buckets: Record<string, unknown>[]; sum_other_doc_count?: number }>;
}

const EVENTS = 'bench-events-*';
const USERS = 'bench-users';
const TIME = 'index_meta.time';
const DOC_ID = 'index_meta.doc_id';
const HISTOGRAM_ZONE = 'America/New_York';
const PAGES = 10;
const PAGE_SIZE = 100;

/** Indices the bench writes: the prefix the hand-written queries read. */
export const BENCH_INDEX_PREFIX = 'bench-';

export function handWrittenQueries(options: { sampleEmail: string; plan: string }): Record<string, HandWritten> {
  return {
    'count by status, last 24h': async (client, scope) =>
      terms(await aggregate(client, scope, { statuses: { terms: { field: 'response.status', size: 20 } } }), 'statuses', () => ({})),
    'top 10 routes by count, 30 days': async (client, scope) =>
      terms(await aggregate(client, scope, { routes: { terms: { field: 'request.route.raw', size: 10 } } }), 'routes', () => ({})),
    'top 10 companies by sum of weight': async (client, scope) =>
      terms(
        await aggregate(client, scope, {
          companies: { terms: { field: 'company_id', size: 10, order: { usage: 'desc' } }, aggs: { usage: { sum: { field: 'weight', missing: 1 } } } },
        }),
        'companies',
        (bucket) => ({ usage: (bucket.usage as { value: number }).value }),
      ),
    [`hourly histogram, 30 days, ${HISTOGRAM_ZONE}`]: async (client, scope) => {
      const answer = await aggregate(client, scope, { per_hour: { date_histogram: { field: TIME, calendar_interval: '1h', time_zone: HISTOGRAM_ZONE } } });
      return {
        total: totalOf(answer),
        buckets: buckets(answer, 'per_hour').map((b) => ({ key: b.key, key_as_string: b.key_as_string, doc_count: b.doc_count })),
      };
    },
    'p50/p99 latency of the top 10 routes': async (client, scope) =>
      terms(
        await aggregate(client, scope, {
          routes: { terms: { field: 'request.route.raw', size: 10 }, aggs: { latency: { percentiles: { field: 'duration_ms', percents: [50, 99] } } } },
        }),
        'routes',
        (bucket) => {
          const values = (bucket.latency as { values: Record<string, unknown> }).values;
          return { p50: values['50.0'], p99: values['99.0'] };
        },
      ),
    [`metadata filter (plan = ${options.plan}), 10 hits`]: async (client, scope) => {
      const query = { bool: { filter: [...tenant(scope), timeRange(scope), { term: { 'metadata.plan.raw': options.plan } }] } };
      return hits(scope, await search(client, EVENTS, { size: 10, track_total_hits: true, query, sort: [{ [TIME]: 'desc' }, { [DOC_ID]: 'asc' }] }), false);
    },
    [`${PAGES} pages of ${PAGE_SIZE} with search_after`]: async (client, scope) => {
      const found: unknown[] = [];
      let after: unknown[] | undefined;
      for (let page = 0; page < PAGES; page++) {
        const answer = await search(client, EVENTS, {
          size: PAGE_SIZE,
          track_total_hits: false,
          query: window(scope),
          sort: [{ [TIME]: 'desc' }, { [DOC_ID]: 'asc' }],
          ...(after ? { search_after: after } : {}),
        });
        found.push(...hits(scope, answer, true).hits);
        after = answer.hits.hits[answer.hits.hits.length - 1]?.sort;
        if (!after) break;
      }
      return { hits: found };
    },
    'user search by email': async (client, scope) =>
      hits(
        scope,
        await search(client, USERS, {
          size: 10,
          track_total_hits: true,
          query: { bool: { filter: [...tenant(scope), { term: { 'metadata.email.raw': options.sampleEmail } }] } },
          sort: [{ [DOC_ID]: 'asc' }],
        }),
        false,
      ),
  };
}

async function search(client: Client, index: string, body: Body): Promise<Answer> {
  const response = await client.search({ index, ignore_unavailable: true, allow_no_indices: true, body: body as never });
  return response.body as unknown as Answer;
}

/** A dashboard aggregation over the scope's window: no hits, every matching event counted. */
const aggregate = (client: Client, scope: HandWrittenScope, aggs: Body): Promise<Answer> =>
  search(client, EVENTS, { size: 0, track_total_hits: true, query: window(scope), aggs });

const tenant = (scope: HandWrittenScope): Body[] => [{ term: { org_id: scope.tenant.org_id } }, { term: { app_id: scope.tenant.app_id } }];
const timeRange = (scope: HandWrittenScope): Body => ({ range: { [TIME]: { gte: scope.from?.toISOString(), lt: scope.to?.toISOString() } } });
const window = (scope: HandWrittenScope): Body => ({ bool: { filter: [...tenant(scope), timeRange(scope)] } });

const totalOf = (answer: Answer): number => {
  const total = answer.hits.total;
  return typeof total === 'number' ? total : (total?.value ?? 0);
};

function buckets(answer: Answer, name: string): Record<string, unknown>[] {
  return answer.aggregations?.[name]?.buckets ?? [];
}

function terms(answer: Answer, name: string, metrics: (bucket: Record<string, unknown>) => Record<string, unknown>) {
  return {
    total: totalOf(answer),
    sum_other_doc_count: answer.aggregations?.[name]?.sum_other_doc_count,
    buckets: buckets(answer, name).map((bucket) => ({ key: bucket.key, doc_count: bucket.doc_count, ...metrics(bucket) })),
  };
}

/** Hits as the bench compares them: plain ids (the stored `_id` is `app:id`) and sort values; sources are fetched, not compared (ours restores them). */
function hits(scope: HandWrittenScope, answer: Answer, withSort: boolean) {
  const prefix = `${scope.tenant.app_id}:`;
  const hit = (h: Hit) => ({ _id: h._id.startsWith(prefix) ? h._id.slice(prefix.length) : h._id, ...(withSort ? { sort: h.sort } : {}) });
  return { ...(withSort ? {} : { total: totalOf(answer) }), hits: answer.hits.hits.map(hit) };
}
