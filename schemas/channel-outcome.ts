import * as z from 'zod';

/** Where one notification stands on one channel (functions/notifications/channel-outcomes.ts). */
export const ChannelStatus = z.enum(['pending', 'sending', 'sent', 'retrying', 'failed', 'unconfirmed']);
export type ChannelStatus = z.infer<typeof ChannelStatus>;

export const ChannelOutcome = z.object({
  status: ChannelStatus,
  attempts: z.number().int(),
  error: z.string().optional(),
  updated_at: z.string(),
});
export type ChannelOutcome = z.infer<typeof ChannelOutcome>;
