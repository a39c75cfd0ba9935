import type { Series } from '../../../components/chart-types';

/**
 * The overview's one search: every API call of the window (actions are not calls), its count,
 * errors (status 400 and above), p50/p90 latency, calls and errors over time, the top routes,
 * customers (companies), clients and countries (`request.user_agent` and `request.geo_ip`, added at ingest).
 */

/** The histogram interval of each range the overview offers: about 24–170 points. */
const INTERVALS: Readonly<Record<string, string>> = {
  '-15m': '1m',
  '-1h': '1m',
  '-24h': '1h',
  '-7d': '6h',
  '-30d': '1d',
  '-12w': '7d',
  '-6M': '7d',
};
export const TOP_ROWS = 10;
export const TOP_COUNTRIES = 20;

const ERRORS = { filter: { range: { 'response.status': { gte: 400 } } } };

/** The search of the window; `numbersOnly`: of the previous period, whose calls, errors and latency are compared. */
export function overviewBody(from: string, timeZone: string, numbersOnly = false): Record<string, unknown> {
  const numbers = { errors: ERRORS, latency: { percentiles: { field: 'duration_ms', percents: [50, 90] } } };
  return {
    size: 0,
    track_total_hits: true,
    query: { term: { event_type: 'api_call' } },
    aggs: numbersOnly
      ? numbers
      : {
          ...numbers,
          over_time: {
            date_histogram: {
              field: 'request.time',
              fixed_interval: INTERVALS[from] ?? '1h',
              time_zone: timeZone,
              min_doc_count: 0,
              extended_bounds: { min: `now${from}`, max: 'now' },
            },
            aggs: { errors: ERRORS },
          },
          routes: {
            terms: { field: 'request.route.raw', size: TOP_ROWS },
            aggs: { errors: ERRORS, latency: { percentiles: { field: 'duration_ms', percents: [90] } } },
          },
          companies: { terms: { field: 'company_id', size: TOP_ROWS }, aggs: { errors: ERRORS } },
          clients: { terms: { field: 'request.user_agent.name.raw', size: TOP_ROWS }, aggs: { errors: ERRORS } },
          countries: { terms: { field: 'request.geo_ip.country_iso_code.raw', size: TOP_COUNTRIES } },
        },
  };
}

export interface OverviewNumbers {
  readonly calls: number;
  /** Errors of all calls, 0–1; null without calls. */
  readonly errorRate: number | null;
  readonly p50: number | null;
  readonly p90: number | null;
}

export interface TopRow {
  readonly key: string;
  readonly calls: number;
  readonly errorRate: number;
  readonly p90?: number | null;
}

export interface Overview {
  readonly numbers: OverviewNumbers;
  readonly series: Series[];
  readonly routes: TopRow[];
  readonly companies: TopRow[];
  /** Browsers and HTTP libraries, by the parsed User-Agent's name. */
  readonly clients: TopRow[];
  readonly countries: { readonly code: string; readonly calls: number; readonly share: number }[];
  /** Calls without a country (private addresses, events stored before enrichment). */
  readonly withoutCountry: number;
}

interface Bucket {
  readonly key: string | number;
  readonly doc_count: number;
  readonly errors?: { readonly doc_count: number };
  readonly latency?: { readonly values?: Record<string, number | null> };
}

interface Answer {
  readonly hits: { readonly total: number };
  readonly aggregations?: Record<string, unknown>;
}

/** A percentile of a percentiles aggregation, whatever its key's form (`50`, `50.0`). */
function percentile(latency: Bucket['latency'], percent: number): number | null {
  const found = Object.entries(latency?.values ?? {}).find(([key]) => Number(key) === percent);
  return found?.[1] ?? null;
}

const bucketsOf = (aggregations: Record<string, unknown> | undefined, name: string): Bucket[] =>
  ((aggregations?.[name] as { buckets?: Bucket[] } | undefined)?.buckets ?? []) as Bucket[];

const rate = (errors: number, calls: number) => (calls > 0 ? errors / calls : 0);

export function readOverview(answer: Answer): Overview {
  const aggregations = answer.aggregations;
  const calls = answer.hits.total;
  const errors = (aggregations?.['errors'] as { doc_count?: number } | undefined)?.doc_count ?? 0;
  const latency = aggregations?.['latency'] as Bucket['latency'];
  const overTime = bucketsOf(aggregations, 'over_time');
  const countries = bucketsOf(aggregations, 'countries');
  const top = (bucket: Bucket): TopRow => ({
    key: String(bucket.key),
    calls: bucket.doc_count,
    errorRate: rate(bucket.errors?.doc_count ?? 0, bucket.doc_count),
    ...(bucket.latency ? { p90: percentile(bucket.latency, 90) } : {}),
  });
  const located = countries.reduce((sum, bucket) => sum + bucket.doc_count, 0);
  const otherCountries = (aggregations?.['countries'] as { sum_other_doc_count?: number } | undefined)?.sum_other_doc_count ?? 0;
  return {
    numbers: { calls, errorRate: calls > 0 ? errors / calls : null, p50: percentile(latency, 50), p90: percentile(latency, 90) },
    series: [
      { name: 'Calls', points: overTime.map((bucket) => [Number(bucket.key), bucket.doc_count]) },
      { name: 'Errors', points: overTime.map((bucket) => [Number(bucket.key), bucket.errors?.doc_count ?? 0]) },
    ],
    routes: bucketsOf(aggregations, 'routes').map(top),
    companies: bucketsOf(aggregations, 'companies').map(top),
    clients: bucketsOf(aggregations, 'clients').map(top),
    countries: countries.map((bucket) => ({ code: String(bucket.key), calls: bucket.doc_count, share: rate(bucket.doc_count, calls) })),
    withoutCountry: Math.max(0, calls - located - otherCountries),
  };
}
