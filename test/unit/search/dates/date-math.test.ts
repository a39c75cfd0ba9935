import { ValidationError } from '../../../../functions/shared/errors';
import { resolveDateMath } from '../../../../functions/search/dates/date-math';

const _at = (iso: string): number => Date.parse(iso);
const iso = (ms: number): string => new Date(ms).toISOString();
/** Monday 2026-03-30 10:15:30.123 UTC (12:15 in Berlin, the day after its spring transition). */
const now = new Date('2026-03-30T10:15:30.123Z');

const down = (value: string | number, timeZone = 'UTC', when = now): string => iso(resolveDateMath(value, when, timeZone, false));
const up = (value: string | number, timeZone = 'UTC', when = now): string => iso(resolveDateMath(value, when, timeZone, true));

describe('resolveDateMath', () => {
  it('resolves now and arithmetic on it', () => {
    expect(down('now')).toBe('2026-03-30T10:15:30.123Z');
    expect(up('now')).toBe('2026-03-30T10:15:30.123Z');
    expect(down('now-1d')).toBe('2026-03-29T10:15:30.123Z');
    expect(down('now-d')).toBe('2026-03-29T10:15:30.123Z');
    expect(down('now+2h')).toBe('2026-03-30T12:15:30.123Z');
    expect(down('now-90m')).toBe('2026-03-30T08:45:30.123Z');
    expect(down('now-30s')).toBe('2026-03-30T10:15:00.123Z');
    expect(down('now-1w')).toBe('2026-03-23T10:15:30.123Z');
    expect(down('now-1M')).toBe('2026-02-28T10:15:30.123Z');
    expect(down('now-1y')).toBe('2025-03-30T10:15:30.123Z');
    expect(down('now+1M-1d')).toBe('2026-04-29T10:15:30.123Z');
  });

  it('rounds down for gte/lt and to the last millisecond of the unit for gt/lte', () => {
    expect(down('now-1d/d')).toBe('2026-03-29T00:00:00.000Z');
    expect(up('now-1d/d')).toBe('2026-03-29T23:59:59.999Z');
    expect(down('now/M')).toBe('2026-03-01T00:00:00.000Z');
    expect(up('now/M')).toBe('2026-03-31T23:59:59.999Z');
    expect(down('now/w')).toBe('2026-03-30T00:00:00.000Z');
    expect(up('now/w')).toBe('2026-04-05T23:59:59.999Z');
    expect(down('now/y')).toBe('2026-01-01T00:00:00.000Z');
    expect(up('now/y')).toBe('2026-12-31T23:59:59.999Z');
    expect(down('now/h')).toBe('2026-03-30T10:00:00.000Z');
    expect(up('now/H')).toBe('2026-03-30T10:59:59.999Z');
    expect(down('now/m')).toBe('2026-03-30T10:15:00.000Z');
    expect(up('now/s')).toBe('2026-03-30T10:15:30.999Z');
  });

  it('rounds on the wall clock of the time zone, DST included', () => {
    // In Berlin "yesterday" (Mar 29) had 23 hours.
    expect(down('now-1d/d', 'Europe/Berlin')).toBe('2026-03-28T23:00:00.000Z');
    expect(up('now-1d/d', 'Europe/Berlin')).toBe('2026-03-29T21:59:59.999Z');
    expect(down('now/M', 'Europe/Berlin')).toBe('2026-02-28T23:00:00.000Z');
    expect(up('now/M', 'Europe/Berlin')).toBe('2026-03-31T21:59:59.999Z');
    expect(down('now/d', 'America/New_York')).toBe('2026-03-30T04:00:00.000Z');
    // Calendar days keep the wall-clock time: 12:15 CEST minus two days is 12:15 CET (47 hours earlier).
    expect(down('now-2d', 'Europe/Berlin')).toBe('2026-03-28T11:15:30.123Z');
    // Hours are elapsed time.
    expect(down('now-48h', 'Europe/Berlin')).toBe('2026-03-28T10:15:30.123Z');
  });

  it('keeps the current offset when rounding inside a repeated hour (java.time)', () => {
    const secondCopy = new Date('2026-10-25T01:30:00Z'); // 02:30 CET, the second 02:30 that night
    expect(down('now/h', 'Europe/Berlin', secondCopy)).toBe('2026-10-25T01:00:00.000Z');
    expect(up('now/h', 'Europe/Berlin', secondCopy)).toBe('2026-10-25T01:59:59.999Z');
    const firstCopy = new Date('2026-10-25T00:30:00Z'); // 02:30 CEST
    expect(down('now/h', 'Europe/Berlin', firstCopy)).toBe('2026-10-25T00:00:00.000Z');
  });

  it('parses dates, filling missing fields upwards when rounding up (OpenSearch round-up parser)', () => {
    expect(down('2026-01-01')).toBe('2026-01-01T00:00:00.000Z');
    expect(up('2026-01-01')).toBe('2026-01-01T23:59:59.999Z');
    expect(down('2026-01-01', 'America/New_York')).toBe('2026-01-01T05:00:00.000Z');
    expect(up('2026-01-01T10:00')).toBe('2026-01-01T10:00:59.999Z');
    expect(down('2026-01-01T10:00:00Z')).toBe('2026-01-01T10:00:00.000Z');
    expect(up('2026-01-01T10:00:00Z')).toBe('2026-01-01T10:00:00.999Z');
    expect(up('2026-01-01T10:00:00.120Z')).toBe('2026-01-01T10:00:00.120Z');
    expect(down('2026-01-01T10:00:00.5+01:00')).toBe('2026-01-01T09:00:00.500Z');
    expect(down('2026-01-01T10:00:00,25Z')).toBe('2026-01-01T10:00:00.250Z');
    expect(down('2026-01-01T10:00:00+0530')).toBe('2026-01-01T04:30:00.000Z');
    expect(down('2026-06')).toBe('2026-06-01T00:00:00.000Z');
    expect(down('2028-02-29')).toBe('2028-02-29T00:00:00.000Z');
  });

  it('reads a date without offset in the time zone, and one with an offset in its own', () => {
    expect(down('2026-01-01T00:00:00', 'America/New_York')).toBe('2026-01-01T05:00:00.000Z');
    expect(down('2026-01-01T00:00:00+05:00', 'Europe/Berlin')).toBe('2025-12-31T19:00:00.000Z');
    expect(down('2026-07-01T00:00:00Europe/Berlin', 'UTC')).toBe('2026-06-30T22:00:00.000Z');
    // A wall time that happens twice: OpenSearch resolves it from UTC, so offset 0 wins when it is one of the two.
    expect(down('2026-10-25T01:30:00', 'Europe/London')).toBe('2026-10-25T01:30:00.000Z');
    expect(down('2026-10-25T02:30:00', 'Europe/Berlin')).toBe('2026-10-25T00:30:00.000Z');
    // A wall time that never happens moves forward by the gap.
    expect(down('2026-03-29T02:30:00', 'Europe/Berlin')).toBe('2026-03-29T01:30:00.000Z');
  });

  it('applies math after || and rounds the result', () => {
    expect(down('2026-01-01||+1M/d')).toBe('2026-02-01T00:00:00.000Z');
    expect(up('2026-01-01||+1M/d')).toBe('2026-02-01T23:59:59.999Z');
    expect(down('2026-01-31||+1M')).toBe('2026-02-28T00:00:00.000Z');
    // Empty math after || is accepted by OpenSearch too.
    expect(up('2026-01-01||')).toBe('2026-01-01T00:00:00.000Z');
    expect(down('2028-02-29||+1y')).toBe('2029-02-28T00:00:00.000Z');
    // The date before || is never rounded up; only the math is.
    expect(up('2026-01-01||+1d')).toBe('2026-01-02T00:00:00.000Z');
    expect(down('2026-03-28T12:00:00||+1d', 'Europe/Berlin')).toBe('2026-03-29T10:00:00.000Z');
  });

  it('reads epoch millis, numbers as text (a 4-digit number is a year, as in OpenSearch)', () => {
    expect(down(1767225600000)).toBe('2026-01-01T00:00:00.000Z');
    expect(up(1767225600000)).toBe('2026-01-01T00:00:00.000Z');
    expect(down('1767225600000')).toBe('2026-01-01T00:00:00.000Z');
    expect(down('1767225600000||/d', 'Europe/Berlin')).toBe('2025-12-31T23:00:00.000Z');
    expect(down(2026)).toBe('2026-01-01T00:00:00.000Z');
    expect(down(-1000)).toBe('1969-12-31T23:59:59.000Z');
  });

  it('parses with a custom format list', () => {
    const resolve = (value: string, format: string, roundUp = false, timeZone = 'UTC'): string =>
      iso(resolveDateMath(value, now, timeZone, roundUp, { format }));
    expect(resolve('01/02/2026', 'dd/MM/yyyy')).toBe('2026-02-01T00:00:00.000Z');
    expect(resolve('01/02/2026', 'dd/MM/yyyy', true)).toBe('2026-02-01T23:59:59.999Z');
    expect(resolve('2026-02-01 13:45', 'yyyy-MM-dd HH:mm', false, 'Europe/Berlin')).toBe('2026-02-01T12:45:00.000Z');
    expect(resolve('1767225600', 'epoch_second')).toBe('2026-01-01T00:00:00.000Z');
    expect(resolve('1767225600', 'epoch_second', true)).toBe('2026-01-01T00:00:00.999Z');
    expect(resolve('1767225600000', 'yyyy-MM-dd||epoch_millis')).toBe('2026-01-01T00:00:00.000Z');
    expect(resolve('15/03/2026||+1d', 'dd/MM/yyyy')).toBe('2026-03-16T00:00:00.000Z');
    expect(() => resolve('2026-02-01', 'dd/MM/yyyy')).toThrow(ValidationError);
  });

  it.each([
    'now-1',
    'now-1x',
    'now/2d',
    'now*1d',
    'now-1d/',
    'nowish',
    'Now',
    'yesterday',
    '2026-13-01',
    '2026-02-30',
    '2027-02-29',
    '2026-01-01T24:00:00',
    '2026-01-01||+1q',
    '',
    'now+99999999999d',
    'now+2147483647y',
    '-8639999999999999||/M',
    '26-01-01',
  ])('rejects %j with a 400 naming the field and the value', (value) => {
    expect.assertions(3);
    try {
      resolveDateMath(value, now, 'UTC', false, { field: 'query.range.time.gte' });
    } catch (error) {
      expect(error).toBeInstanceOf(ValidationError);
      expect((error as ValidationError).details[0]?.field).toBe('query.range.time.gte');
      expect((error as ValidationError).details[0]?.reason).toContain(JSON.stringify(value));
    }
  });

  it('rejects non-finite numbers and unknown time zones', () => {
    expect(() => resolveDateMath(Number.NaN, now, 'UTC', false)).toThrow(ValidationError);
    expect(() => resolveDateMath('now', now, 'Mars/Base', false)).toThrow(
      expect.objectContaining({ details: [expect.objectContaining({ field: 'time_zone' })] }),
    );
  });
});
