import * as z from 'zod';

/**
 * A billing provider's catalog, customers and subscriptions brought into the service (sync in):
 * the state of an app's sync with one provider, as the API and the console show it.
 */

/** Providers whose records can be synced in (the others report usage only, for now). */
export const SyncedProvider = z.enum(['stripe', 'chargebee', 'recurly', 'zuora']);
export type SyncedProvider = z.infer<typeof SyncedProvider>;

/** What is read, in this order: subscriptions need their prices and customers to be known. */
export const SYNC_PHASES = ['products', 'prices', 'customers', 'subscriptions'] as const;
export const SyncPhase = z.enum(SYNC_PHASES);
export type SyncPhase = z.infer<typeof SyncPhase>;

export const SyncStatus = z.enum(['requested', 'running', 'completed', 'failed']);
export type SyncStatus = z.infer<typeof SyncStatus>;

const Count = z.number().int().nonnegative();
const Instant = z.string().meta({ format: 'date-time' });

/** Where a record of ours came from: edits to it are refused, its provider is the source of truth. */
export const SyncedFrom = z.object({
  provider: SyncedProvider,
  /** The provider's object type and id (`price`, `price_1Nx…`). */
  object: z.string(),
  id: z.string(),
  synced_at: Instant,
});
export type SyncedFrom = z.infer<typeof SyncedFrom>;

export const ProviderSync = z.object({
  provider: SyncedProvider,
  status: SyncStatus,
  /** The kind of record being read, while running; the last one read otherwise. */
  phase: SyncPhase,
  /** Where the phase's next page starts (the provider's own cursor: Stripe's last id read, Chargebee's offset): a resumed sync continues there. */
  cursor: z.string().nullable(),
  /** Records brought in by this sync, per kind. */
  counts: z.object({ products: Count, prices: Count, customers: Count, subscriptions: Count }),
  /** Records left out, with why (at most the first 50). */
  skipped: z.array(z.object({ object: z.string(), id: z.string(), reason: z.string() })),
  skipped_count: Count,
  requested_at: Instant,
  started_at: Instant.nullable(),
  finished_at: Instant.nullable(),
  /** When the sweep reads everything again (repairing what was missed), once completed. */
  next_sweep_at: Instant.nullable(),
  error: z.string().nullable(),
  /** The runner holding the sync until then (a crashed runner's sync is taken over after it). */
  lease_until: Instant.nullable(),
});
export type ProviderSync = z.infer<typeof ProviderSync>;
