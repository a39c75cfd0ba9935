import { gunzipSync } from 'node:zlib';
import { GetObjectCommand, ListObjectsV2Command } from '@aws-sdk/client-s3';
import { PutRecordsCommand } from '@aws-sdk/client-kinesis';
import { ProfileStore } from '../../functions/profiles/profile-store';
import { S3ProfileDocumentOverflow } from '../../functions/profiles/profile-overflow';
import { decorateIndex } from '../../functions/search/index-decorator';
import type { IndexDocument, SearchableIndex } from '../../functions/search/port';
import { apiCall, startTestRuntime, uuid, type TestRuntime } from './support/runtime';

const ids = { A: uuid(1), B: uuid(2), C: uuid(3), D: uuid(4) };

async function listKeys(rt: TestRuntime, bucket: string, prefix: string): Promise<string[]> {
  const page = await rt.clients.s3.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix }));
  return (page.Contents ?? []).map((o) => o.Key!);
}

async function readObject(rt: TestRuntime, bucket: string, key: string): Promise<Buffer> {
  const object = await rt.clients.s3.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
  return Buffer.from(await object.Body!.transformToByteArray());
}

describe('ingest pipeline: exactly once, nothing lost', () => {
  describe('deduplication (the spec example)', () => {
    let rt: TestRuntime;
    beforeAll(async () => {
      rt = await startTestRuntime('dedup');
    });
    afterAll(() => rt?.dispose());

    it('batches {A,B}, {C}, {A,C,D} leave exactly A, B, C, D', async () => {
      expect((await rt.collect('/v1/events/batch', [apiCall({ transaction_id: ids.A }), apiCall({ transaction_id: ids.B })])).status).toBe(201);
      expect((await rt.collect('/v1/events/batch', [apiCall({ transaction_id: ids.C })])).status).toBe(201);
      expect(
        (await rt.collect('/v1/events/batch', [apiCall({ transaction_id: ids.A }), apiCall({ transaction_id: ids.C }), apiCall({ transaction_id: ids.D })]))
          .status,
      ).toBe(201);
      await rt.waitUntilConsumed();
      expect(await rt.countEvents()).toBe(4);
      for (const id of Object.values(ids)) expect((await rt.management('GET', `/search/~/events/${id}`)).status).toBe(200);
    });

    it('a duplicate with a different time does not create a second copy in another period', async () => {
      const e = uuid(10);
      await rt.collect('/v1/events', apiCall({ transaction_id: e }, new Date(Date.now() - 60_000)));
      await rt.waitUntilConsumed();
      await rt.collect('/v1/events', apiCall({ transaction_id: e }, new Date(Date.now() - 20 * 86_400_000)));
      await rt.waitUntilConsumed();
      expect(await rt.countEvents()).toBe(5);
    });

    it('the same event twice in one batch is stored once', async () => {
      await rt.collect('/v1/events/batch', [apiCall({ transaction_id: uuid(11) }), apiCall({ transaction_id: uuid(11) })]);
      await rt.waitUntilConsumed();
      expect(await rt.countEvents()).toBe(6);
    });

    it('events without a transaction_id are each stored once', async () => {
      await rt.collect(
        '/v1/events/batch',
        Array.from({ length: 20 }, () => apiCall()),
      );
      await rt.waitUntilConsumed();
      expect(await rt.countEvents()).toBe(26);
    });

    it('archives accepted events to S3 as gzip NDJSON by app and date, without duplicates', async () => {
      const keys = await listKeys(rt, rt.names.buckets.archive, `events/org=${rt.credentials.org_id}/app=${rt.credentials.app_id}/`);
      expect(keys.length).toBeGreaterThan(0);
      expect(keys.every((k) => /\/date=\d{4}-\d{2}-\d{2}\/[0-9a-f]{32}\.ndjson\.gz$/.test(k))).toBe(true);
      const lines = (await Promise.all(keys.map((k) => readObject(rt, rt.names.buckets.archive, k))))
        .flatMap((buf) => gunzipSync(buf).toString('utf8').trim().split('\n'))
        .map((l) => JSON.parse(l));
      const archivedIds = lines.map((l) => l.id);
      expect(new Set(archivedIds).size).toBe(archivedIds.length);
      expect(archivedIds).toEqual(expect.arrayContaining(Object.values(ids)));
      expect(lines[0]).toMatchObject({ kind: 'event', org_id: rt.credentials.org_id, app_id: rt.credentials.app_id });
    });
  });

  describe('a consumer failure mid-batch', () => {
    let rt: TestRuntime;
    let failuresLeft = 0;
    let throwsLeft = 0;
    // Every method delegates to the real index; only index() misbehaves on demand.
    const wrap = (inner: SearchableIndex): SearchableIndex =>
      decorateIndex(inner, {
        async index(documents: readonly IndexDocument[]) {
          if (throwsLeft > 0) {
            throwsLeft--;
            throw new Error('injected: index unavailable');
          }
          if (failuresLeft > 0) {
            // Write half, report the other half as a retryable failure (a 429 from the index).
            failuresLeft--;
            const half = Math.ceil(documents.length / 2);
            const outcome = await inner.index(documents.slice(0, half));
            return {
              written: outcome.written,
              failures: documents.slice(half).map((d) => ({ kind: d.kind, id: d.id, reason: 'injected 429', retryable: true })),
            };
          }
          return inner.index(documents);
        },
      });

    beforeAll(async () => {
      rt = await startTestRuntime('failures', { wrapSearchIndex: wrap });
    });
    afterAll(() => rt?.dispose());

    it('retries partial index failures without loss or duplicates', async () => {
      failuresLeft = 2;
      const batch = Array.from({ length: 40 }, (_, i) => apiCall({ transaction_id: uuid(1000 + i) }));
      expect((await rt.collect('/v1/events/batch', batch)).status).toBe(201);
      await rt.waitUntilConsumed();
      expect(failuresLeft).toBe(0);
      expect(await rt.countEvents()).toBe(40);
    });

    it('retries a consumer that throws (bisecting), without loss or duplicates', async () => {
      throwsLeft = 3;
      for (let r = 0; r < 4; r++) {
        expect(
          (
            await rt.collect(
              '/v1/events/batch',
              Array.from({ length: 10 }, (_, i) => apiCall({ transaction_id: uuid(2000 + r * 10 + i) })),
            )
          ).status,
        ).toBe(201);
      }
      await rt.waitUntilConsumed();
      expect(throwsLeft).toBe(0);
      expect(await rt.countEvents()).toBe(80);
      const failed = await listKeys(rt, rt.names.buckets.failedRecords, 'on-failure/');
      expect(failed).toEqual([]);
    });

    it('re-sending the same events after failures still stores each once', async () => {
      failuresLeft = 1;
      await rt.collect(
        '/v1/events/batch',
        Array.from({ length: 40 }, (_, i) => apiCall({ transaction_id: uuid(1000 + i) })),
      );
      await rt.waitUntilConsumed();
      expect(await rt.countEvents()).toBe(80);
    });
  });

  describe('replaying a record', () => {
    let rt: TestRuntime;
    beforeAll(async () => {
      rt = await startTestRuntime('replay');
    });
    afterAll(() => rt?.dispose());

    it('a replay of the same record (same record_id) stores its events once; a client resend is a duplicate', async () => {
      const record = (recordId: string, eventIds: string[]) => ({
        PartitionKey: recordId,
        Data: Buffer.from(
          JSON.stringify({
            v: 1,
            record_id: recordId,
            org_id: rt.credentials.org_id,
            app_id: rt.credentials.app_id,
            kind: 'event',
            items: eventIds.map((id) => {
              // One instant for the record's time and the call's request.time: the consumer refuses an event whose two differ.
              const at = new Date();
              return { id, time: at.toISOString(), received_at: at.toISOString(), data: { ...apiCall({}, at), transaction_id: id } };
            }),
          }),
        ),
      });
      const original = record('rec-1', [uuid(1), uuid(2)]);
      await rt.clients.kinesis.send(new PutRecordsCommand({ StreamName: rt.names.stream, Records: [original] }));
      await rt.waitUntilConsumed();
      // Replayed from the failed-records bucket (same bytes), then the client sends event 2 again with a new one.
      await rt.clients.kinesis.send(new PutRecordsCommand({ StreamName: rt.names.stream, Records: [original, record('rec-2', [uuid(2), uuid(3)])] }));
      await rt.waitUntilConsumed();
      expect(await rt.countEvents()).toBe(3);
    });
  });

  describe('records that can never succeed', () => {
    let rt: TestRuntime;
    beforeAll(async () => {
      rt = await startTestRuntime('poison');
    });
    afterAll(() => rt?.dispose());

    it('quarantines an unparseable record with its payload and keeps consuming', async () => {
      await rt.clients.kinesis.send(
        new PutRecordsCommand({ StreamName: rt.names.stream, Records: [{ PartitionKey: 'p', Data: Buffer.from('this is not a stream record') }] }),
      );
      await rt.collect('/v1/events', apiCall({ transaction_id: uuid(1) }));
      await rt.waitUntilConsumed();
      expect(await rt.countEvents()).toBe(1);
      const keys = await listKeys(rt, rt.names.buckets.failedRecords, 'quarantine/');
      expect(keys).toHaveLength(1);
      const saved = JSON.parse((await readObject(rt, rt.names.buckets.failedRecords, keys[0]!)).toString('utf8'));
      expect(saved.reason).toBe('unparseable stream record');
      expect(Buffer.from(saved.records[0].data, 'base64').toString('utf8')).toBe('this is not a stream record');
    });
  });

  describe('profiles under concurrent updates', () => {
    let rt: TestRuntime;
    beforeAll(async () => {
      rt = await startTestRuntime('profiles');
    });
    afterAll(() => rt?.dispose());

    it('merges 30 concurrent updates of one user without losing a field', async () => {
      const responses = await Promise.all(Array.from({ length: 30 }, (_, i) => rt.collect('/v1/users', { user_id: 'busy', metadata: { [`field_${i}`]: i } })));
      expect(responses.every((r) => r.status === 201)).toBe(true);
      await rt.waitUntilConsumed();
      const user = await rt.management('GET', '/search/~/users/busy');
      expect(Object.keys(user.body._source.metadata).sort()).toEqual(Array.from({ length: 30 }, (_, i) => `field_${i}`).sort());
    });

    it('the profile store never loses a field when writers race on one profile', async () => {
      const store = new ProfileStore(
        rt.clients.documents,
        rt.names.tables.profiles,
        new S3ProfileDocumentOverflow(rt.clients.s3, rt.names.buckets.profileDocuments),
        { maxAttempts: 50 },
      );
      const at = new Date().toISOString();
      await Promise.all(
        Array.from({ length: 20 }, (_, i) => store.merge(rt.credentials.org_id, rt.credentials.app_id, 'user', 'raced', { metadata: { [`k${i}`]: i } }, at)),
      );
      const stored = await store.get(rt.credentials.org_id, rt.credentials.app_id, 'user', 'raced');
      expect(stored?.version).toBe(20);
      expect(Object.keys(stored!.document.metadata as object)).toHaveLength(20);
    });

    it('applies later updates of one field over earlier ones', async () => {
      for (const plan of ['free', 'pro', 'enterprise']) await rt.collect('/v1/companies', { company_id: 'acme', metadata: { plan } });
      await rt.waitUntilConsumed();
      expect((await rt.management('GET', '/search/~/companies/acme')).body._source.metadata.plan).toBe('enterprise');
    });
  });
});
