import { ValidationError } from '../../../../functions/shared/errors';
import { assertDateFormat, formatDate } from '../../../../functions/search/dates/date-format';
import { parseDate } from '../../../../functions/search/dates/date-parse';

const at = (iso: string): number => Date.parse(iso);

describe('assertDateFormat', () => {
  it.each([
    'strict_date_optional_time||epoch_millis',
    'epoch_second',
    'date_optional_time',
    'strict_date_hour_minute_second',
    'yyyy-MM-dd HH:mm',
    "yyyy-MM-dd'T'HH:mm:ss.SSSXXX",
    'dd MMM yyyy h:mm a',
  ])('accepts %j', (format) => {
    expect(assertDateFormat(format)).toBe(format);
  });

  it.each(['yyyy-MM-dd z', 'YYYY-ww', 'yyyy||', "yyyy-MM-dd'T", 'yyyy-MM-dd[ HH:mm]', 'no_such_format'])('rejects %j naming format', (format) => {
    let thrown: unknown;
    try {
      assertDateFormat(format);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ValidationError);
    expect((thrown as ValidationError).details[0]?.field).toBe('format');
  });
});

describe('parseDate', () => {
  it('tries each format of a list in turn', () => {
    expect(parseDate('2026-01-02', 'UTC', false, 'epoch_millis||yyyy-MM-dd')).toBe(at('2026-01-02T00:00:00Z'));
    expect(parseDate('1767225600000', 'UTC', false, 'yyyy-MM-dd||epoch_millis')).toBe(at('2026-01-01T00:00:00Z'));
    expect(parseDate('Jan 2026', 'UTC', false, 'yyyy-MM-dd')).toBeUndefined();
  });

  it('reads names, 12-hour clocks, two-digit years and day of year', () => {
    expect(parseDate('02 Mar 2026 1:05 PM', 'UTC', false, 'dd MMM yyyy h:mm a')).toBe(at('2026-03-02T13:05:00Z'));
    expect(parseDate('02 Mar 2026 12:05 AM', 'UTC', false, 'dd MMM yyyy h:mm a')).toBe(at('2026-03-02T00:05:00Z'));
    expect(parseDate('Monday, 2 March 26', 'UTC', false, 'EEEE, d MMMM yy')).toBe(at('2026-03-02T00:00:00Z'));
    expect(parseDate('2028-060', 'UTC', false, 'yyyy-DDD')).toBe(at('2028-02-29T00:00:00Z'));
    expect(parseDate('2027-366', 'UTC', false, 'yyyy-DDD')).toBeUndefined();
  });

  it('fills missing fields upwards when rounding up, for patterns as for ISO dates', () => {
    expect(parseDate('2026-03', 'UTC', true, 'yyyy-MM')).toBe(at('2026-03-01T23:59:59.999Z'));
    expect(parseDate('2026-03-02 10', 'Europe/Berlin', true, 'yyyy-MM-dd HH')).toBe(at('2026-03-02T09:59:59.999Z'));
  });

  it('honours offsets and zone ids written in the value', () => {
    expect(parseDate('2026-03-02 10:00 +0530', 'UTC', false, 'yyyy-MM-dd HH:mm Z')).toBe(at('2026-03-02T04:30:00Z'));
    expect(parseDate('2026-03-02 10:00 America/New_York', 'UTC', false, 'yyyy-MM-dd HH:mm VV')).toBe(at('2026-03-02T15:00:00Z'));
    expect(parseDate('2026-03-02 10:00 Nowhere/Town', 'UTC', false, 'yyyy-MM-dd HH:mm VV')).toBeUndefined();
  });

  it('reads adjacent numeric fields as one expression of them would, and a pattern of many such fields at once', () => {
    expect(parseDate('20260302', 'UTC', false, 'yyyyMMdd')).toBe(at('2026-03-02T00:00:00Z'));
    expect(parseDate('2026032', 'UTC', false, 'yyyyMMd')).toBe(at('2026-03-02T00:00:00Z'));
    expect(parseDate('261305', 'UTC', false, 'yyMd')).toBeUndefined();
    // As one regular expression, `ydyd…` (16 fields) against 41 characters took 20 s and held the process.
    expect(parseDate(`${'1'.repeat(40)}x`, 'UTC', false, 'yd'.repeat(8))).toBeUndefined();
    expect(parseDate(`${'1'.repeat(200)}x`, 'UTC', false, 'yd'.repeat(40))).toBeUndefined();
    // Ten year letters ask for more digits than a year takes: no match, where one expression of it failed to compile.
    expect(parseDate('2026', 'UTC', false, 'yyyyyyyyyy')).toBeUndefined();
    expect(parseDate('+2026-03-02T10:00+05:30', 'UTC', false, "yyyy-MM-dd'T'HH:mmXXX")).toBe(at('2026-03-02T04:30:00Z'));
  });
});

describe('formatDate', () => {
  it('prints years beyond 9999 with a sign, as java.time does', () => {
    expect(formatDate(at('+010000-01-01T00:00:00Z'), 'UTC')).toBe('+10000-01-01T00:00:00.000Z');
  });

  it('prints the zone id and zero-offset variants', () => {
    const instant = at('2026-01-15T12:00:00Z');
    expect(formatDate(instant, 'Europe/London', 'yyyy-MM-dd VV')).toBe('2026-01-15 Europe/London');
    expect(formatDate(instant, 'Europe/London', 'HH:mmxxx')).toBe('12:00+00:00');
    expect(formatDate(instant, 'Europe/London', 'HH:mmX')).toBe('12:00Z');
    expect(formatDate(instant, 'Asia/Kolkata', 'HH:mmX')).toBe('17:30+0530');
    expect(formatDate(instant, 'America/New_York', 'HH:mmX')).toBe('07:00-05');
  });
});
