import { createHash } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import type { RecordKind, StreamItem } from '../../../schemas/stream-record';
import { mapWithConcurrency } from '../../shared/concurrency';

export interface ArchiveEntry {
  readonly org_id: string;
  readonly app_id: string;
  readonly kind: RecordKind;
  readonly item: StreamItem;
}

/**
 * The raw archive, the basis of bulk export: accepted items as gzip NDJSON, one object per
 * (kind, org, app, UTC date of the item's time) per consumer batch:
 *   <events|actions|users|companies|subscriptions>/org=<org>/app=<app>/date=<yyyy-mm-dd>/<content id>.ndjson.gz
 * The object name is a hash of the item ids it holds, so a retried batch rewrites the same object
 * instead of adding a copy.
 */
const FOLDER: Record<RecordKind, string> = { event: 'events', action: 'actions', user: 'users', company: 'companies', subscription: 'subscriptions' };

export class Archive {
  constructor(
    private readonly s3: S3Client,
    private readonly bucket: string,
  ) {}

  async write(entries: readonly ArchiveEntry[]): Promise<void> {
    const groups = new Map<string, ArchiveEntry[]>();
    for (const entry of entries) {
      const prefix = `${FOLDER[entry.kind]}/org=${entry.org_id}/app=${entry.app_id}/date=${entry.item.time.slice(0, 10)}`;
      const group = groups.get(prefix);
      if (group) group.push(entry);
      else groups.set(prefix, [entry]);
    }
    await mapWithConcurrency([...groups], 8, async ([prefix, group]) => {
      const ids = createHash('sha256');
      for (const e of group) ids.update(e.item.id).update('\n');
      const lines = `${group.map((e) => JSON.stringify({ kind: e.kind, org_id: e.org_id, app_id: e.app_id, ...e.item })).join('\n')}\n`;
      await this.s3.send(
        new PutObjectCommand({
          Bucket: this.bucket,
          Key: `${prefix}/${ids.digest('hex').slice(0, 32)}.ndjson.gz`,
          Body: gzipSync(lines),
          ContentType: 'application/x-ndjson',
          ContentEncoding: 'gzip',
        }),
      );
    });
  }
}
