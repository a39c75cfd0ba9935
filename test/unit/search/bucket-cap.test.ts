import { assertAnswerBuckets, assertGuaranteedBuckets, bucketExplosionMember } from '../../../functions/search/bucket-cap';
import type { SearchContext } from '../../../functions/search/port';
import { parseSearchRequest } from '../../../functions/search/dsl';
import { aggregate, call, failureOf, indexOf } from './duckdb-aggs/harness';

/**
 * The bucket cap both backends share (functions/search/bucket-cap.ts): what the request alone fixes is
 * refused before any read; an answer is counted per level, then in response order.
 */

const ctx: SearchContext = { scope: { org_id: 'o', app_id: 'a' }, kind: 'events', timeZone: 'UTC', now: new Date('2026-03-15T10:30:00.000Z') };
const aggsOf = (aggs: Record<string, unknown>, timeZone = 'UTC') => parseSearchRequest({ size: 0, aggs }, 'events', { timeZone }).aggs;
const memberRefused = (check: () => void): string | undefined => {
  try {
    check();
    return undefined;
  } catch (error) {
    return (error as { status?: number; details: { field: string }[] }).status === 400
      ? (error as { details: { field: string }[] }).details[0]?.field
      : String(error);
  }
};
const guaranteed = (aggs: Record<string, unknown>, timeZone = 'UTC') =>
  memberRefused(() => assertGuaranteedBuckets(aggsOf(aggs, timeZone), { ...ctx, timeZone }));

describe('buckets fixed by the request', () => {
  const minutes = (to: string) => ({ date_histogram: { field: 'time', fixed_interval: '1m', extended_bounds: { min: '2026-01-01T00:00:00Z', max: to } } });

  it('allows exactly 10,000 bounded buckets and refuses one more, naming the histogram', () => {
    // 00:00 to 166:39 is 10,000 minute keys.
    expect(guaranteed({ m: minutes('2026-01-07T22:39:00Z') })).toBeUndefined();
    expect(guaranteed({ m: minutes('2026-01-07T22:40:00Z') })).toBe('aggs.m');
  });

  it("counts calendar buckets on the zone's clock (a spring-forward day has 23 hours)", () => {
    const hours = {
      date_histogram: {
        field: 'time',
        calendar_interval: 'hour',
        time_zone: 'Europe/Paris',
        extended_bounds: { min: '2026-03-29T00:00:00', max: '2026-03-29T23:00:00' },
      },
    };
    // 23 hour buckets under each of 434 ranges: 434 + 434 × 23 = 10,416 > 10,000; 416 ranges: 416 × 24 = 9,984.
    const ranges = (count: number) => Array.from({ length: count }, (_, n) => ({ from: n, to: n + 1 }));
    expect(guaranteed({ r: { range: { field: 'duration_ms', ranges: ranges(416) }, aggs: { h: hours } } })).toBeUndefined();
    expect(guaranteed({ r: { range: { field: 'duration_ms', ranges: ranges(434) }, aggs: { h: hours } } })).toBe('aggs.r.aggs.h');
  });

  it('multiplies through range, filters (other bucket included) and filter, and names the level that passes the cap', () => {
    const values = { histogram: { field: 'duration_ms', interval: 1, extended_bounds: { min: 0, max: 3999 } } };
    const split = { filters: { filters: { a: { term: { verb: 'GET' } }, b: { term: { verb: 'PUT' } } }, other_bucket_key: 'rest' }, aggs: { values } };
    // 3 + 4000 + 4000 = 8003, then the third bucket's 4000 pass the cap.
    expect(guaranteed({ split })).toBe('aggs.split.aggs.values');
    expect(
      guaranteed({
        only: {
          filter: { term: { verb: 'GET' } },
          aggs: { wide: { histogram: { field: 'duration_ms', interval: 1, extended_bounds: { min: 0, max: 10_000 } } } },
        },
      }),
    ).toBe('aggs.only.aggs.wide');
  });

  it('leaves what depends on the data to the count of the answer', () => {
    const wide = { field: 'duration_ms', interval: 0.001, extended_bounds: { min: 0, max: 1_000_000 } };
    expect(guaranteed({ sparse: { histogram: { ...wide, min_doc_count: 1 } } })).toBeUndefined();
    expect(
      guaranteed({ users: { terms: { field: 'user_id', size: 10_000 }, aggs: { h: { histogram: { ...wide, extended_bounds: { min: 0, max: 5000 } } } } } }),
    ).toBeUndefined();
    expect(guaranteed({ unbounded: { date_histogram: { field: 'time', fixed_interval: '1s' } } })).toBeUndefined();
    // Bounds of any size are counted only up to the cap.
    expect(guaranteed({ h: { histogram: wide } })).toBe('aggs.h');
  });
});

describe('buckets of an answer', () => {
  const filled = (count: number, docs: (n: number) => number = () => 1) => Array.from({ length: count }, (_, n) => ({ key: n, doc_count: docs(n) }));

  it('counts keyed and unkeyed buckets and the ones inside filter', () => {
    const aggs = aggsOf({ f: { filter: { term: { verb: 'GET' } }, aggs: { r: { range: { field: 'duration_ms', ranges: [{ to: 1 }], keyed: true } } } } });
    expect(memberRefused(() => assertAnswerBuckets({ f: { doc_count: 1, r: { buckets: { '*-1.0': { doc_count: 1 } } } } }, aggs))).toBeUndefined();
    const wide = aggsOf({ f: { filter: { term: { verb: 'GET' } }, aggs: { h: { histogram: { field: 'duration_ms', interval: 1 } } } } });
    expect(memberRefused(() => assertAnswerBuckets({ f: { doc_count: 1, h: { buckets: filled(10_001, (n) => (n === 0 ? 1 : 0)) } } }, wide))).toBe(
      'aggs.f.aggs.h',
    );
  });

  it('names the first aggregation, parents before children, whose buckets with documents pass the cap: as DuckDB does', async () => {
    // 10 users, each with 600 routes and 500 companies: 10 + 6,000 + 5,000 buckets, all with documents.
    const documents = Array.from({ length: 10 }, (_, user) =>
      Array.from({ length: 600 }, (_, n) =>
        call({ id: `e${user}-${n}`, time: '2026-03-01T00:00:00.000Z', user: `u${user}`, route: `/r${n}`, company: `c${n % 500}` }),
      ),
    ).flat();
    const body = {
      users: {
        terms: { field: 'user_id', size: 10 },
        aggs: { routes: { terms: { field: 'request.route.raw', size: 600 } }, companies: { terms: { field: 'company_id', size: 500 } } },
      },
    };
    const index = await indexOf(documents);
    try {
      const duckdb = await failureOf(aggregate(index, { aggs: body }));
      expect(duckdb).toMatchObject({ status: 400, details: [{ field: 'aggs.users.aggs.companies' }] });
    } finally {
      await index.close();
    }
    // The same buckets as OpenSearch answers them. In response order the tenth user's routes would pass the cap first.
    const answer = {
      users: {
        buckets: Array.from({ length: 10 }, (_, user) => ({
          key: `u${user}`,
          doc_count: 600,
          routes: { buckets: filled(600) },
          companies: { buckets: filled(500, (n) => (n < 100 ? 2 : 1)) },
        })),
      },
    };
    expect(memberRefused(() => assertAnswerBuckets(answer, aggsOf(body)))).toBe('aggs.users.aggs.companies');
  }, 60_000);

  it('then counts every bucket in response order, empty histogram buckets included', () => {
    const aggs = aggsOf({ users: { terms: { field: 'user_id' }, aggs: { h: { histogram: { field: 'duration_ms', interval: 1 } } } } });
    const answer = (perUser: number) => ({
      users: {
        buckets: [0, 1, 2].map((user) => ({ key: `u${user}`, doc_count: 2, h: { buckets: filled(perUser, (n) => (n === 0 || n === perUser - 1 ? 1 : 0)) } })),
      },
    });
    expect(memberRefused(() => assertAnswerBuckets(answer(3332), aggs))).toBeUndefined();
    expect(memberRefused(() => assertAnswerBuckets(answer(3333), aggs))).toBe('aggs.users.aggs.h');
  });
});

describe('the aggregation named when the cluster refuses first', () => {
  it('is the first histogram filling empty buckets, else the first bucket aggregation', () => {
    expect(
      bucketExplosionMember(
        aggsOf({
          total: { sum: { field: 'weight' } },
          users: { terms: { field: 'user_id' }, aggs: { days: { date_histogram: { field: 'time', calendar_interval: 'day' } } } },
        }),
      ),
    ).toBe('aggs.users.aggs.days');
    expect(bucketExplosionMember(aggsOf({ users: { terms: { field: 'user_id' }, aggs: { routes: { terms: { field: 'request.route.raw' } } } } }))).toBe(
      'aggs.users',
    );
    expect(bucketExplosionMember(aggsOf({ total: { sum: { field: 'weight' } } }))).toBe('aggs');
  });
});
