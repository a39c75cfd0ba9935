import fc from 'fast-check';
import { TaskLane } from '../../../functions/shared/concurrency';
import { OutcomeCommitQueue } from '../../../functions/billing/run/outcome-commit-queue';
import type { PreparedOutcomes } from '../../../functions/billing/reports/report-store';

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('TaskLane', () => {
  it('never runs more than its limit at once, starts tasks in the order given, and runs every one', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 5 }), fc.array(fc.integer({ min: 1, max: 3 }), { minLength: 1, maxLength: 30 }), async (limit, delays) => {
        const lane = new TaskLane(limit);
        let running = 0;
        let most = 0;
        const started: number[] = [];
        const results = await Promise.all(
          delays.map((delay, i) =>
            lane.run(async () => {
              started.push(i);
              running += 1;
              most = Math.max(most, running);
              for (let t = 0; t < delay; t += 1) await tick();
              running -= 1;
              return i;
            }),
          ),
        );
        expect(results).toEqual(delays.map((_, i) => i));
        expect(started).toEqual(delays.map((_, i) => i));
        expect(most).toBeLessThanOrEqual(limit);
        expect(most).toBe(Math.min(limit, delays.length));
      }),
      { numRuns: 50 },
    );
  });

  it('frees the place of a task that fails, and hands the failure to its caller only', async () => {
    const lane = new TaskLane(1);
    const failed = lane.run(async () => {
      throw new Error('boom');
    });
    const next = lane.run(async () => 'ran');
    await expect(failed).rejects.toThrow('boom');
    await expect(next).resolves.toBe('ran');
  });

  it('refuses a limit below one', () => {
    expect(() => new TaskLane(0)).toThrow(RangeError);
  });
});

describe('OutcomeCommitQueue', () => {
  const prepared = (n: number) => ({ kind: 'overlay', items: [], bytes: n }) as unknown as PreparedOutcomes;

  it('commits full batches of maxPerCommit, one transaction at a time, and the rest on flush', async () => {
    const batches: number[][] = [];
    let release: () => void = () => {};
    const queue = new OutcomeCommitQueue(async (batch) => {
      batches.push(batch.map((p) => (p as unknown as { bytes: number }).bytes));
      await new Promise<void>((resolve) => (release = resolve));
      return batch.map(() => 'committed' as const);
    }, 3);
    const firstTwo = [1, 2].map((n) => queue.add(prepared(n)));
    await tick();
    // Fewer than a batch: nothing is committed until a third arrives or the queue is flushed.
    expect(batches).toEqual([]);
    const rest = [3, 4, 5, 6, 7].map((n) => queue.add(prepared(n)));
    await tick();
    expect(batches).toEqual([[1, 2, 3]]);
    // The second full batch waits for the first transaction to finish.
    release();
    await Promise.all(firstTwo);
    await tick();
    expect(batches).toEqual([
      [1, 2, 3],
      [4, 5, 6],
    ]);
    const flushed = queue.flush();
    release();
    await tick();
    await tick();
    expect(batches).toEqual([[1, 2, 3], [4, 5, 6], [7]]);
    release();
    await flushed;
    await expect(Promise.all(rest)).resolves.toEqual(['committed', 'committed', 'committed', 'committed', 'committed']);
    // Nothing waiting: a flush commits nothing.
    await queue.flush();
    expect(batches).toHaveLength(3);
  });

  it('rejects every window of a batch whose commit failed, and goes on with the next', async () => {
    let calls = 0;
    const queue = new OutcomeCommitQueue(async (batch) => {
      calls += 1;
      if (calls === 1) throw new Error('throttled');
      return batch.map(() => 'conflict' as const);
    }, 10);
    const failed = queue.add(prepared(1));
    await queue.flush();
    await expect(failed).rejects.toThrow('throttled');
    const next = queue.add(prepared(2));
    await queue.flush();
    await expect(next).resolves.toBe('conflict');
  });
});
