import { randomUUID } from 'node:crypto';
import { eventDocument, profileDocument } from '../../../functions/search/index-documents';
import type { IndexDocument, SearchableIndex, SearchIndex, TenantScope } from '../../../functions/search/port';
import { conformanceBackends } from '../../conformance/backends';

/**
 * The search port's contract, written once and run against every backend: DuckDB in memory and
 * on disk, and the real OpenSearch node of the integration run.
 */

const backends = conformanceBackends({ duckDbOnDisk: true });

/** A fresh app per test, so tests sharing one OpenSearch cluster cannot see each other's documents. */
const newScope = (org = 'org-conformance'): TenantScope => ({ org_id: org, app_id: `app-${randomUUID()}` });

const BASE = Date.UTC(2024, 4, 31, 23, 59, 0);

function apiCall(scope: TenantScope, id: string, at: number, data: Record<string, unknown> = {}): IndexDocument {
  const time = new Date(at).toISOString();
  return eventDocument(scope, 'event', {
    id,
    time,
    received_at: new Date(at + 500).toISOString(),
    data: {
      request: { time, uri: `https://api.example.com/v1/items/${id}?expand=1`, verb: 'POST', headers: { 'content-type': 'application/json' } },
      response: { time: new Date(at + 42).toISOString(), status: 201, headers: {}, body: { id } },
      user_id: 'u-1',
      company_id: 'c-1',
      weight: 1,
      ...data,
    },
  });
}

const user = (scope: TenantScope, id: string, version: number, email: string): IndexDocument =>
  profileDocument(scope, 'users', id, { user_id: id, metadata: { email } }, version, new Date(BASE).toISOString());

describe.each(backends)('SearchIndex conformance: $name', (backend) => {
  let index: SearchIndex;

  beforeAll(async () => {
    index = await backend.open();
    await index.ensureReady();
  }, 60_000);

  afterAll(async () => {
    await index.close();
    await backend.dispose();
  }, 60_000);

  async function indexAll(documents: IndexDocument[]) {
    const outcome = await index.index(documents);
    await index.refresh();
    return outcome;
  }

  it('is ready again when asked twice', async () => {
    await expect(index.ensureReady()).resolves.toBeUndefined();
  });

  it('indexes events, counts them and returns each as it was given', async () => {
    const scope = newScope();
    const documents = [apiCall(scope, 'a', BASE), apiCall(scope, 'b', BASE + 1000), apiCall(scope, 'c', BASE + 2000)];
    expect(await indexAll(documents)).toEqual({ written: 3, failures: [] });
    expect(await index.count(scope, 'events')).toBe(3);
    expect(await index.get(scope, 'events', 'b')).toEqual({ _id: 'b', _source: documents[1]!.source });
    expect(await index.get(scope, 'events', 'b', { time: new Date(BASE + 1000) })).toEqual({ _id: 'b', _source: documents[1]!.source });
    expect(await index.get(scope, 'events', 'missing')).toBeUndefined();
  });

  it('finds an event whose time hint names another month', async () => {
    const scope = newScope();
    const document = apiCall(scope, 'june', BASE + 120_000);
    await indexAll([document]);
    expect(await index.get(scope, 'events', 'june', { time: new Date(BASE) })).toEqual({ _id: 'june', _source: document.source });
  });

  it('indexes an event id once: a replay writes nothing and counts nothing', async () => {
    const scope = newScope();
    const first = apiCall(scope, 'dup', BASE, { weight: 1 });
    const replay = apiCall(scope, 'dup', BASE, { weight: 99 });
    expect(await indexAll([first, apiCall(scope, 'other', BASE)])).toEqual({ written: 2, failures: [] });
    expect(await indexAll([replay, apiCall(scope, 'other', BASE)])).toEqual({ written: 0, failures: [] });
    expect(await indexAll([apiCall(scope, 'twice', BASE), apiCall(scope, 'twice', BASE)])).toEqual({ written: 1, failures: [] });
    expect(await index.count(scope, 'events')).toBe(3);
    expect((await index.get(scope, 'events', 'dup'))?._source.weight).toBe(1);
  });

  it('keeps tenants apart: two apps with the same ids, and an org that does not own the app', async () => {
    const orgA = newScope('org-a');
    const orgB = newScope('org-b');
    await indexAll([
      apiCall(orgA, 'same', BASE, { user_id: 'of-a' }),
      apiCall(orgA, 'only-a', BASE),
      apiCall(orgB, 'same', BASE, { user_id: 'of-b' }),
      user(orgA, 'u-same', 1, 'a@example.com'),
      user(orgB, 'u-same', 1, 'b@example.com'),
    ]);
    expect(await index.count(orgA, 'events')).toBe(2);
    expect(await index.count(orgB, 'events')).toBe(1);
    expect((await index.get(orgA, 'events', 'same'))?._source.user_id).toBe('of-a');
    expect((await index.get(orgB, 'events', 'same'))?._source.user_id).toBe('of-b');
    expect(await index.get(orgB, 'events', 'only-a')).toBeUndefined();
    expect((await index.get(orgB, 'users', 'u-same'))?._source.metadata).toEqual({ email: 'b@example.com' });

    const wrongOrg = { org_id: 'org-b', app_id: orgA.app_id };
    expect(await index.count(wrongOrg, 'events')).toBe(0);
    expect(await index.get(wrongOrg, 'events', 'same')).toBeUndefined();
    expect(await index.get(wrongOrg, 'events', 'same', { time: new Date(BASE) })).toBeUndefined();
    expect(await index.get(wrongOrg, 'users', 'u-same')).toBeUndefined();
  });

  it('counts a time range with an inclusive start and an exclusive end', async () => {
    const scope = newScope();
    const from = BASE;
    const to = BASE + 60_000; // crosses into the next month, so two monthly indices hold these
    await indexAll([
      apiCall(scope, 'before', from - 1),
      apiCall(scope, 'at-from', from),
      apiCall(scope, 'inside', from + 30_000),
      apiCall(scope, 'last', to - 1),
      apiCall(scope, 'at-to', to),
    ]);
    expect(await index.count(scope, 'events', { from: new Date(from), to: new Date(to) })).toBe(3);
    expect(await index.count(scope, 'events', { from: new Date(from) })).toBe(4);
    expect(await index.count(scope, 'events', { to: new Date(to) })).toBe(4);
    expect(await index.count(scope, 'events', { from: new Date(to), to: new Date(to) })).toBe(0);
    expect(await index.count(scope, 'events')).toBe(5);
  });

  it('never lets an older profile version overwrite a newer one', async () => {
    const scope = newScope();
    expect(await indexAll([user(scope, 'u-1', 2, 'two@example.com')])).toEqual({ written: 1, failures: [] });
    expect(await indexAll([user(scope, 'u-1', 1, 'one@example.com')])).toEqual({ written: 0, failures: [] });
    expect(await indexAll([user(scope, 'u-1', 2, 'two-again@example.com')])).toEqual({ written: 0, failures: [] });
    expect((await index.get(scope, 'users', 'u-1'))?._source.metadata).toEqual({ email: 'two@example.com' });

    expect(await indexAll([user(scope, 'u-1', 4, 'four@example.com'), user(scope, 'u-1', 3, 'three@example.com')])).toEqual({
      written: 1,
      failures: [],
    });
    expect((await index.get(scope, 'users', 'u-1'))?._source.metadata).toEqual({ email: 'four@example.com' });
    expect(await index.count(scope, 'users')).toBe(1);
  });

  it("attributes an identified visitor's events to the user, and only events without a user", async () => {
    const scope = newScope();
    const other = newScope(scope.org_id);
    const anonymous = (tenant: TenantScope, id: string, at: number, data: Record<string, unknown>): IndexDocument => {
      const document = apiCall(tenant, id, at, data);
      const { user_id: _unset, ...source } = document.source;
      return { ...document, source };
    };
    const documents = [
      anonymous(scope, 'visit-1', BASE, { anonymous_id: 'anon-1' }),
      anonymous(scope, 'visit-2', BASE + 60_000, { anonymous_id: 'anon-1', company_id: 'c-9' }),
      apiCall(scope, 'signed-in', BASE + 120_000, { anonymous_id: 'anon-1', user_id: 'u-earlier' }),
      anonymous(scope, 'someone-else', BASE + 180_000, { anonymous_id: 'anon-2' }),
      anonymous(other, 'visit-1', BASE, { anonymous_id: 'anon-1' }),
    ];
    await indexAll(documents);

    expect(await index.attributeVisitor(scope, 'anon-1', 'u-7')).toBe(2);
    await index.refresh();
    expect((await index.get(scope, 'events', 'visit-1'))?._source).toEqual({ ...documents[0]!.source, user_id: 'u-7' });
    expect((await index.get(scope, 'events', 'visit-2'))?._source).toMatchObject({ user_id: 'u-7', company_id: 'c-9' });
    expect((await index.get(scope, 'events', 'signed-in'))?._source).toMatchObject({ user_id: 'u-earlier' });
    expect((await index.get(scope, 'events', 'someone-else'))?._source['user_id']).toBeUndefined();
    expect((await index.get(other, 'events', 'visit-1'))?._source['user_id']).toBeUndefined();
    // Attributed events now match a user_id filter, as events sent with it do.
    const searchable = index as SearchableIndex;
    const context = { scope, kind: 'events' as const, timeZone: 'UTC', now: new Date(BASE + 3_600_000) };
    expect(await searchable.countMatching(context, { type: 'term', field: 'user_id', value: 'u-7', case_insensitive: false })).toBe(2);
    // Done once: a second identification finds nothing left to attribute.
    expect(await index.attributeVisitor(scope, 'anon-1', 'u-8')).toBe(0);
  });

  it('counts events by how late they arrived, within the range and the query', async () => {
    const scope = newScope();
    const lateBy = (id: string, at: number, lagMs: number, userId = 'u-1') => {
      const document = apiCall(scope, id, at, { user_id: userId });
      return { ...document, source: { ...document.source, received_at: new Date(at + lagMs).toISOString() } };
    };
    await indexAll([
      lateBy('on-time', BASE, 500),
      lateBy('early', BASE + 1000, -30_000),
      lateBy('ten-minutes', BASE + 2000, 10 * 60_000),
      lateBy('two-hours', BASE + 3000, 2 * 3_600_000),
      lateBy('four-days', BASE + 4000, 4 * 86_400_000),
      lateBy('other-user', BASE + 5000, 10 * 60_000, 'u-2'),
      lateBy('outside', BASE + 86_400_000, 500),
    ]);
    const searchable = index as SearchableIndex;
    const context = {
      scope,
      kind: 'events' as const,
      timeZone: 'UTC',
      now: new Date(BASE + 86_400_000),
      range: { from: new Date(BASE), to: new Date(BASE + 3_600_000) },
    };
    // Buckets: <1 min, <5 min, <15 min, <1 h, <6 h, <24 h, <3 days, later.
    expect(await searchable.arrivalLags(context, { type: 'match_all' })).toEqual({ events: 6, counts: [2, 0, 2, 0, 1, 0, 0, 1] });
    const firstUser = { type: 'term' as const, field: 'user_id', value: 'u-1', case_insensitive: false };
    expect(await searchable.arrivalLags(context, firstUser)).toEqual({ events: 5, counts: [2, 0, 1, 0, 1, 0, 0, 1] });
  });

  it('stores companies and subscriptions as their own kinds', async () => {
    const scope = newScope();
    const time = new Date(BASE).toISOString();
    const company = profileDocument(scope, 'companies', 'c-1', { company_id: 'c-1', company_domain: 'example.com' }, 1, time);
    const subscription = profileDocument(
      scope,
      'subscriptions',
      's-1',
      { subscription_id: 's-1', company_id: 'c-1', status: 'active', current_period_start: time, items: [{ plan_id: 'p', created_at: time }] },
      1,
      time,
    );
    expect(await indexAll([company, subscription])).toEqual({ written: 2, failures: [] });
    expect(await index.get(scope, 'companies', 'c-1')).toEqual({ _id: 'c-1', _source: company.source });
    expect(await index.get(scope, 'subscriptions', 's-1')).toEqual({ _id: 's-1', _source: subscription.source });
    expect(await index.get(scope, 'users', 'c-1')).toBeUndefined();
    expect(await index.count(scope, 'companies')).toBe(1);
    expect(await index.count(scope, 'subscriptions')).toBe(1);
  });

  it('round-trips base64 and JSON bodies, in either direction', async () => {
    const scope = newScope();
    const base64Request = apiCall(scope, 'base64-request', BASE, {
      request: {
        time: new Date(BASE).toISOString(),
        uri: 'https://api.example.com/upload',
        verb: 'PUT',
        headers: {},
        transfer_encoding: 'base64',
        body: Buffer.from('truncated bytes…').toString('base64'),
        body_truncated: true,
      },
      response: { time: new Date(BASE + 5).toISOString(), status: 200, headers: {}, body: { stored: true, sizes: [1, 2] } },
    });
    const base64Response = apiCall(scope, 'base64-response', BASE, {
      request: { time: new Date(BASE).toISOString(), uri: 'https://api.example.com/q', verb: 'POST', headers: {}, body: { query: { term: 'x' } } },
      response: { time: new Date(BASE + 5).toISOString(), status: 200, headers: {}, transfer_encoding: 'base64', body: 'PGh0bWw+' },
    });
    const arrayBody = apiCall(scope, 'array-body', BASE, {
      response: { time: new Date(BASE + 5).toISOString(), status: 200, headers: {}, body: [{ id: 1 }, { id: 2 }] },
    });
    expect(await indexAll([base64Request, base64Response, arrayBody])).toEqual({ written: 3, failures: [] });
    for (const document of [base64Request, base64Response, arrayBody]) {
      expect(await index.get(scope, 'events', document.id)).toEqual({ _id: document.id, _source: document.source });
    }
  });

  it('refuses malformed documents one by one and writes the rest', async () => {
    const scope = newScope();
    const good = apiCall(scope, 'good', BASE);
    const outcome = await indexAll([
      { ...apiCall(scope, 'bad-time', BASE), time: 'not a time' },
      good,
      { ...user(scope, 'u-1', 1, 'x@example.com'), version: undefined },
    ]);
    expect(outcome.written).toBe(1);
    expect(outcome.failures).toEqual([
      { kind: 'events', id: 'bad-time', reason: expect.stringContaining('ISO 8601'), retryable: false },
      { kind: 'users', id: 'u-1', reason: expect.stringContaining('version'), retryable: false },
    ]);
    expect(await index.count(scope, 'events')).toBe(1);
  });

  it('takes 5,000 documents in one call', async () => {
    const scope = newScope();
    const documents = Array.from({ length: 5000 }, (_, n) => apiCall(scope, `bulk-${n}`, BASE - n * 1000, { user_id: `u-${n % 50}` }));
    expect(await indexAll(documents)).toEqual({ written: 5000, failures: [] });
    expect(await index.count(scope, 'events')).toBe(5000);
    expect(await index.get(scope, 'events', 'bulk-4321')).toEqual({ _id: 'bulk-4321', _source: documents[4321]!.source });
    expect(await indexAll(documents.slice(0, 100))).toEqual({ written: 0, failures: [] });
  }, 60_000);
});
