import * as z from 'zod';

/** One HTTP attempt, as billing reports list them (`provider_requests[]`). */
export const ProviderRequestRecord = z.object({
  /** The report's idempotency key (with a `:lookup` / `:oauth` suffix for helper calls). */
  job_id: z.string(),
  request_time: z.string(),
  success: z.boolean(),
  /** The provider's HTTP status; 0 when no response came (timeout, connection error). */
  status_code: z.number().int(),
  error_code: z.string().nullable(),
  error_message: z.string().nullable(),
});
export type ProviderRequestRecord = z.infer<typeof ProviderRequestRecord>;
