import { ValidationError } from '../../../../functions/shared/errors';
import {
  bucketRounding,
  bucketStart,
  formatKeyAsString,
  nextBucket,
  parseCalendarInterval,
  parseFixedInterval,
  parseOffset,
  type BucketInterval,
  type CalendarUnit,
} from '../../../../functions/search/dates/intervals';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const at = (iso: string): number => Date.parse(iso);
const cal = (calendar: CalendarUnit): BucketInterval => ({ calendar });
const fixed = (spec: string): BucketInterval => ({ fixedMs: parseFixedInterval(spec) });

/** Consecutive bucket keys from the bucket containing `fromIso`, printed in the zone. */
function keys(fromIso: string, interval: BucketInterval, timeZone: string, count: number): string[] {
  const out: string[] = [];
  let key = bucketStart(at(fromIso), interval, timeZone);
  for (let i = 0; i < count; i++) {
    out.push(formatKeyAsString(key, timeZone));
    key = nextBucket(key, interval, timeZone);
  }
  return out;
}

function rejects(run: () => unknown, field: string): void {
  let thrown: unknown;
  try {
    run();
  } catch (error) {
    thrown = error;
  }
  expect(thrown).toBeInstanceOf(ValidationError);
  expect((thrown as ValidationError).details[0]?.field).toBe(field);
}

describe('interval parsing', () => {
  it.each([
    ['minute', 'minute'],
    ['1m', 'minute'],
    ['hour', 'hour'],
    ['1h', 'hour'],
    ['day', 'day'],
    ['1d', 'day'],
    ['week', 'week'],
    ['1w', 'week'],
    ['month', 'month'],
    ['1M', 'month'],
    ['quarter', 'quarter'],
    ['1q', 'quarter'],
    ['year', 'year'],
    ['1y', 'year'],
  ])('calendar_interval %s is %s', (text, unit) => {
    expect(parseCalendarInterval(text)).toBe(unit);
  });

  it.each(['2d', '1s', 'fortnight', '', 'Day', '1 d'])('calendar_interval %j is rejected', (text) => {
    rejects(() => parseCalendarInterval(text), 'calendar_interval');
  });

  it('names the member it was given', () => {
    rejects(() => parseCalendarInterval('2d', 'aggs.per_day.date_histogram.calendar_interval'), 'aggs.per_day.date_histogram.calendar_interval');
  });

  it.each([
    ['500ms', 500],
    ['30s', 30_000],
    ['5m', 300_000],
    ['12h', 12 * HOUR],
    ['2d', 2 * DAY],
    ['90m', 90 * 60_000],
    ['30S', 30_000],
    ['2D', 2 * DAY],
  ])('fixed_interval %s is %d ms', (text, ms) => {
    expect(parseFixedInterval(text)).toBe(ms);
  });

  it.each(['1M', '1y', '1q', '1w', '0s', '-5m', '1.5h', 'h', '', '10'])('fixed_interval %j is rejected', (text) => {
    rejects(() => parseFixedInterval(text), 'fixed_interval');
  });

  it.each([
    ['+6h', 6 * HOUR],
    ['-1d', -DAY],
    ['30m', 30 * 60_000],
    ['0', 0],
    [3_600_000, HOUR],
    [-500, -500],
  ] as [string | number, number][])('offset %j is %d ms', (text, ms) => {
    expect(parseOffset(text)).toBe(ms);
  });

  it.each(['+1M', 'six hours', '', '1.5'])('offset %j is rejected', (text) => {
    rejects(() => parseOffset(text), 'offset');
  });
});

describe('calendar buckets', () => {
  it('start days at local midnight across the Europe/Berlin spring transition (23-hour day)', () => {
    expect(keys('2026-03-28T12:00:00Z', cal('day'), 'Europe/Berlin', 3)).toEqual([
      '2026-03-28T00:00:00.000+01:00',
      '2026-03-29T00:00:00.000+01:00',
      '2026-03-30T00:00:00.000+02:00',
    ]);
    const day = bucketStart(at('2026-03-29T20:00:00Z'), cal('day'), 'Europe/Berlin');
    expect(nextBucket(day, cal('day'), 'Europe/Berlin') - day).toBe(23 * HOUR);
  });

  it('start days at local midnight across the Europe/Berlin autumn transition (25-hour day)', () => {
    const day = bucketStart(at('2026-10-25T12:00:00Z'), cal('day'), 'Europe/Berlin');
    expect(day).toBe(at('2026-10-24T22:00:00Z'));
    expect(nextBucket(day, cal('day'), 'Europe/Berlin') - day).toBe(25 * HOUR);
  });

  it('skip the missing hour and keep both copies of the repeated hour in Europe/Berlin', () => {
    expect(keys('2026-03-29T00:00:00Z', cal('hour'), 'Europe/Berlin', 3)).toEqual([
      '2026-03-29T01:00:00.000+01:00',
      '2026-03-29T03:00:00.000+02:00',
      '2026-03-29T04:00:00.000+02:00',
    ]);
    expect(keys('2026-10-25T00:00:00Z', cal('hour'), 'Europe/Berlin', 3)).toEqual([
      '2026-10-25T02:00:00.000+02:00',
      '2026-10-25T02:00:00.000+01:00',
      '2026-10-25T03:00:00.000+01:00',
    ]);
    expect(bucketStart(at('2026-10-25T00:59:59.999Z'), cal('hour'), 'Europe/Berlin')).toBe(at('2026-10-25T00:00:00Z'));
    expect(bucketStart(at('2026-10-25T01:00:00Z'), cal('hour'), 'Europe/Berlin')).toBe(at('2026-10-25T01:00:00Z'));
  });

  it('follow America/New_York on 2026-03-08 and 2026-11-01', () => {
    expect(keys('2026-03-08T05:30:00Z', cal('hour'), 'America/New_York', 3)).toEqual([
      '2026-03-08T00:00:00.000-05:00',
      '2026-03-08T01:00:00.000-05:00',
      '2026-03-08T03:00:00.000-04:00',
    ]);
    expect(keys('2026-11-01T05:30:00Z', cal('hour'), 'America/New_York', 3)).toEqual([
      '2026-11-01T01:00:00.000-04:00',
      '2026-11-01T01:00:00.000-05:00',
      '2026-11-01T02:00:00.000-05:00',
    ]);
    expect(keys('2026-03-07T12:00:00Z', cal('day'), 'America/New_York', 3)).toEqual([
      '2026-03-07T00:00:00.000-05:00',
      '2026-03-08T00:00:00.000-05:00',
      '2026-03-09T00:00:00.000-04:00',
    ]);
    const fallDay = bucketStart(at('2026-11-01T12:00:00Z'), cal('day'), 'America/New_York');
    expect(nextBucket(fallDay, cal('day'), 'America/New_York') - fallDay).toBe(25 * HOUR);
  });

  it('put an instant in the month of its local date (month ends)', () => {
    // 2026-01-31T23:30Z is already February 1st in Berlin, still January 31st in New York.
    expect(formatKeyAsString(bucketStart(at('2026-01-31T23:30:00Z'), cal('month'), 'Europe/Berlin'), 'Europe/Berlin')).toBe('2026-02-01T00:00:00.000+01:00');
    expect(formatKeyAsString(bucketStart(at('2026-01-31T23:30:00Z'), cal('month'), 'America/New_York'), 'America/New_York')).toBe(
      '2026-01-01T00:00:00.000-05:00',
    );
    expect(keys('2026-02-15T00:00:00Z', cal('month'), 'Europe/Berlin', 3)).toEqual([
      '2026-02-01T00:00:00.000+01:00',
      '2026-03-01T00:00:00.000+01:00',
      '2026-04-01T00:00:00.000+02:00',
    ]);
  });

  it('handle leap years', () => {
    expect(keys('2028-02-28T12:00:00Z', cal('day'), 'UTC', 3)).toEqual(['2028-02-28T00:00:00.000Z', '2028-02-29T00:00:00.000Z', '2028-03-01T00:00:00.000Z']);
    expect(keys('2027-02-28T12:00:00Z', cal('day'), 'UTC', 2)).toEqual(['2027-02-28T00:00:00.000Z', '2027-03-01T00:00:00.000Z']);
    const february = bucketStart(at('2028-02-29T12:00:00Z'), cal('month'), 'UTC');
    expect(nextBucket(february, cal('month'), 'UTC') - february).toBe(29 * DAY);
    const leapYear = bucketStart(at('2028-07-01T00:00:00Z'), cal('year'), 'UTC');
    expect(nextBucket(leapYear, cal('year'), 'UTC') - leapYear).toBe(366 * DAY);
  });

  it('start weeks on Monday, across year ends', () => {
    // 2026-01-01 is a Thursday; 2027-01-01 a Friday.
    expect(formatKeyAsString(bucketStart(at('2026-01-01T12:00:00Z'), cal('week'), 'Europe/Berlin'), 'Europe/Berlin')).toBe('2025-12-29T00:00:00.000+01:00');
    expect(keys('2026-12-31T12:00:00Z', cal('week'), 'UTC', 2)).toEqual(['2026-12-28T00:00:00.000Z', '2027-01-04T00:00:00.000Z']);
    // Sunday 23:30 in New York is Monday in UTC: the week is decided on the local clock.
    expect(formatKeyAsString(bucketStart(at('2026-01-05T04:30:00Z'), cal('week'), 'America/New_York'), 'America/New_York')).toBe(
      '2025-12-29T00:00:00.000-05:00',
    );
    expect(bucketStart(at('2026-01-05T04:30:00Z'), cal('week'), 'UTC')).toBe(at('2026-01-05T00:00:00Z'));
  });

  it('group quarters and years in the zone', () => {
    expect(keys('2026-05-15T00:00:00Z', cal('quarter'), 'Europe/Berlin', 3)).toEqual([
      '2026-04-01T00:00:00.000+02:00',
      '2026-07-01T00:00:00.000+02:00',
      '2026-10-01T00:00:00.000+02:00',
    ]);
    expect(keys('2026-12-31T23:30:00Z', cal('year'), 'Europe/Berlin', 1)).toEqual(['2027-01-01T00:00:00.000+01:00']);
    expect(keys('2026-12-31T23:30:00Z', cal('year'), 'UTC', 1)).toEqual(['2026-01-01T00:00:00.000Z']);
  });

  it('start a day that has no midnight at the transition (America/Sao_Paulo 2018-11-04)', () => {
    // Clocks went from 00:00 -03:00 straight to 01:00 -02:00.
    expect(keys('2018-11-03T12:00:00Z', cal('day'), 'America/Sao_Paulo', 3)).toEqual([
      '2018-11-03T00:00:00.000-03:00',
      '2018-11-04T01:00:00.000-02:00',
      '2018-11-05T00:00:00.000-02:00',
    ]);
  });

  it('round minutes and hours on the local clock in half-hour zones', () => {
    expect(bucketStart(at('2026-06-01T10:20:00Z'), cal('hour'), 'Asia/Kathmandu')).toBe(at('2026-06-01T10:15:00Z'));
    expect(bucketStart(at('2026-06-01T10:20:00Z'), cal('hour'), 'Asia/Kolkata')).toBe(at('2026-06-01T09:30:00Z'));
    expect(bucketStart(at('2026-06-01T10:20:59.999Z'), cal('minute'), 'Asia/Kathmandu')).toBe(at('2026-06-01T10:20:00Z'));
  });
});

describe('fixed intervals', () => {
  it('align to the epoch on the local clock', () => {
    expect(bucketStart(at('2026-06-14T03:00:00Z'), fixed('1d'), 'America/New_York')).toBe(at('2026-06-13T04:00:00Z'));
    expect(bucketStart(at('2026-06-14T05:00:00Z'), fixed('1d'), 'America/New_York')).toBe(at('2026-06-14T04:00:00Z'));
    expect(bucketStart(at('2026-06-01T10:20:00Z'), fixed('1h'), 'Asia/Kathmandu')).toBe(at('2026-06-01T10:15:00Z'));
    expect(bucketStart(at('2026-06-01T10:20:00Z'), fixed('1d'), 'Asia/Kathmandu')).toBe(at('2026-05-31T18:15:00Z'));
    expect(bucketStart(at('2026-01-10T10:20:00Z'), fixed('5m'), 'UTC')).toBe(at('2026-01-10T10:20:00Z'));
    expect(bucketStart(at('2026-01-10T10:24:59.999Z'), fixed('5m'), 'UTC')).toBe(at('2026-01-10T10:20:00Z'));
  });

  it('keep 12h buckets at local 00:00 and 12:00 across the Berlin spring transition', () => {
    expect(keys('2026-03-28T05:00:00Z', fixed('12h'), 'Europe/Berlin', 5)).toEqual([
      '2026-03-28T00:00:00.000+01:00',
      '2026-03-28T12:00:00.000+01:00',
      '2026-03-29T00:00:00.000+01:00',
      '2026-03-29T12:00:00.000+02:00',
      '2026-03-30T00:00:00.000+02:00',
    ]);
    expect(bucketStart(at('2026-03-29T05:00:00Z'), fixed('12h'), 'Europe/Berlin')).toBe(at('2026-03-28T23:00:00Z'));
  });

  it('give each copy of a repeated hour its own 1h bucket (Berlin autumn)', () => {
    expect(keys('2026-10-24T23:30:00Z', fixed('1h'), 'Europe/Berlin', 4)).toEqual([
      '2026-10-25T01:00:00.000+02:00',
      '2026-10-25T02:00:00.000+02:00',
      '2026-10-25T02:00:00.000+01:00',
      '2026-10-25T03:00:00.000+01:00',
    ]);
  });

  it('make 30-minute buckets through the New York spring gap', () => {
    expect(keys('2026-03-08T06:00:00Z', fixed('30m'), 'America/New_York', 4)).toEqual([
      '2026-03-08T01:00:00.000-05:00',
      '2026-03-08T01:30:00.000-05:00',
      '2026-03-08T03:00:00.000-04:00',
      '2026-03-08T03:30:00.000-04:00',
    ]);
  });

  it('differ from UTC alignment when the zone is not UTC', () => {
    const instant = at('2026-06-01T10:20:00Z');
    expect(bucketStart(instant, fixed('1d'), 'UTC')).toBe(at('2026-06-01T00:00:00Z'));
    expect(bucketStart(instant, fixed('1d'), 'Europe/Berlin')).toBe(at('2026-05-31T22:00:00Z'));
    expect(bucketStart(instant, fixed('1d'), '-05:00')).toBe(at('2026-06-01T05:00:00Z'));
  });
});

describe('offset', () => {
  it('shifts buckets after rounding (days starting at 06:00)', () => {
    expect(bucketStart(at('2026-01-01T05:00:00Z'), cal('day'), 'UTC', 6 * HOUR)).toBe(at('2025-12-31T06:00:00Z'));
    expect(bucketStart(at('2026-01-01T07:00:00Z'), cal('day'), 'UTC', 6 * HOUR)).toBe(at('2026-01-01T06:00:00Z'));
    expect(nextBucket(at('2026-01-01T06:00:00Z'), cal('day'), 'UTC', 6 * HOUR)).toBe(at('2026-01-02T06:00:00Z'));
    expect(bucketStart(at('2026-01-01T07:00:00Z'), fixed('1d'), 'Europe/Berlin', -HOUR)).toBe(at('2025-12-31T22:00:00Z'));
  });
});

describe('consistency (OpenSearch asserts round(next(r) - 1) = r)', () => {
  const intervals: BucketInterval[] = [
    cal('minute'),
    cal('hour'),
    cal('day'),
    cal('week'),
    cal('month'),
    cal('quarter'),
    cal('year'),
    fixed('30m'),
    fixed('1h'),
    fixed('3h'),
    fixed('1d'),
    fixed('7d'),
  ];
  const zones = ['UTC', 'Europe/Berlin', 'America/New_York', 'Australia/Lord_Howe', 'Asia/Kathmandu', 'America/Sao_Paulo', 'Pacific/Chatham', 'Europe/London'];

  it.each(zones)('holds for every interval at pseudo-random instants 2017–2028 in %s', (timeZone) => {
    let seed = 7;
    const random = (): number => {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
      return seed / 2_147_483_648;
    };
    const from = at('2017-01-01T00:00:00Z');
    const to = at('2028-12-31T00:00:00Z');
    for (const interval of intervals) {
      for (let i = 0; i < 400; i++) {
        const instant = Math.floor(from + random() * (to - from));
        const start = bucketStart(instant, interval, timeZone);
        const next = nextBucket(start, interval, timeZone);
        const facts = {
          startNotAfter: start <= instant,
          idempotent: bucketStart(start, interval, timeZone) === start,
          nextAfter: next > instant,
          nextIsStart: bucketStart(next, interval, timeZone) === next,
          contiguous: bucketStart(next - 1, interval, timeZone) === start,
        };
        expect({ interval, timeZone, instant, ...facts }).toEqual({
          interval,
          timeZone,
          instant,
          startNotAfter: true,
          idempotent: true,
          nextAfter: true,
          nextIsStart: true,
          contiguous: true,
        });
      }
    }
  });

  it('walks a year of hourly Berlin buckets in order without gaps or repeats', () => {
    const interval = cal('hour');
    let key = bucketStart(at('2026-01-01T00:00:00Z'), interval, 'Europe/Berlin');
    let count = 0;
    while (key < at('2027-01-01T00:00:00Z')) {
      const next = nextBucket(key, interval, 'Europe/Berlin');
      expect(next - key).toBe(HOUR);
      key = next;
      count++;
    }
    expect(count).toBe(8760);
  });

  it('carries NaN through instead of throwing for instants no Date can hold', () => {
    expect(bucketStart(Number.NaN, cal('day'), 'Europe/Berlin')).toBeNaN();
    expect(bucketStart(8.64e15, cal('year'), 'Europe/Berlin')).toBeNaN();
  });

  it('hands out one prepared rounding per interval and zone', () => {
    expect(bucketRounding(cal('day'), 'Europe/Berlin')).toBe(bucketRounding({ calendar: 'day' }, 'Europe/Berlin'));
    expect(bucketRounding(cal('day'), 'Europe/Berlin')).not.toBe(bucketRounding(cal('day'), 'UTC'));
  });
});

describe('formatKeyAsString', () => {
  const midnightBerlin = at('2026-10-31T23:00:00Z');

  it('prints ISO 8601 with milliseconds and the offset at that instant', () => {
    expect(formatKeyAsString(midnightBerlin, 'Europe/Berlin')).toBe('2026-11-01T00:00:00.000+01:00');
    expect(formatKeyAsString(at('2026-07-01T04:00:00Z'), 'America/New_York')).toBe('2026-07-01T00:00:00.000-04:00');
    expect(formatKeyAsString(at('2026-07-01T04:00:00.007Z'), 'Asia/Kathmandu')).toBe('2026-07-01T09:45:00.007+05:45');
  });

  it('prints Z for UTC and whenever the offset is zero (Europe/London in winter, as OpenSearch)', () => {
    expect(formatKeyAsString(at('2026-11-01T00:00:00Z'), 'UTC')).toBe('2026-11-01T00:00:00.000Z');
    expect(formatKeyAsString(at('2026-01-15T00:00:00Z'), 'Europe/London')).toBe('2026-01-15T00:00:00.000Z');
    expect(formatKeyAsString(at('2026-06-14T23:00:00Z'), 'Europe/London')).toBe('2026-06-15T00:00:00.000+01:00');
  });

  it.each([
    ['yyyy-MM-dd', '2026-11-01'],
    ['yyyy-MM-dd HH:mm', '2026-11-01 00:00'],
    ["yyyy-MM-dd'T'HH:mm:ss", '2026-11-01T00:00:00'],
    ['epoch_millis', String(midnightBerlin)],
    ['epoch_second', String(midnightBerlin / 1000)],
    ['strict_date_optional_time||epoch_millis', '2026-11-01T00:00:00.000+01:00'],
    ['yyyy-MM-dd||epoch_millis', '2026-11-01'],
    ['date_time', '2026-11-01T00:00:00.000+01:00'],
    ['strict_date', '2026-11-01'],
    ['date_hour_minute', '2026-11-01T00:00'],
    ['year_month', '2026-11'],
    ['dd/MM/yy', '01/11/26'],
    ['MMM d, yyyy h a', 'Nov 1, 2026 12 AM'],
    ['EEEE', 'Sunday'],
    ['yyyy-MM-dd HH:mm:ss.SSS Z', '2026-11-01 00:00:00.000 +0100'],
    ["yyyy-MM-dd'T'HH:mmXXX", '2026-11-01T00:00+01:00'],
    ["'week of' yyyy-MM-dd", 'week of 2026-11-01'],
  ])('formats with %j', (format, text) => {
    expect(formatKeyAsString(midnightBerlin, 'Europe/Berlin', format)).toBe(text);
  });

  it('rejects patterns it cannot print like OpenSearch, naming format', () => {
    rejects(() => formatKeyAsString(midnightBerlin, 'Europe/Berlin', 'yyyy-MM-dd z'), 'format');
  });
});
