import { filterSource } from '../../../../functions/search/source-filter';

const SOURCE = {
  user_id: 'u1',
  request: { verb: 'GET', headers: { accept: 'json', 'user-agent': 'x' }, body: { a: 1 } },
  metadata: { plan: 'pro', items: [{ sku: 'a', qty: 1 }, { sku: 'b' }], tags: ['x', 'y'], empty: {} },
};

test.each<[string, string[], string[], unknown]>([
  ['nothing asked: everything', [], [], SOURCE],
  ['a leaf', ['user_id'], [], { user_id: 'u1' }],
  ['an object includes what is below it', ['request.headers'], [], { request: { headers: { accept: 'json', 'user-agent': 'x' } } }],
  ['* crosses dots', ['request.*'], [], { request: SOURCE.request }],
  ['a pattern inside a path', ['*.verb', 'metadata.pl*'], [], { request: { verb: 'GET' }, metadata: { plan: 'pro' } }],
  ['arrays of objects filter each element', ['metadata.items.sku'], [], { metadata: { items: [{ sku: 'a' }, { sku: 'b' }] } }],
  ['arrays of values stay whole', ['metadata.tags'], [], { metadata: { tags: ['x', 'y'] } }],
  ['excludes win over includes', ['request'], ['request.headers', 'request.body.a'], { request: { verb: 'GET' } }],
  ['excludes alone', [], ['metadata', 'request.headers.*'], { user_id: 'u1', request: { verb: 'GET', body: { a: 1 } } }],
  ['an empty object asked for stays', ['metadata.empty'], [], { metadata: { empty: {} } }],
  ['nothing matches', ['nope'], [], {}],
])('%s', (_name, includes, excludes, expected) => {
  expect(filterSource(SOURCE, includes, excludes)).toEqual(expected);
});
