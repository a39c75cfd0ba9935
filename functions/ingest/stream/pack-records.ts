import { randomUUID } from 'node:crypto';
import type { RecordKind, StreamItem } from '../../../schemas/stream-record';
import { encodeRecord } from './record-encoding';

/** One Kinesis record to put: its partition key and its bytes (a serialized StreamRecord, see record-encoding.ts). */
export interface StreamEntry {
  readonly partitionKey: string;
  readonly data: Buffer;
}

/** Kinesis caps a record at 1 MiB including the partition key; records stay under it even uncompressed. */
export const MAX_RECORD_BYTES = 1_000_000 + 40_000;
/** Events per packed record: bounds the work a consumer retry repeats. */
export const MAX_EVENTS_PER_RECORD = 500;

const PROFILE_KINDS = new Set<RecordKind>(['user', 'company', 'subscription']);

/**
 * Packs normalised items into stream records. API calls and actions share records (up to
 * MAX_EVENTS_PER_RECORD and MAX_RECORD_BYTES): far fewer records than events, which is what Kinesis
 * bills and throttles by. Profiles go one to a record with the profile as partition key, so the
 * updates of one profile stay in order on one shard.
 *
 * Items are serialized once and spliced into the envelope as text (no second stringify). Sizes are
 * tracked in characters (a lower bound of UTF-8 bytes) and checked exactly once per record, where a
 * record that multi-byte text pushed over the cap is split.
 */
export function packStreamEntries(scope: { org_id: string; app_id: string }, kind: RecordKind, items: readonly StreamItem[]): StreamEntry[] {
  // record_id comes first and has a fixed length, so sizes can be reckoned before it is drawn.
  const rest = `,"org_id":${JSON.stringify(scope.org_id)},"app_id":${JSON.stringify(scope.app_id)},"kind":${JSON.stringify(kind)},"items":[`;
  const head = () => `{"v":1,"record_id":"${randomUUID()}"${rest}`;
  const headLength = head().length;
  const tail = ']}';
  const entries: StreamEntry[] = [];

  if (PROFILE_KINDS.has(kind)) {
    for (const item of items) {
      entries.push({ partitionKey: `${scope.app_id}:${kind}:${item.id}`.slice(0, 256), data: encodeRecord(head() + JSON.stringify(item) + tail) });
    }
    return entries;
  }

  const emit = (parts: string[], ids: string[]) => {
    const json = head() + parts.join(',') + tail;
    if (parts.length > 1 && Buffer.byteLength(json, 'utf8') > MAX_RECORD_BYTES) {
      const half = parts.length >> 1;
      emit(parts.slice(0, half), ids.slice(0, half));
      emit(parts.slice(half), ids.slice(half));
      return;
    }
    entries.push({ partitionKey: `${scope.app_id}:${ids[0]}`.slice(0, 256), data: encodeRecord(json) });
  };

  let parts: string[] = [];
  let ids: string[] = [];
  let chars = headLength + tail.length;
  for (const item of items) {
    const text = JSON.stringify(item);
    if (parts.length > 0 && (parts.length >= MAX_EVENTS_PER_RECORD || chars + text.length + 1 > MAX_RECORD_BYTES)) {
      emit(parts, ids);
      parts = [];
      ids = [];
      chars = headLength + tail.length;
    }
    parts.push(text);
    ids.push(item.id);
    chars += text.length + 1;
  }
  if (parts.length > 0) emit(parts, ids);
  return entries;
}
