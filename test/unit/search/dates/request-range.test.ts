import { ValidationError } from '../../../../functions/shared/errors';
import { parseRequestRange } from '../../../../functions/search/dates/request-range';

const HOUR = 3_600_000;
const iso = (date: Date | undefined): string | undefined => date?.toISOString();

function rejects(run: () => unknown, field: string): void {
  let thrown: unknown;
  try {
    run();
  } catch (error) {
    thrown = error;
  }
  expect(thrown).toBeInstanceOf(ValidationError);
  expect((thrown as ValidationError).status).toBe(400);
  expect((thrown as ValidationError).details[0]?.field).toBe(field);
}

describe('parseRequestRange: the spec examples', () => {
  it('from -24h to now is the last 24 hours, also across a DST change', () => {
    const now = new Date('2026-03-29T10:00:00Z'); // 12:00 CEST; 24 hours ago it was 11:00 CET
    for (const time_zone of ['UTC', 'Europe/Berlin']) {
      const range = parseRequestRange({ from: '-24h', to: 'now', time_zone }, now);
      expect(iso(range.from)).toBe('2026-03-28T10:00:00.000Z');
      expect(iso(range.to)).toBe('2026-03-29T10:00:00.000Z');
    }
  });

  it('from -2w to -1w is two weeks ago to one week ago, in calendar weeks of the zone', () => {
    const now = new Date('2026-04-05T10:00:00Z'); // Sunday 12:00 CEST
    const berlin = parseRequestRange({ from: '-2w', to: '-1w', time_zone: 'Europe/Berlin' }, now);
    // Both ends are 12:00 on the Berlin clock; the week between them lost an hour to DST.
    expect(iso(berlin.from)).toBe('2026-03-22T11:00:00.000Z');
    expect(iso(berlin.to)).toBe('2026-03-29T10:00:00.000Z');
    expect((berlin.to as Date).getTime() - (berlin.from as Date).getTime()).toBe(167 * HOUR);
    const utc = parseRequestRange({ from: '-2w', to: '-1w' }, now);
    expect(iso(utc.from)).toBe('2026-03-22T10:00:00.000Z');
    expect(iso(utc.to)).toBe('2026-03-29T10:00:00.000Z');
    expect(utc.timeZone).toBe('UTC');
  });

  it('from -1M to 1M is one month back to one month ahead, clamped to month ends', () => {
    const now = new Date('2026-03-30T10:15:30.123Z'); // 12:15:30.123 CEST
    const berlin = parseRequestRange({ from: '-1M', to: '1M', time_zone: 'Europe/Berlin' }, now);
    expect(iso(berlin.from)).toBe('2026-02-28T11:15:30.123Z'); // Feb 28 12:15:30.123 CET
    expect(iso(berlin.to)).toBe('2026-04-30T10:15:30.123Z'); // Apr 30 12:15:30.123 CEST
    expect(iso(parseRequestRange({ from: '-1M', to: '+1M', time_zone: 'Europe/Berlin' }, now).to)).toBe('2026-04-30T10:15:30.123Z');
    const newYork = parseRequestRange({ from: '-1M', to: '1M', time_zone: 'America/New_York' }, new Date('2026-11-15T17:00:00Z'));
    expect(iso(newYork.from)).toBe('2026-10-15T16:00:00.000Z'); // 12:00 EDT
    expect(iso(newYork.to)).toBe('2026-12-15T17:00:00.000Z'); // 12:00 EST
  });
});

describe('parseRequestRange', () => {
  const now = new Date('2026-03-30T10:15:30.123Z');

  it.each([
    ['-30s', '2026-03-30T10:15:00.123Z'],
    ['-15m', '2026-03-30T10:00:30.123Z'],
    ['+2h', '2026-03-30T12:15:30.123Z'],
    ['-1d', '2026-03-29T10:15:30.123Z'],
    ['3d', '2026-04-02T10:15:30.123Z'],
    ['-0d', '2026-03-30T10:15:30.123Z'],
    [' 1M', '2026-04-30T10:15:30.123Z'],
  ])('relative %j in UTC', (value, expected) => {
    expect(iso(parseRequestRange({ from: value }, now).from)).toBe(expected);
  });

  it('counts days on the wall clock of the zone', () => {
    // 12:15 CEST today; two days ago 12:15 was still CET, so the range is 47 hours long.
    expect(iso(parseRequestRange({ from: '-2d', time_zone: 'Europe/Berlin' }, now).from)).toBe('2026-03-28T11:15:30.123Z');
    expect(iso(parseRequestRange({ from: '-48h', time_zone: 'Europe/Berlin' }, now).from)).toBe('2026-03-28T10:15:30.123Z');
  });

  it.each([
    ['2026-01-01', 'UTC', '2026-01-01T00:00:00.000Z'],
    ['2026-01-01', 'Europe/Berlin', '2025-12-31T23:00:00.000Z'],
    ['2026-07-01T12:30', 'America/New_York', '2026-07-01T16:30:00.000Z'],
    ['2026-01-01T10:00:00Z', 'Europe/Berlin', '2026-01-01T10:00:00.000Z'],
    ['2026-01-01T10:00:00.5+01:00', 'UTC', '2026-01-01T09:00:00.500Z'],
    ['2026-01-01T10:00:00-0330', 'UTC', '2026-01-01T13:30:00.000Z'],
    ['2026-01-01T10:00:00 01:00', 'UTC', '2026-01-01T09:00:00.000Z'],
    ['2026-01-01 10:00:00', 'UTC', '2026-01-01T10:00:00.000Z'],
    ['2028-02-29T00:00:00Z', 'UTC', '2028-02-29T00:00:00.000Z'],
    ['2026-03-29T02:30:00', 'Europe/Berlin', '2026-03-29T01:30:00.000Z'],
    ['2026-10-25T02:30:00', 'Europe/Berlin', '2026-10-25T00:30:00.000Z'],
  ])('absolute %j in %s', (value, time_zone, expected) => {
    expect(iso(parseRequestRange({ to: value, time_zone }, now).to)).toBe(expected);
  });

  it('accepts either end alone, or neither', () => {
    expect(parseRequestRange({ from: 'now' }, now)).toEqual({ from: now, timeZone: 'UTC' });
    expect(parseRequestRange({ to: 'now' }, now)).toEqual({ to: now, timeZone: 'UTC' });
    expect(parseRequestRange({}, now)).toEqual({ timeZone: 'UTC' });
    expect(parseRequestRange({ time_zone: 'america/new_york' }, now)).toEqual({ timeZone: 'America/New_York' });
  });

  it('accepts from equal to to, rejects from after to naming from', () => {
    expect(parseRequestRange({ from: 'now', to: 'now' }, now).from).toEqual(now);
    rejects(() => parseRequestRange({ from: 'now', to: '-1h' }, now), 'from');
    rejects(() => parseRequestRange({ from: '2026-02-01', to: '2026-01-01' }, now), 'from');
  });

  it('rejects an unknown time zone naming time_zone', () => {
    rejects(() => parseRequestRange({ from: '-1d', time_zone: 'Europe/Atlantis' }, now), 'time_zone');
    rejects(() => parseRequestRange({ time_zone: '' }, now), 'time_zone');
  });

  it.each([
    ['from', 'yesterday'],
    ['from', '-24'],
    ['from', '24x'],
    ['from', '-1y'],
    ['from', '-1H'],
    ['from', '1.5h'],
    ['from', '--1d'],
    ['from', ''],
    ['to', '2026-02-30'],
    ['to', '2026-13-01'],
    ['to', '2026-01-01T25:00'],
    ['to', '2026-01-01T10:00:00+19:00'],
    ['to', '01/02/2026'],
    ['to', '1767225600000'],
    ['to', 'now-1d/d'],
    ['to', '-9999999999M'],
    ['from', '-999999999M'],
    ['from', '999999999w'],
  ] as const)('rejects %s=%j naming the parameter', (field, value) => {
    rejects(() => parseRequestRange({ [field]: value }, now), field);
  });
});
