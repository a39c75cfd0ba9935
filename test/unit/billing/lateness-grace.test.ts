import fc from 'fast-check';
import { MAX_OBSERVED_GRACE_MS, MIN_EVENTS_OBSERVED, MIN_GRACE_MS, observedGrace } from '../../../functions/billing/completeness/lateness';
import { ARRIVAL_LAG_EDGES_MS, lagBucket, lagCovering, type ArrivalLags } from '../../../functions/search/arrival-lags';

const lagsOf = (lagsMs: readonly number[]): ArrivalLags => {
  const counts = new Array<number>(ARRIVAL_LAG_EDGES_MS.length + 1).fill(0);
  for (const lag of lagsMs) counts[lagBucket(lag)]! += 1;
  return { events: lagsMs.length, counts };
};

describe('grace period from observed lateness', () => {
  it('takes the bound 99 % of the events arrived within, between 6 and 60 minutes', () => {
    // 990 events within a minute, 10 within 15 minutes: p99 is the 1-minute bound, raised to the minimum.
    expect(observedGrace(lagsOf([...Array(990).fill(30_000), ...Array(10).fill(10 * 60_000)]))).toEqual({ observed_grace_minutes: MIN_GRACE_MS / 60_000 });
    // 980 on time and 20 ten minutes late: 1 % is not enough to leave out, the 15-minute bound covers them.
    expect(observedGrace(lagsOf([...Array(980).fill(30_000), ...Array(20).fill(10 * 60_000)]))).toEqual({ observed_grace_minutes: 15 });
    // A long tail (2 % days late) is capped: a longer wait is a choice the meter states.
    expect(observedGrace(lagsOf([...Array(980).fill(30_000), ...Array(20).fill(2 * 86_400_000)]))).toEqual({
      observed_grace_minutes: MAX_OBSERVED_GRACE_MS / 60_000,
    });
  });

  it('chooses nothing from fewer events than it needs', () => {
    expect(observedGrace(lagsOf(Array(MIN_EVENTS_OBSERVED - 1).fill(0)))).toMatchObject({
      observed_grace_minutes: null,
      reason: expect.stringContaining('999 events'),
    });
  });

  it('always lies within its bounds, covers 99 % of the events when it can, and never shrinks when events get later (property)', () => {
    const lag = fc.integer({ min: -60_000, max: 5 * 86_400_000 });
    fc.assert(
      fc.property(fc.array(lag, { minLength: MIN_EVENTS_OBSERVED, maxLength: 1_500 }), fc.integer({ min: 0, max: 86_400_000 }), (lags, extra) => {
        const chosen = observedGrace(lagsOf(lags)).observed_grace_minutes!;
        expect(chosen * 60_000).toBeGreaterThanOrEqual(MIN_GRACE_MS);
        expect(chosen * 60_000).toBeLessThanOrEqual(MAX_OBSERVED_GRACE_MS);
        const covering = lagCovering(lagsOf(lags), 0.99);
        if (covering !== undefined && covering <= MAX_OBSERVED_GRACE_MS && covering >= MIN_GRACE_MS) {
          expect(lags.filter((l) => l < chosen * 60_000).length).toBeGreaterThanOrEqual(Math.ceil(0.99 * lags.length));
        }
        const later = observedGrace(lagsOf(lags.map((l) => l + extra))).observed_grace_minutes!;
        expect(later).toBeGreaterThanOrEqual(chosen);
      }),
      { numRuns: 200 },
    );
  });
});
