import * as z from 'zod';

/**
 * A virtual event type (a tag): a name for the events an events query selects. Searches see it as
 * the field `virtual_event_types`, evaluated when they run, so a new type applies to past events.
 */

/** What a type's name may be: it is a bucket key and a term value, so no control characters. */
const Name = z
  .string()
  .min(1)
  .max(128)
  .regex(/^[^\u0000-\u001f\u007f]+$/, 'must not contain control characters');

/** `criteria`: an events query (`{"bool": …}`) or a search body holding one (`{"query": …}`). */
const Criteria = z.record(z.string(), z.unknown());

export const VirtualEventTypeCreate = z.strictObject({
  name: Name,
  criteria: Criteria,
  description: z.string().max(4096).optional(),
});
export type VirtualEventTypeCreate = z.infer<typeof VirtualEventTypeCreate>;

export const VirtualEventTypeUpdate = VirtualEventTypeCreate.partial();
export type VirtualEventTypeUpdate = z.infer<typeof VirtualEventTypeUpdate>;
