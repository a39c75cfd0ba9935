import { createHash } from 'node:crypto';
import { mkdir, open, readdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';
import type { StreamEntry } from '../../functions/ingest/stream/pack-records';
import type { RecordPublisher } from '../../functions/ingest/stream/publisher';
import { BACKLOG_RETRY_AFTER_SECONDS, pastLimit, type IngestBacklogProbe } from '../../functions/ingest/backlog/ingest-backlog';
import { ServiceUnavailableError } from '../../functions/shared/errors';
import { DurableAppendFile } from './durable-append-file';

/**
 * The local collector's write-ahead journal: what makes a 201 from `npm start` survive `kill -9`.
 *
 * kinesis-local keeps its stream in memory (its snapshots lag by up to a second), so every stream
 * entry is first appended here and synced to disk, and only then put on the stream and acknowledged.
 * When the consumer has finished a record (stored, or kept in the failed-records bucket) the poller
 * marks it done. On the next start, whatever the journal holds that is not marked done is put on the
 * (fresh) stream again. The consumer is idempotent (events are claimed by id, profile merges are
 * versioned), so an entry consumed just before a crash and replayed after it is counted once.
 *
 * Layout under `dir`: `segment-<n>.log` holds entries, `segment-<n>.done` the ids of its entries that
 * need no replay (consumed, or refused by the stream and never acknowledged). A segment is deleted
 * once it is full and all its entries are done. An entry's id is a hash of its bytes (every record
 * carries a unique record_id, so equal bytes are the same record).
 *
 * Frame of an entry: u32 payload length, u32 CRC-32 of the payload, payload = u16 partition-key
 * length, partition key (UTF-8), record bytes. A torn frame at the end of a file (a kill mid-write)
 * fails its length or CRC check and ends the read: it was never acknowledged.
 */
export const SEGMENT_ROLL_BYTES = 64 * 1024 * 1024;
const ID_BYTES = 20;

interface Segment {
  readonly number: number;
  readonly log: DurableAppendFile;
  readonly done: DurableAppendFile;
  /** Ids of entries appended here and not yet done. */
  readonly pending: Set<string>;
}

export interface OpenedJournal {
  readonly journal: IngestJournal;
  /** Entries that were journaled by an earlier run and never marked done, in the order they were appended. */
  readonly unfinished: StreamEntry[];
}

export class IngestJournal {
  /** Open entries, their segment and when they were journaled, in that order (a Map keeps it): the first is the oldest. */
  private readonly open = new Map<string, { readonly segment: Segment; readonly at: number }>();
  private readonly oldSegments = new Set<Segment>();
  private rolling: Promise<void> | undefined;

  private constructor(
    private readonly dir: string,
    private current: Segment,
  ) {}

  /**
   * Opens the journal in `dir`: reads every segment, keeps the entries not done in one fresh segment
   * (written and synced before the old files are removed, so a crash here loses nothing either) and
   * returns them for replay.
   */
  static async open(dir: string): Promise<OpenedJournal> {
    await mkdir(dir, { recursive: true });
    const numbers = await segmentNumbers(dir);
    const done = new Set<string>();
    const entries = new Map<string, StreamEntry>();
    for (const number of numbers) {
      for (const id of await readDoneIds(segmentPath(dir, number, 'done'))) done.add(id);
      for (const entry of await readEntries(segmentPath(dir, number, 'log'))) entries.set(entryId(entry.data), entry);
    }
    const unfinished = [...entries].filter(([id]) => !done.has(id));
    const next = (numbers.at(-1) ?? 0) + 1;
    const current = await openSegment(dir, next);
    const journal = new IngestJournal(dir, current);
    if (unfinished.length > 0) await current.log.append(unfinished.map(([, entry]) => frame(entry)));
    for (const [id] of unfinished) journal.track(id, current);
    await syncDirectory(dir);
    await Promise.all(
      numbers.flatMap((number) => [rm(segmentPath(dir, number, 'log'), { force: true }), rm(segmentPath(dir, number, 'done'), { force: true })]),
    );
    return { journal, unfinished: unfinished.map(([, entry]) => entry) };
  }

  /** Entries journaled and not yet done (tests and the shutdown log read it). */
  get openEntries(): number {
    return this.open.size;
  }

  /** How long ago the oldest open entry was journaled (an entry replayed at start counts from then). */
  oldestOpenAgeMs(now = Date.now()): number | null {
    const first = this.open.values().next();
    return first.done ? null : Math.max(0, now - first.value.at);
  }

  /** The backlog as the management API shows it, bounded by `limitMs`. */
  backlogProbe(limitMs: number): IngestBacklogProbe {
    return { backlog: () => ({ records: this.openEntries, oldestAgeMs: this.oldestOpenAgeMs(), limitMs }) };
  }

  /**
   * A publisher that journals first (synced to disk), then publishes through `stream`. Entries the
   * stream refuses are marked done before the error goes back to the client, which was not
   * acknowledged and will send them again.
   */
  publisherOver(stream: RecordPublisher, backlogLimitMs = Infinity): RecordPublisher {
    const probe = this.backlogProbe(backlogLimitMs);
    return {
      publish: async (entries) => {
        // Past the limit nothing more is taken: SDKs retry after Retry-After, and what was acknowledged drains.
        const backlog = probe.backlog();
        if (pastLimit(backlog)) {
          throw new ServiceUnavailableError(
            `The ingest backlog's oldest record has waited ${Math.round((backlog.oldestAgeMs ?? 0) / 1000)} s (limit ${Math.round(backlogLimitMs / 1000)} s); nothing was acknowledged: retry after ${BACKLOG_RETRY_AFTER_SECONDS} s`,
            [{ field: 'ingest_backlog', reason: `${backlog.records} records not yet consumed` }],
            { 'retry-after': String(BACKLOG_RETRY_AFTER_SECONDS) },
          );
        }
        try {
          await this.append(entries);
        } catch (error) {
          // A full or failing disk: nothing is acknowledged, and the client is told to retry (503, not 500).
          throw new ServiceUnavailableError(`The local ingest journal could not be written (${(error as Error).message}); nothing was acknowledged: retry`);
        }
        try {
          await stream.publish(entries);
        } catch (error) {
          await this.markDone(entries.map((entry) => entry.data));
          throw error;
        }
      },
    };
  }

  async append(entries: readonly StreamEntry[]): Promise<void> {
    if (entries.length === 0) return;
    await this.rolling;
    const segment = this.current;
    await segment.log.append(entries.map(frame));
    for (const entry of entries) this.track(entryId(entry.data), segment);
    if (segment.log.size >= SEGMENT_ROLL_BYTES && this.current === segment) this.rolling ??= this.roll();
  }

  /** Marks records done (consumed, or never acknowledged); a full segment whose records are all done is deleted. */
  async markDone(records: readonly Uint8Array[]): Promise<void> {
    const bySegment = new Map<Segment, Buffer[]>();
    for (const data of records) {
      const id = entryId(data);
      const segment = this.open.get(id)?.segment;
      if (!segment) continue;
      const ids = bySegment.get(segment);
      if (ids) ids.push(Buffer.from(id, 'base64'));
      else bySegment.set(segment, [Buffer.from(id, 'base64')]);
    }
    await Promise.all(
      [...bySegment].map(async ([segment, ids]) => {
        await segment.done.append(ids);
        for (const id of ids) {
          const key = id.toString('base64');
          segment.pending.delete(key);
          this.open.delete(key);
        }
        if (segment.pending.size === 0 && this.oldSegments.has(segment)) await this.remove(segment);
      }),
    );
  }

  async close(): Promise<void> {
    await this.rolling;
    const segments = [this.current, ...this.oldSegments];
    await Promise.all(segments.flatMap((segment) => [segment.log.close(), segment.done.close()]));
  }

  private track(id: string, segment: Segment): void {
    segment.pending.add(id);
    this.open.set(id, { segment, at: this.open.get(id)?.at ?? Date.now() });
  }

  private async roll(): Promise<void> {
    const previous = this.current;
    this.current = await openSegment(this.dir, previous.number + 1);
    await syncDirectory(this.dir);
    this.rolling = undefined;
    if (previous.pending.size === 0) await this.remove(previous);
    else this.oldSegments.add(previous);
  }

  private async remove(segment: Segment): Promise<void> {
    this.oldSegments.delete(segment);
    await Promise.all([segment.log.close(), segment.done.close()]);
    await Promise.all([rm(segmentPath(this.dir, segment.number, 'log'), { force: true }), rm(segmentPath(this.dir, segment.number, 'done'), { force: true })]);
  }
}

/** The id of a record: a hash of its bytes, base64. */
export function entryId(data: Uint8Array): string {
  return createHash('sha1').update(data).digest('base64');
}

function frame(entry: StreamEntry): Buffer {
  const key = Buffer.from(entry.partitionKey, 'utf8');
  const payload = Buffer.allocUnsafe(2 + key.length + entry.data.length);
  payload.writeUInt16BE(key.length, 0);
  key.copy(payload, 2);
  Buffer.from(entry.data.buffer, entry.data.byteOffset, entry.data.length).copy(payload, 2 + key.length);
  const header = Buffer.allocUnsafe(8);
  header.writeUInt32BE(payload.length, 0);
  header.writeUInt32BE(crc32(payload), 4);
  return Buffer.concat([header, payload]);
}

/** The whole frames of a segment file, in order; reading stops at the first torn or corrupt frame. */
async function readEntries(path: string): Promise<StreamEntry[]> {
  const bytes = await readFile(path).catch(() => Buffer.alloc(0));
  const entries: StreamEntry[] = [];
  for (let at = 0; at + 8 <= bytes.length; ) {
    const length = bytes.readUInt32BE(at);
    const end = at + 8 + length;
    if (length < 2 || end > bytes.length) break;
    const payload = bytes.subarray(at + 8, end);
    if (crc32(payload) !== bytes.readUInt32BE(at + 4)) break;
    const keyLength = payload.readUInt16BE(0);
    if (2 + keyLength > payload.length) break;
    entries.push({ partitionKey: payload.toString('utf8', 2, 2 + keyLength), data: Buffer.from(payload.subarray(2 + keyLength)) });
    at = end;
  }
  return entries;
}

/** Ids in a done file; a torn last id (shorter than a whole one) is ignored, which only means one more replay. */
async function readDoneIds(path: string): Promise<string[]> {
  const bytes = await readFile(path).catch(() => Buffer.alloc(0));
  const ids: string[] = [];
  for (let at = 0; at + ID_BYTES <= bytes.length; at += ID_BYTES) ids.push(bytes.toString('base64', at, at + ID_BYTES));
  return ids;
}

async function segmentNumbers(dir: string): Promise<number[]> {
  const names = await readdir(dir).catch(() => [] as string[]);
  const numbers = new Set<number>();
  for (const name of names) {
    const match = /^segment-(\d+)\.(log|done)$/.exec(name);
    if (match) numbers.add(Number(match[1]));
  }
  return [...numbers].sort((a, b) => a - b);
}

function segmentPath(dir: string, number: number, kind: 'log' | 'done'): string {
  return join(dir, `segment-${String(number).padStart(6, '0')}.${kind}`);
}

async function openSegment(dir: string, number: number): Promise<Segment> {
  const [log, done] = await Promise.all([DurableAppendFile.open(segmentPath(dir, number, 'log')), DurableAppendFile.open(segmentPath(dir, number, 'done'))]);
  return { number, log, done, pending: new Set() };
}

/** New files survive a power cut only once their directory entry is synced too. */
async function syncDirectory(dir: string): Promise<void> {
  const handle = await open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}
