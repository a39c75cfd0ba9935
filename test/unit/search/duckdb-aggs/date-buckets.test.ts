import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import fc from 'fast-check';
import { bucketStart, type BucketInterval } from '../../../../functions/search/dates/intervals';
import { dateBucketKeySql, keyStepMs } from '../../../../functions/search/duckdb/query/aggs/date-buckets';

/**
 * The SQL bucket keys of date_histogram agree with the JavaScript rounding (OpenSearch's, in dates/intervals.ts)
 * for every instant, above all around DST transitions, in every zone, interval and offset.
 */

const HOUR = 3_600_000;
const MINUTE = 60_000;
const DAY = 24 * HOUR;

/** Every 7 minutes for two days either side of each transition of 2026 in Europe and North America, plus a spread. */
function instants(): number[] {
  const transitions = [
    '2026-03-08T07:00:00Z',
    '2026-03-29T01:00:00Z',
    '2026-10-25T01:00:00Z',
    '2026-11-01T06:00:00Z',
    '2026-04-05T15:00:00Z',
    '2026-10-04T16:00:00Z',
  ];
  const result: number[] = [];
  for (const transition of transitions) {
    const at = Date.parse(transition);
    for (let offset = -48 * HOUR; offset <= 48 * HOUR; offset += 7 * MINUTE) result.push(at + offset);
  }
  for (let at = Date.parse('2025-12-01T00:00:00Z'); at < Date.parse('2027-02-01T00:00:00Z'); at += 997 * MINUTE) result.push(at);
  return result;
}

const INTERVALS: readonly BucketInterval[] = [
  { calendar: 'minute' },
  { calendar: 'hour' },
  { calendar: 'day' },
  { calendar: 'week' },
  { calendar: 'month' },
  { calendar: 'quarter' },
  { calendar: 'year' },
  { fixedMs: 30_000 },
  { fixedMs: HOUR },
  { fixedMs: 3 * HOUR },
  { fixedMs: 90 * MINUTE },
  { fixedMs: 12 * HOUR },
  { fixedMs: 24 * HOUR },
];

describe('date_histogram keys in SQL', () => {
  let instance: DuckDBInstance;
  let connection: DuckDBConnection;
  const values = instants();
  const span = { lo: Math.min(...values), hi: Math.max(...values) };

  beforeAll(async () => {
    instance = await DuckDBInstance.create(':memory:');
    connection = await instance.connect();
    await connection.run(`CREATE TABLE instants AS SELECT unnest(CAST(string_split($1, ',') AS BIGINT[])) AS v`, [values.join(',')]);
  });
  afterAll(() => {
    instance.closeSync();
  });

  it.each(['UTC', '+05:30', 'Europe/Berlin', 'America/New_York', 'Asia/Kolkata', 'Australia/Lord_Howe', 'Australia/Sydney'])(
    'match bucketStart in %s',
    async (timeZone) => {
      const mismatches: string[] = [];
      for (const interval of INTERVALS) {
        for (const offsetMs of [0, 6 * HOUR, -30 * MINUTE]) {
          const sql = dateBucketKeySql('v', { interval, timeZone, offsetMs }, span);
          const rows = (await connection.runAndReadAll(`SELECT v, ${sql} AS k FROM instants`)).getRows();
          for (const [v, k] of rows) {
            const expected = bucketStart(Number(v), interval, timeZone, offsetMs);
            if (Number(k) !== expected)
              mismatches.push(
                `${JSON.stringify(interval)} offset ${offsetMs}: ${new Date(Number(v)).toISOString()} → ${new Date(Number(k)).toISOString()}, expected ${new Date(expected).toISOString()}`,
              );
          }
        }
      }
      expect(mismatches.slice(0, 5)).toEqual([]);
    },
  );
});

describe('key steps (histograms that only count group rows by step, then steps by key)', () => {
  const ZONES = ['UTC', '+05:30', 'Europe/Berlin', 'America/New_York', 'Asia/Kolkata', 'Asia/Kathmandu', 'Australia/Lord_Howe', 'America/St_Johns'];
  const span = { lo: Date.parse('2025-12-01T00:00:00Z'), hi: Date.parse('2027-02-01T00:00:00Z') };

  it('is as long as the zone, interval and offset allow', () => {
    const hourly = (timeZone: string, offsetMs = 0) => keyStepMs({ interval: { calendar: 'hour' }, timeZone, offsetMs }, span);
    expect(hourly('America/New_York')).toBe(HOUR);
    expect(hourly('Asia/Kolkata')).toBe(30 * MINUTE);
    expect(hourly('Australia/Lord_Howe')).toBe(30 * MINUTE);
    expect(hourly('Asia/Kathmandu')).toBe(15 * MINUTE);
    expect(hourly('UTC', 7_000)).toBe(1_000);
    expect(hourly('UTC', 7)).toBe(1);
    expect(keyStepMs({ interval: { fixedMs: 30_000 }, timeZone: 'UTC', offsetMs: 0 }, span)).toBe(1_000);
    expect(keyStepMs({ interval: { calendar: 'month' }, timeZone: 'Europe/Berlin', offsetMs: 0 }, span)).toBe(HOUR);
  });

  it('gives every instant of a step the key of the step', () => {
    const interval = fc.constantFrom(...INTERVALS);
    const offset = fc.oneof(fc.constantFrom(0, 6 * HOUR, -30 * MINUTE, 45 * MINUTE), fc.integer({ min: -DAY, max: DAY }));
    fc.assert(
      fc.property(fc.constantFrom(...ZONES), interval, offset, fc.integer({ min: span.lo, max: span.hi }), (timeZone, bucket, offsetMs, instant) => {
        const step = keyStepMs({ interval: bucket, timeZone, offsetMs }, span);
        const stepStart = instant - (((instant % step) + step) % step);
        expect(bucketStart(stepStart, bucket, timeZone, offsetMs)).toBe(bucketStart(instant, bucket, timeZone, offsetMs));
        expect(bucketStart(stepStart + step - 1, bucket, timeZone, offsetMs)).toBe(bucketStart(instant, bucket, timeZone, offsetMs));
      }),
      { numRuns: 3000 },
    );
  });
});
