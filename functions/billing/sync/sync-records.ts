import { ProviderSync, type SyncedProvider } from '../../../schemas/billing/provider-sync';
import { appRulesPartition } from '../../resources/keys';
import type { ResourceLocation, ResourceStore, StoredDocument } from '../../resources/resource-store';

/**
 * An app's sync with a provider, stored as a managed resource of the app (`SYNC#<provider>`): what
 * the API and the console show, and what the runner resumes from. The kind's partitions are
 * registered (resource-store.ts), so the runner finds the apps with a sync without a scan.
 */

export const SYNC_PREFIX = 'SYNC';
/** A running sync whose runner has not written for this long is taken over (a crashed runner). */
export const SYNC_LEASE_MS = 2 * 60_000;

export interface SyncTenant {
  readonly orgId: string;
  readonly appId: string;
}

export const syncLocation = (tenant: SyncTenant): ResourceLocation => ({ partition: appRulesPartition(tenant.orgId, tenant.appId), prefix: SYNC_PREFIX });

export function syncOf(stored: StoredDocument): ProviderSync {
  return ProviderSync.parse(stored);
}

export async function readSync(resources: ResourceStore, tenant: SyncTenant, provider: SyncedProvider): Promise<ProviderSync | undefined> {
  const stored = await resources.find(syncLocation(tenant), provider);
  return stored && syncOf(stored);
}

const fresh = (provider: SyncedProvider, now: Date): ProviderSync => ({
  provider,
  status: 'requested',
  phase: 'products',
  cursor: null,
  counts: { products: 0, prices: 0, customers: 0, subscriptions: 0 },
  skipped: [],
  skipped_count: 0,
  requested_at: now.toISOString(),
  started_at: null,
  finished_at: null,
  next_sweep_at: null,
  error: null,
  lease_until: null,
});

/** Asks for a sync from the start; one already running is left to finish (and answered as it is). */
export async function requestSync(resources: ResourceStore, tenant: SyncTenant, provider: SyncedProvider, now: Date): Promise<ProviderSync> {
  const at = syncLocation(tenant);
  const document = { _id: provider, org_id: tenant.orgId, app_id: tenant.appId, created_at: now.toISOString(), ...fresh(provider, now) };
  if (await resources.create(at, provider, document)) return syncOf(document);
  const updated = await resources.update(at, provider, 'sync', (current) => {
    const sync = syncOf(current);
    if (sync.status === 'running' && sync.lease_until !== null && Date.parse(sync.lease_until) > now.getTime()) return current;
    return { ...current, ...fresh(provider, now) };
  });
  return syncOf(updated);
}

/** Writes the sync's new state (the runner's progress); the lease moves on with every write. */
export async function saveSync(resources: ResourceStore, tenant: SyncTenant, sync: ProviderSync): Promise<void> {
  await resources.update(syncLocation(tenant), sync.provider, 'sync', (current) => ({ ...current, ...sync }));
}

/** Whether a runner should take the sync up now: asked for, abandoned by its runner, or due for its sweep. */
export function isDue(sync: ProviderSync, now: Date): boolean {
  const at = now.getTime();
  if (sync.status === 'requested') return true;
  if (sync.status === 'running') return sync.lease_until === null || Date.parse(sync.lease_until) <= at;
  return sync.next_sweep_at !== null && Date.parse(sync.next_sweep_at) <= at;
}
