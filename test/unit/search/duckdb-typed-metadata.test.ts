import { DuckDBInstance } from '@duckdb/node-api';
import fc from 'fast-check';
import type { QueryNode } from '../../../schemas/search-tree';
import { createDuckDbSearchIndex } from '../../../functions/search/duckdb/duckdb-index';
import { DEFAULT_TYPED_METADATA_POLICY, keysToPromote } from '../../../functions/search/duckdb/typed-metadata';
import { SEARCH_TABLES, TYPED_METADATA_FILLED } from '../../../functions/search/duckdb/search-tables';
import { addTypedMetadataColumnsSql } from '../../../functions/search/duckdb/tables';
import { parseSearchRequest } from '../../../functions/search/dsl';
import { eventDocument } from '../../../functions/search/index-documents';
import type { IndexDocument, SearchableIndex, SearchContext } from '../../../functions/search/port';
import { folderPerTest } from './support/temp-folder';

const scope = { org_id: 'org-t', app_id: 'app-t' };
const ctx: SearchContext = { scope, kind: 'events', timeZone: 'UTC', now: new Date('2024-03-01T00:00:00.000Z') };
/** Promotes every key seen, after every write: the typed path on the smallest data. */
const EAGER = { minRows: 1, minPresentShare: 0, minStringShare: 0, maxKeys: 50, reviewEveryRows: 1, fillRows: 2 };
/** Never promotes: every key read from the JSON, the reference. */
const NEVER = { minRows: Number.MAX_SAFE_INTEGER };

function action(id: string, metadata: Record<string, unknown> | undefined): IndexDocument {
  const time = new Date(Date.parse('2024-02-01T00:00:00.000Z') + Number.parseInt(id.slice(1), 10) * 1000).toISOString();
  return eventDocument(scope, 'action', {
    id,
    time,
    received_at: time,
    late: false,
    data: { action_name: 'Clicked', request: { time }, ...(metadata ? { metadata } : {}) },
  });
}

async function hitIds(index: SearchableIndex, query: QueryNode | Record<string, unknown>): Promise<string[]> {
  const found = await index.search(ctx, parseSearchRequest({ size: 200, query, sort: [{ _id: 'asc' }] }, 'events'));
  return found.hits.hits.map((hit) => hit._id);
}

describe('typed metadata keys: which keys are promoted', () => {
  const policy = { ...DEFAULT_TYPED_METADATA_POLICY, maxKeys: 3 };

  it('promotes keys frequent enough and mostly strings, most frequent first, within the budget', () => {
    const counts = [
      { key: 'region', present: 900, strings: 900 },
      { key: 'plan', present: 950, strings: 950 },
      { key: 'seats', present: 950, strings: 0 },
      { key: 'rare', present: 50, strings: 50 },
      { key: 'mixed', present: 500, strings: 400 },
      { key: 'with space', present: 1000, strings: 1000 },
      { key: 'email', present: 800, strings: 800 },
      { key: 'country', present: 800, strings: 800 },
    ];
    // seats: numbers; rare: under 10 %; mixed: 80 % strings; "with space": not a plain name; the budget keeps 3.
    expect(keysToPromote(counts, 1000, [], policy)).toEqual(['plan', 'region', 'country']);
    expect(keysToPromote(counts, 1000, ['plan'], policy)).toEqual(['region', 'country']);
    expect(keysToPromote(counts, 1000, ['a', 'b', 'c'], policy)).toEqual([]);
    expect(keysToPromote(counts, 0, [], policy)).toEqual([]);
  });
});

describe('typed metadata keys in the DuckDB index', () => {
  const folder = folderPerTest('typed-metadata-');

  it('promotes a frequent key when a file opens, keeps it across a reopen, and fills it for rows written after', async () => {
    const path = folder.path('search.duckdb');
    const before = await createDuckDbSearchIndex({ path, typedMetadata: NEVER });
    await before.index([action('a1', { plan: 'pro' }), action('a2', { plan: 'free', seats: 3 }), action('a3', undefined), action('a4', { plan: 7 })]);
    await before.close();

    const policy = { minRows: 2, minPresentShare: 0.5, minStringShare: 0.6, fillRows: 3 };
    const opened = await createDuckDbSearchIndex({ path, typedMetadata: policy });
    await opened.index([action('a5', { plan: 'pro' }), action('a6', { plan: ['pro', 'free'] })]);
    expect(await hitIds(opened, { term: { 'metadata.plan': 'pro' } })).toEqual(['a1', 'a5', 'a6']);
    expect(await hitIds(opened, { term: { 'metadata.plan': 7 } })).toEqual(['a4']);
    expect(await hitIds(opened, { exists: { field: 'metadata.plan' } })).toEqual(['a1', 'a2', 'a4', 'a5', 'a6']);
    await opened.close();

    const instance = await DuckDBInstance.create(path);
    const connection = await instance.connect();
    const rows = await connection.runAndReadAll(`SELECT id, "metadata.plan", "metadata.plan:other" FROM events ORDER BY id`);
    expect(rows.getRows()).toEqual([
      ['a1', 'pro', null],
      ['a2', 'free', null],
      ['a3', null, null],
      ['a4', null, '7'],
      ['a5', 'pro', null],
      ['a6', null, '["pro","free"]'],
    ]);
    // seats is in one row of four: below the share, so it stays in the JSON.
    const columns = await connection.runAndReadAll(`SELECT column_name FROM duckdb_columns() WHERE table_name = 'events' AND column_name LIKE 'metadata.%'`);
    expect(columns.getRows().map(([name]) => name)).toEqual(['metadata.plan', 'metadata.plan:other']);
    connection.closeSync();
    instance.closeSync();

    const reopened = await createDuckDbSearchIndex({ path, typedMetadata: NEVER });
    expect(await hitIds(reopened, { term: { 'metadata.plan.raw': 'free' } })).toEqual(['a2', 'a6']);
    expect((await reopened.index([action('a7', { plan: 'free' })])).written).toBe(1);
    expect(await hitIds(reopened, { term: { 'metadata.plan.raw': 'free' } })).toEqual(['a2', 'a6', 'a7']);
    await reopened.close();
  });

  it('finishes filling the columns of a key a stopped process left unfilled before any query reads them', async () => {
    const path = folder.path('stopped.duckdb');
    const before = await createDuckDbSearchIndex({ path, typedMetadata: NEVER });
    await before.index([action('s1', { plan: 'pro' }), action('s2', { plan: 5 }), action('s3', undefined)]);
    await before.close();
    // What a process stopped between adding the columns and filling the stored rows leaves behind.
    const instance = await DuckDBInstance.create(path);
    const connection = await instance.connect();
    for (const statement of addTypedMetadataColumnsSql(SEARCH_TABLES.events, ['plan'])) await connection.run(statement);
    connection.closeSync();
    instance.closeSync();

    const reopened = await createDuckDbSearchIndex({ path, typedMetadata: { ...NEVER, fillRows: 1 } });
    await reopened.index([action('s4', { plan: 'pro' })]);
    expect(await hitIds(reopened, { term: { 'metadata.plan': 'pro' } })).toEqual(['s1', 's4']);
    expect(await hitIds(reopened, { range: { 'metadata.plan': { gte: 5 } } })).toEqual(['s2']);
    await reopened.close();
    const check = await DuckDBInstance.create(path);
    const reader = await check.connect();
    const rows = await reader.runAndReadAll(`SELECT id, "metadata.plan", "metadata.plan:other" FROM events ORDER BY id`);
    expect(rows.getRows()).toEqual([
      ['s1', 'pro', null],
      ['s2', null, '5'],
      ['s3', null, null],
      ['s4', 'pro', null],
    ]);
    const comment = await reader.runAndReadAll(`SELECT comment FROM duckdb_columns() WHERE table_name = 'events' AND column_name = 'metadata.plan'`);
    expect(comment.getRows()).toEqual([[TYPED_METADATA_FILLED]]);
    reader.closeSync();
    check.closeSync();
  });

  it('answers every query on a metadata key alike with the key typed or read from the JSON (property)', async () => {
    const text = fc.constantFrom('pro', 'free', 'Pro Plan', 'enterprise', '', '2024-02-03', '42', 'true', 'x'.repeat(300), 'caf\u00e9 au lait', '\ud800 lone');
    const scalar = fc.oneof(text, fc.constantFrom(42, 0, -1.5, 1e21), fc.boolean(), fc.constant(null));
    const value = fc.oneof(
      { weight: 6, arbitrary: text },
      { weight: 2, arbitrary: scalar },
      { weight: 1, arbitrary: fc.array(scalar, { maxLength: 3 }) },
      { weight: 1, arbitrary: fc.dictionary(fc.constantFrom('a', 'b'), scalar, { maxKeys: 2 }) },
    );
    const metadata = fc.option(fc.record({ plan: value, created_at: value }, { requiredKeys: [] }), { nil: undefined });
    const field = fc.constantFrom('metadata.plan', 'metadata.plan.raw', 'metadata.created_at', 'metadata.created_at.raw');
    const operand = fc.oneof(text, fc.constantFrom(42, true));
    const leaf = fc.oneof(
      fc.record({ term: fc.dictionary(field, operand, { minKeys: 1, maxKeys: 1 }) }),
      fc.tuple(field, fc.array(operand, { minLength: 1, maxLength: 3 })).map(([name, values]) => ({ terms: { [name]: values } })),
      fc.tuple(field, text).map(([name, prefix]) => ({ prefix: { [name]: prefix.slice(0, 3) } })),
      fc.tuple(field, fc.constantFrom('p*', '*o', 'f?ee', '*')).map(([name, pattern]) => ({ wildcard: { [name]: pattern } })),
      fc.tuple(field, fc.constantFrom('a', 'pro', '2024-01-01')).map(([name, from]) => ({ range: { [name]: { gte: from } } })),
      field.map((name) => ({ exists: { field: name } })),
      fc.tuple(field, fc.constantFrom('pro', 'plan', 'au lait')).map(([name, query]) => ({ match: { [name]: query } })),
    );
    const query = fc.oneof(
      leaf,
      leaf.map((clause) => ({ bool: { must_not: [clause] } })),
    );

    let run = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.array(metadata, { minLength: 1, maxLength: 6 }), { minLength: 1, maxLength: 3 }),
        fc.array(query, { minLength: 1, maxLength: 5 }),
        async (batches, queries) => {
          run += 1;
          const typed = await createDuckDbSearchIndex({ path: ':memory:', typedMetadata: EAGER });
          const plain = await createDuckDbSearchIndex({ path: ':memory:', typedMetadata: NEVER });
          try {
            let n = 0;
            // The first batch is filled by the promotion's UPDATE, later ones by the writer.
            for (const batch of batches) {
              const documents = batch.map((entry) => action(`e${(n += 1)}`, entry));
              await typed.index(documents);
              await plain.index(documents);
            }
            // The same hits, or the same refusal (a prefix on a date field, for one).
            const outcome = (index: SearchableIndex, body: unknown) =>
              hitIds(index, body as QueryNode).catch((error: unknown) => (error instanceof Error ? error.message : String(error)));
            for (const body of queries) {
              const expected = await outcome(plain, body);
              expect({ run, body, answer: await outcome(typed, body) }).toEqual({ run, body, answer: expected });
            }
          } finally {
            await typed.close();
            await plain.close();
          }
        },
      ),
      { numRuns: 40 },
    );
  }, 120_000);
});

describe('typed metadata keys while queries run', () => {
  it('never runs a statement compiled before a write brought the first other value under a typed key after that write', async () => {
    // Keys promoted once, after the rows below: plan then holds strings only.
    const index = await createDuckDbSearchIndex({ path: ':memory:', typedMetadata: { ...EAGER, reviewEveryRows: 20_000, fillRows: 100_000 } });
    try {
      await index.index(Array.from({ length: 20_000 }, (_, i) => action(`m${i}`, { plan: i % 2 === 0 ? 'pro' : 'free' })));
      // Two statements each (aggregations, then hits): the hits of a search begun before the write
      // may run after it, and must then find both rows it stores, n2 (a string) and n1 (a number).
      const body = {
        size: 10,
        query: { bool: { filter: [{ ids: { values: ['n1', 'n2'] } }, { exists: { field: 'metadata.plan' } }] } },
        aggs: { plans: { terms: { field: 'metadata.plan.raw' } } },
      };
      const answers = Array.from({ length: 60 }, () => index.search(ctx, parseSearchRequest(body, 'events')));
      await new Promise((resolve) => setImmediate(resolve));
      await index.index([action('n1', { plan: 7 }), action('n2', { plan: 'pro' })]);
      answers.push(index.search(ctx, parseSearchRequest(body, 'events')));
      const found = (await Promise.all(answers)).map((answer) => answer.hits.hits.map((hit) => hit._id).sort());
      for (const ids of found) expect([[], ['n1', 'n2']]).toContainEqual(ids);
      expect(found.at(-1)).toEqual(['n1', 'n2']);
    } finally {
      await index.close();
    }
  }, 120_000);
});
