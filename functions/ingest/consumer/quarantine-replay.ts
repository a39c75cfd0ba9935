import type { StreamEntry } from '../stream/pack-records';
import type { RecordPublisher } from '../stream/publisher';
import type { Quarantine } from './quarantine';

/**
 * Puts the records of one quarantine object back on the ingest stream, as they were (whole records,
 * or single items in their original record's id, so events finish their own dedup claims), then
 * moves the object under replayed/. Replaying twice is harmless: the consumer is idempotent.
 */
export async function replayQuarantined(quarantine: Quarantine, publisher: RecordPublisher, key: string): Promise<{ records: number; movedTo: string }> {
  const entry = await quarantine.read(key);
  const records: StreamEntry[] = entry.records.map((record) => ({
    partitionKey: record.partitionKey || record.sequenceNumber,
    data: Buffer.from(record.data, 'base64'),
  }));
  await publisher.publish(records);
  return { records: records.length, movedTo: await quarantine.markReplayed(key) };
}
