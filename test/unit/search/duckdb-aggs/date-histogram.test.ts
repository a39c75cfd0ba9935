import { aggregate, call, callsAt, failureOf, indexOf, type Json } from './harness';

/** date_histogram on DuckDB: calendar and fixed intervals in time zones with DST, offsets, empty buckets, bounds. */

const ms = (iso: string): number => Date.parse(iso);
/** [key_as_string, doc_count] of each bucket, the shape most cases compare. */
const summary = (result: Json): [string, number][] => result.buckets.map((bucket: Json) => [bucket.key_as_string, bucket.doc_count]);

async function histogram(times: readonly string[], spec: Record<string, unknown>, body: Record<string, unknown> = {}): Promise<Json> {
  const index = await indexOf(callsAt(times));
  try {
    return (await aggregate(index, { ...body, aggs: { h: { date_histogram: { field: 'time', ...spec } } } })).h;
  } finally {
    await index.close();
  }
}

describe('date_histogram on DuckDB', () => {
  it('days in Europe/Berlin around the spring change: the 29th of March has 23 hours', async () => {
    const result = await histogram(['2026-03-28T22:30:00.000Z', '2026-03-28T23:30:00.000Z', '2026-03-29T21:59:00.000Z', '2026-03-29T22:00:00.000Z'], {
      calendar_interval: 'day',
      time_zone: 'Europe/Berlin',
    });
    expect(result.buckets).toEqual([
      { key_as_string: '2026-03-28T00:00:00.000+01:00', key: ms('2026-03-27T23:00:00.000Z'), doc_count: 1 },
      { key_as_string: '2026-03-29T00:00:00.000+01:00', key: ms('2026-03-28T23:00:00.000Z'), doc_count: 2 },
      { key_as_string: '2026-03-30T00:00:00.000+02:00', key: ms('2026-03-29T22:00:00.000Z'), doc_count: 1 },
    ]);
  });

  it('days in Europe/Berlin around the autumn change: the 25th of October has 25 hours', async () => {
    const result = await histogram(['2026-10-24T22:30:00.000Z', '2026-10-25T22:59:00.000Z', '2026-10-25T23:00:00.000Z'], {
      calendar_interval: '1d',
      time_zone: 'Europe/Berlin',
    });
    expect(result.buckets).toEqual([
      { key_as_string: '2026-10-25T00:00:00.000+02:00', key: ms('2026-10-24T22:00:00.000Z'), doc_count: 2 },
      { key_as_string: '2026-10-26T00:00:00.000+01:00', key: ms('2026-10-25T23:00:00.000Z'), doc_count: 1 },
    ]);
  });

  it('days in America/New_York: 8 March has 23 hours, 1 November 25', async () => {
    const spring = await histogram(['2026-03-08T04:59:00.000Z', '2026-03-08T05:00:00.000Z', '2026-03-09T03:59:00.000Z', '2026-03-09T04:00:00.000Z'], {
      calendar_interval: 'day',
      time_zone: 'America/New_York',
    });
    expect(spring.buckets.map((bucket: Json) => [bucket.key, bucket.key_as_string, bucket.doc_count])).toEqual([
      [ms('2026-03-07T05:00:00.000Z'), '2026-03-07T00:00:00.000-05:00', 1],
      [ms('2026-03-08T05:00:00.000Z'), '2026-03-08T00:00:00.000-05:00', 2],
      [ms('2026-03-09T04:00:00.000Z'), '2026-03-09T00:00:00.000-04:00', 1],
    ]);
    const autumn = await histogram(['2026-11-01T04:00:00.000Z', '2026-11-02T04:59:00.000Z', '2026-11-02T05:00:00.000Z'], {
      calendar_interval: 'day',
      time_zone: 'America/New_York',
    });
    expect(autumn.buckets.map((bucket: Json) => [bucket.key, bucket.key_as_string, bucket.doc_count])).toEqual([
      [ms('2026-11-01T04:00:00.000Z'), '2026-11-01T00:00:00.000-04:00', 2],
      [ms('2026-11-02T05:00:00.000Z'), '2026-11-02T00:00:00.000-05:00', 1],
    ]);
  });

  it('hours across the changes: the repeated hour is two buckets, the skipped one none', async () => {
    const autumn = await histogram(['2026-10-24T23:30:00.000Z', '2026-10-25T00:15:00.000Z', '2026-10-25T01:15:00.000Z', '2026-10-25T02:15:00.000Z'], {
      calendar_interval: 'hour',
      time_zone: 'Europe/Berlin',
    });
    expect(summary(autumn)).toEqual([
      ['2026-10-25T01:00:00.000+02:00', 1],
      ['2026-10-25T02:00:00.000+02:00', 1],
      ['2026-10-25T02:00:00.000+01:00', 1],
      ['2026-10-25T03:00:00.000+01:00', 1],
    ]);
    const spring = await histogram(['2026-03-29T00:30:00.000Z', '2026-03-29T01:30:00.000Z'], { calendar_interval: '1h', time_zone: 'Europe/Berlin' });
    expect(spring.buckets).toEqual([
      { key_as_string: '2026-03-29T01:00:00.000+01:00', key: ms('2026-03-29T00:00:00.000Z'), doc_count: 1 },
      { key_as_string: '2026-03-29T03:00:00.000+02:00', key: ms('2026-03-29T01:00:00.000Z'), doc_count: 1 },
    ]);
  });

  it('weeks start on Monday and months on the 1st, in the zone', async () => {
    const weeks = await histogram(['2026-03-29T12:00:00.000Z', '2026-03-30T00:30:00.000Z'], { calendar_interval: 'week', time_zone: 'Europe/Berlin' });
    expect(summary(weeks)).toEqual([
      ['2026-03-23T00:00:00.000+01:00', 1],
      ['2026-03-30T00:00:00.000+02:00', 1],
    ]);
    const months = await histogram(['2026-02-28T23:30:00.000Z', '2026-03-31T21:59:00.000Z', '2026-03-31T22:00:00.000Z'], {
      calendar_interval: 'month',
      time_zone: 'Europe/Berlin',
    });
    expect(months.buckets).toEqual([
      { key_as_string: '2026-03-01T00:00:00.000+01:00', key: ms('2026-02-28T23:00:00.000Z'), doc_count: 2 },
      { key_as_string: '2026-04-01T00:00:00.000+02:00', key: ms('2026-03-31T22:00:00.000Z'), doc_count: 1 },
    ]);
    const quarters = await histogram(['2026-03-31T21:59:00.000Z', '2026-12-31T23:30:00.000Z'], { calendar_interval: 'quarter', time_zone: 'Europe/Berlin' });
    expect(summary(quarters)).toEqual([
      ['2026-01-01T00:00:00.000+01:00', 1],
      ['2026-04-01T00:00:00.000+02:00', 0],
      ['2026-07-01T00:00:00.000+02:00', 0],
      ['2026-10-01T00:00:00.000+02:00', 0],
      ['2027-01-01T00:00:00.000+01:00', 1],
    ]);
  });

  it('fixed intervals round the local clock: 12h buckets start at local midnight and noon', async () => {
    const result = await histogram(['2026-03-29T09:59:00.000Z', '2026-03-29T10:00:00.000Z', '2026-03-29T21:30:00.000Z'], {
      fixed_interval: '12h',
      time_zone: 'Europe/Berlin',
    });
    expect(result.buckets).toEqual([
      { key_as_string: '2026-03-29T00:00:00.000+01:00', key: ms('2026-03-28T23:00:00.000Z'), doc_count: 1 },
      { key_as_string: '2026-03-29T12:00:00.000+02:00', key: ms('2026-03-29T10:00:00.000Z'), doc_count: 2 },
    ]);
  });

  it('offset shifts the buckets: days from 06:00', async () => {
    const result = await histogram(['2026-03-02T05:00:00.000Z', '2026-03-02T06:00:00.000Z'], { calendar_interval: 'day', offset: '+6h' });
    expect(result.buckets).toEqual([
      { key_as_string: '2026-03-01T06:00:00.000Z', key: ms('2026-03-01T06:00:00.000Z'), doc_count: 1 },
      { key_as_string: '2026-03-02T06:00:00.000Z', key: ms('2026-03-02T06:00:00.000Z'), doc_count: 1 },
    ]);
  });

  it('fills empty buckets between the first and the last (min_doc_count 0, the default), with empty sub-aggregations', async () => {
    const index = await indexOf([
      call({ id: 'a', time: '2026-03-01T10:00:00.000Z', weight: 2, route: '/x' }),
      call({ id: 'b', time: '2026-03-04T10:00:00.000Z', weight: 5, route: '/y' }),
    ]);
    try {
      const aggs = {
        days: {
          date_histogram: { field: 'time', calendar_interval: 'day' },
          aggs: { weight: { sum: { field: 'weight' } }, mean: { avg: { field: 'weight' } }, routes: { terms: { field: 'request.route.raw' } } },
        },
      };
      const result = (await aggregate(index, { aggs })).days;
      expect(
        result.buckets.map((bucket: Json) => [bucket.key_as_string, bucket.doc_count, bucket.weight.value, bucket.mean.value, bucket.routes.buckets.length]),
      ).toEqual([
        ['2026-03-01T00:00:00.000Z', 1, 2, 2, 1],
        ['2026-03-02T00:00:00.000Z', 0, 0, null, 0],
        ['2026-03-03T00:00:00.000Z', 0, 0, null, 0],
        ['2026-03-04T00:00:00.000Z', 1, 5, 5, 1],
      ]);
      const sparse = await aggregate(index, { aggs: { days: { date_histogram: { field: 'time', calendar_interval: 'day', min_doc_count: 1 } } } });
      expect(summary(sparse.days)).toEqual([
        ['2026-03-01T00:00:00.000Z', 1],
        ['2026-03-04T00:00:00.000Z', 1],
      ]);
    } finally {
      await index.close();
    }
  });

  it('extended_bounds widen the filled range, also when no document matches', async () => {
    const spec = { calendar_interval: 'day', extended_bounds: { min: '2026-03-01', max: '2026-03-05T12:00:00' } };
    const result = await histogram(['2026-03-03T10:00:00.000Z'], spec);
    expect(summary(result)).toEqual([
      ['2026-03-01T00:00:00.000Z', 0],
      ['2026-03-02T00:00:00.000Z', 0],
      ['2026-03-03T00:00:00.000Z', 1],
      ['2026-03-04T00:00:00.000Z', 0],
      ['2026-03-05T00:00:00.000Z', 0],
    ]);
    const none = await histogram(
      ['2026-03-03T10:00:00.000Z'],
      { calendar_interval: 'day', extended_bounds: { min: ms('2026-03-01T00:00:00.000Z'), max: ms('2026-03-02T00:00:00.000Z') } },
      { query: { match_none: {} } },
    );
    expect(summary(none)).toEqual([
      ['2026-03-01T00:00:00.000Z', 0],
      ['2026-03-02T00:00:00.000Z', 0],
    ]);
    const empty = await histogram(['2026-03-03T10:00:00.000Z'], { calendar_interval: 'day' }, { query: { match_none: {} } });
    expect(empty).toEqual({ buckets: [] });
  });

  it('format prints key_as_string; order sorts buckets (ties by key)', async () => {
    const times = ['2026-03-01T10:00:00.000Z', '2026-03-02T10:00:00.000Z', '2026-03-02T11:00:00.000Z', '2026-03-03T10:00:00.000Z'];
    const result = await histogram(times, { calendar_interval: 'day', format: 'yyyy-MM-dd', order: { _count: 'desc' } });
    expect(summary(result)).toEqual([
      ['2026-03-02', 2],
      ['2026-03-01', 1],
      ['2026-03-03', 1],
    ]);
    const descending = await histogram(times, { calendar_interval: 'day', format: 'yyyy-MM-dd', order: { _key: 'desc' } });
    expect(summary(descending).map(([key]) => key)).toEqual(['2026-03-03', '2026-03-02', '2026-03-01']);
  });

  it('fills each parent bucket between its own first and last bucket', async () => {
    const index = await indexOf([
      call({ id: 'a', time: '2026-03-01T10:00:00.000Z', route: '/x' }),
      call({ id: 'b', time: '2026-03-03T10:00:00.000Z', route: '/x' }),
      call({ id: 'c', time: '2026-03-05T10:00:00.000Z', route: '/y' }),
    ]);
    try {
      const aggs = {
        routes: { terms: { field: 'request.route.raw' }, aggs: { days: { date_histogram: { field: 'time', calendar_interval: 'day', format: 'MM-dd' } } } },
      };
      const result = await aggregate(index, { aggs });
      expect(result.routes.buckets.map((bucket: Json) => [bucket.key, summary(bucket.days)])).toEqual([
        [
          '/x',
          [
            ['03-01', 1],
            ['03-02', 0],
            ['03-03', 1],
          ],
        ],
        ['/y', [['03-05', 1]]],
      ]);
    } finally {
      await index.close();
    }
  });

  it('buckets hourly in a zone over the request window (the window bounds the zone rules looked up)', async () => {
    const index = await indexOf(callsAt(['2026-10-24T21:30:00.000Z', '2026-10-25T00:30:00.000Z', '2026-10-25T01:30:00.000Z', '2026-10-26T12:00:00.000Z']));
    try {
      const range = { from: new Date('2026-10-24T00:00:00.000Z'), to: new Date('2026-10-26T00:00:00.000Z') };
      const aggs = { hours: { date_histogram: { field: 'time', calendar_interval: 'hour', min_doc_count: 1 } } };
      const result = await aggregate(index, { aggs }, { timeZone: 'Europe/Berlin', range });
      expect(summary(result.hours)).toEqual([
        ['2026-10-24T23:00:00.000+02:00', 1],
        ['2026-10-25T02:00:00.000+02:00', 1],
        ['2026-10-25T02:00:00.000+01:00', 1],
      ]);
    } finally {
      await index.close();
    }
  });

  it('refuses a histogram that would need more than 10,000 buckets, naming it', async () => {
    const failure = await failureOf(histogram(['2026-03-01T00:00:00.000Z', '2026-03-31T00:00:00.000Z'], { fixed_interval: '1m' }));
    expect(failure).toMatchObject({ status: 400, details: [{ field: 'aggs.h' }] });
  });
});
