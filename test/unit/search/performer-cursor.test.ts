import fc from 'fast-check';
import { PerformerCursor } from '../../../functions/search/performer-cursor';
import { compareUtf8 } from '../../../values/utf8-order';

async function* pagesOf(ids: readonly string[], size: number): AsyncIterable<readonly string[]> {
  for (let at = 0; at < ids.length; at += size) yield ids.slice(at, at + size);
  // An empty page may come (a page whose actors all fell below the threshold): it is skipped.
  yield [];
}

describe('a condition’s performers walked beside profiles in _id order', () => {
  it('answers has(id) as set membership for ids asked in ascending UTF-8 order, whatever the page size', async () => {
    const id = fc.string({ maxLength: 3, unit: fc.constantFrom('a', 'b', 'é', '😀', '\uE000') });
    await fc.assert(
      fc.asyncProperty(fc.uniqueArray(id), fc.uniqueArray(id), fc.integer({ min: 1, max: 4 }), async (performers, profiles, size) => {
        const cursor = new PerformerCursor(pagesOf([...performers].sort(compareUtf8), size));
        const asked = [...profiles].sort(compareUtf8);
        const answers = [];
        for (const profile of asked) answers.push(await cursor.has(profile));
        expect(answers).toEqual(asked.map((profile) => performers.includes(profile)));
      }),
    );
  });
});
