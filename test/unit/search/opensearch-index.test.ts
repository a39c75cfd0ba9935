import { eventDocument, profileDocument } from '../../../functions/search/index-documents';
import { createOpenSearchIndex } from '../../../functions/search/opensearch/opensearch-index';
import { toStoredSource } from '../../../functions/search/opensearch/stored-source';
import type { IndexDocument } from '../../../functions/search/port';
import { bulkLines, fakeOpenSearch, type FakeAnswer, type RecordedRequest } from './support/fake-opensearch';

const scope = { org_id: 'org-1', app_id: 'app-1' };

function apiCall(id: string, time = '2024-05-10T12:00:00.000Z', body: unknown = { ok: true }): IndexDocument {
  return eventDocument(scope, 'event', {
    id,
    time,
    received_at: time,
    data: { request: { time, uri: 'https://api.example.com/v1/x', verb: 'GET', headers: {}, body }, user_id: 'u-1' },
  });
}

const user = (id: string, version: number): IndexDocument => profileDocument(scope, 'users', id, { user_id: id }, version, '2024-05-10T12:00:00.000Z');

// Paths decoded as the cluster reads them (the client percent-encodes ids and index lists).
const call = (request: RecordedRequest) => `${request.method} ${decodeURIComponent(request.path)}`;

describe('OpenSearch index adapter (scripted cluster)', () => {
  it('installs templates and creates the profile indices that are missing', async () => {
    const { client, requests } = fakeOpenSearch((request): FakeAnswer => {
      if (request.method === 'HEAD') return { status: request.path === '/p-companies' ? 200 : 404 };
      if (request.path === '/p-subscriptions' && request.method === 'PUT') {
        // Another process created it between the check and the create.
        return { status: 400, body: { error: { type: 'resource_already_exists_exception' }, status: 400 } };
      }
      return { status: 200, body: { acknowledged: true } };
    });
    await createOpenSearchIndex({ client, indexPrefix: 'p-' }).ensureReady();
    expect(requests.map(call)).toEqual([
      'POST /_component_template/p-search-common',
      'POST /_index_template/p-search-events',
      'POST /_index_template/p-search-users',
      'POST /_index_template/p-search-companies',
      'POST /_index_template/p-search-subscriptions',
      'HEAD /p-users',
      'PUT /p-users',
      'HEAD /p-companies',
      'HEAD /p-subscriptions',
      'PUT /p-subscriptions',
    ]);
    expect(JSON.parse(requests[1]!.body!)).toMatchObject({ index_patterns: ['p-events-*'], composed_of: ['p-search-common'] });
  });

  it('sends bulk chunks and reads per-item results: conflicts are neither written nor failures', async () => {
    const answers: FakeAnswer[] = [
      {
        status: 200,
        body: { errors: true, items: [{ create: { status: 201 } }, { create: { status: 409, error: { type: 'version_conflict_engine_exception' } } }] },
      },
      { status: 200, body: { errors: true, items: [{ create: { status: 429, error: { type: 'rejected', reason: 'busy' } } }, { index: { status: 409 } }] } },
      { status: 200, body: { errors: false, items: [{ index: { status: 201 } }] } },
    ];
    const { client, requests } = fakeOpenSearch(() => answers.shift()!);
    const index = createOpenSearchIndex({ client, indexPrefix: 'p-', bulkLimits: { maxBytes: 1e6, maxDocuments: 2 } });
    const documents = [apiCall('new'), apiCall('again'), apiCall('busy'), user('stale', 1), user('fresh', 9)];
    const outcome = await index.index([...documents, { ...apiCall('bad'), time: 'never' }]);

    expect(outcome).toEqual({
      written: 2,
      failures: [
        { kind: 'events', id: 'bad', reason: expect.stringContaining('ISO 8601'), retryable: false },
        { kind: 'events', id: 'busy', reason: 'rejected: busy', retryable: true },
      ],
    });
    expect(requests.map(call)).toEqual(['POST /_bulk', 'POST /_bulk', 'POST /_bulk']);
    expect(bulkLines(requests[0]!.body)).toEqual([
      { create: { _index: 'p-events-2024.05', _id: 'app-1:new' } },
      toStoredSource(documents[0]!),
      { create: { _index: 'p-events-2024.05', _id: 'app-1:again' } },
      toStoredSource(documents[1]!),
    ]);
    expect(bulkLines(requests[2]!.body)[0]).toEqual({ index: { _index: 'p-users', _id: 'app-1:fresh', version: 9, version_type: 'external' } });
  });

  it('fails a whole chunk when the request fails, and goes on with the next', async () => {
    const answers: FakeAnswer[] = [
      { status: 503, body: { error: 'unavailable' } },
      { status: 200, body: { items: [{ create: { status: 201 } }] } },
    ];
    const { client } = fakeOpenSearch(() => answers.shift()!);
    const index = createOpenSearchIndex({ client, bulkLimits: { maxBytes: 1e6, maxDocuments: 1 } });
    const outcome = await index.index([apiCall('first'), apiCall('second')]);
    expect(outcome.written).toBe(1);
    expect(outcome.failures).toEqual([{ kind: 'events', id: 'first', reason: expect.stringContaining('503'), retryable: true }]);
  });

  it('counts across all monthly indices within the tenant and the time range', async () => {
    const { client, requests } = fakeOpenSearch(() => ({ status: 200, body: { count: 42 } }));
    const index = createOpenSearchIndex({ client, indexPrefix: 'p-' });
    expect(await index.count(scope, 'events', { from: new Date('2024-05-01T00:00:00Z'), to: new Date('2024-05-02T00:00:00Z') })).toBe(42);
    const [request] = requests;
    expect(call(request!)).toBe('POST /p-events-*/_count');
    expect(request!.query.get('ignore_unavailable')).toBe('true');
    expect(request!.query.get('allow_no_indices')).toBe('true');
    expect(JSON.parse(request!.body!)).toEqual({
      query: {
        bool: {
          filter: [
            { term: { org_id: 'org-1' } },
            { term: { app_id: 'app-1' } },
            { range: { 'index_meta.time': { gte: '2024-05-01T00:00:00.000Z', lt: '2024-05-02T00:00:00.000Z' } } },
          ],
        },
      },
    });
  });

  it('gets an event from the month of its time hint and returns the source as indexed', async () => {
    const document = apiCall('e-1', '2024-05-10T12:00:00.000Z', 'YmFzZTY0');
    const { client, requests } = fakeOpenSearch(() => ({
      status: 200,
      body: { _index: 'p-events-2024.05', _id: 'app-1:e-1', found: true, _source: toStoredSource(document) },
    }));
    const index = createOpenSearchIndex({ client, indexPrefix: 'p-' });
    expect(await index.get(scope, 'events', 'e-1', { time: new Date('2024-05-10T12:00:00Z') })).toEqual({ _id: 'e-1', _source: document.source });
    expect(requests.map(call)).toEqual(['GET /p-events-2024.05/_doc/app-1:e-1']);
  });

  it('searches every month, within the tenant, when the hinted index does not have the event', async () => {
    const document = apiCall('e-2', '2024-06-01T00:00:00.000Z');
    const { client, requests } = fakeOpenSearch((request) =>
      request.method === 'GET'
        ? { status: 404, body: { found: false } }
        : { status: 200, body: { hits: { total: { value: 1 }, hits: [{ _id: 'app-1:e-2', _source: toStoredSource(document) }] } } },
    );
    const index = createOpenSearchIndex({ client, indexPrefix: 'p-' });
    expect(await index.get(scope, 'events', 'e-2', { time: new Date('2024-05-31T00:00:00Z') })).toEqual({ _id: 'e-2', _source: document.source });
    expect(requests.map(call)).toEqual(['GET /p-events-2024.05/_doc/app-1:e-2', 'POST /p-events-*/_search']);
    expect(JSON.parse(requests[1]!.body!)).toEqual({
      size: 1,
      query: { bool: { filter: [{ ids: { values: ['app-1:e-2'] } }, { term: { org_id: 'org-1' } }, { term: { app_id: 'app-1' } }] } },
    });
  });

  it('does not return a document of another org, even when its _id matches', async () => {
    const foreign = eventDocument({ org_id: 'org-2', app_id: 'app-1' }, 'event', {
      id: 'e-3',
      time: '2024-05-10T12:00:00.000Z',
      received_at: '2024-05-10T12:00:00.000Z',
      data: {},
    });
    const { client } = fakeOpenSearch((request) =>
      request.method === 'GET'
        ? { status: 200, body: { found: true, _source: toStoredSource(foreign) } }
        : { status: 200, body: { hits: { total: { value: 0 }, hits: [] } } },
    );
    const index = createOpenSearchIndex({ client });
    expect(await index.get(scope, 'events', 'e-3', { time: new Date('2024-05-10T12:00:00Z') })).toBeUndefined();
  });

  it('gets a profile from its index, and answers undefined when it is missing', async () => {
    const { client, requests } = fakeOpenSearch(() => ({ status: 404, body: { _index: 'users', found: false } }));
    const index = createOpenSearchIndex({ client });
    expect(await index.get(scope, 'users', 'nobody')).toBeUndefined();
    expect(requests.map(call)).toEqual(['GET /users/_doc/app-1:nobody']);
  });

  it('refreshes every index of the prefix', async () => {
    const { client, requests } = fakeOpenSearch(() => ({ status: 200, body: { _shards: {} } }));
    await createOpenSearchIndex({ client, indexPrefix: 'p-' }).refresh();
    expect(requests.map(call)).toEqual(['GET /p-events-*,p-users,p-companies,p-subscriptions/_refresh']);
  });

  it('refuses an index prefix OpenSearch would reject', () => {
    const { client } = fakeOpenSearch(() => ({ status: 200 }));
    expect(() => createOpenSearchIndex({ client, indexPrefix: 'Upper-' })).toThrow('invalid OpenSearch index prefix');
  });
});
