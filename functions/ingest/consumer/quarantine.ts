import { CopyObjectCommand, DeleteObjectCommand, GetObjectCommand, ListObjectsV2Command, PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';

export interface QuarantinedRecord {
  readonly sequenceNumber: string;
  readonly partitionKey?: string;
  /** The record's bytes, base64: what arrived, kept whole so it can be replayed. */
  readonly data: string;
}

/**
 * Stream records (or items) that can never succeed as they are — unparseable, or refused by the
 * index for good — are written to the failed-records bucket with the reason, and not retried
 * (retrying would only block the shard). Nothing acknowledged is dropped: it waits there for replay.
 * Records that still fail after every retry land in the same bucket, under on-failure/.
 */
/** What one quarantine object holds. */
export interface QuarantineEntry {
  readonly reason: string;
  /** Per record, why (the same order as `records`), or where it came from (the poller's shard). */
  readonly detail?: unknown;
  readonly quarantined_at: string;
  readonly records: QuarantinedRecord[];
}

/** Prefixes of the failed-records bucket: quarantined at once, given up after retries, and replayed. */
export const QUARANTINE_PREFIXES = ['quarantine/', 'on-failure/'] as const;
export const REPLAYED_PREFIX = 'replayed/';

export class Quarantine {
  constructor(
    private readonly s3: S3Client,
    private readonly bucket: string,
    private readonly now: () => Date = () => new Date(),
    private readonly log: (entry: Record<string, unknown>) => void = (entry) => console.error(JSON.stringify(entry)),
  ) {}

  async put(reason: string, records: readonly QuarantinedRecord[], detail?: unknown, prefix = 'quarantine'): Promise<void> {
    if (records.length === 0) return;
    const at = this.now();
    const first = records[0]!.sequenceNumber;
    const key = `${prefix}/${at.toISOString().slice(0, 10)}/${first}-${records.length}-${at.getTime()}.json`;
    const entry: QuarantineEntry = { reason, detail, quarantined_at: at.toISOString(), records: [...records] };
    await this.s3.send(new PutObjectCommand({ Bucket: this.bucket, Key: key, Body: JSON.stringify(entry), ContentType: 'application/json' }));
    // The log says why, and where the records wait for `npm run quarantine -- replay`.
    this.log({
      level: 'warn',
      message: 'stream records quarantined',
      reason,
      records: records.length,
      bucket: this.bucket,
      key,
      detail: Array.isArray(detail) ? detail.slice(0, 5) : detail,
    });
  }

  /** Keys of quarantined objects (not yet replayed), oldest first within each prefix. */
  async list(): Promise<string[]> {
    const keys: string[] = [];
    for (const prefix of QUARANTINE_PREFIXES) {
      let token: string | undefined;
      do {
        const page = await this.s3.send(new ListObjectsV2Command({ Bucket: this.bucket, Prefix: prefix, ContinuationToken: token }));
        keys.push(...(page.Contents ?? []).map((object) => object.Key!));
        token = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (token);
    }
    return keys;
  }

  async read(key: string): Promise<QuarantineEntry> {
    const object = await this.s3.send(new GetObjectCommand({ Bucket: this.bucket, Key: key }));
    return JSON.parse(await object.Body!.transformToString('utf8')) as QuarantineEntry;
  }

  /** Moves an object under replayed/ once its records are back on the stream (kept, not deleted: replays can be checked). */
  async markReplayed(key: string): Promise<string> {
    const target = `${REPLAYED_PREFIX}${key}`;
    await this.s3.send(
      new CopyObjectCommand({ Bucket: this.bucket, Key: target, CopySource: `${this.bucket}/${encodeURIComponent(key).replace(/%2F/g, '/')}` }),
    );
    await this.s3.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key }));
    return target;
  }
}
