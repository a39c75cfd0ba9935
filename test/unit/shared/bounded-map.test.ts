import fc from 'fast-check';
import { BoundedMap } from '../../../values/bounded-map';

describe('BoundedMap', () => {
  it('forgets the least recently used entry past its limit', () => {
    const map = new BoundedMap<string, number>(2);
    map.set('a', 1).set('b', 2);
    expect(map.get('a')).toBe(1);
    map.set('c', 3);
    expect([map.get('a'), map.get('b'), map.get('c'), map.size]).toEqual([1, undefined, 3, 2]);
  });

  it('never holds more than its limit, and answers what was set last for every key it holds (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 8 }), fc.array(fc.tuple(fc.integer({ min: 0, max: 20 }), fc.integer())), (limit, writes) => {
        const map = new BoundedMap<number, number>(limit);
        const last = new Map<number, number>();
        for (const [key, value] of writes) {
          map.set(key, value);
          last.set(key, value);
          expect(map.size).toBeLessThanOrEqual(limit);
        }
        for (const [key, value] of last) {
          const held = map.get(key);
          if (held !== undefined) expect(held).toBe(value);
        }
        // The most recent write is always held.
        if (writes.length > 0) expect(map.get(writes.at(-1)![0])).toBe(writes.at(-1)![1]);
      }),
    );
  });
});
