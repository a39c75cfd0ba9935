import { callerFieldsOf, openCallerEnricher } from '../../../functions/enrichment';
import { apiCall } from '../fixtures';
import type { CaseDocument, ConformanceCase, HitsExpectation } from '../types';

/**
 * The fields the consumer adds at ingest (functions/enrichment), searched and grouped the same way on
 * both backends. The documents go through the real enricher, as the consumer's do.
 *
 * | id | time (UTC)        | kind   | ip                       | user agent             | country | client          | device  |
 * |----|-------------------|--------|--------------------------|------------------------|---------|-----------------|---------|
 * | g1 | 2026-03-10T08:00Z | call   | 81.2.69.142              | Chrome 120 on Windows  | GB      | Chrome          | desktop |
 * | g2 | 2026-03-11T08:00Z | call   | 81.2.69.142              | curl/8.4.0             | GB      | curl            | —       |
 * | g3 | 2026-03-12T08:00Z | call   | 8.8.8.8                  | Safari 17 on an iPhone | US      | Mobile Safari   | mobile  |
 * | g4 | 2026-03-13T08:00Z | call   | 2a00:1450:4001:830::200e | python-requests/2.31.0 | DE      | python-requests | —       |
 * | g5 | 2026-03-14T08:00Z | call   | 10.0.0.1 (private)       | none                   | —       | —               | —       |
 * | g6 | 2026-03-14T09:00Z | action | 8.8.8.8                  | Chrome 120 on Windows  | US      | Chrome          | desktop |
 */

const CHROME_WINDOWS = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36';
const SAFARI_IPHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.1 Mobile/15E148 Safari/604.1';

const enricher = openCallerEnricher();

function enriched(document: CaseDocument): CaseDocument {
  const request = document.data['request'] as Record<string, unknown>;
  return { ...document, data: { ...document.data, request: { ...request, ...callerFieldsOf(enricher, request) } } };
}

const call = (id: string, time: string, ip: string, userAgent?: string): CaseDocument =>
  enriched(apiCall({ id, time, ip, ...(userAgent === undefined ? {} : { requestHeaders: { 'User-Agent': userAgent } }) }));

export const CALLERS: readonly CaseDocument[] = [
  call('g1', '2026-03-10T08:00:00.000Z', '81.2.69.142', CHROME_WINDOWS),
  call('g2', '2026-03-11T08:00:00.000Z', '81.2.69.142', 'curl/8.4.0'),
  call('g3', '2026-03-12T08:00:00.000Z', '8.8.8.8', SAFARI_IPHONE),
  call('g4', '2026-03-13T08:00:00.000Z', '2a00:1450:4001:830::200e', 'python-requests/2.31.0'),
  call('g5', '2026-03-14T08:00:00.000Z', '10.0.0.1'),
  enriched({
    id: 'g6',
    time: '2026-03-14T09:00:00.000Z',
    action: true,
    data: {
      action_name: 'Signed up',
      request: { time: '2026-03-14T09:00:00.000Z', uri: 'https://shop.test/signup', ip_address: '8.8.8.8', user_agent_string: CHROME_WINDOWS },
    },
  }),
];

const found = (...ids: string[]): HitsExpectation => ({ total: ids.length, ids });
const terms = (buckets: unknown[]) => ({ doc_count_error_upper_bound: 0, sum_other_doc_count: 0, buckets });

export const ENRICHMENT_CASES: readonly ConformanceCase[] = [
  {
    name: 'calls grouped by country code',
    area: 'enrichment',
    documents: CALLERS,
    body: { size: 0, aggs: { countries: { terms: { field: 'request.geo_ip.country_iso_code.raw' } } } },
    expect: {
      total: 6,
      ids: [],
      aggregations: {
        countries: terms([
          { key: 'GB', doc_count: 2 },
          { key: 'US', doc_count: 2 },
          { key: 'DE', doc_count: 1 },
        ]),
      },
    },
  },
  {
    name: 'calls grouped by device type',
    area: 'enrichment',
    documents: CALLERS,
    body: { size: 0, aggs: { devices: { terms: { field: 'request.user_agent.device_type.raw' } } } },
    expect: {
      total: 6,
      ids: [],
      aggregations: {
        devices: terms([
          { key: 'desktop', doc_count: 2 },
          { key: 'mobile', doc_count: 1 },
        ]),
      },
    },
  },
  {
    name: 'term on the client name, API calls and actions alike',
    area: 'enrichment',
    documents: CALLERS,
    body: { query: { term: { 'request.user_agent.name.raw': 'Chrome' } } },
    expect: found('g6', 'g1'),
  },
  {
    name: 'the country name is searchable as text',
    area: 'enrichment',
    documents: CALLERS,
    body: { query: { match: { 'request.geo_ip.country_name': 'united' } } },
    expect: found('g6', 'g3', 'g2', 'g1'),
  },
  {
    name: 'a private address has no country',
    area: 'enrichment',
    documents: CALLERS,
    body: { query: { bool: { must_not: [{ exists: { field: 'request.geo_ip' } }] } } },
    expect: found('g5'),
  },
];
