import fc from 'fast-check';
import { readAhead } from '../../../functions/shared/concurrency';

describe('readAhead', () => {
  it('hands out every item in order, having asked for each next one before the caller takes it', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.integer(), { maxLength: 20 }), async (items) => {
        const asked: number[] = [];
        async function* source() {
          for (let at = 0; at < items.length; at += 1) {
            asked.push(at);
            yield items[at]!;
          }
        }
        const ahead = readAhead(source());
        // The first item is asked for on creation, before anyone iterates.
        await Promise.resolve();
        expect(asked.length).toBe(Math.min(1, items.length));
        const seen: number[] = [];
        for await (const item of ahead) {
          seen.push(item);
          // While the caller holds item n, item n + 1 is already asked for.
          expect(asked.length).toBe(Math.min(seen.length + 1, items.length));
        }
        expect(seen).toEqual(items);
      }),
    );
  });

  it('raises a failed read when its item is asked for, and never as an unhandled rejection', async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      async function* failing() {
        yield 1;
        throw new Error('the engine went away');
      }
      const ahead = readAhead(failing());
      expect(await ahead.next()).toEqual({ done: false, value: 1 });
      // The failing read is in flight now; nobody waits on it for a while.
      await new Promise((done) => setTimeout(done, 20));
      await expect(ahead.next()).rejects.toThrow('the engine went away');
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });

  it('closes the source when the caller stops early', async () => {
    let closed = false;
    async function* endless() {
      try {
        for (let n = 0; ; n += 1) yield n;
      } finally {
        closed = true;
      }
    }
    for await (const n of readAhead(endless())) if (n === 3) break;
    expect(closed).toBe(true);
  });
});
