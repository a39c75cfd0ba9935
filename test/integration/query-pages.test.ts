import { batchWrite } from '../../functions/shared/aws/batch-write';
import { queryAll, queryItems, queryPages } from '../../functions/shared/aws/query-pages';
import { startTestRuntime, type TestRuntime } from './support/runtime';

/** The one Query paging helper on DynamoDB Local: every page is read, in key order, and only the pages a caller reaches. */
describe('query paging helper', () => {
  let rt: TestRuntime;
  const partition = 'PAGING#test';
  const query = (limit: number, forward = true) => ({
    TableName: rt.names.tables.resources,
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: { ':pk': partition, ':prefix': 'ITEM#' },
    ScanIndexForward: forward,
    Limit: limit,
    ConsistentRead: true,
  });
  beforeAll(async () => {
    rt = await startTestRuntime('query-pages');
    const items = Array.from({ length: 23 }, (_, i) => ({ pk: partition, sk: `ITEM#${String(i).padStart(3, '0')}`, n: i }));
    // One item outside the prefix: a query that read past its key condition would return it.
    await batchWrite(
      rt.clients.documents,
      rt.names.tables.resources,
      [...items, { pk: partition, sk: 'OTHER#1', n: -1 }].map((Item) => ({ PutRequest: { Item } })),
    );
  });
  afterAll(() => rt?.dispose());

  it('reads every page, in key order, with a limit smaller than the result', async () => {
    const all = await queryAll(rt.clients.documents, query(5));
    expect(all.map((item) => item['n'])).toEqual(Array.from({ length: 23 }, (_, i) => i));
    const backwards = await queryAll(rt.clients.documents, query(7, false));
    expect(backwards.map((item) => item['n'])).toEqual(Array.from({ length: 23 }, (_, i) => 22 - i));
    const pages: number[] = [];
    for await (const page of queryPages(rt.clients.documents, query(10))) pages.push(page.length);
    // DynamoDB answers a last, empty page when the previous one ended exactly at the limit; never here.
    expect(pages).toEqual([10, 10, 3]);
    // A caller's cursor: the query starts after the given key.
    const after = await queryAll(rt.clients.documents, { ...query(4), ExclusiveStartKey: { pk: partition, sk: 'ITEM#009' } });
    expect(after.map((item) => item['n'])).toEqual(Array.from({ length: 13 }, (_, i) => 10 + i));
  });

  it('stops reading when the caller leaves the loop, and queries again from the start', async () => {
    const input = query(4);
    const seen: unknown[] = [];
    for await (const item of queryItems(rt.clients.documents, input)) {
      seen.push(item['n']);
      if (seen.length === 6) break;
    }
    expect(seen).toEqual([0, 1, 2, 3, 4, 5]);
    // The caller's input is not changed by paging: the same input reads from the first item again.
    expect(input).not.toHaveProperty('ExclusiveStartKey');
    expect((await queryAll(rt.clients.documents, input)).length).toBe(23);
  });
});
