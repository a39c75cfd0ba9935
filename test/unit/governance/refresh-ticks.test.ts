import fc from 'fast-check';
import { refreshWhileTimeLasts, type TickClock } from '../../../functions/governance/refresh-ticks';

/** A clock of a fake invocation: `remaining` ms left, moved by sleeps and by each refresh's duration. */
function fakeInvocation(remaining: number, durations: () => number) {
  const starts: number[] = [];
  let left = remaining;
  const clock: TickClock = {
    remainingMs: () => left,
    sleep: async (ms) => {
      left -= ms;
    },
  };
  const refresh = async () => {
    starts.push(remaining - left);
    left -= durations();
  };
  return { clock, refresh, starts, left: () => left };
}

describe('refreshWhileTimeLasts', () => {
  it('refreshes every 10 s within a 55 s invocation whose first refresh took 2 s', async () => {
    const run = fakeInvocation(53_000, () => 2_000);
    expect(await refreshWhileTimeLasts(run.refresh, { everyMs: 10_000, firstMs: 2_000 }, run.clock)).toBe(4);
    expect(run.starts).toEqual([8_000, 18_000, 28_000, 38_000]);
    expect(run.left()).toBeGreaterThanOrEqual(5_000);
  });

  it('never runs past the invocation, whatever the refreshes take', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: 60_000 }),
        fc.integer({ min: 1_000, max: 30_000 }),
        fc.array(fc.integer({ min: 0, max: 8_000 }), { minLength: 1, maxLength: 20 }),
        async (remaining, everyMs, durations) => {
          // Every refresh takes at most the slowest seen so far (the first one is the slowest).
          const slowest = Math.max(...durations);
          let i = 0;
          const run = fakeInvocation(remaining, () => Math.min(slowest, durations[i++ % durations.length]!));
          await refreshWhileTimeLasts(run.refresh, { everyMs, firstMs: slowest }, run.clock);
          expect(run.left()).toBeGreaterThanOrEqual(Math.min(remaining, 5_000));
          for (let k = 1; k < run.starts.length; k++) expect(run.starts[k]! - run.starts[k - 1]!).toBeGreaterThanOrEqual(everyMs);
        },
      ),
    );
  });
});
