import { ValidationError } from '../../../../functions/shared/errors';
import {
  addCalendar,
  assertTimeZone,
  fromLocalMs,
  fromLocalParts,
  localParts,
  offsetMs,
  utcMs,
  validOffsets,
  zoneRules,
} from '../../../../functions/search/dates/time-zone';

const HOUR = 3_600_000;
const at = (iso: string): number => Date.parse(iso);

/** The offset straight from Intl, independent of the cached transition tables. */
const formatters = new Map<string, Intl.DateTimeFormat>();
function intlOffset(ms: number, timeZone: string): number {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(timeZone, formatter);
  }
  const parts = formatter.formatToParts(ms);
  const get = (type: string): number => Number(parts.find((p) => p.type === type)?.value);
  const second = Math.floor(ms / 1000) * 1000;
  return utcMs(get('year'), get('month'), get('day'), get('hour'), get('minute'), get('second')) - second;
}

describe('assertTimeZone', () => {
  it.each([
    ['UTC', 'UTC'],
    ['utc', 'UTC'],
    ['Etc/UTC', 'UTC'],
    ['Z', 'UTC'],
    ['Europe/Berlin', 'Europe/Berlin'],
    ['europe/berlin', 'Europe/Berlin'],
    ['America/New_York', 'America/New_York'],
    ['Asia/Kathmandu', 'Asia/Kathmandu'],
    ['Asia/Kolkata', 'Asia/Kolkata'],
    ['Etc/GMT+5', 'Etc/GMT+5'],
    ['GMT', 'UTC'],
    ['+01:00', '+01:00'],
    ['-0530', '-05:30'],
    ['+05', '+05:00'],
    ['+00:00', 'UTC'],
  ])('accepts %s as %s', (name, canonical) => {
    expect(assertTimeZone(name)).toBe(canonical);
  });

  it.each(['Mars/Olympus_Mons', 'Europe/Berlinn', '', '  ', '+25:00', '+01:60', '123', 'now'])('rejects %j naming the field', (name) => {
    expect.assertions(3);
    try {
      assertTimeZone(name, 'aggs.by_day.date_histogram.time_zone');
    } catch (error) {
      expect(error).toBeInstanceOf(ValidationError);
      expect((error as ValidationError).status).toBe(400);
      expect((error as ValidationError).details).toEqual([
        { field: 'aggs.by_day.date_histogram.time_zone', reason: expect.stringContaining('unknown time zone') },
      ]);
    }
  });

  it('names time_zone by default', () => {
    expect(() => assertTimeZone('Nowhere/Special')).toThrow(expect.objectContaining({ details: [expect.objectContaining({ field: 'time_zone' })] }));
  });
});

describe('offsetMs', () => {
  it('follows Europe/Berlin across both 2026 transitions to the second', () => {
    expect(offsetMs(at('2026-03-29T00:59:59.999Z'), 'Europe/Berlin')).toBe(HOUR);
    expect(offsetMs(at('2026-03-29T01:00:00.000Z'), 'Europe/Berlin')).toBe(2 * HOUR);
    expect(offsetMs(at('2026-10-25T00:59:59.999Z'), 'Europe/Berlin')).toBe(2 * HOUR);
    expect(offsetMs(at('2026-10-25T01:00:00.000Z'), 'Europe/Berlin')).toBe(HOUR);
  });

  it('follows America/New_York across both 2026 transitions', () => {
    expect(offsetMs(at('2026-03-08T06:59:59.999Z'), 'America/New_York')).toBe(-5 * HOUR);
    expect(offsetMs(at('2026-03-08T07:00:00.000Z'), 'America/New_York')).toBe(-4 * HOUR);
    expect(offsetMs(at('2026-11-01T05:59:59.999Z'), 'America/New_York')).toBe(-4 * HOUR);
    expect(offsetMs(at('2026-11-01T06:00:00.000Z'), 'America/New_York')).toBe(-5 * HOUR);
  });

  it('handles fixed offsets and UTC without Intl', () => {
    expect(offsetMs(at('2026-07-01T00:00:00Z'), 'UTC')).toBe(0);
    expect(offsetMs(at('2026-07-01T00:00:00Z'), '-05:30')).toBe(-5.5 * HOUR);
  });

  it.each([
    'Europe/Berlin',
    'America/New_York',
    'Australia/Lord_Howe',
    'Asia/Kathmandu',
    'America/St_Johns',
    'Pacific/Chatham',
    'Africa/Casablanca',
    'Asia/Tehran',
    'America/Sao_Paulo',
    'Pacific/Apia',
  ])('agrees with Intl at 3000 pseudo-random instants 1990–2040 in %s', (timeZone) => {
    let seed = 42;
    const random = (): number => {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
      return seed / 2_147_483_648;
    };
    const from = at('1990-01-01T00:00:00Z');
    const to = at('2040-01-01T00:00:00Z');
    for (let i = 0; i < 3000; i++) {
      const ms = Math.floor(from + random() * (to - from));
      expect([ms, offsetMs(ms, timeZone)]).toEqual([ms, intlOffset(ms, timeZone)]);
    }
  });
});

describe('localParts / fromLocalParts', () => {
  it('reads the wall clock', () => {
    expect(localParts(at('2026-10-25T00:30:00.250Z'), 'Europe/Berlin')).toEqual({
      year: 2026,
      month: 10,
      day: 25,
      hour: 2,
      minute: 30,
      second: 0,
      millisecond: 250,
    });
    expect(localParts(at('2026-01-01T04:59:59Z'), 'America/New_York')).toMatchObject({ year: 2025, month: 12, day: 31, hour: 23 });
  });

  it('round-trips ordinary wall times', () => {
    expect(fromLocalParts({ year: 2026, month: 7, day: 14, hour: 9, minute: 5 }, 'Europe/Berlin')).toBe(at('2026-07-14T07:05:00Z'));
    expect(fromLocalParts({ year: 2026, month: 2, day: 29 - 1 }, 'America/New_York')).toBe(at('2026-02-28T05:00:00Z'));
  });

  it('moves a wall time in a gap forward by the gap (java.time)', () => {
    // 02:30 does not exist in Berlin on 2026-03-29: 03:30 CEST.
    expect(fromLocalParts({ year: 2026, month: 3, day: 29, hour: 2, minute: 30 }, 'Europe/Berlin')).toBe(at('2026-03-29T01:30:00Z'));
    expect(fromLocalParts({ year: 2026, month: 3, day: 8, hour: 2, minute: 0 }, 'America/New_York')).toBe(at('2026-03-08T07:00:00Z'));
  });

  it('takes the earlier offset in an overlap (java.time)', () => {
    expect(fromLocalParts({ year: 2026, month: 10, day: 25, hour: 2, minute: 30 }, 'Europe/Berlin')).toBe(at('2026-10-25T00:30:00Z'));
    expect(fromLocalParts({ year: 2026, month: 11, day: 1, hour: 1, minute: 30 }, 'America/New_York')).toBe(at('2026-11-01T05:30:00Z'));
  });

  it('keeps a preferred offset in an overlap when it is valid', () => {
    const local = utcMs(2026, 10, 25, 2, 30);
    expect(validOffsets(local, 'Europe/Berlin')).toEqual([2 * HOUR, HOUR]);
    expect(fromLocalMs(local, 'Europe/Berlin', HOUR)).toBe(at('2026-10-25T01:30:00Z'));
    expect(fromLocalMs(local, 'Europe/Berlin', 5 * HOUR)).toBe(at('2026-10-25T00:30:00Z'));
    expect(validOffsets(utcMs(2026, 3, 29, 2, 30), 'Europe/Berlin')).toEqual([]);
  });

  it('rolls over out-of-range parts like Date.UTC and handles years below 100', () => {
    expect(fromLocalParts({ year: 2026, month: 13, day: 1 }, 'UTC')).toBe(at('2027-01-01T00:00:00Z'));
    expect(new Date(utcMs(50, 6, 1)).getUTCFullYear()).toBe(50);
  });
});

describe('zoneRules', () => {
  it('finds the transition into a period inside a window only', () => {
    const rules = zoneRules('Europe/Berlin');
    expect(rules.previousTransition(at('2026-03-29T05:00:00Z'), at('2026-03-28T00:00:00Z'))).toEqual({
      at: at('2026-03-29T01:00:00Z'),
      before: HOUR,
      after: 2 * HOUR,
    });
    expect(rules.previousTransition(at('2026-03-29T05:00:00Z'), at('2026-03-29T01:00:00Z'))).toBeUndefined();
    expect(rules.previousTransition(at('2026-06-01T00:00:00Z'), at('2026-05-01T00:00:00Z'))).toBeUndefined();
  });

  it('caches one rules object per zone, whatever the spelling', () => {
    expect(zoneRules('europe/berlin')).toBe(zoneRules('Europe/Berlin'));
  });
});

describe('addCalendar', () => {
  it('adds days on the wall clock across DST (23 and 25 hour days)', () => {
    const beforeSpring = at('2026-03-28T11:00:00Z'); // 12:00 CET
    expect(addCalendar(beforeSpring, 1, 'day', 'Europe/Berlin')).toBe(at('2026-03-29T10:00:00Z')); // 12:00 CEST
    const beforeFall = at('2026-10-24T10:00:00Z'); // 12:00 CEST
    expect(addCalendar(beforeFall, 1, 'day', 'Europe/Berlin') - beforeFall).toBe(25 * HOUR);
  });

  it('clamps to the end of the month and handles leap years', () => {
    expect(addCalendar(at('2026-01-31T12:00:00Z'), 1, 'month', 'UTC')).toBe(at('2026-02-28T12:00:00Z'));
    expect(addCalendar(at('2028-01-31T12:00:00Z'), 1, 'month', 'UTC')).toBe(at('2028-02-29T12:00:00Z'));
    expect(addCalendar(at('2028-02-29T12:00:00Z'), 1, 'year', 'UTC')).toBe(at('2029-02-28T12:00:00Z'));
    expect(addCalendar(at('2026-03-31T12:00:00Z'), -1, 'month', 'UTC')).toBe(at('2026-02-28T12:00:00Z'));
    expect(addCalendar(at('2026-01-15T12:00:00Z'), -13, 'month', 'UTC')).toBe(at('2024-12-15T12:00:00Z'));
  });

  it('keeps the current offset when the result is ambiguous', () => {
    // 02:30 on Oct 25 2026 happens twice in Berlin: from 02:30 CEST the day before, the result stays in CEST...
    expect(addCalendar(at('2026-10-24T00:30:00Z'), 1, 'day', 'Europe/Berlin')).toBe(at('2026-10-25T00:30:00Z'));
    // ...and from 02:30 CET the day after, going back a day keeps CET.
    expect(addCalendar(at('2026-10-26T01:30:00Z'), -1, 'day', 'Europe/Berlin')).toBe(at('2026-10-25T01:30:00Z'));
  });
});
