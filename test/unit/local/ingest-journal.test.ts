import { appendFile, mkdtemp, readdir, rm, truncate, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { IngestJournal, SEGMENT_ROLL_BYTES } from '../../../bin/local/ingest-journal';
import type { StreamEntry } from '../../../functions/ingest/stream/pack-records';
import { ServiceUnavailableError } from '../../../functions/shared/errors';

const entry = (n: number, size = 40): StreamEntry => ({ partitionKey: `app:${n}`, data: Buffer.from(`{"record_id":"${n}"}`.padEnd(size, ' ')) });

describe('the local ingest journal', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'journal-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('gives back, after a crash, every appended entry not marked done, in append order', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.tuple(fc.integer({ min: 1, max: 8 }), fc.boolean()), { maxLength: 12 }), async (steps) => {
        const sub = await mkdtemp(join(dir, 'p-'));
        const { journal } = await IngestJournal.open(sub);
        let n = 0;
        const expected: StreamEntry[] = [];
        for (const [count, finish] of steps) {
          const batch = Array.from({ length: count }, () => entry(n++));
          await journal.append(batch);
          if (finish) await journal.markDone(batch.map((e) => e.data));
          else expected.push(...batch);
        }
        // No close(): the process is gone.
        const { journal: reopened, unfinished } = await IngestJournal.open(sub);
        expect(unfinished.map((e) => [e.partitionKey, e.data.toString()])).toEqual(expected.map((e) => [e.partitionKey, e.data.toString()]));
        expect(reopened.openEntries).toBe(expected.length);
        await Promise.all([journal.close(), reopened.close()]);
      }),
      { numRuns: 25 },
    );
  });

  it('ignores a torn last frame (a kill in the middle of a write that was never acknowledged)', async () => {
    const { journal } = await IngestJournal.open(dir);
    await journal.append([entry(1), entry(2)]);
    const [log] = (await readdir(dir)).filter((name) => name.endsWith('.log'));
    const path = join(dir, log!);
    const whole = (await stat(path)).size;
    await journal.append([entry(3)]);
    await truncate(path, whole + 10);
    const reopened = await IngestJournal.open(dir);
    expect(reopened.unfinished.map((e) => e.partitionKey)).toEqual(['app:1', 'app:2']);
    await Promise.all([journal.close(), reopened.journal.close()]);
  });

  it('stops at a corrupt frame instead of replaying garbage', async () => {
    const { journal } = await IngestJournal.open(dir);
    await journal.append([entry(1)]);
    const [log] = (await readdir(dir)).filter((name) => name.endsWith('.log'));
    await appendFile(join(dir, log!), Buffer.from([0, 0, 0, 4, 1, 2, 3, 4, 0, 0, 9, 9]));
    const reopened = await IngestJournal.open(dir);
    expect(reopened.unfinished.map((e) => e.partitionKey)).toEqual(['app:1']);
    await Promise.all([journal.close(), reopened.journal.close()]);
  });

  it('keeps one segment of what is still open on reopening, and deletes full segments once all their entries are done', async () => {
    const { journal } = await IngestJournal.open(dir);
    const big = Array.from({ length: 5 }, (_, i) => entry(i, SEGMENT_ROLL_BYTES / 4));
    await journal.append(big);
    await journal.append([entry(99)]);
    expect((await readdir(dir)).filter((name) => name.endsWith('.log'))).toHaveLength(2);
    await journal.markDone(big.map((e) => e.data));
    expect((await readdir(dir)).filter((name) => name.endsWith('.log'))).toHaveLength(1);
    await journal.close();
    const { unfinished, journal: reopened } = await IngestJournal.open(dir);
    expect(unfinished.map((e) => e.partitionKey)).toEqual(['app:99']);
    expect((await readdir(dir)).sort()).toEqual(['segment-000003.done', 'segment-000003.log']);
    await reopened.close();
  });

  it('answers 503 (retry) when the journal cannot be written, and puts nothing on the stream', async () => {
    const { journal } = await IngestJournal.open(dir);
    await journal.close();
    const published: StreamEntry[] = [];
    // Closed files: every append fails, as on a failing disk.
    const publish = journal.publisherOver({ publish: async (entries) => void published.push(...entries) }).publish([entry(1)]);
    await expect(publish).rejects.toBeInstanceOf(ServiceUnavailableError);
    expect(published).toEqual([]);
  });

  it('marks entries done when the stream refuses them, so a request that was answered with an error is not replayed', async () => {
    const { journal } = await IngestJournal.open(dir);
    const refusing = journal.publisherOver({
      publish: async () => {
        throw new Error('stream down');
      },
    });
    await expect(refusing.publish([entry(1)])).rejects.toThrow('stream down');
    const accepting = journal.publisherOver({ publish: async () => {} });
    await accepting.publish([entry(2)]);
    const reopened = await IngestJournal.open(dir);
    expect(reopened.unfinished.map((e) => e.partitionKey)).toEqual(['app:2']);
    await Promise.all([journal.close(), reopened.journal.close()]);
  });
});
