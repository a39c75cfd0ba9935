import fc from 'fast-check';
import { addMonthsAnchored, currentBillingPeriod } from '../../../values/billing-period';

const at = (iso: string) => new Date(iso);

describe('the billing period a quota counts in', () => {
  it('is the subscription’s own period while now is in it, or before it', () => {
    const start = at('2027-01-10T00:00:00Z');
    const end = at('2027-02-10T00:00:00Z');
    expect(currentBillingPeriod(start, end, at('2027-01-20T00:00:00Z'))).toEqual({ start, end });
    expect(currentBillingPeriod(start, end, at('2027-01-01T00:00:00Z'))).toEqual({ start, end });
  });

  it('rolls a monthly period forward in calendar months, anchored on its day (the 31st ends on shorter months’ last day)', () => {
    const start = at('2027-01-31T12:00:00Z');
    const end = at('2027-02-28T12:00:00Z');
    expect(currentBillingPeriod(start, end, at('2027-03-05T00:00:00Z'))).toEqual({ start: at('2027-02-28T12:00:00Z'), end: at('2027-03-31T12:00:00Z') });
    expect(currentBillingPeriod(start, end, at('2027-04-30T12:00:00Z'))).toEqual({ start: at('2027-04-30T12:00:00Z'), end: at('2027-05-31T12:00:00Z') });
    // The end instant belongs to the next period.
    expect(currentBillingPeriod(at('2027-01-01T00:00:00Z'), at('2027-02-01T00:00:00Z'), at('2027-02-01T00:00:00Z'))).toEqual({
      start: at('2027-02-01T00:00:00Z'),
      end: at('2027-03-01T00:00:00Z'),
    });
  });

  it('rolls any other period forward by its exact length, and falls back to the UTC calendar month without one', () => {
    const start = at('2027-01-01T00:00:00Z');
    const end = at('2027-01-08T00:00:00Z');
    expect(currentBillingPeriod(start, end, at('2027-01-20T00:00:00Z'))).toEqual({ start: at('2027-01-15T00:00:00Z'), end: at('2027-01-22T00:00:00Z') });
    expect(currentBillingPeriod(null, null, at('2027-03-15T10:00:00Z'))).toEqual({ start: at('2027-03-01T00:00:00Z'), end: at('2027-04-01T00:00:00Z') });
    expect(currentBillingPeriod(end, start, at('2027-03-15T10:00:00Z'))).toEqual({ start: at('2027-03-01T00:00:00Z'), end: at('2027-04-01T00:00:00Z') });
  });

  it('treats an exact length that lands on whole calendar months as monthly (90 days from 30 November ends on 28 February)', () => {
    const start = at('2024-11-30T00:00:00Z');
    const end = new Date(start.getTime() + 90 * 86_400_000);
    expect(end).toEqual(at('2025-02-28T00:00:00Z'));
    expect(currentBillingPeriod(start, end, at('2025-04-01T00:00:00Z'))).toEqual({ start: at('2025-02-28T00:00:00Z'), end: at('2025-05-30T00:00:00Z') });
  });

  it('always contains now once the first period began, and each rolled period is one step of the first (property)', () => {
    const instant = fc.integer({ min: Date.UTC(2020, 0, 1), max: Date.UTC(2030, 0, 1) });
    fc.assert(
      fc.property(
        instant,
        fc.oneof(
          fc.integer({ min: 1, max: 12 }).map((months) => ({ months })),
          fc.integer({ min: 1_000, max: 90 * 86_400_000 }).map((ms) => ({ ms })),
        ),
        fc.integer({ min: 0, max: 5 * 366 * 86_400_000 }),
        (startMs, step, laterMs) => {
          const start = new Date(startMs);
          const end = 'months' in step ? addMonthsAnchored(start, step.months) : new Date(startMs + step.ms);
          // An exact length that lands on whole calendar months repeats in months (the case below).
          if ('ms' in step) fc.pre(![1, 2, 3].some((months) => addMonthsAnchored(start, months).getTime() === end.getTime()));
          const now = new Date(startMs + laterMs);
          const period = currentBillingPeriod(start, end, now);
          expect(period.start.getTime()).toBeLessThanOrEqual(now.getTime());
          expect(period.end.getTime()).toBeGreaterThan(now.getTime());
          if ('ms' in step) expect(period.end.getTime() - period.start.getTime()).toBe(step.ms);
          else {
            // A whole number of steps from the anchor, in calendar months.
            const k = Math.round(
              ((period.start.getUTCFullYear() - start.getUTCFullYear()) * 12 + period.start.getUTCMonth() - start.getUTCMonth()) / step.months,
            );
            expect(period.start).toEqual(addMonthsAnchored(start, k * step.months));
            expect(period.end).toEqual(addMonthsAnchored(start, (k + 1) * step.months));
          }
        },
      ),
      { numRuns: 500 },
    );
  });
});
