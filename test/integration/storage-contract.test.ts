import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { ListObjectsV2Command } from '@aws-sdk/client-s3';
import * as fc from 'fast-check';
import type { IndexDocument, SearchableIndex } from '../../functions/search/port';
import { apiCall, startTestRuntime, uuid, type TestRuntime } from './support/runtime';

/**
 * The collector's 201 is the storage's promise: what it acknowledges is stored whole and searchable,
 * whatever its keys are called and however large a merged profile grows; what storage cannot hold
 * is refused at the door naming the field. Prototype-named keys are data; a record the consumer
 * can never store is kept at once, with its reason, and can be replayed.
 */
const root = resolve(__dirname, '../..');
const PROTOTYPE_KEYS = ['__proto__', 'constructor', 'prototype', 'hasOwnProperty', 'toString', 'valueOf'] as const;

/** A JSON object of prototype-named (and ordinary) keys, nested; own members even for `__proto__`. */
const oddObject: fc.Arbitrary<Record<string, unknown>> = fc.letrec((tie) => ({
  object: fc
    .array(
      fc.tuple(
        fc.oneof(fc.constantFrom(...PROTOTYPE_KEYS), fc.constantFrom('a', 'name', 'length')),
        fc.oneof({ depthSize: 'small' }, fc.jsonValue({ maxDepth: 1 }), tie('object')),
      ),
      { maxLength: 4 },
    )
    .map((entries) => {
      const object: Record<string, unknown> = {};
      for (const [key, value] of entries) Object.defineProperty(object, key, { value, enumerable: true, writable: true, configurable: true });
      return object;
    }),
})).object as fc.Arbitrary<Record<string, unknown>>;

describe('what the collector acknowledges is what storage keeps', () => {
  let rt: TestRuntime;
  let refuseIds = new Set<string>();
  const wrap = (inner: SearchableIndex): SearchableIndex =>
    Object.assign(Object.create(inner) as SearchableIndex, {
      // Documents named in refuseIds are refused for good once (a mapping conflict, say): they must be quarantined, not retried.
      async index(documents: readonly IndexDocument[]) {
        const refused = documents.filter((d) => refuseIds.has(d.id));
        refuseIds = new Set([...refuseIds].filter((id) => !refused.some((d) => d.id === id)));
        const outcome = await inner.index(documents.filter((d) => !refused.some((r) => r === d)));
        return {
          written: outcome.written,
          failures: [...outcome.failures, ...refused.map((d) => ({ kind: d.kind, id: d.id, reason: 'injected: mapper_parsing_exception', retryable: false }))],
        };
      },
    });

  beforeAll(async () => {
    rt = await startTestRuntime('storage-contract', { managementAuth: { rateLimitPerMinute: 100_000 }, wrapSearchIndex: wrap });
  });
  afterAll(() => rt?.dispose());

  const get = async (path: string) => rt.management('GET', path);

  it('keeps prototype-named keys as data from the collector through merge, DynamoDB and the index', async () => {
    let n = 0;
    await fc.assert(
      fc.asyncProperty(oddObject, oddObject, async (first, second) => {
        const userId = `odd-${n++}`;
        const eventId = uuid(900_000 + n);
        expect((await rt.collect('/v1/users', { user_id: userId, metadata: first })).status).toBe(201);
        expect((await rt.collect('/v1/users', { user_id: userId, metadata: second })).status).toBe(201);
        expect((await rt.collect('/v1/events', apiCall({ transaction_id: eventId, metadata: first }))).status).toBe(201);
        await rt.waitUntilConsumed();
        const user = await get(`/search/~/users/${userId}`);
        expect(user.status).toBe(200);
        expect(JSON.stringify(user.body._source.metadata)).toBe(JSON.stringify(mergedJson(first, second)));
        const event = await get(`/search/~/events/${eventId}`);
        expect(JSON.stringify(event.body._source.metadata)).toBe(JSON.stringify(first));
      }),
      { numRuns: 15 },
    );
    expect(await quarantined()).toEqual([]);
  });

  it('refuses ids over 256 bytes on every collector route, naming the field, and accepts 256', async () => {
    const long = 'é'.repeat(129); // 258 bytes in 129 characters
    const exact = 'x'.repeat(256);
    const routes: [string, (id: string) => Record<string, unknown>, string][] = [
      ['/v1/events', (id) => apiCall({ user_id: id }), 'user_id'],
      ['/v1/actions', (id) => ({ action_name: 'A', request: { uri: 'https://a.example/x' }, company_id: id }), 'company_id'],
      ['/v1/users', (id) => ({ user_id: id }), 'user_id'],
      ['/v1/companies', (id) => ({ company_id: id }), 'company_id'],
      ['/v1/subscriptions', (id) => ({ subscription_id: id, company_id: 'c', status: 'active' }), 'subscription_id'],
    ];
    for (const [path, body, field] of routes) {
      for (const batch of [false, true]) {
        const refused = await rt.collect(batch ? `${path}/batch` : path, batch ? [body('ok'), body(long)] : body(long));
        expect(refused.status).toBe(400);
        expect(refused.body.error.details).toEqual([expect.objectContaining({ field, ...(batch ? { index: 1 } : {}) })]);
        expect(refused.body.error.details[0].reason).toContain('256 bytes');
      }
      expect((await rt.collect(path, body(exact))).status).toBe(201);
    }
    await rt.waitUntilConsumed();
    expect((await get(`/search/~/users/${exact}`)).status).toBe(200);
    expect((await get(`/search/~/companies/${exact}`)).status).toBe(200);
  });

  it.each([
    ['users', '/v1/users', (id: string) => ({ user_id: id })],
    ['companies', '/v1/companies', (id: string) => ({ company_id: id })],
    ['subscriptions', '/v1/subscriptions', (id: string) => ({ subscription_id: id, company_id: 'c', status: 'active' })],
  ])("keeps every field of %s merged past DynamoDB's item limit", async (kind, path, profile) => {
    const field = 'y'.repeat(100_000);
    for (let i = 1; i <= 6; i++) expect((await rt.collect(path, { ...profile('big'), metadata: { [`f${i}`]: field } })).status).toBe(201);
    await rt.waitUntilConsumed();
    const stored = kind === 'subscriptions' ? await subscriptionOfCompanyC('big') : await get(`/search/~/${kind}/big`);
    expect(Object.keys(stored.body._source.metadata)).toEqual(['f1', 'f2', 'f3', 'f4', 'f5', 'f6']);
    expect(Object.values(stored.body._source.metadata).every((value) => value === field)).toBe(true);
    expect(await quarantined()).toEqual([]);
  });

  it('keeps one overflow document per large profile, and deletes it with the profile', async () => {
    const overflow = () =>
      rt.clients.s3
        .send(
          new ListObjectsV2Command({ Bucket: rt.names.buckets.profileDocuments, Prefix: `profiles/${rt.credentials.org_id}/${rt.credentials.app_id}/user/` }),
        )
        .then((page) => (page.Contents ?? []).map((o) => o.Key!));
    // Six merges of the big user above: each deletes the document of the version before it.
    expect(await overflow()).toHaveLength(1);
    expect((await rt.management('DELETE', '/search/~/users/big')).status).toBeLessThan(300);
    expect(await overflow()).toEqual([]);
  });

  it('stores sample-rate maps keyed by prototype names, and refuses __proto__ naming it instead of dropping it', async () => {
    const rates = Object.fromEntries(PROTOTYPE_KEYS.filter((k) => k !== '__proto__').map((k, i) => [k, i * 10]));
    const created = await rt.management('POST', '/~/apps', {}, { name: 'odd', user_sample_rate: rates, company_sample_rate: { constructor: 5 } });
    expect(created.status).toBe(201);
    const read = await get(`/~/apps/${created.body.id}`);
    expect(read.body.user_sample_rate).toEqual(rates);
    expect(read.body.company_sample_rate).toEqual({ constructor: 5 });
    for (const body of ['{"name":"x","user_sample_rate":{"__proto__":5}}', '{"name":"x","company_sample_rate":{"a":1,"__proto__":{"b":2}}}']) {
      const refused = await rt.management('POST', '/~/apps', { 'content-type': 'application/json' }, JSON.parse(body));
      expect(refused.status).toBe(400);
      expect(refused.body.error.details[0].field).toMatch(/_sample_rate\.__proto__$/);
    }
    const updated = await rt.management('PUT', `/~/apps/${created.body.id}`, {}, { user_sample_rate: { constructor: 7 } });
    expect(updated.status).toBeLessThan(300);
  });

  it('answers aggregations named like object machinery, and refuses __proto__ naming it', async () => {
    const search = (aggs: string) => rt.management('POST', '/search/~/search/events?from=-1d&to=now', {}, JSON.parse(`{"size":0,"aggs":${aggs}}`));
    const answered = await search('{"constructor":{"terms":{"field":"user_id"}},"toString":{"value_count":{"field":"user_id"}}}');
    expect(answered.status).toBe(200);
    expect(Object.keys(answered.body.aggregations).sort()).toEqual(['constructor', 'toString']);
    const refused = await search('{"__proto__":{"terms":{"field":"user_id"}}}');
    expect(refused.status).toBe(400);
    expect(refused.body.error.details[0].field).toBe('aggs.__proto__');
  });

  it('quarantines a record the index refuses for good at once, goes on with the rest, and replays it with npm run quarantine', async () => {
    const poisoned = uuid(800_001);
    refuseIds = new Set([poisoned]);
    const batch = [apiCall({ transaction_id: uuid(800_000) }), apiCall({ transaction_id: poisoned }), apiCall({ transaction_id: uuid(800_002) })];
    const before = await rt.countEvents();
    expect((await rt.collect('/v1/events/batch', batch)).status).toBe(201);
    await rt.waitUntilConsumed();
    expect(await rt.countEvents()).toBe(before + 2);
    const keys = await quarantined();
    expect(keys).toHaveLength(1);

    const cli = (...args: string[]) =>
      spawnSync(process.execPath, ['--import', 'tsx', 'bin/quarantine.ts', ...args, '--data-dir', rt.dataDir, '--json'], { cwd: root, encoding: 'utf8' });
    const listed = cli('list');
    expect(listed.status).toBe(0);
    expect(JSON.parse(listed.stdout)).toEqual([expect.objectContaining({ key: keys[0], records: 1, reason: 'refused by the search index' })]);
    const replayed = cli('replay', '--all');
    expect(replayed.status).toBe(0);
    expect(JSON.parse(replayed.stdout)).toMatchObject({ key: keys[0], records: 1 });
    rt.poller.nudge();
    await rt.waitUntilConsumed();
    expect(await rt.countEvents()).toBe(before + 3);
    expect((await get(`/search/~/events/${poisoned}`)).status).toBe(200);
    expect(await quarantined()).toEqual([]);
    expect(JSON.parse(cli('list').stdout)).toEqual([]);
    const nowhere = spawnSync(process.execPath, ['--import', 'tsx', 'bin/quarantine.ts', 'list', '--data-dir', '/nonexistent'], {
      cwd: root,
      encoding: 'utf8',
    });
    expect(nowhere.status).toBe(2);
    expect(nowhere.stderr).toContain('no running local service');
  });

  /** Subscriptions are read through their company. */
  async function subscriptionOfCompanyC(id: string) {
    const answer = await get('/search/~/companies/c/subscriptions');
    const hits = (answer.body.hits?.hits ?? answer.body) as { _id: string; _source: Record<string, unknown> }[];
    return { body: hits.find((hit) => hit._id === id || hit._source['subscription_id'] === id)! };
  }

  async function quarantined(): Promise<string[]> {
    const page = await rt.clients.s3.send(new ListObjectsV2Command({ Bucket: rt.names.buckets.failedRecords, Prefix: 'quarantine/' }));
    return (page.Contents ?? []).map((o) => o.Key!);
  }
});

/** The spec's recursive merge, on JSON text: objects merge key by key, anything else replaces. */
function mergedJson(target: Record<string, unknown>, patch: Record<string, unknown>): Record<string, unknown> {
  const merged: Record<string, unknown> = JSON.parse(JSON.stringify(target));
  for (const key of Object.keys(patch)) {
    const value = patch[key];
    const current = Object.keys(merged).includes(key) ? merged[key] : undefined;
    const next = isObject(value) && isObject(current) ? mergedJson(current, value) : value;
    Object.defineProperty(merged, key, { value: next, enumerable: true, writable: true, configurable: true });
  }
  return merged;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
