import type { PlanInput, PriceInput } from '../../../schemas/billing/catalog';
import type { SyncedProvider, SyncPhase } from '../../../schemas/billing/provider-sync';

/**
 * What the sync reads of a provider's account, whichever provider: its lists a page at a time (each
 * page saying where the next starts), one object as it is now (what a webhook names), and how its
 * objects become the service's records. Each provider has its own (stripe-pages.ts, chargebee-pages.ts).
 */

/** A record we cannot represent, and why (shown with the sync). */
export interface Skipped {
  readonly skipped: string;
}

export interface ProviderPage {
  readonly objects: readonly unknown[];
  /** Where the next page starts (the provider's own cursor); null after the last page. */
  readonly next: string | null;
}

/** The provider's objects as the service's records; every record names where it came from (`synced_from`). */
export interface RecordMapping {
  readonly provider: SyncedProvider;
  /** What the provider calls each kind (`synced_from.object`, and the records left out). */
  readonly objectNames: Readonly<Record<SyncPhase, string>>;
  readonly idOf: (object: unknown) => string;
  readonly plan: (object: unknown) => PlanInput | Skipped;
  readonly price: (object: unknown) => PriceInput | Skipped;
  readonly company: (object: unknown, at: Date) => Record<string, unknown> | Skipped;
  readonly subscription: (object: unknown, at: Date) => Record<string, unknown> | Skipped;
}

export interface ProviderReader {
  readonly provider: SyncedProvider;
  readonly page: (phase: SyncPhase, cursor: string | null) => Promise<ProviderPage>;
  /** One object as the provider holds it now; undefined when it is gone. */
  readonly one: (phase: SyncPhase, id: string) => Promise<unknown>;
  readonly records: RecordMapping;
}

export const isSkipped = (record: unknown): record is Skipped => typeof record === 'object' && record !== null && 'skipped' in record;

/** Where a record came from: edits to it are refused, its provider is the source of truth. */
export const syncedFrom = (provider: SyncedProvider, object: string, id: string, at: Date) => ({ provider, object, id, synced_at: at.toISOString() });
