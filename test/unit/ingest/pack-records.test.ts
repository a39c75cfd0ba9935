import { MAX_EVENTS_PER_RECORD, MAX_RECORD_BYTES, packStreamEntries } from '../../../functions/ingest/stream/pack-records';
import { chunkEntries } from '../../../functions/ingest/stream/publisher';
import { decodeRecord, encodeRecord } from '../../../functions/ingest/stream/record-encoding';
import { StreamRecord, type StreamItem } from '../../../schemas/stream-record';

const scope = { org_id: 'org1', app_id: 'app1' };
const item = (id: string, extra: Record<string, unknown> = {}): StreamItem => ({
  id,
  time: '2026-11-22T00:00:00.000Z',
  received_at: '2026-11-22T00:00:01.000Z',
  data: { id, ...extra },
});

describe('packStreamEntries', () => {
  it('packs events many to a record, as valid StreamRecords that keep every item in order', () => {
    const items = Array.from({ length: 1200 }, (_, i) => item(`e${i}`));
    const entries = packStreamEntries(scope, 'event', items);
    expect(entries).toHaveLength(Math.ceil(1200 / MAX_EVENTS_PER_RECORD));
    const decoded = entries.map((e) => StreamRecord.parse(JSON.parse(decodeRecord(e.data))));
    expect(decoded.flatMap((r) => r.items)).toEqual(items);
    expect(decoded.every((r) => r.org_id === 'org1' && r.app_id === 'app1' && r.kind === 'event')).toBe(true);
  });

  it("gives every record its own record_id (the owner of its events' dedup claims)", () => {
    const entries = packStreamEntries(
      scope,
      'event',
      Array.from({ length: 1500 }, (_, i) => item(`e${i}`)),
    );
    const recordIds = entries.map((e) => StreamRecord.parse(JSON.parse(decodeRecord(e.data))).record_id);
    expect(new Set(recordIds).size).toBe(entries.length);
    for (const id of recordIds) expect(id).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('keeps every record under the Kinesis record size limit', () => {
    const big = 'x'.repeat(300_000);
    const entries = packStreamEntries(
      scope,
      'event',
      Array.from({ length: 10 }, (_, i) => item(`e${i}`, { body: big })),
    );
    expect(entries.length).toBeGreaterThanOrEqual(4);
    for (const e of entries) expect(Buffer.byteLength(decodeRecord(e.data))).toBeLessThanOrEqual(MAX_RECORD_BYTES);
  });

  it('measures multi-byte text by bytes, not characters', () => {
    const wide = '€'.repeat(150_000); // 450 KB of UTF-8
    const entries = packStreamEntries(
      scope,
      'action',
      Array.from({ length: 4 }, (_, i) => item(`a${i}`, { note: wide })),
    );
    for (const e of entries) expect(Buffer.byteLength(decodeRecord(e.data))).toBeLessThanOrEqual(MAX_RECORD_BYTES);
  });

  it('sends profiles one to a record, partitioned by the profile', () => {
    const entries = packStreamEntries(scope, 'user', [item('u1'), item('u2'), item('u1')]);
    expect(entries.map((e) => e.partitionKey)).toEqual(['app1:user:u1', 'app1:user:u2', 'app1:user:u1']);
  });
});

describe('record encoding', () => {
  it('gzips records of 1 KB or more and leaves small ones as plain JSON; both decode', () => {
    const small = JSON.stringify({ a: 1 });
    const large = JSON.stringify({ a: 'x'.repeat(5000) });
    expect(encodeRecord(small).toString('utf8')).toBe(small);
    expect(encodeRecord(large)[0]).toBe(0x1f);
    expect(encodeRecord(large).length).toBeLessThan(large.length / 10);
    expect(decodeRecord(encodeRecord(small))).toBe(small);
    expect(decodeRecord(encodeRecord(large))).toBe(large);
  });
});

describe('chunkEntries', () => {
  it('keeps PutRecords requests within 500 records', () => {
    const entries = Array.from({ length: 1234 }, (_, i) => ({ partitionKey: `k${i}`, data: Buffer.from('{}') }));
    expect(chunkEntries(entries).map((c) => c.length)).toEqual([500, 500, 234]);
  });

  it('keeps PutRecords requests within 5 MiB', () => {
    const entries = Array.from({ length: 12 }, (_, i) => ({ partitionKey: `k${i}`, data: Buffer.alloc(1_000_000) }));
    const chunks = chunkEntries(entries);
    for (const chunk of chunks) expect(chunk.reduce((n, e) => n + e.data.length + e.partitionKey.length, 0)).toBeLessThanOrEqual(5 * 1024 * 1024);
    expect(chunks.flat()).toHaveLength(12);
  });
});
