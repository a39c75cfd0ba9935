import fc from 'fast-check';
import { lastClosedPeriod, ONCE_WINDOW_DAYS } from '../../../functions/emails/email-periods';

const at = (iso: string) => new Date(iso);

describe('email periods', () => {
  it('is the last whole UTC day, Monday week, or month before now', () => {
    expect(lastClosedPeriod('1d', at('2026-11-25T10:00:00Z'))).toEqual({
      key: '2026-11-24T00:00:00.000Z/1d',
      start: at('2026-11-24T00:00:00Z'),
      end: at('2026-11-25T00:00:00Z'),
    });
    // 2026-11-25 is a Wednesday: the last week over ran Monday 16 to Monday 23.
    expect(lastClosedPeriod('1w', at('2026-11-25T10:00:00Z'))).toMatchObject({ start: at('2026-11-16T00:00:00Z'), end: at('2026-11-23T00:00:00Z') });
    expect(lastClosedPeriod('1M', at('2026-11-25T10:00:00Z'))).toMatchObject({
      key: '2026-10-01T00:00:00.000Z/1M',
      start: at('2026-10-01T00:00:00Z'),
      end: at('2026-11-01T00:00:00Z'),
    });
    expect(lastClosedPeriod('1M', at('2027-01-01T00:00:00Z'))).toMatchObject({ start: at('2026-12-01T00:00:00Z'), end: at('2027-01-01T00:00:00Z') });
    expect(lastClosedPeriod('3M', at('2026-11-25T10:00:00Z'))).toMatchObject({ start: at('2026-07-01T00:00:00Z'), end: at('2026-10-01T00:00:00Z') });
    expect(lastClosedPeriod('15m', at('2026-11-25T10:07:00Z'))).toMatchObject({ start: at('2026-11-25T09:45:00Z'), end: at('2026-11-25T10:00:00Z') });
  });

  it('is "once" over the last 30 days for a template without a period', () => {
    const now = at('2026-11-25T10:00:00Z');
    expect(lastClosedPeriod(undefined, now)).toEqual({ key: 'once', start: new Date(now.getTime() - ONCE_WINDOW_DAYS * 86_400_000), end: now });
  });

  it('always ends at or before now, a whole period long, the same for every moment until the next one ends (property)', () => {
    const periods = fc.tuple(fc.integer({ min: 1, max: 12 }), fc.constantFrom('m', 'h', 'd', 'w', 'M')).map(([n, unit]) => `${n}${unit}`);
    fc.assert(
      fc.property(periods, fc.date({ min: at('1971-01-01T00:00:00Z'), max: at('2100-01-01T00:00:00Z'), noInvalidDate: true }), (period, now) => {
        const last = lastClosedPeriod(period, now);
        expect(last.end.getTime()).toBeLessThanOrEqual(now.getTime());
        expect(last.start.getTime()).toBeLessThan(last.end.getTime());
        // The next period (the one running now) is not over yet.
        const justBeforeNextEnd = lastClosedPeriod(period, new Date(now.getTime() + 1));
        expect(justBeforeNextEnd.key === last.key || justBeforeNextEnd.start.getTime() === last.end.getTime()).toBe(true);
        // Periods tile: the one before this one ends where this one starts.
        expect(lastClosedPeriod(period, new Date(last.end.getTime() - 1)).end.getTime()).toBe(last.start.getTime());
      }),
    );
  });

  it('refuses a period that is not a count and a unit', () => {
    expect(() => lastClosedPeriod('weekly', new Date())).toThrow(/count and a unit/);
  });
});
