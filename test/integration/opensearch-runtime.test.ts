import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { promisify } from 'node:util';
import { apiCall, startTestRuntime, uuid, type TestRuntime } from './support/runtime';
import { freePort, processesMentioning, startService, waitForProbe } from './support/service-process';

/**
 * The local runtime on OpenSearch, as the Lambdas run on AWS: the pipeline indexes into the real
 * OpenSearch 2.19 node of the test run, and search, funnels, retention, deletions by query, bulk
 * export and `npm run smoke` read it through the OpenSearch adapter.
 */
describe('the service on OpenSearch', () => {
  let rt: TestRuntime;
  const hour = 3_600_000;
  const at = (hoursAgo: number) => new Date(Date.now() - hoursAgo * hour);

  beforeAll(async () => {
    rt = await startTestRuntime('opensearch-runtime', {
      search: { backend: 'opensearch', endpoint: process.env.OPENSEARCH_URL!, indexPrefix: `rt-${randomUUID().slice(0, 8)}-` },
      exportIntervalMs: 0,
      exportLimits: { pageSize: 2, partRows: 3 },
    });
    const events = [
      apiCall(
        {
          transaction_id: uuid(1),
          user_id: 'alice',
          company_id: 'acme',
          request: { time: at(5).toISOString(), uri: 'https://api.example.com/signup', verb: 'POST', headers: {} },
          response: { time: at(5).toISOString(), status: 201, headers: {} },
        },
        at(5),
      ),
      apiCall(
        {
          transaction_id: uuid(2),
          user_id: 'alice',
          company_id: 'acme',
          request: { time: at(4).toISOString(), uri: 'https://api.example.com/orders?page=1', verb: 'GET', headers: {} },
          response: { time: at(4).toISOString(), status: 200, headers: {} },
        },
        at(4),
      ),
      apiCall(
        {
          transaction_id: uuid(3),
          user_id: 'bob',
          company_id: 'globex',
          request: { time: at(3).toISOString(), uri: 'https://api.example.com/signup', verb: 'POST', headers: {} },
          response: { time: at(3).toISOString(), status: 201, headers: {} },
        },
        at(3),
      ),
      apiCall(
        { transaction_id: uuid(4), user_id: 'bob', company_id: 'globex', weight: 5, response: { time: at(2).toISOString(), status: 500, headers: {} } },
        at(2),
      ),
      apiCall({ transaction_id: uuid(5), user_id: 'carol', response: { time: at(1).toISOString(), status: 404, headers: {} } }, at(1)),
    ];
    expect((await rt.collect('/v1/events/batch', events)).status).toBe(201);
    expect(
      (
        await rt.collect('/v1/users/batch', [
          { user_id: 'alice', metadata: { email: 'alice@acme.com' } },
          { user_id: 'bob', metadata: { email: 'bob@globex.com' } },
          { user_id: 'carol' },
        ])
      ).status,
    ).toBe(201);
    await rt.waitUntilConsumed();
  });
  afterAll(() => rt?.dispose());

  const post = (path: string, body: unknown) => rt.management('POST', path, {}, body);

  it('searches and counts events, with aggregations, in the from/to window', async () => {
    const res = await post('/search/~/search/events?from=-1d&to=now', {
      size: 2,
      sort: [{ 'request.time': 'desc' }],
      aggs: {
        by_status: { terms: { field: 'response.status' } },
        weight: { sum: { field: 'weight', missing: 1 } },
        routes: { terms: { field: 'request.route.raw' } },
      },
    });
    expect(res.status).toBe(200);
    expect(res.body.hits.total).toBe(5);
    expect(res.body.hits.hits.map((hit: { _id: string }) => hit._id)).toEqual([uuid(5), uuid(4)]);
    expect(res.body.aggregations.by_status.buckets).toEqual([
      { key: 201, doc_count: 2 },
      { key: 200, doc_count: 1 },
      { key: 404, doc_count: 1 },
      { key: 500, doc_count: 1 },
    ]);
    expect(res.body.aggregations.weight.value).toBe(9);
    expect((await post('/search/~/count/events?from=-1d&to=now', { query: { wildcard: { 'request.uri.raw': '*sign?p' } } })).body).toEqual({ count: 2 });
    expect((await rt.management('GET', `/search/~/events/${uuid(3)}`)).body._source.user_id).toBe('bob');
  });

  it('answers funnels and retention from the same events', async () => {
    const funnel = await post('/search/~/funnels/events?from=-1d&to=now', {
      steps: [{ query: { term: { 'request.route.raw': '/signup' } } }, { query: { term: { 'request.verb': 'GET' } } }],
      conversion_window: '1d',
    });
    expect(funnel.status).toBe(200);
    expect(funnel.body).toMatchObject({ by: 'user_id', exact: true });
    // Bob's later call is a GET too (apiCall's default).
    expect(funnel.body.steps.map((step: { entered: number }) => step.entered)).toEqual([2, 2]);
    const retention = await post('/search/~/retention/events?from=-1d&to=now', {
      first_event: { term: { 'request.verb': 'POST' } },
      return_event: { match_all: {} },
      interval: 'day',
      periods: 1,
    });
    expect(retention.status).toBe(200);
    expect(retention.body.cohorts.reduce((sum: number, cohort: { size: number }) => sum + cohort.size, 0)).toBe(2);
  });

  it('deletes a user with their events (a delete-by-query task) and follows it to the end', async () => {
    const deleted = await rt.management('DELETE', '/search/~/users/carol?delete_events=true');
    expect(deleted.status).toBe(200);
    expect(deleted.body).toMatchObject({ user_id: 'carol', deleted: true });
    let status = deleted.body.events_deletion;
    for (let attempt = 0; attempt < 100 && status.status === 'running'; attempt += 1) {
      await new Promise((done) => setTimeout(done, 100));
      status = (await rt.management('GET', status.url)).body;
    }
    expect(status).toMatchObject({ status: 'completed', deleted: 1 });
    await rt.index.refresh();
    expect((await post('/search/~/count/events?from=-1d&to=now', { query: { term: { 'user_id.raw': 'carol' } } })).body).toEqual({ count: 0 });
  });

  it('exports the events in parts through the OpenSearch pages, each once', async () => {
    const created = await post('/~/exports', { kind: 'events', from: '-1d', to: 'now', format: 'ndjson' });
    expect(created.status).toBe(201);
    let job = created.body;
    for (let attempt = 0; attempt < 200 && ['queued', 'running'].includes(job.status); attempt += 1) {
      await new Promise((done) => setTimeout(done, 50));
      job = (await rt.management('GET', `/~/exports/${job._id}`)).body;
    }
    expect(job.status).toBe('completed');
    const ids: string[] = [];
    for (const part of job.parts as { url: string }[]) {
      const text = gunzipSync(Buffer.from(await (await fetch(part.url)).arrayBuffer())).toString('utf8');
      for (const line of text.trim().split('\n')) ids.push(JSON.parse(line)._id);
    }
    expect(ids.sort()).toEqual([uuid(1), uuid(2), uuid(3), uuid(4)]);
  });

  it('passes npm run smoke', async () => {
    const result = await promisify(execFile)(process.execPath, ['--import', 'tsx', 'bin/smoke.ts', '--data-dir', rt.dataDir], {
      cwd: resolve(__dirname, '../..'),
      encoding: 'utf8',
    });
    expect(result.stdout).toMatch(/^ok: event .* searchable after \d+ ms/);
  });
});

describe('SEARCH_BACKEND=opensearch npm start', () => {
  it('starts its own OpenSearch node in DATA_DIR, passes npm run smoke, and stops the node with itself', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'uab-os-start-'));
    const collectorPort = await freePort();
    const managementPort = await freePort();
    try {
      const service = startService(dataDir, collectorPort, managementPort, {
        SEARCH_BACKEND: 'opensearch',
        BILLING_INTERVAL_MS: '0',
        EMAIL_INTERVAL_MS: '0',
        QUIET: '0',
      });
      await waitForProbe(`http://127.0.0.1:${collectorPort}`, service, 180_000);
      expect(service.output()).toMatch(/searching in OpenSearch \(http:\/\/127\.0\.0\.1:\d+, a local node\)/);
      const result = await promisify(execFile)(process.execPath, ['--import', 'tsx', 'bin/smoke.ts', '--data-dir', dataDir], {
        cwd: resolve(__dirname, '../..'),
        encoding: 'utf8',
      });
      expect(result.stdout).toMatch(/^ok: event .* searchable after \d+ ms/);
      service.child.kill('SIGTERM');
      expect(await service.exited).toBe(0);
      // The node went with the service.
      expect(processesMentioning(dataDir)).toEqual([]);
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 300_000);
});
