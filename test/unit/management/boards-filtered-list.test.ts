import * as fc from 'fast-check';
import { filteredList } from '../../../functions/resources/filtered-list';
import type { ListOptions, ListPage, ResourceLocation, ResourceStore, StoredDocument } from '../../../functions/resources/resource-store';

/** The store's list contract in memory: newest first (ids descending), `before_id` exclusive, `where` equality, `take`. */
function memoryStore(documents: { id: string; document: StoredDocument }[]): ResourceStore {
  const sorted = [...documents].sort((a, b) => (a.id < b.id ? 1 : -1));
  return {
    async list(_at: ResourceLocation, options: ListOptions = {}): Promise<ListPage> {
      const take = options.take ?? 50;
      const matching = sorted.filter(
        (item) =>
          (options.beforeId === undefined || item.id < options.beforeId) &&
          (options.where === undefined || item.document[options.where.attribute] === options.where.value),
      );
      const items = matching.slice(0, take);
      return matching.length > take ? { items, nextBeforeId: items[items.length - 1]!.id } : { items };
    },
  } as unknown as ResourceStore;
}

const at = { partition: 'p', prefix: 'X' };

describe('filteredList', () => {
  it('paging with before_id returns exactly the matching items, newest first, without gaps or repeats', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.uniqueArray(fc.integer({ min: 0, max: 1_000_000 }), { maxLength: 2500 }),
        fc.integer({ min: 1, max: 40 }),
        fc.integer({ min: 1, max: 5 }),
        async (numbers, take, modulus) => {
          const docs = numbers.map((n) => ({ id: n.toString(16).padStart(8, '0'), document: { n, kind: n % 2 === 0 ? 'even' : 'odd' } }));
          const store = memoryStore(docs);
          const keep = (doc: StoredDocument) => (doc.n as number) % modulus === 0;
          const expected = docs
            .filter((d) => keep(d.document) && d.document.kind === 'even')
            .map((d) => d.id)
            .sort()
            .reverse();

          const seen: string[] = [];
          let beforeId: string | undefined;
          for (let pages = 0; pages < 10_000; pages += 1) {
            const page = await filteredList(
              store,
              at,
              { take, where: { attribute: 'kind', value: 'even' }, ...(beforeId === undefined ? {} : { beforeId }) },
              keep,
            );
            expect(page.items.length).toBeLessThanOrEqual(take);
            seen.push(...page.items.map((item) => item.id));
            if (page.nextBeforeId === undefined) break;
            beforeId = page.nextBeforeId;
          }
          expect(seen).toEqual(expected);
        },
      ),
      { numRuns: 60 },
    );
  });
});
