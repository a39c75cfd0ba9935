import fc from 'fast-check';
import { DedupStore, type ClaimRequest } from '../../functions/ingest/consumer/dedup-store';
import { startTestRuntime, type TestRuntime } from './support/runtime';

/**
 * Dedup claims on DynamoDB Local, written either way (25 PartiQL INSERTs per request, as on AWS, or
 * 100 conditional puts per transaction, as locally): the first owner of a key keeps it, its own
 * retries are claimed again, anyone else's copy is a duplicate, in any mix within a call.
 */
describe.each(['statements', 'transactions'] as const)('dedup claims in %s', (mode) => {
  let rt: TestRuntime;
  let store: DedupStore;
  beforeAll(async () => {
    rt = await startTestRuntime(`dedup-claims-${mode}`);
    store = new DedupStore(rt.clients.documents, rt.names.tables.dedup, { mode });
  });
  afterAll(() => rt?.dispose());

  it('claims new keys for their record, again for the same record, and never for another', async () => {
    const first = Array.from({ length: 260 }, (_, i): ClaimRequest => ({ appId: 'app-a', eventId: `e${i}`, owner: 'record-1' }));
    expect(await store.claim(first)).toEqual(first.map(() => 'claimed'));
    expect(await store.claim(first)).toEqual(first.map(() => 'claimed'));
    const mixed = first.map((request, i) => (i % 2 === 0 ? { ...request, owner: 'record-2' } : request));
    expect(await store.claim(mixed)).toEqual(mixed.map((_, i) => (i % 2 === 0 ? 'duplicate' : 'claimed')));
    // The same event in another app is another key.
    expect(await store.claim([{ appId: 'app-b', eventId: 'e0', owner: 'record-2' }])).toEqual(['claimed']);
  });

  it('gives every key to its first owner, whatever the calls and repeats (property)', async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.array(fc.record({ key: fc.integer({ min: 0, max: 40 }), owner: fc.constantFrom('r1', 'r2', 'r3') }), { maxLength: 70 }), {
          minLength: 1,
          maxLength: 4,
        }),
        async (calls) => {
          const app = `prop-${run++}`;
          const owners = new Map<number, string>();
          for (const call of calls) {
            const statuses = await store.claim(call.map(({ key, owner }) => ({ appId: app, eventId: `k${key}`, owner })));
            call.forEach(({ key, owner }) => {
              if (!owners.has(key)) owners.set(key, owner);
            });
            expect(statuses).toEqual(call.map(({ key, owner }) => (owners.get(key) === owner ? 'claimed' : 'duplicate')));
          }
        },
      ),
      { numRuns: 25 },
    );
  });
});
