import fc from 'fast-check';
import {
  ACTORS,
  averageRetention,
  CONVERSION_WINDOWS,
  DEFAULT_ANALYSIS,
  funnelBody,
  RETENTION_INTERVALS,
  retentionBody,
  type AnalysisSettings,
} from './analysis-spec';
import {
  DEFAULT_SPEC,
  DISPLAYS,
  effectiveInterval,
  groupField,
  INTERVALS,
  MAX_AUTO_POINTS,
  isAnalysisView,
  METRICS,
  NO_VALUE,
  OTHER_VALUES,
  TOP_SIZES,
  VIEWS,
  singleValue,
  seriesOf,
  specFromParams,
  specOfWorkspaceChart,
  specToParams,
  chartBody,
  totalsOf,
  workspaceChart,
  type ChartSpec,
} from './chart-spec';

const filterText = fc.stringMatching(/^[a-z.]{1,12}:[a-z0-9&= ]{1,12}$/);
const analysisArbitrary: fc.Arbitrary<AnalysisSettings> = fc.record({
  by: fc.constantFrom(...(Object.keys(ACTORS) as (keyof typeof ACTORS)[])),
  steps: fc.array(fc.oneof(filterText, fc.constant('')), { minLength: 2, maxLength: 5 }),
  conversionWindow: fc.constantFrom(...(Object.keys(CONVERSION_WINDOWS) as (keyof typeof CONVERSION_WINDOWS)[])),
  firstEvent: fc.oneof(filterText, fc.constant('')),
  returnEvent: fc.oneof(filterText, fc.constant('')),
  every: fc.constantFrom(...(Object.keys(RETENTION_INTERVALS) as (keyof typeof RETENTION_INTERVALS)[])),
  periods: fc.integer({ min: 1, max: 104 }),
});

const specArbitrary: fc.Arbitrary<ChartSpec> = fc
  .record({
    view: fc.constantFrom(...(Object.keys(VIEWS) as (keyof typeof VIEWS)[])),
    metric: fc.constantFrom(...(Object.keys(METRICS) as (keyof typeof METRICS)[])),
    interval: fc.constantFrom(...(Object.keys(INTERVALS) as (keyof typeof INTERVALS)[])),
    from: fc.constantFrom('-1h', '-24h', '-7d', '2026-01-01T00:00:00Z'),
    to: fc.constantFrom('now', '2026-02-01T00:00:00Z'),
    timeZone: fc.constantFrom('UTC', 'America/New_York', 'Europe/Paris'),
  })
  .chain((base) =>
    fc
      .record({
        groupBy: fc.option(fc.constantFrom('request.route.raw', 'response.status', 'metadata.plan.raw', 'virtual_event_types'), { nil: undefined }),
        filter: fc.option(filterText, { nil: undefined }),
        top: fc.constantFrom(...TOP_SIZES),
        display: fc.constantFrom(...(Object.keys(DISPLAYS) as (keyof typeof DISPLAYS)[])),
        // A search view's URL holds no analysis settings: they are the defaults when it is read back.
        analysis: isAnalysisView(base.view) ? analysisArbitrary : fc.constant(DEFAULT_ANALYSIS),
      })
      .map((extra) => {
        const spec: ChartSpec = {
          ...base,
          analysis: extra.analysis,
          top: DEFAULT_SPEC.top,
          display: DEFAULT_SPEC.display,
          ...(extra.groupBy ? { groupBy: extra.groupBy } : {}),
          ...(extra.filter ? { filter: extra.filter } : {}),
        };
        // The URL holds how many values and how they are drawn only where the view uses them.
        return { ...spec, ...(groupField(spec) ? { top: extra.top } : {}), ...(spec.view === 'top_values' ? { display: extra.display } : {}) };
      }),
  );

describe('chart specs', () => {
  it('survive the round trip through a URL and through a stored workspace chart, exactly', () => {
    fc.assert(
      fc.property(specArbitrary, (spec) => {
        expect(specFromParams(specToParams(spec))).toEqual(spec);
        const stored = JSON.parse(JSON.stringify(workspaceChart(spec)));
        expect(specOfWorkspaceChart(stored)).toEqual(spec);
        expect(stored.view).toBe(spec.view);
        if (spec.view === 'funnel') expect(stored.funnel_query).toEqual(funnelBody(spec.analysis));
        else if (spec.view === 'retention') expect(stored.view_elements).toEqual({ retention_query: retentionBody(spec.analysis) });
        else expect(stored.es_query).toEqual(chartBody(spec));
      }),
    );
  });

  it('fall back to the defaults for settings a URL does not give or gets wrong', () => {
    expect(specFromParams(new URLSearchParams('metric=nonsense&interval=7y'))).toEqual(DEFAULT_SPEC);
  });

  it('ask for a date histogram with the metric, grouped by the top values when asked', () => {
    // The default interval is automatic: a day at 15 minutes stays under 200 buckets.
    expect(chartBody({ ...DEFAULT_SPEC, metric: 'p99_latency', groupBy: 'request.route.raw' })).toEqual({
      size: 0,
      query: { match_all: {} },
      aggs: {
        over_time: {
          date_histogram: { field: 'request.time', fixed_interval: '15m', time_zone: 'UTC', min_doc_count: 0, extended_bounds: { min: 'now-24h', max: 'now' } },
          aggs: { groups: { terms: { field: 'request.route.raw', size: 5 }, aggs: { value: { percentiles: { field: 'duration_ms', percents: [99] } } } } },
        },
      },
    });
  });

  it('ask for the top values as totals of the window, and read them with the rest as one row that adds up', () => {
    const spec: ChartSpec = { ...DEFAULT_SPEC, view: 'top_values', groupBy: 'metadata.plan.raw', top: 10 };
    expect(chartBody(spec)).toEqual({
      size: 0,
      track_total_hits: true,
      query: { match_all: {} },
      aggs: { groups: { terms: { field: 'metadata.plan.raw', size: 10 }, aggs: {} } },
    });
    const answer = {
      hits: { total: 11 },
      aggregations: {
        groups: {
          sum_other_doc_count: 2,
          buckets: [
            { key: 'pro', doc_count: 5 },
            { key: 'free', doc_count: 3 },
          ],
        },
      },
    };
    expect(totalsOf(spec, answer)).toEqual([
      { name: 'pro', value: 5, share: 5 / 11 },
      { name: 'free', value: 3, share: 3 / 11 },
      { name: OTHER_VALUES, value: 2, share: 2 / 11 },
      { name: NO_VALUE, value: 1, share: 1 / 11 },
    ]);
    fc.assert(
      fc.property(fc.array(fc.nat(1000), { maxLength: 8 }), fc.nat(1000), fc.nat(1000), (counts, other, none) => {
        const total = counts.reduce((a, b) => a + b, 0) + other + none;
        const rows = totalsOf(spec, {
          hits: { total },
          aggregations: { groups: { sum_other_doc_count: other, buckets: counts.map((doc_count, i) => ({ key: `v${i}`, doc_count })) } },
        });
        expect(rows.reduce((sum, row) => sum + (row.value ?? 0), 0)).toBe(total);
      }),
    );
    // Another metric has no value for the cut-off rows, so they are not made up.
    const latency = totalsOf(
      { ...spec, metric: 'avg_latency' },
      { hits: { total: 4 }, aggregations: { groups: { sum_other_doc_count: 1, buckets: [{ key: 'pro', doc_count: 3, value: { value: 40 } }] } } },
    );
    expect(latency).toEqual([{ name: 'pro', value: 40, share: 0.75 }]);
  });

  it('read the series of an answer: counts, metric values, and one series per group with zeros where a group is absent', () => {
    const plain = seriesOf(
      { ...DEFAULT_SPEC, metric: 'avg_latency' },
      {
        over_time: {
          buckets: [
            { key: 1, doc_count: 3, value: { value: 12.5 } },
            { key: 2, doc_count: 0, value: { value: null } },
          ],
        },
      },
    );
    expect(plain).toEqual([
      {
        name: 'Average latency (ms)',
        points: [
          [1, 12.5],
          [2, null],
        ],
      },
    ]);
    const grouped = seriesOf(
      { ...DEFAULT_SPEC, groupBy: 'response.status' },
      {
        over_time: {
          buckets: [
            {
              key: 1,
              doc_count: 3,
              groups: {
                buckets: [
                  { key: 200, doc_count: 2 },
                  { key: 500, doc_count: 1 },
                ],
              },
            },
            { key: 2, doc_count: 1, groups: { buckets: [{ key: 200, doc_count: 1 }] } },
          ],
        },
      },
    );
    expect(grouped).toEqual([
      {
        name: '200',
        points: [
          [1, 2],
          [2, 1],
        ],
      },
      {
        name: '500',
        points: [
          [1, 1],
          [2, 0],
        ],
      },
    ]);
  });

  it('draw a single number from the whole window: the hit count for counts, the metric otherwise', () => {
    const count = { ...DEFAULT_SPEC, view: 'metric' as const };
    expect(chartBody(count)).toEqual({ size: 0, track_total_hits: true, query: { match_all: {} }, aggs: {} });
    expect(singleValue(count, { hits: { total: 42 } })).toBe(42);
    const p90 = { ...DEFAULT_SPEC, view: 'metric' as const, metric: 'p90_latency' as const };
    expect(singleValue(p90, { hits: { total: 42 }, aggregations: { value: { values: { '90.0': 120 } } } })).toBe(120);
  });

  it('split segmentation by the route unless another field is named', () => {
    const body = chartBody({ ...DEFAULT_SPEC, view: 'segmentation' }) as { aggs: { over_time: { aggs: { groups: { terms: { field: string } } } } } };
    expect(body.aggs.over_time.aggs.groups.terms.field).toBe('request.route.raw');
  });
});

describe('the automatic interval', () => {
  const now = Date.UTC(2026, 10, 26, 12);
  const ms: Record<string, number> = { '1m': 60_000, '5m': 300_000, '15m': 900_000, '1h': 3_600_000, '6h': 21_600_000, '1d': 86_400_000, '7d': 604_800_000 };

  it('follows the range: minutes for an hour, 15 minutes for a day, 6 hours for 30 days', () => {
    expect(effectiveInterval({ interval: 'auto', from: '-1h', to: 'now' }, now)).toBe('1m');
    expect(effectiveInterval({ interval: 'auto', from: '-24h', to: 'now' }, now)).toBe('15m');
    expect(effectiveInterval({ interval: 'auto', from: '-30d', to: 'now' }, now)).toBe('6h');
    expect(effectiveInterval({ interval: 'auto', from: '2026-01-01T00:00:00Z', to: '2026-12-01T00:00:00Z' }, now)).toBe('7d');
    expect(effectiveInterval({ interval: '1h', from: '-30d', to: 'now' }, now)).toBe('1h');
  });

  it('never draws more than MAX_AUTO_POINTS buckets for ranges up to three years, and takes the shortest such interval', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 3 * 365 * 24 * 60 }), (minutes) => {
        const interval = effectiveInterval({ interval: 'auto', from: `-${minutes}m`, to: 'now' }, now);
        const span = minutes * 60_000;
        expect(span / ms[interval]!).toBeLessThanOrEqual(MAX_AUTO_POINTS);
        const shorter = Object.keys(ms).filter((key) => ms[key]! < ms[interval]!);
        for (const key of shorter) expect(span / ms[key]!).toBeGreaterThan(MAX_AUTO_POINTS);
      }),
    );
  });
});

describe('the average row of retention', () => {
  it('weighs cohorts by size and leaves out periods not over yet and empty cohorts', () => {
    const cohorts = [
      { size: 100, returned: [50, 20, null] },
      { size: 10, returned: [10, null, null] },
      { size: 0, returned: [0, 0, 0] },
    ];
    expect(averageRetention(cohorts, 3)).toEqual([60 / 110, 20 / 100, null]);
  });

  it('is always a share between 0 and 1 when counts never exceed their cohort', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.integer({ min: 0, max: 1000 }).chain((size) =>
            fc.record({
              size: fc.constant(size),
              returned: fc.array(fc.option(fc.integer({ min: 0, max: size }), { nil: null }), { minLength: 4, maxLength: 4 }),
            }),
          ),
          { maxLength: 8 },
        ),
        (cohorts) => {
          for (const rate of averageRetention(cohorts, 4)) if (rate !== null) expect(rate >= 0 && rate <= 1).toBe(true);
        },
      ),
    );
  });
});
