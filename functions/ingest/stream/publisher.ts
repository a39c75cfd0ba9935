import { PutRecordsCommand, type KinesisClient, type PutRecordsRequestEntry } from '@aws-sdk/client-kinesis';
import { ServiceUnavailableError } from '../../shared/errors';
import type { StreamEntry } from './pack-records';

/** Where the collector puts records. Kinesis on AWS and locally; an in-memory sink in the benchmark. */
export interface RecordPublisher {
  /** Resolves only once every entry is durably accepted; otherwise throws ServiceUnavailableError. */
  publish(entries: readonly StreamEntry[]): Promise<void>;
}

/** PutRecords limits: 500 records and 5 MiB per request. */
const MAX_RECORDS_PER_PUT = 500;
const MAX_BYTES_PER_PUT = 5 * 1024 * 1024;

export interface KinesisPublisherOptions {
  /** Attempts per chunk, counting the first; partial failures are retried with backoff. */
  maxAttempts?: number;
  baseDelayMs?: number;
  /** Chunks sent at once. */
  concurrency?: number;
  sleep?: (ms: number) => Promise<void>;
}

export class KinesisPublisher implements RecordPublisher {
  private readonly maxAttempts: number;
  private readonly baseDelayMs: number;
  private readonly concurrency: number;
  private readonly sleep: (ms: number) => Promise<void>;

  constructor(
    private readonly kinesis: KinesisClient,
    private readonly streamName: string,
    options: KinesisPublisherOptions = {},
  ) {
    this.maxAttempts = options.maxAttempts ?? 6;
    this.baseDelayMs = options.baseDelayMs ?? 50;
    this.concurrency = options.concurrency ?? 4;
    this.sleep = options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
  }

  async publish(entries: readonly StreamEntry[]): Promise<void> {
    const chunks = chunkEntries(entries);
    let next = 0;
    const worker = async () => {
      while (next < chunks.length) await this.putChunk(chunks[next++]!);
    };
    await Promise.all(Array.from({ length: Math.min(this.concurrency, chunks.length) }, worker));
  }

  private async putChunk(chunk: readonly StreamEntry[]): Promise<void> {
    let pending: PutRecordsRequestEntry[] = chunk.map((e) => ({ PartitionKey: e.partitionKey, Data: e.data }));
    let lastError = '';
    for (let attempt = 1; attempt <= this.maxAttempts; attempt++) {
      try {
        const result = await this.kinesis.send(new PutRecordsCommand({ StreamName: this.streamName, Records: pending }));
        if (!result.FailedRecordCount) return;
        const failed: PutRecordsRequestEntry[] = [];
        result.Records?.forEach((r, i) => {
          if (r.ErrorCode) {
            failed.push(pending[i]!);
            lastError = `${r.ErrorCode}: ${r.ErrorMessage ?? ''}`;
          }
        });
        pending = failed;
      } catch (error) {
        lastError = (error as Error).message;
      }
      if (attempt < this.maxAttempts) await this.sleep(backoff(this.baseDelayMs, attempt));
    }
    throw new ServiceUnavailableError(
      `The ingest stream did not accept ${pending.length} record(s) after ${this.maxAttempts} attempts (${lastError}); the request is not acknowledged: retry it (events carrying a transaction_id are stored once however often they are sent)`,
    );
  }
}

/** Splits entries into PutRecords requests within the record-count and byte limits. */
export function chunkEntries(entries: readonly StreamEntry[]): StreamEntry[][] {
  const chunks: StreamEntry[][] = [];
  let current: StreamEntry[] = [];
  let bytes = 0;
  for (const entry of entries) {
    const size = entry.data.length + Buffer.byteLength(entry.partitionKey);
    if (current.length > 0 && (current.length >= MAX_RECORDS_PER_PUT || bytes + size > MAX_BYTES_PER_PUT)) {
      chunks.push(current);
      current = [];
      bytes = 0;
    }
    current.push(entry);
    bytes += size;
  }
  if (current.length > 0) chunks.push(current);
  return chunks;
}

/** Exponential backoff with full jitter, capped at 2 s. */
function backoff(baseMs: number, attempt: number): number {
  return Math.random() * Math.min(2000, baseMs * 2 ** attempt);
}
