import * as z from 'zod';

/** GET /~/ingest/backlog: what the collector has acknowledged and the consumer not yet finished. */
export const IngestBacklog = z.object({
  /** Whether this deployment measures its backlog (the local runtime does, from its journal). */
  measured: z.boolean(),
  /** Stream records acknowledged (each up to 500 events) and not yet consumed; null when not measured. */
  records: z.number().int().min(0).nullable(),
  /** How long ago the oldest of them was acknowledged; null when there is none or it is not measured. */
  oldest_age_ms: z.number().int().min(0).nullable(),
  /** Past this age the collector answers 503 with Retry-After instead of accepting more; null when unbounded. */
  limit_ms: z.number().int().min(0).nullable(),
  /** Whether the collector accepts records now. */
  accepting: z.boolean(),
  /** What the figures mean here, in words. */
  note: z.string(),
});
export type IngestBacklog = z.infer<typeof IngestBacklog>;
