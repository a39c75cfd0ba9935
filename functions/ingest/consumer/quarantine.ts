import { PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';

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
export class Quarantine {
  constructor(private readonly s3: S3Client, private readonly bucket: string, private readonly now: () => Date = () => new Date()) {}

  async put(reason: string, records: readonly QuarantinedRecord[], detail?: unknown, prefix = 'quarantine'): Promise<void> {
    if (records.length === 0) return;
    const at = this.now();
    const first = records[0]!.sequenceNumber;
    await this.s3.send(new PutObjectCommand({
      Bucket: this.bucket,
      Key: `${prefix}/${at.toISOString().slice(0, 10)}/${first}-${records.length}.json`,
      Body: JSON.stringify({ reason, detail, quarantined_at: at.toISOString(), records }),
      ContentType: 'application/json',
    }));
  }
}
