import { timestampTZValue, type DuckDBValue } from '@duckdb/node-api';
import type { SearchHit, SearchResponse } from '../../functions/search/port';

/**
 * The eight dashboard queries of the search benchmark, each asked twice: as an OpenSearch-style
 * body through our search API, and as hand-written DuckDB SQL over the same tables (the baseline).
 * Both sides reduce their result to the same plain answer (the parts of the response a dashboard
 * reads), which the benchmark compares before it times anything.
 */

export type Body = Record<string, unknown>;
/** One search through our API, for the query's kind and query parameters. */
export type Send = (body: Body) => Promise<SearchResponse>;
/** One SQL statement with named parameters; rows as JS values. */
export type RunSql = (sql: string, values: Record<string, DuckDBValue>) => Promise<unknown[][]>;

/** The `from`, `to` and `time_zone` query parameters of the request. */
export interface RangeParams {
  readonly from?: string;
  readonly to?: string;
  readonly time_zone?: string;
}

/** What the SQL must confine itself to: the tenant and, for events, the window the request's parameters resolved to. */
export interface SqlScope {
  /** The tenant's number in the file (tenantNumberIn): the hand-written SQL filters on it, as the adapter does. */
  readonly tenantNumber: number;
  readonly from?: Date;
  readonly to?: Date;
}

export interface DashboardQuery {
  readonly name: string;
  readonly kind: 'events' | 'users';
  readonly params: RangeParams;
  ours(send: Send): Promise<unknown>;
  sql(run: RunSql, scope: SqlScope): Promise<unknown>;
}

const LAST_30_DAYS: RangeParams = { from: '-30d', to: 'now' };
const HISTOGRAM_ZONE = 'America/New_York';
const PAGES = 10;
const PAGE_SIZE = 100;

export function dashboardQueries(options: { sampleEmail: string; plan: string }): DashboardQuery[] {
  return [
    {
      name: 'count by status, last 24h',
      kind: 'events',
      params: { from: '-24h', to: 'now' },
      ours: async (send) => termsAnswer(await send({ size: 0, aggs: { statuses: { terms: { field: 'response.status', size: 20 } } } }), 'statuses', () => ({})),
      sql: (run, scope) => termsSql(run, scope, { key: 'status', size: 20, order: 'n DESC, k ASC' }),
    },
    {
      name: 'top 10 routes by count, 30 days',
      kind: 'events',
      params: LAST_30_DAYS,
      ours: async (send) => termsAnswer(await send({ size: 0, aggs: { routes: { terms: { field: 'request.route.raw', size: 10 } } } }), 'routes', () => ({})),
      sql: (run, scope) => termsSql(run, scope, { key: 'route', size: 10, order: 'n DESC, k ASC' }),
    },
    {
      name: 'top 10 companies by sum of weight',
      kind: 'events',
      params: LAST_30_DAYS,
      ours: async (send) =>
        termsAnswer(
          await send({
            size: 0,
            aggs: {
              companies: {
                terms: { field: 'company_id', size: 10, order: { usage: 'desc' } },
                aggs: { usage: { sum: { field: 'weight', missing: 1 } } },
              },
            },
          }),
          'companies',
          (bucket) => ({ usage: metricValue(bucket, 'usage') }),
        ),
      // Ordering by a metric breaks ties by key, ascending (OpenSearch's implicit tie-breaker).
      sql: (run, scope) => termsSql(run, scope, { key: 'company_id', size: 10, order: 'usage DESC, k ASC', metrics: { usage: 'sum(coalesce(weight, 1))' } }),
    },
    {
      name: `hourly histogram, 30 days, ${HISTOGRAM_ZONE}`,
      kind: 'events',
      params: { ...LAST_30_DAYS, time_zone: HISTOGRAM_ZONE },
      ours: async (send) => {
        const response = await send({ size: 0, aggs: { per_hour: { date_histogram: { field: 'time', calendar_interval: '1h', time_zone: HISTOGRAM_ZONE } } } });
        const buckets = aggregation(response, 'per_hour').buckets as Record<string, unknown>[];
        return { total: response.hits.total, buckets: buckets.map((b) => ({ key: b.key, key_as_string: b.key_as_string, doc_count: b.doc_count })) };
      },
      sql: (run, scope) => hourlyHistogramSql(run, scope, HISTOGRAM_ZONE),
    },
    {
      name: 'p50/p99 latency of the top 10 routes',
      kind: 'events',
      params: LAST_30_DAYS,
      ours: async (send) =>
        termsAnswer(
          await send({
            size: 0,
            aggs: {
              routes: { terms: { field: 'request.route.raw', size: 10 }, aggs: { latency: { percentiles: { field: 'duration_ms', percents: [50, 99] } } } },
            },
          }),
          'routes',
          (bucket) => {
            const values = (bucket.latency as { values?: Record<string, unknown> } | undefined)?.values ?? {};
            return { p50: values['50.0'], p99: values['99.0'] };
          },
        ),
      // quantile_cont is linear interpolation between the closest ranks: what our percentiles promise. The
      // durations fit an INTEGER, which DuckDB orders faster than the BIGINT column holds.
      sql: (run, scope) =>
        termsSql(run, scope, {
          key: 'route',
          size: 10,
          order: 'n DESC, k ASC',
          metrics: { q: 'quantile_cont(CAST(duration_ms AS INTEGER), [0.5, 0.99])' },
          select: { p50: 'q[1]', p99: 'q[2]' },
        }),
    },
    {
      name: `metadata filter (plan = ${options.plan}), 10 hits`,
      kind: 'events',
      params: LAST_30_DAYS,
      ours: async (send) => hitsAnswer(await send({ size: 10, query: { bool: { filter: [{ term: { 'metadata.plan.raw': options.plan } }] } } }), false),
      sql: async (run, scope) => {
        const { where, values } = eventScope(scope);
        // The ideal layout: the plan in a typed column, which the index makes of a frequent metadata
        // key (from 50 k events on); below that, the metadata JSON column every row has.
        const [[typed]] = (await run(`SELECT count(*) FROM duckdb_columns() WHERE table_name = 'events' AND column_name = 'metadata.plan'`, {})) as [[bigint]];
        const plan = typed > 0n ? `"metadata.plan"` : `json_extract_string(metadata, '$.plan')`;
        const filtered = `${where} AND ${plan} = $plan`;
        const [[total]] = (await run(`SELECT count(*) FROM events WHERE ${filtered}`, { ...values, plan: options.plan })) as [[bigint]];
        const rows = await run(`SELECT id, epoch_ms("time"), doc FROM events WHERE ${filtered} ORDER BY "time" DESC, id ASC LIMIT 10`, {
          ...values,
          plan: options.plan,
        });
        return { total: Number(total), hits: rows.map(([id, , doc]) => ({ _id: id, _source: JSON.parse(doc as string) as unknown })) };
      },
    },
    {
      name: `${PAGES} pages of ${PAGE_SIZE} with search_after`,
      kind: 'events',
      params: LAST_30_DAYS,
      ours: async (send) => {
        const hits: unknown[] = [];
        let after: unknown[] | undefined;
        for (let page = 0; page < PAGES; page++) {
          const response = await send({
            size: PAGE_SIZE,
            sort: [{ time: { order: 'desc' } }, { _id: { order: 'asc' } }],
            // A pager that already showed the total does not ask for it again.
            track_total_hits: false,
            ...(after ? { search_after: after } : {}),
          });
          const pageHits = hitsAnswer(response, true).hits;
          hits.push(...pageHits);
          after = response.hits.hits[response.hits.hits.length - 1]?.sort;
          if (!after) break;
        }
        return { hits };
      },
      sql: async (run, scope) => {
        const { where, values } = eventScope(scope);
        const hits: unknown[] = [];
        let after: { time: number; id: string } | undefined;
        for (let page = 0; page < PAGES; page++) {
          const keyset = after ? ` AND ("time" < $after_time OR ("time" = $after_time AND id > $after_id))` : '';
          const pageValues = after ? { ...values, after_time: timestampTZValue(BigInt(after.time) * 1000n), after_id: after.id } : values;
          const rows = await run(
            `SELECT id, epoch_ms("time"), doc FROM events WHERE ${where}${keyset} ORDER BY "time" DESC, id ASC LIMIT ${PAGE_SIZE}`,
            pageValues,
          );
          for (const [id, time, doc] of rows) hits.push({ _id: id, _source: JSON.parse(doc as string) as unknown, sort: [Number(time), id] });
          const last = rows[rows.length - 1];
          if (!last) break;
          after = { time: Number(last[1]), id: last[0] as string };
        }
        return { hits };
      },
    },
    {
      name: 'user search by email',
      kind: 'users',
      params: {},
      ours: async (send) => hitsAnswer(await send({ size: 10, query: { term: { 'metadata.email.raw': options.sampleEmail } } }), false),
      sql: async (run, scope) => {
        const rows = await run('SELECT id, doc, count(*) OVER () FROM users WHERE tenant_number = $tenant_number AND email = $email ORDER BY id LIMIT 10', {
          tenant_number: scope.tenantNumber,
          email: options.sampleEmail,
        });
        return { total: Number(rows[0]?.[2] ?? 0), hits: rows.map(([id, doc]) => ({ _id: id, _source: JSON.parse(doc as string) as unknown })) };
      },
    },
  ];
}

function aggregation(response: SearchResponse, name: string): Record<string, unknown> {
  const found = response.aggregations?.[name];
  if (typeof found !== 'object' || found === null) throw new Error(`the response has no aggregation "${name}": ${JSON.stringify(response.aggregations)}`);
  return found as Record<string, unknown>;
}

function metricValue(bucket: Record<string, unknown>, name: string): unknown {
  return (bucket[name] as { value?: unknown } | undefined)?.value;
}

function termsAnswer(response: SearchResponse, name: string, metrics: (bucket: Record<string, unknown>) => Record<string, unknown>) {
  const terms = aggregation(response, name);
  const buckets = terms.buckets as Record<string, unknown>[];
  return {
    total: response.hits.total,
    sum_other_doc_count: terms.sum_other_doc_count,
    buckets: buckets.map((bucket) => ({ key: bucket.key, doc_count: bucket.doc_count, ...metrics(bucket) })),
  };
}

function hitsAnswer(response: SearchResponse, withSort: boolean) {
  const hit = (h: SearchHit) => (withSort ? { _id: h._id, _source: h._source, sort: h.sort } : { _id: h._id, _source: h._source });
  return { total: response.hits.total, hits: response.hits.hits.map(hit) };
}

function eventScope(scope: SqlScope): { where: string; values: Record<string, DuckDBValue> } {
  const conditions = ['tenant_number = $tenant_number'];
  const values: Record<string, DuckDBValue> = { tenant_number: scope.tenantNumber };
  if (scope.from) {
    conditions.push('"time" >= $from');
    values.from = timestampTZValue(BigInt(scope.from.getTime()) * 1000n);
  }
  if (scope.to) {
    conditions.push('"time" < $to');
    values.to = timestampTZValue(BigInt(scope.to.getTime()) * 1000n);
  }
  return { where: conditions.join(' AND '), values };
}

/**
 * A terms aggregation in one statement: counts (and metrics) per key, the total of the window
 * (documents without the key included) and of documents with a key, for sum_other_doc_count.
 */
async function termsSql(
  run: RunSql,
  scope: SqlScope,
  terms: { key: string; size: number; order: string; metrics?: Record<string, string>; select?: Record<string, string> },
) {
  const { where, values } = eventScope(scope);
  const metrics = Object.entries(terms.metrics ?? {})
    .map(([name, expression]) => `, ${expression} AS ${name}`)
    .join('');
  const selected = Object.entries(terms.select ?? Object.fromEntries(Object.keys(terms.metrics ?? {}).map((name) => [name, name])));
  const rows = await run(
    `WITH groups AS (SELECT ${terms.key} AS k, count(*) AS n${metrics} FROM events WHERE ${where} GROUP BY ALL)
     SELECT k, n, sum(n) OVER () AS total, coalesce(sum(n) FILTER (WHERE k IS NOT NULL) OVER (), 0) AS keyed${selected.map(([name, expression]) => `, ${expression} AS ${name}`).join('')}
     FROM groups QUALIFY k IS NOT NULL ORDER BY ${terms.order} LIMIT ${terms.size}`,
    values,
  );
  const buckets = rows.map((row) => ({
    key: row[0],
    doc_count: Number(row[1]),
    ...Object.fromEntries(selected.map(([name], i) => [name, typeof row[4 + i] === 'bigint' ? Number(row[4 + i]) : row[4 + i]])),
  }));
  const keyed = Number(rows[0]?.[3] ?? 0);
  return {
    total: Number(rows[0]?.[2] ?? 0),
    sum_other_doc_count: keyed - buckets.reduce((sum, bucket) => sum + bucket.doc_count, 0),
    buckets,
  };
}

/**
 * Hourly buckets in a time zone, empty hours between the first and the last filled, keys as
 * epoch millis and key_as_string in the zone's offset at the bucket (OpenSearch's format).
 * The zone's offsets are whole hours, so its hours are UTC's hours: a hand-writer buckets epoch milliseconds by
 * integer division (no calendar or zone arithmetic per row, which made this baseline several times slower than it
 * need be) and applies the zone to the few bucket keys only. The repeated hour of a DST fall-back stays two
 * buckets, as OpenSearch keeps it.
 */
async function hourlyHistogramSql(run: RunSql, scope: SqlScope, zone: string) {
  const { where, values } = eventScope(scope);
  const rows = await run(
    `WITH hour_counts AS (SELECT epoch_ms("time") // 3600000 AS h, count(*) AS n FROM events WHERE ${where} GROUP BY h),
     counts AS (SELECT to_timestamp(h * 3600) AS k, n FROM hour_counts),
     hours AS (SELECT unnest(generate_series(min(k), max(k), INTERVAL '1 hour')) AS k FROM counts),
     filled AS (SELECT hours.k, coalesce(counts.n, 0) AS n, CAST(epoch(timezone($zone, hours.k)) - epoch(hours.k) AS INTEGER) AS offset_s FROM hours LEFT JOIN counts USING (k))
     SELECT epoch_ms(k),
            strftime(timezone($zone, k), '%Y-%m-%dT%H:%M:%S.%g') || CASE WHEN offset_s < 0 THEN '-' ELSE '+' END
              || lpad(CAST(abs(offset_s) // 3600 AS VARCHAR), 2, '0') || ':' || lpad(CAST(abs(offset_s) % 3600 // 60 AS VARCHAR), 2, '0'),
            n, sum(n) OVER ()
     FROM filled ORDER BY k`,
    { ...values, zone },
  );
  return {
    total: Number(rows[0]?.[3] ?? 0),
    buckets: rows.map(([key, keyAsString, n]) => ({ key: Number(key), key_as_string: keyAsString, doc_count: Number(n) })),
  };
}
