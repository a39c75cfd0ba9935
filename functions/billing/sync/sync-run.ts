import type Stripe from 'stripe';
import { SYNC_PHASES, type ProviderSync, type SyncPhase } from '../../../schemas/billing/provider-sync';
import { appOfPartition, PLAN_PREFIX, PRICE_PREFIX, appRulesPartition } from '../../resources/keys';
import type { ResourceLocation, ResourceStore, StoredDocument } from '../../resources/resource-store';
import { NotFoundError } from '../../shared/errors';
import type { StripePageReader } from './stripe-pages';
import { companyOfCustomer, planOfProduct, priceOfStripe, subscriptionOfStripe, syncedFrom, type Skipped } from './stripe-records';
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
  /** The app's reader of its provider's lists; undefined when the app has no connection to it. */
  readonly pagesOf: (tenant: SyncTenant) => StripePageReader | undefined;
  /** Writes companies or subscriptions as the collector does (validated, to the ingest stream). */
  readonly writeProfiles: (tenant: SyncTenant, kind: 'company' | 'subscription', records: readonly Record<string, unknown>[]) => Promise<void>;
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
  const pages = deps.pagesOf(tenant);
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
  if (!pages) {
    await saveSync(deps.resources, tenant, finished(sync, deps.now(), `The app has no ${sync.provider} connection (billing providers secret)`));
    return 'failed';
  }
  await saveSync(deps.resources, tenant, sync);
  const writer = new RecordWriter(deps, tenant);
  try {
    for (let phase = SYNC_PHASES.indexOf(sync.phase); phase < SYNC_PHASES.length; phase += 1) {
      const kind = SYNC_PHASES[phase]!;
      let cursor = kind === sync.phase ? sync.cursor : null;
      for (;;) {
        if (Date.now() >= deadline) {
          await saveSync(deps.resources, tenant, sync);
          return 'running';
        }
        const page = await pages(kind, cursor);
        const skipped = await writer.write(kind, page.objects);
        const last = page.objects.at(-1) as { id?: string } | undefined;
        cursor = last?.id ?? cursor;
        sync = {
          ...sync,
          phase: kind,
          cursor,
          counts: { ...sync.counts, [kind]: sync.counts[kind] + page.objects.length - skipped.length },
          skipped: [...sync.skipped, ...skipped].slice(0, MAX_SKIPPED_SHOWN),
          skipped_count: sync.skipped_count + skipped.length,
          lease_until: leaseUntil(),
        };
        await saveSync(deps.resources, tenant, sync);
        if (!page.hasMore || !last?.id) break;
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

type SkippedRecord = ProviderSync['skipped'][number];

/** Writes one page of one kind; answers the records left out. */
class RecordWriter {
  private readonly at: (prefix: string) => ResourceLocation;

  constructor(
    private readonly deps: SyncRunDeps,
    private readonly tenant: SyncTenant,
  ) {
    this.at = (prefix) => ({ partition: appRulesPartition(tenant.orgId, tenant.appId), prefix });
  }

  async write(phase: SyncPhase, objects: readonly unknown[]): Promise<SkippedRecord[]> {
    const now = this.deps.now();
    const skipped: SkippedRecord[] = [];
    const keep = <T>(object: string, id: string, record: T | Skipped): record is T => {
      if (typeof record === 'object' && record !== null && 'skipped' in record) {
        skipped.push({ object, id, reason: (record as Skipped).skipped });
        return false;
      }
      return true;
    };
    switch (phase) {
      case 'products':
        for (const product of objects as Stripe.Product[])
          await this.upsert(PLAN_PREFIX, 'plan', product.id, planOfProduct(product), syncedFrom('product', product.id, now));
        break;
      case 'prices':
        for (const price of objects as Stripe.Price[]) {
          const record = priceOfStripe(price);
          if (!keep('price', price.id, record)) continue;
          if (!(await this.planExists(record.plan_id))) {
            skipped.push({ object: 'price', id: price.id, reason: `its product ${record.plan_id} was not read (deleted at the provider?)` });
            continue;
          }
          await this.upsert(PRICE_PREFIX, 'price', price.id, record, syncedFrom('price', price.id, now));
        }
        break;
      case 'customers':
        if (objects.length > 0)
          await this.deps.writeProfiles(
            this.tenant,
            'company',
            (objects as Stripe.Customer[]).map((customer) => companyOfCustomer(customer, now)),
          );
        break;
      case 'subscriptions': {
        const records = (objects as Stripe.Subscription[]).map((subscription) => [subscription.id, subscriptionOfStripe(subscription, now)] as const);
        const kept = records.filter(([id, record]) => keep('subscription', id, record)).map(([, record]) => record as Record<string, unknown>);
        if (kept.length > 0) await this.deps.writeProfiles(this.tenant, 'subscription', kept);
        break;
      }
    }
    return skipped;
  }

  private readonly plans = new Map<string, Promise<boolean>>();

  private planExists(planId: string): Promise<boolean> {
    let known = this.plans.get(planId);
    if (!known) {
      known = this.deps.resources.get(this.at(PLAN_PREFIX), planId, 'plan').then(
        () => true,
        (error: unknown) => {
          if (error instanceof NotFoundError) return false;
          throw error;
        },
      );
      this.plans.set(planId, known);
    }
    return known;
  }

  /** Creates the catalog record, or replaces its provider's fields when they changed (nothing is written otherwise). */
  private async upsert(prefix: string, noun: string, id: string, fields: { id?: string }, from: ReturnType<typeof syncedFrom>): Promise<void> {
    const { id: _id, ...kept } = fields;
    const now = this.deps.now().toISOString();
    const document: StoredDocument = {
      _id: id,
      org_id: this.tenant.orgId,
      app_id: this.tenant.appId,
      created_at: now,
      modified_at: now,
      ...kept,
      synced_from: from,
    };
    if (await this.deps.resources.create(this.at(prefix), id, document)) return;
    await this.deps.resources.update(this.at(prefix), id, noun, (current) => {
      const { _id: id0, org_id, app_id, created_at, modified_at: _m, synced_from: previous, ...currentFields } = current;
      const same = JSON.stringify(sorted(currentFields)) === JSON.stringify(sorted(kept)) && (previous as { id?: string } | undefined)?.id === from.id;
      return same ? current : { _id: id0, org_id, app_id, created_at, ...kept, synced_from: from };
    });
  }
}

/** A value with every object's members in name order, for comparing what was stored with what was read. */
function sorted(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sorted);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([, member]) => member !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([name, member]) => [name, sorted(member)]),
  );
}
