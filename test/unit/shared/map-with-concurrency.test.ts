import fc from 'fast-check';
import { mapWithConcurrency } from '../../../functions/shared/concurrency';

/** A promise and its resolve, so a test decides when each piece of work ends. */
function gate(): { promise: Promise<void>; open: () => void } {
  let open = () => {};
  const promise = new Promise<void>((resolve) => (open = resolve));
  return { promise, open };
}

describe('mapWithConcurrency', () => {
  it('answers in the items’ order, whatever order the work ends in', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.nat(20), { maxLength: 30 }), fc.integer({ min: 1, max: 5 }), async (delays, limit) => {
        const answers = await mapWithConcurrency(delays, limit, async (delay, index) => {
          await new Promise((done) => setTimeout(done, delay % 3));
          return index * 10 + delay;
        });
        expect(answers).toEqual(delays.map((delay, index) => index * 10 + delay));
      }),
      { numRuns: 50 },
    );
  });

  it('takes an item from a lazy source only when a place is free', async () => {
    const built: number[] = [];
    function* items() {
      for (let item = 0; item < 5; item++) {
        built.push(item);
        yield item;
      }
    }
    const gates = Array.from({ length: 5 }, gate);
    let running = 0;
    let most = 0;
    const done = mapWithConcurrency(items(), 2, async (item) => {
      running++;
      most = Math.max(most, running);
      await gates[item]!.promise;
      running--;
      return item;
    });
    await new Promise((tick) => setImmediate(tick));
    expect(built).toEqual([0, 1]);
    gates[1]!.open();
    await new Promise((tick) => setImmediate(tick));
    expect(built).toEqual([0, 1, 2]);
    for (const { open } of gates) open();
    expect(await done).toEqual([0, 1, 2, 3, 4]);
    expect(most).toBe(2);
  });

  it('answers an empty list with an empty list', async () => {
    expect(await mapWithConcurrency([], 3, async () => 1)).toEqual([]);
  });

  it('works every item one at a time when the limit is 0 or less, from a list or a lazy source', async () => {
    function* lazy() {
      yield* [1, 2, 3];
    }
    for (const limit of [0, -2]) {
      expect(await mapWithConcurrency([1, 2, 3], limit, async (item) => item * 10)).toEqual([10, 20, 30]);
      expect(await mapWithConcurrency(lazy(), limit, async (item) => item * 10)).toEqual([10, 20, 30]);
    }
  });
});
