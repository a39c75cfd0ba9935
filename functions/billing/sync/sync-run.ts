import { SYNC_PHASES, type ProviderSync, type SyncedProvider } from '../../../schemas/billing/provider-sync';
import { appOfPartition } from '../../resources/keys';
import type { ResourceStore } from '../../resources/resource-store';
import { RecordWriter, type ProfileWriter } from './record-writer';
import type { ProviderReader } from './provider-reader';
import { isDue, saveSync, SYNC_LEASE_MS, SYNC_PREFIX, syncOf, syncLocation, type SyncTenant } from './sync-records';

/**
 * The sync run: an app's provider read page by page in SYNC_PHASES order, each page written before
 * the sync's cursor moves past it, so a sync stopped anywhere (a Lambda's time out, a crash, a
 * provider that keeps failing) resumes where it stopped. Catalog records are written only when they
 * changed; companies and subscriptions take the collector's path (the ingest stream), whose merge
 * makes a record read twice harmless. Once complete, the sweep reads everything again after
 * SWEEP_INTERVAL_MS, repairing what changed since (and what a missed webhook would have said).
 */

export const SWEEP_INTERVAL_MS = 6 * 3_600_000;
/** A failed sync is tried again after this long (the provider down, a key revoked and replaced). */
export const RETRY_AFTER_FAILURE_MS = 15 * 60_000;
const MAX_SKIPPED_SHOWN = 50;

export interface SyncRunDeps {
  readonly resources: ResourceStore;
  /** The app's reader of its provider's account; undefined when the app has no connection to it. */
  readonly readerOf: (tenant: SyncTenant, provider: SyncedProvider) => ProviderReader | undefined;
  /** Writes companies or subscriptions as the collector does (validated, to the ingest stream). */
  readonly writeProfiles: ProfileWriter;
  readonly now: () => Date;
}

export interface SyncRunSummary {
  readonly synced: number;
  readonly failed: number;
}

/** Runs every due sync of every app, until the time budget is spent (what is left resumes next time). */
export async function runDueSyncs(deps: SyncRunDeps, budgetMs: number): Promise<SyncRunSummary> {
  const deadline = Date.now() + budgetMs;
  let synced = 0;
  let failed = 0;
  for (const partition of await deps.resources.partitionsHolding(SYNC_PREFIX)) {
    const tenant = appOfPartition(partition);
    if (!tenant) continue;
    const page = await deps.resources.list(syncLocation(tenant), { take: 10 });
    for (const { document } of page.items) {
      if (Date.now() >= deadline) return { synced, failed };
      const sync = syncOf(document);
      if (!isDue(sync, deps.now())) continue;
      const outcome = await runSync(deps, tenant, sync, deadline);
      if (outcome === 'completed') synced += 1;
      if (outcome === 'failed') failed += 1;
    }
  }
  return { synced, failed };
}

/** One app's sync, from where it stands, until done or the deadline; what it ended as. */
export async function runSync(deps: SyncRunDeps, tenant: SyncTenant, found: ProviderSync, deadline: number): Promise<ProviderSync['status']> {
  const reader = deps.readerOf(tenant, found.provider);
  const started = deps.now();
  const leaseUntil = () => new Date(deps.now().getTime() + SYNC_LEASE_MS).toISOString();
  // A requested sync or a sweep starts over; an abandoned one goes on from its cursor.
  const resumed = found.status === 'running';
  let sync: ProviderSync = resumed
    ? { ...found, lease_until: leaseUntil() }
    : {
        ...found,
        status: 'running',
        phase: 'products',
        cursor: null,
        counts: { products: 0, prices: 0, customers: 0, subscriptions: 0 },
        skipped: [],
        skipped_count: 0,
        started_at: started.toISOString(),
        finished_at: null,
        error: null,
        lease_until: leaseUntil(),
      };
  if (!reader) {
    await saveSync(deps.resources, tenant, finished(sync, deps.now(), `The app has no ${sync.provider} connection (billing providers secret)`));
    return 'failed';
  }
  await saveSync(deps.resources, tenant, sync);
  const writer = new RecordWriter(deps.resources, deps.writeProfiles, tenant, deps.now, reader.records);
  try {
    for (let phase = SYNC_PHASES.indexOf(sync.phase); phase < SYNC_PHASES.length; phase += 1) {
      const kind = SYNC_PHASES[phase]!;
      let cursor = kind === sync.phase ? sync.cursor : null;
      for (;;) {
        if (Date.now() >= deadline) {
          await saveSync(deps.resources, tenant, sync);
          return 'running';
        }
        const page = await reader.page(kind, cursor);
        const skipped = await writer.write(kind, page.objects);
        cursor = page.next;
        // A kind read to its end is saved as the next kind from its start, so a resumed sync does not read it again.
        const done = cursor === null && phase + 1 < SYNC_PHASES.length;
        sync = {
          ...sync,
          phase: done ? SYNC_PHASES[phase + 1]! : kind,
          cursor,
          counts: { ...sync.counts, [kind]: sync.counts[kind] + page.objects.length - skipped.length },
          skipped: [...sync.skipped, ...skipped].slice(0, MAX_SKIPPED_SHOWN),
          skipped_count: sync.skipped_count + skipped.length,
          lease_until: leaseUntil(),
        };
        await saveSync(deps.resources, tenant, sync);
        if (cursor === null) break;
      }
    }
    await saveSync(deps.resources, tenant, finished(sync, deps.now()));
    return 'completed';
  } catch (error) {
    await saveSync(deps.resources, tenant, finished(sync, deps.now(), error instanceof Error ? error.message : String(error)));
    return 'failed';
  }
}

function finished(sync: ProviderSync, now: Date, error?: string): ProviderSync {
  return {
    ...sync,
    status: error === undefined ? 'completed' : 'failed',
    finished_at: now.toISOString(),
    next_sweep_at: new Date(now.getTime() + (error === undefined ? SWEEP_INTERVAL_MS : RETRY_AFTER_FAILURE_MS)).toISOString(),
    error: error ?? null,
    lease_until: null,
  };
}
