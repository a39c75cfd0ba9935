import { overviewBody, readOverview } from './overview-body';

describe('the overview search', () => {
  it('reads API calls only, with the histogram interval of the range', () => {
    const body = overviewBody('-7d', 'Europe/Berlin') as { query: unknown; aggs: Record<string, { date_histogram?: Record<string, unknown> }> };
    expect(body.query).toEqual({ term: { event_type: 'api_call' } });
    expect(body.aggs['over_time']!.date_histogram).toMatchObject({
      fixed_interval: '6h',
      time_zone: 'Europe/Berlin',
      extended_bounds: { min: 'now-7d', max: 'now' },
    });
    expect(Object.keys(overviewBody('-7d', 'UTC', true)['aggs'] as object)).toEqual(['errors', 'latency']);
  });

  it('reads the numbers, the series, the top rows and the countries of an answer', () => {
    const overview = readOverview({
      hits: { total: 10 },
      aggregations: {
        errors: { doc_count: 3 },
        latency: { values: { '50.0': 40, '90.0': 120 } },
        over_time: { buckets: [{ key: 1000, doc_count: 10, errors: { doc_count: 3 } }] },
        routes: { buckets: [{ key: '/a', doc_count: 8, errors: { doc_count: 2 }, latency: { values: { '90.0': 99 } } }] },
        companies: { buckets: [{ key: 'acme', doc_count: 4, errors: { doc_count: 0 } }] },
        clients: { buckets: [{ key: 'curl', doc_count: 5, errors: { doc_count: 1 } }] },
        countries: { buckets: [{ key: 'GB', doc_count: 6 }], sum_other_doc_count: 1 },
      },
    });
    expect(overview.numbers).toEqual({ calls: 10, errorRate: 0.3, p50: 40, p90: 120 });
    expect(overview.series).toEqual([
      { name: 'Calls', points: [[1000, 10]] },
      { name: 'Errors', points: [[1000, 3]] },
    ]);
    expect(overview.routes).toEqual([{ key: '/a', calls: 8, errorRate: 0.25, p90: 99 }]);
    expect(overview.companies).toEqual([{ key: 'acme', calls: 4, errorRate: 0 }]);
    expect(overview.clients).toEqual([{ key: 'curl', calls: 5, errorRate: 0.2 }]);
    expect(overview.countries).toEqual([{ code: 'GB', calls: 6, share: 0.6 }]);
    expect(overview.withoutCountry).toBe(3);
  });

  it('has no error rate without calls', () => {
    expect(readOverview({ hits: { total: 0 } }).numbers).toEqual({ calls: 0, errorRate: null, p50: null, p90: null });
  });
});
