import { gunzipSync } from 'node:zlib';
import fc from 'fast-check';
import { exportRunDeps } from '../../functions/composition-root/export-services';
import type { ExportJob } from '../../functions/exports/export-jobs';
import { processExportQueue } from '../../functions/exports/export-queue';
import { runExport } from '../../functions/exports/export-runner';
import type { SearchableIndex, SearchContext } from '../../functions/search/port';
import type { SearchRequest } from '../../schemas/search-tree';
import { newResourceId } from '../../functions/resources/resource-store';
import { managementScopes } from '../../schemas/scopes';
import { apiCall, searchBackends, startTestRuntime, uuid, type TestRuntime } from './support/runtime';

/**
 * Bulk exports against the local runtime: jobs over HTTP, parts downloaded through their
 * pre-signed URLs, runners stopped between writing a part and recording it (and resumed), cancel
 * and expiry. Small parts (7 rows) so every export has several.
 */
describe.each(searchBackends())('bulk exports on $name', ({ search }) => {
  let rt: TestRuntime;
  const EVENTS = 23;
  const hour = 3_600_000;
  const sent: string[] = [];

  beforeAll(async () => {
    rt = await startTestRuntime('exports', { exportIntervalMs: 0, exportLimits: { pageSize: 3, partRows: 7 }, search: search() });
    const events = Array.from({ length: EVENTS }, (_, i) => {
      sent.push(uuid(500 + i));
      // Some share a time, so the id must break the tie; one holds CSV's special characters.
      return apiCall(
        { transaction_id: uuid(500 + i), user_id: `user-${i % 4}`, metadata: { note: i === 5 ? 'comma, "quote"\nline' : `n${i}` } },
        new Date(Date.now() - (10 + Math.floor(i / 2)) * 60_000),
      );
    });
    expect((await rt.collect('/v1/events/batch', events)).status).toBe(201);
    expect((await rt.collect('/v1/users/batch', [{ user_id: 'user-0', metadata: { plan: 'pro' } }, { user_id: 'user-1' }])).status).toBe(201);
    await rt.waitUntilConsumed();
  });
  afterAll(() => rt?.dispose());

  const post = (path: string, body: unknown, token?: string) => rt.management('POST', path, token ? { authorization: `Bearer ${token}` } : {}, body);
  const finished = async (id: string) => {
    for (let attempt = 0; attempt < 200; attempt += 1) {
      const job = await rt.management('GET', `/~/exports/${id}`);
      if (!['queued', 'running'].includes(job.body.status)) return job.body;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error(`export ${id} did not finish`);
  };
  const download = async (url: string) => {
    const response = await fetch(url);
    expect(response.status).toBe(200);
    return gunzipSync(Buffer.from(await response.arrayBuffer())).toString('utf8');
  };
  const ndjsonIds = async (parts: { url: string }[]) => {
    const ids: string[] = [];
    for (const part of parts) for (const line of (await download(part.url)).trim().split('\n')) ids.push(JSON.parse(line)._id);
    return ids;
  };

  it('exports events as gzip NDJSON parts, each row once, in time order, with progress', async () => {
    const created = await post('/~/exports', { kind: 'events', from: '-1d', to: 'now', format: 'ndjson' });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ kind: 'events', format: 'ndjson', exported: 0, parts: [] });
    const job = await finished(created.body._id);
    expect(job).toMatchObject({ status: 'completed', exported: EVENTS, estimated_total: EVENTS, progress: 1 });
    expect(job.parts.map((part: { rows: number }) => part.rows)).toEqual([7, 7, 7, 2]);
    const ids = await ndjsonIds(job.parts);
    expect([...ids].sort()).toEqual([...sent].sort());
    expect(new Set(ids).size).toBe(EVENTS);
    // Time order, then id: the order every runner pages in.
    const rows = (await Promise.all(job.parts.map((part: { url: string }) => download(part.url))))
      .join('')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    const keys = rows.map((row) => `${row._source.request.time}|${row._id}`);
    expect(keys).toEqual([...keys].sort());
    const listed = await rt.management('GET', '/~/exports');
    expect(listed.body.map((item: { _id: string }) => item._id)).toContain(created.body._id);
    expect(Date.parse(job.expires_at) - Date.parse(job.completed_at)).toBe(7 * 24 * hour);
  });

  it('exports CSV with the columns asked for, quoting what needs it, and a query narrowing the rows', async () => {
    const created = await post('/~/exports', {
      kind: 'events',
      from: '-1d',
      format: 'csv',
      fields: ['user_id', 'metadata.note'],
      query: { terms: { user_id: ['user-1'] } },
    });
    const job = await finished(created.body._id);
    expect(job.status).toBe('completed');
    const lines = (await Promise.all(job.parts.map((part: { url: string }) => download(part.url)))).join('');
    expect(lines.split('\r\n')[0]).toBe('_id,user_id,metadata.note');
    const rows = lines.split('\r\n').filter((line) => line !== '' && !line.startsWith('_id,'));
    expect(rows).toHaveLength(sent.filter((_, i) => i % 4 === 1).length);
    expect(rows.every((row) => row.split(',')[1] === 'user-1')).toBe(true);
    const quoted = await post('/~/exports', { kind: 'events', from: '-1d', format: 'csv', fields: ['metadata.note'], query: { term: { _id: uuid(505) } } });
    const text = await download((await finished(quoted.body._id)).parts[0].url);
    expect(text).toBe(`_id,metadata.note\r\n${uuid(505)},"comma, ""quote""\nline"\r\n`);
  });

  it('exports users, which needs read:users as well', async () => {
    const job = await finished((await post('/~/exports', { kind: 'users' })).body._id);
    expect(job.status).toBe('completed');
    const ids = await ndjsonIds(job.parts);
    expect(ids.sort()).toEqual(['user-0', 'user-1']);
    const token = await rt.issueToken({ scopes: managementScopes.filter((scope) => scope !== 'read:users') });
    const refused = await post('/~/exports', { kind: 'users' }, token);
    expect(refused.status).toBe(401);
    expect(refused.body.error.message).toContain('read:users');
  });

  it('refuses bad jobs with a 400 naming the member, and stores none', async () => {
    const before = (await rt.management('GET', '/~/exports?take=1000')).body.length;
    const cases: [unknown, string][] = [
      [{ format: 'ndjson' }, 'kind'],
      [{ kind: 'events', format: 'parquet' }, 'format'],
      [{ kind: 'events', fields: ['a'] }, 'fields'],
      [{ kind: 'users', from: '-1d' }, 'from'],
      [{ kind: 'events', query: { script: { source: '1' } } }, 'query.script'],
      [{ kind: 'events', query: { range: { virtual_event_types: { gte: 'a' } } } }, 'query.range.virtual_event_types'],
      [{ kind: 'events', from: 'yesterday-ish' }, 'from'],
      [{ kind: 'events', colour: 'red' }, 'colour'],
    ];
    for (const [body, field] of cases) {
      const answer = await post('/~/exports', body);
      expect(answer.status).toBe(400);
      expect(answer.body.error.details.map((detail: { field: string }) => detail.field)).toContain(field);
    }
    expect((await rt.management('GET', '/~/exports?take=1000')).body.length).toBe(before);
  });

  /** A job stored directly (no HTTP, so the worker is not started for it), run by the test. */
  const storedJob = async (): Promise<ExportJob> => {
    const now = new Date().toISOString();
    const job: ExportJob = {
      _id: newResourceId(),
      org_id: rt.credentials.org_id,
      app_id: rt.credentials.app_id,
      kind: 'events',
      format: 'ndjson',
      status: 'queued',
      from: new Date(Date.now() - 24 * hour).toISOString(),
      to: now,
      time_zone: 'UTC',
      query: null,
      fields: null,
      exported: 0,
      estimated_total: null,
      parts: [],
      cursor: null,
      lease_until: null,
      created_at: now,
      modified_at: now,
      completed_at: null,
      expires_at: null,
    };
    expect(await rt.stores.exportJobs.create(job)).toBe(true);
    return job;
  };

  it('resumes after a runner stops between writing a part and recording it: no row lost or written twice', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 8 }),
        fc.integer({ min: 1, max: 4 }),
        fc.integer({ min: 1, max: 24 }),
        async (partRows, pageSize, crashPick) => {
          const crashAt = Math.min(crashPick, Math.ceil(EVENTS / partRows));
          const job = await storedJob();
          const ref = { orgId: job.org_id, appId: job.app_id, id: job._id };
          let clock = 0;
          const deps = { ...exportRunDeps(rt.stores, rt.index), now: () => new Date(Date.now() + clock) };
          const crash = new Error('killed');
          await expect(
            runExport(deps, ref, {
              partRows,
              pageSize,
              afterPartWritten: (number) => {
                if (number === crashAt) throw crash;
              },
            }),
          ).rejects.toBe(crash);
          // Another runner cannot take the job while the first one's lease lasts; after it, it carries on.
          expect(await runExport(deps, ref, { partRows, pageSize })).toBe('taken');
          clock += 3 * 60_000;
          expect(await runExport(deps, ref, { partRows, pageSize })).toBe('completed');
          const answer = await rt.management('GET', `/~/exports/${job._id}`);
          expect(answer.body.status).toBe('completed');
          const ids = await ndjsonIds(answer.body.parts);
          expect(ids).toHaveLength(EVENTS);
          expect(new Set(ids).size).toBe(EVENTS);
          expect(answer.body.parts.map((part: { number: number }) => part.number)).toEqual(answer.body.parts.map((_: unknown, i: number) => i + 1));
        },
      ),
      { numRuns: 8 },
    );
  });

  it('stops a page query that runs past the deadline and pauses; the next runner goes on from the recorded cursor', async () => {
    const job = await storedJob();
    const ref = { orgId: job.org_id, appId: job.app_id, id: job._id };
    let clock = 0;
    let pages = 0;
    // The third page hangs until its signal stops it, as a slow query would.
    const slowIndex: SearchableIndex = Object.create(rt.index, {
      search: {
        value: async (context: SearchContext, request: SearchRequest) => {
          pages += 1;
          if (pages !== 3) return rt.index.search(context, request);
          return new Promise((_resolve, reject) => context.signal?.addEventListener('abort', () => reject(context.signal?.reason as Error)));
        },
      },
    });
    const deps = { ...exportRunDeps(rt.stores, slowIndex), now: () => new Date(Date.now() + clock) };
    // Two pages fit well before the deadline; the third hangs until its signal stops it, 300 ms after it.
    const outcome = await runExport(deps, ref, { partRows: 2, pageSize: 2, deadline: Date.now() + 1_500, pageGraceMs: 300 });
    expect(outcome).toBe('paused');
    expect((await rt.management('GET', `/~/exports/${job._id}`)).body.parts).toHaveLength(2);
    clock += 3 * 60_000;
    expect(await runExport(deps, ref, { partRows: 2, pageSize: 2 })).toBe('completed');
    const answer = await rt.management('GET', `/~/exports/${job._id}`);
    const ids = await ndjsonIds(answer.body.parts);
    expect(ids).toHaveLength(EVENTS);
    expect(new Set(ids).size).toBe(EVENTS);
  });

  it('cancels a running export and deletes its parts, also one written after the cancel', async () => {
    const job = await storedJob();
    const ref = { orgId: job.org_id, appId: job.app_id, id: job._id };
    const deps = exportRunDeps(rt.stores, rt.index);
    let partUrl = '';
    const outcome = await runExport(deps, ref, {
      partRows: 5,
      afterPartWritten: async (number) => {
        if (number !== 2) return;
        const before = await rt.management('GET', `/~/exports/${job._id}`);
        partUrl = before.body.parts[0].url;
        expect((await fetch(partUrl)).status).toBe(200);
        const cancelled = await post(`/~/exports/${job._id}/cancel`, {});
        expect(cancelled.body).toMatchObject({ status: 'cancelled', parts: [] });
      },
    });
    expect(outcome).toBe('cancelled');
    expect((await fetch(partUrl)).status).not.toBe(200);
    const listing = await rt.clients.s3.send(
      new (await import('@aws-sdk/client-s3')).ListObjectsV2Command({
        Bucket: rt.names.buckets.exports,
        Prefix: `exports/${ref.orgId}/${ref.appId}/${ref.id}/`,
      }),
    );
    expect(listing.Contents ?? []).toEqual([]);
  });

  it("deletes a completed export's parts when its retention ends, and shows it expired", async () => {
    const job = await finished((await post('/~/exports', { kind: 'events', from: '-1d' })).body._id);
    const url = job.parts[0].url;
    const later = { ...exportRunDeps(rt.stores, rt.index), now: () => new Date(Date.now() + 8 * 24 * hour) };
    const summary = await processExportQueue(later);
    expect(summary.errors).toEqual([]);
    expect(summary.cleared).toBeGreaterThanOrEqual(1);
    const answer = await rt.management('GET', `/~/exports/${job._id}`);
    expect(answer.body).toMatchObject({ status: 'expired', parts: [] });
    expect((await fetch(url)).status).not.toBe(200);
  });
});
