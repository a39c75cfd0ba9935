import * as z from 'zod';
import { fitsIdLimit, MAX_ID_BYTES } from './collector';

/**
 * What the collector puts on the ingest stream and the consumer reads: one Kinesis record.
 * API calls and actions are packed many to a record (fewer records, cheaper and faster);
 * profiles travel one to a record, partitioned by profile, so updates of one profile keep order.
 */
export const RecordKind = z.enum(['event', 'action', 'user', 'company', 'subscription']);
export type RecordKind = z.infer<typeof RecordKind>;

export const StreamItem = z.object({
  /** Event id (the transaction_id, or one the collector generated) or the profile's id: the collector's id limit, checked again where records are read. */
  id: z.string().min(1).refine(fitsIdLimit, `must be at most ${MAX_ID_BYTES} bytes (UTF-8)`),
  /** Event time (request.time) or, for profiles, the time the collector received it; ISO 8601 UTC. */
  time: z.string(),
  received_at: z.string(),
  /** Events only: older than the late threshold (5 minutes) when received. */
  late: z.boolean().optional(),
  /** The normalised payload: the validated input plus what the collector filled in. */
  data: z.record(z.string(), z.unknown()),
});
export type StreamItem = z.infer<typeof StreamItem>;

export const StreamRecord = z.object({
  v: z.literal(1),
  /**
   * Unique per record, set by the collector. Dedup claims are owned by it: a retry or a replay of the
   * same record finishes its own claims, while the same transaction id in any other record is a duplicate.
   */
  record_id: z.string().min(1),
  org_id: z.string().min(1),
  app_id: z.string().min(1),
  kind: RecordKind,
  items: z.array(StreamItem).min(1),
});
export type StreamRecord = z.infer<typeof StreamRecord>;
