import { withQuerySignal } from '../../../functions/search/query-signal';
import type { SearchableIndex, SearchContext } from '../../../functions/search/port';

/** Every read of the wrapped index carries the signal; a context's own signal wins; writes pass through. */
describe('withQuerySignal', () => {
  const seen: (AbortSignal | undefined)[] = [];
  const answer = { took: 0, timed_out: false, hits: { total: 0, max_score: null, hits: [] } };
  const inner = {
    search: async (context: SearchContext) => {
      seen.push(context.signal);
      return answer;
    },
    countMatching: async (context: SearchContext) => {
      seen.push(context.signal);
      return 0;
    },
    funnel: async (context: SearchContext) => {
      seen.push(context.signal);
      return {};
    },
    retention: async (context: SearchContext) => {
      seen.push(context.signal);
      return {};
    },
    deleteMatching: async (context: SearchContext) => {
      seen.push(context.signal);
      return { completed: true, deleted: 0 };
    },
    index: async () => ({ written: 3, failures: [] }),
  } as unknown as SearchableIndex;
  const context: SearchContext = { scope: { org_id: 'o', app_id: 'a' }, kind: 'events', timeZone: 'UTC', now: new Date() };

  it('binds the signal to searches, counts, funnels and retention, and keeps a context’s own', async () => {
    const budget = new AbortController().signal;
    const own = new AbortController().signal;
    const index = withQuerySignal(inner, budget);
    await index.search(context, {} as never);
    await index.countMatching(context, { type: 'match_all' });
    await index.funnel(context, {} as never);
    await index.retention(context, {} as never);
    await index.search({ ...context, signal: own }, {} as never);
    await index.deleteMatching(context, { type: 'match_all' });
    expect(seen).toEqual([budget, budget, budget, budget, own, undefined]);
    expect(await index.index([])).toEqual({ written: 3, failures: [] });
  });
});
