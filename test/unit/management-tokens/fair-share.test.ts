import fc from 'fast-check';
import { FairShare, type FairShareRelease } from '../../../functions/rate-limit/fair-share';

/** Lets every promise callback that is ready run. */
const settle = () => new Promise((done) => setImmediate(done));

describe('fair share of the search engine', () => {
  it('serves a quiet org before the rest of a flood, once a slot frees', async () => {
    const share = new FairShare(2);
    const order: string[] = [];
    const held: FairShareRelease[] = [];
    const take = (org: string, name: string) =>
      share.acquire(org).then((release) => {
        order.push(name);
        held.push(release);
      });
    const flood = Array.from({ length: 6 }, (_, i) => take('flood', `flood-${i}`));
    await settle();
    const quiet = take('quiet', 'quiet');
    await settle();
    expect(order).toEqual(['flood-0', 'flood-1']);
    held.shift()!();
    await settle();
    // The quiet org runs nothing: it gets the freed slot, though five of the flood waited before it.
    expect(order).toEqual(['flood-0', 'flood-1', 'quiet']);
    while (held.length > 0) {
      held.shift()!();
      await settle();
    }
    await Promise.all([...flood, quiet]);
    expect(order).toHaveLength(7);
  });

  it('never runs more than its capacity, gives every slot back, and serves each org in its own order (property)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 4 }),
        fc.array(fc.tuple(fc.constantFrom('a', 'b', 'c'), fc.integer({ min: 0, max: 3 })), { maxLength: 30 }),
        async (capacity, jobs) => {
          const share = new FairShare(capacity);
          let running = 0;
          let most = 0;
          const started: Record<string, number[]> = {};
          await Promise.all(
            jobs.map(async ([org, ticks], i) => {
              const release = await share.acquire(org);
              running += 1;
              most = Math.max(most, running);
              (started[org] ??= []).push(i);
              for (let t = 0; t < ticks; t++) await settle();
              running -= 1;
              release();
            }),
          );
          expect(most).toBeLessThanOrEqual(capacity);
          for (const list of Object.values(started)) expect(list).toEqual([...list].sort((x, y) => x - y));
          for (const org of ['a', 'b', 'c']) expect(share.runningOf(org)).toBe(0);
        },
      ),
      { numRuns: 100 },
    );
  });

  it('lets a waiting query give up its place when its signal aborts', async () => {
    const share = new FairShare(1);
    const first = await share.acquire('a');
    const controller = new AbortController();
    const waiting = share.acquire('b', controller.signal);
    controller.abort(new Error('budget spent'));
    await expect(waiting).rejects.toThrow('budget spent');
    const next = share.acquire('c');
    first();
    await expect(next).resolves.toEqual(expect.any(Function));
  });
});
