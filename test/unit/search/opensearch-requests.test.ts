import { eventDocument, profileDocument } from '../../../functions/search/index-documents';
import { bulkActionLine, bulkChunks, bulkOutcome, failedChunkOutcome } from '../../../functions/search/opensearch/bulk';
import { allIndices, assertValidIndexPrefix, documentId, eventsIndexName, indexNameFor, readTarget } from '../../../functions/search/opensearch/naming';
import { tenantClauses } from '../../../functions/search/opensearch/opensearch-index';
import { fromStoredSource, toStoredSource } from '../../../functions/search/opensearch/stored-source';
import { commonComponentTemplate, indexTemplates } from '../../../functions/search/opensearch/templates';
import type { IndexDocument } from '../../../functions/search/port';
import { bulkLines } from './support/fake-opensearch';

const scope = { org_id: 'org-1', app_id: 'app-1' };

function apiCall(id: string, time: string, request: Record<string, unknown> = {}, response: Record<string, unknown> = {}): IndexDocument {
  return eventDocument(scope, 'event', {
    id,
    time,
    received_at: time,
    data: {
      request: { time, uri: 'https://api.example.com/v1/x', verb: 'GET', headers: {}, ...request },
      response: { time, status: 200, headers: {}, ...response },
    },
  });
}

const user = (id: string, version: number): IndexDocument => profileDocument(scope, 'users', id, { user_id: id }, version, '2024-05-01T00:00:00.000Z');

describe('index naming', () => {
  it.each([
    ['2024-01-31T23:59:59.999Z', 'events-2024.01'],
    ['2024-02-01T00:00:00.000Z', 'events-2024.02'],
    ['2024-02-01T00:30:00+01:00', 'events-2024.01'],
    ['2024-12-15T10:00:00Z', 'events-2024.12'],
  ])('an event at %s goes to %s (UTC month)', (time, name) => {
    expect(eventsIndexName('', time)).toBe(name);
  });

  it('prefixes every index, for events by month and for profiles by kind', () => {
    expect(eventsIndexName('p-', new Date(Date.UTC(2025, 6, 4)))).toBe('p-events-2025.07');
    expect(indexNameFor('p-', apiCall('e', '2024-05-01T00:00:00.000Z'))).toBe('p-events-2024.05');
    expect(indexNameFor('p-', user('u', 1))).toBe('p-users');
    expect(readTarget('p-', 'events')).toBe('p-events-*');
    expect(readTarget('p-', 'companies')).toBe('p-companies');
    expect(allIndices('p-')).toEqual(['p-events-*', 'p-users', 'p-companies', 'p-subscriptions']);
  });

  it('makes document ids unique across apps', () => {
    expect(documentId('app-1', 'evt-9')).toBe('app-1:evt-9');
    expect(documentId('app-2', 'evt-9')).not.toBe(documentId('app-1', 'evt-9'));
  });

  it('accepts only prefixes OpenSearch accepts in index names', () => {
    for (const prefix of ['', 'analytics-', 'prod_eu-1-']) expect(() => assertValidIndexPrefix(prefix)).not.toThrow();
    for (const prefix of ['Prod-', '_x', '-x', 'a*b', 'a b', 'a:b']) expect(() => assertValidIndexPrefix(prefix)).toThrow('invalid');
  });
});

describe('stored source', () => {
  it('moves a base64 body out of the mapped fields and brings it back on read', () => {
    const document = apiCall(
      'b64',
      '2024-05-01T00:00:00.000Z',
      { transfer_encoding: 'base64', body: 'aGVsbG8=', body_truncated: true },
      { body: { ok: true } },
    );
    const stored = toStoredSource(document);
    expect(stored.request).toEqual({ ...(document.source.request as object), body: null });
    expect(stored.response).toEqual(document.source.response);
    expect(stored.index_meta).toEqual({ time: '2024-05-01T00:00:00.000Z', doc_id: 'b64', bodies: { request: 'aGVsbG8=' } });
    // Same content and same key order as indexed.
    expect(JSON.stringify(fromStoredSource(stored))).toBe(JSON.stringify(document.source));
  });

  it('keeps JSON object bodies searchable and stores arrays and scalars unparsed', () => {
    const document = apiCall('mixed', '2024-05-01T00:00:00.000Z', { body: { q: 'x' } }, { body: [1, 'two'] });
    const stored = toStoredSource(document);
    expect((stored.request as Record<string, unknown>).body).toEqual({ q: 'x' });
    expect(stored.index_meta).toEqual({ time: '2024-05-01T00:00:00.000Z', doc_id: 'mixed', bodies: { response: [1, 'two'] } });
    expect(fromStoredSource(stored)).toEqual(document.source);
  });

  it('records the document time for profiles, and leaves a null body alone', () => {
    const stored = toStoredSource(user('u', 1));
    expect(stored.index_meta).toEqual({ time: '2024-05-01T00:00:00.000Z', doc_id: 'u' });
    const nullBody = apiCall('null-body', '2024-05-01T00:00:00.000Z', { body: null });
    expect(fromStoredSource(toStoredSource(nullBody))).toEqual(nullBody.source);
  });

  it('does not change the document it is given', () => {
    const document = apiCall('frozen', '2024-05-01T00:00:00.000Z', { body: 'aGVsbG8=' });
    const before = JSON.stringify(document);
    toStoredSource(document);
    expect(JSON.stringify(document)).toBe(before);
  });
});

describe('bulk requests', () => {
  it('creates events (never overwrites) and indexes profiles with an external version', () => {
    expect(bulkActionLine('p-', apiCall('e-1', '2024-05-01T00:00:00.000Z'))).toEqual({
      create: { _index: 'p-events-2024.05', _id: 'app-1:e-1' },
    });
    expect(bulkActionLine('p-', user('u-1', 7))).toEqual({
      index: { _index: 'p-users', _id: 'app-1:u-1', version: 7, version_type: 'external' },
    });
  });

  it('writes an action line and a source line per document', () => {
    const documents = [apiCall('e-1', '2024-05-01T00:00:00.000Z', { body: 'aGk=' }), user('u-1', 2)];
    const [chunk] = bulkChunks('', documents);
    expect(chunk?.body.endsWith('\n')).toBe(true);
    expect(bulkLines(chunk?.body)).toEqual([
      bulkActionLine('', documents[0]!),
      toStoredSource(documents[0]!),
      bulkActionLine('', documents[1]!),
      toStoredSource(documents[1]!),
    ]);
  });

  it('splits by document count and by size, with an oversized document alone', () => {
    const small = Array.from({ length: 5 }, (_, n) => apiCall(`s-${n}`, '2024-05-01T00:00:00.000Z'));
    expect([...bulkChunks('', small, { maxBytes: 1e9, maxDocuments: 2 })].map((c) => c.documents.length)).toEqual([2, 2, 1]);

    const big = apiCall('big', '2024-05-01T00:00:00.000Z', { body: { blob: 'x'.repeat(5000) } });
    const chunks = [...bulkChunks('', [small[0]!, big, small[1]!, small[2]!], { maxBytes: 2000, maxDocuments: 1000 })];
    expect(chunks.map((c) => c.documents.map((d) => d.id))).toEqual([['s-0'], ['big'], ['s-1', 's-2']]);
    for (const chunk of chunks.filter((c) => c.documents.length > 1)) expect(Buffer.byteLength(chunk.body)).toBeLessThanOrEqual(2000);
  });

  it('counts created and updated items, ignores conflicts, and reports the rest', () => {
    const documents = ['created', 'duplicate', 'throttled', 'conflicting', 'broken'].map((id) => apiCall(id, '2024-05-01T00:00:00.000Z'));
    const [chunk] = bulkChunks('', [...documents, user('u-1', 3)]);
    const outcome = bulkOutcome(chunk!, [
      { create: { status: 201 } },
      { create: { status: 409, error: { type: 'version_conflict_engine_exception', reason: 'document already exists' } } },
      { create: { status: 429, error: { type: 'es_rejected_execution_exception', reason: 'queue full' } } },
      { create: { status: 400, error: { type: 'mapper_parsing_exception', reason: 'failed to parse field [metadata.x]' } } },
      { create: { status: 503, error: { type: 'unavailable_shards_exception', reason: 'primary shard is not active' } } },
      { index: { status: 200 } },
    ]);
    expect(outcome).toEqual({
      written: 2,
      failures: [
        { kind: 'events', id: 'throttled', reason: 'es_rejected_execution_exception: queue full', retryable: true },
        { kind: 'events', id: 'conflicting', reason: 'mapper_parsing_exception: failed to parse field [metadata.x]', retryable: false },
        { kind: 'events', id: 'broken', reason: 'unavailable_shards_exception: primary shard is not active', retryable: true },
      ],
    });
  });

  it('treats a missing item as a retryable failure', () => {
    const [chunk] = bulkChunks('', [apiCall('a', '2024-05-01T00:00:00.000Z'), apiCall('b', '2024-05-01T00:00:00.000Z')]);
    expect(bulkOutcome(chunk!, [{ create: { status: 201 } }]).failures).toEqual([
      { kind: 'events', id: 'b', reason: expect.stringContaining('no result'), retryable: true },
    ]);
  });

  it('fails every document of a failed request, retryable unless the cluster refused it for good', () => {
    const [chunk] = bulkChunks('', [apiCall('a', '2024-05-01T00:00:00.000Z'), user('u', 1)]);
    const unavailable = failedChunkOutcome(chunk!, Object.assign(new Error('Service Unavailable'), { statusCode: 503 }));
    expect(unavailable.written).toBe(0);
    expect(unavailable.failures.map((f) => [f.id, f.retryable])).toEqual([
      ['a', true],
      ['u', true],
    ]);
    expect(failedChunkOutcome(chunk!, new Error('socket hang up')).failures.every((f) => f.retryable)).toBe(true);
    expect(failedChunkOutcome(chunk!, Object.assign(new Error('too large'), { statusCode: 413 })).failures.every((f) => !f.retryable)).toBe(true);
  });
});

describe('templates', () => {
  const common = commonComponentTemplate('p-').body.template;
  const mappings = common.mappings!;

  it('maps tenant keys as keywords, and strings as text with a .raw keyword (ids as keywords, without a .raw copy)', () => {
    expect(mappings.properties?.org_id).toEqual({ type: 'keyword' });
    expect(mappings.properties?.app_id).toEqual({ type: 'keyword' });
    expect(mappings.date_detection).toBe(false);
    const templates = Object.fromEntries((mappings.dynamic_templates ?? []).flatMap((entry) => Object.entries(entry)));
    const raw = { raw: { type: 'keyword', ignore_above: 1024 } };
    expect(templates.ids).toEqual({ match_mapping_type: 'string', match: '*_id', mapping: { type: 'keyword' } });
    expect(templates.dates).toEqual({ match_mapping_type: 'string', match_pattern: 'regex', match: '^.*(_at|_time)$', mapping: { type: 'date' } });
    expect(templates.strings).toEqual({ match_mapping_type: 'string', mapping: { type: 'text', norms: false, fields: raw } });
    // First matching template wins: ids and dates must come before the catch-all for strings.
    expect((mappings.dynamic_templates ?? []).map((entry) => Object.keys(entry)[0])).toEqual(['ids', 'dates', 'strings', 'decimals']);
    expect(mappings.properties?.session_token).toEqual({ type: 'keyword' });
    // Every event's own id: doc values only, not a term dictionary entry per event.
    expect(mappings.properties?.transaction_id).toEqual({ type: 'keyword', index: false });
  });

  it('compresses stored documents with DEFLATE (best_compression)', () => {
    expect(common.settings).toMatchObject({ 'index.codec': 'best_compression' });
  });

  it('asks for the replicas it is given: none on a one-node domain, where a replica could never be placed', () => {
    expect(common.settings).toMatchObject({ 'index.number_of_replicas': 1 });
    expect(commonComponentTemplate('p-', 0).body.template!.settings).toMatchObject({ 'index.number_of_replicas': 0 });
  });

  it('stores non-JSON bodies unparsed and maps the document time as a date', () => {
    expect(mappings.properties?.index_meta).toEqual({
      properties: { time: { type: 'date' }, doc_id: { type: 'keyword', index: false }, bodies: { type: 'object', enabled: false } },
    });
    expect(common.settings).toMatchObject({ 'index.mapping.ignore_malformed': true });
  });

  it('applies to monthly events indices, joined to one alias, and to each profile index', () => {
    const templates = indexTemplates('p-');
    expect(templates.map((t) => [t.name, t.body.index_patterns])).toEqual([
      ['p-search-events', ['p-events-*']],
      ['p-search-users', ['p-users']],
      ['p-search-companies', ['p-companies']],
      ['p-search-subscriptions', ['p-subscriptions']],
    ]);
    for (const template of templates) expect(template.body.composed_of).toEqual(['p-search-common']);
    expect(templates[3]!.body.template?.mappings?.properties).toMatchObject({
      updated_at: { type: 'date' },
      current_period_end: { type: 'date' },
      items: { properties: { created_at: { type: 'date' } } },
    });
    const events = templates[0]!.body.template!;
    expect(events.aliases).toEqual({ 'p-events': {} });
    expect(events.mappings?.properties).toMatchObject({
      event_type: { type: 'keyword' },
      received_at: { type: 'date' },
      duration_ms: { type: 'long' },
      weight: { type: 'long' },
      request: { properties: { time: { type: 'date' }, verb: { type: 'keyword' } } },
      response: { properties: { time: { type: 'date' }, status: { type: 'integer' } } },
    });
  });
});

describe('tenant filter', () => {
  it('always pins org and app, and bounds time as [from, to)', () => {
    expect(tenantClauses(scope)).toEqual([{ term: { org_id: 'org-1' } }, { term: { app_id: 'app-1' } }]);
    expect(tenantClauses(scope, { from: new Date('2024-05-01T00:00:00Z'), to: new Date('2024-06-01T00:00:00Z') })).toEqual([
      { term: { org_id: 'org-1' } },
      { term: { app_id: 'app-1' } },
      { range: { 'index_meta.time': { gte: '2024-05-01T00:00:00.000Z', lt: '2024-06-01T00:00:00.000Z' } } },
    ]);
  });
});
