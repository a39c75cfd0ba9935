import { metricAggregation } from '../../functions/billing/run/usage-query';
import type { RunMeter } from '../../functions/billing/run/run-meter';
import type { SearchableIndex } from '../../functions/search/port';
import { compare } from './timing';

/**
 * One customer's usage page load at the billing bench's size (1,000,000 events, 2,000 companies,
 * 5 meters, after the billing run): `GET /public/customers/{token}/usage` as the page asks it, against
 * the one hand-written search that computes the numbers it shows (the company's events this period
 * per hour, with each meter's usage per hour: its query as a filter, its metric inside), through the
 * same search API. Also timed, as before: a plain hourly histogram of the company's events, which
 * reads only the time column where the page must read each meter's fields. Counted as well: the
 * searches and DynamoDB requests one load issues.
 */

const ROUNDS = 9;

export interface UsagePageTiming {
  readonly companyId: string;
  readonly meters: number;
  readonly loadMs: number;
  /** The hand-written search of the page's numbers. */
  readonly baselineMs: number;
  readonly ratio: number;
  /** A plain hourly histogram of the company's events (the baseline before, which computes less than the page shows). */
  readonly histogramMs: number;
  readonly searchesPerLoad: number;
  readonly dynamoRequestsPerLoad: number;
}

/** A search index that counts the searches made through it (what one page load costs the backend). */
export function countingSearches(index: SearchableIndex): { index: SearchableIndex; searches: () => number } {
  let searches = 0;
  const counted = Object.create(index) as SearchableIndex;
  counted.search = (context, request) => {
    searches += 1;
    return index.search(context, request);
  };
  return { index: counted, searches: () => searches };
}

export async function benchUsagePage(input: {
  readonly managementUrl: string;
  readonly managementToken: string;
  readonly companyId: string;
  readonly meters: readonly RunMeter[];
  readonly period: { readonly from: Date; readonly to: Date };
  readonly searches: () => number;
  readonly dynamoRequests: () => number;
  readonly log: (line: string) => void;
}): Promise<UsagePageTiming> {
  const { managementUrl, managementToken, companyId } = input;
  const json = async (response: Response) => {
    const body = (await response.json()) as Record<string, unknown>;
    if (!response.ok) throw new Error(`usage page bench: ${response.url} answered ${response.status}: ${JSON.stringify(body)}`);
    return body;
  };
  const minted = await json(
    await fetch(`${managementUrl}/~/customer_tokens`, {
      method: 'POST',
      headers: { authorization: `Bearer ${managementToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ company_id: companyId }),
    }),
  );
  const usageUrl = `${managementUrl}/public/customers/${encodeURIComponent(String(minted['token']))}/usage`;
  const load = async () => json(await fetch(usageUrl));
  const range = `from=${encodeURIComponent(input.period.from.toISOString())}&to=${encodeURIComponent(input.period.to.toISOString())}`;
  const search = async (body: Record<string, unknown>) =>
    json(
      await fetch(`${managementUrl}/search/~/search/events?${range}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${managementToken}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      }),
    );
  const hourly = { date_histogram: { field: 'time', fixed_interval: '60m', min_doc_count: 1 } };
  const perMeter = Object.fromEntries(
    input.meters.map((meter, n) => [`meter${n}`, { filter: meter.body['query'] ?? { match_all: {} }, aggs: { usage: metricAggregation(meter.metric) } }]),
  );
  const baseline = () => search({ size: 0, query: { term: { company_id: companyId } }, aggs: { hours: { ...hourly, aggs: perMeter } } });
  const histogram = () => search({ size: 0, query: { term: { company_id: companyId } }, aggs: { hours: hourly } });
  const first = await load();
  const meters = (first['meters'] as unknown[]).length;
  if (meters === 0) throw new Error(`usage page bench: ${companyId} has no usage: nothing would be measured`);
  const searchesBefore = input.searches();
  const dynamoBefore = input.dynamoRequests();
  await load();
  const searchesPerLoad = input.searches() - searchesBefore;
  const dynamoRequestsPerLoad = input.dynamoRequests() - dynamoBefore;
  const timed = await compare(ROUNDS, baseline, load);
  const plain = await compare(ROUNDS, histogram, load);
  input.log(
    `  usage page of ${companyId}: ${meters} meters; load ${timed.subjectMs.toFixed(1)} ms vs one hand-written search of its meters' hourly usage ${timed.baselineMs.toFixed(1)} ms (ratio ${(timed.subjectMs / timed.baselineMs).toFixed(2)}); vs a plain hourly histogram of its events ${plain.baselineMs.toFixed(1)} ms (load ${plain.subjectMs.toFixed(1)} ms, ratio ${(plain.subjectMs / plain.baselineMs).toFixed(2)}); per load ${searchesPerLoad} searches, ${dynamoRequestsPerLoad} DynamoDB requests`,
  );
  return {
    companyId,
    meters,
    loadMs: timed.subjectMs,
    baselineMs: timed.baselineMs,
    ratio: timed.subjectMs / timed.baselineMs,
    histogramMs: plain.baselineMs,
    searchesPerLoad,
    dynamoRequestsPerLoad,
  };
}
