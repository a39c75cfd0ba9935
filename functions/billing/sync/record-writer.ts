import type Stripe from 'stripe';
import type { ProviderSync, SyncPhase } from '../../../schemas/billing/provider-sync';
import { appRulesPartition, PLAN_PREFIX, PRICE_PREFIX } from '../../resources/keys';
import type { ResourceLocation, ResourceStore, StoredDocument } from '../../resources/resource-store';
import { NotFoundError } from '../../shared/errors';
import { companyOfCustomer, planOfProduct, priceOfStripe, subscriptionOfStripe, syncedFrom, type Skipped } from './stripe-records';
import type { SyncTenant } from './sync-records';

/**
 * Records read from a provider written as the service's: catalog plans and prices created, or
 * replaced when their provider's fields changed (nothing is written otherwise); companies and
 * subscriptions through the collector's path, whose merge makes a record written twice harmless.
 */

type SkippedRecord = ProviderSync['skipped'][number];

/** Writes companies or subscriptions as the collector does (validated, to the ingest stream). */
export type ProfileWriter = (tenant: SyncTenant, kind: 'company' | 'subscription', records: readonly Record<string, unknown>[]) => Promise<void>;

/** Writes what was read of one kind, a page or one object at a time; answers the records left out. */
export class RecordWriter {
  private readonly at: (prefix: string) => ResourceLocation;

  constructor(
    private readonly resources: ResourceStore,
    private readonly writeProfiles: ProfileWriter,
    private readonly tenant: SyncTenant,
    private readonly now: () => Date,
  ) {
    this.at = (prefix) => ({ partition: appRulesPartition(tenant.orgId, tenant.appId), prefix });
  }

  async write(phase: SyncPhase, objects: readonly unknown[]): Promise<SkippedRecord[]> {
    const now = this.now();
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
          await this.writeProfiles(
            this.tenant,
            'company',
            (objects as Stripe.Customer[]).map((customer) => companyOfCustomer(customer, now)),
          );
        break;
      case 'subscriptions': {
        const records = (objects as Stripe.Subscription[]).map((subscription) => [subscription.id, subscriptionOfStripe(subscription, now)] as const);
        const kept = records.filter(([id, record]) => keep('subscription', id, record)).map(([, record]) => record as Record<string, unknown>);
        if (kept.length > 0) await this.writeProfiles(this.tenant, 'subscription', kept);
        break;
      }
    }
    return skipped;
  }

  /** A catalog item gone at the provider: kept (reports name it), marked inactive. */
  async deactivate(phase: 'products' | 'prices', id: string): Promise<void> {
    const [prefix, noun] = phase === 'products' ? [PLAN_PREFIX, 'plan'] : [PRICE_PREFIX, 'price'];
    try {
      await this.resources.update(this.at(prefix), id, noun, (current) => (current.status === 'inactive' ? current : { ...current, status: 'inactive' }));
    } catch (error) {
      if (!(error instanceof NotFoundError)) throw error;
    }
  }

  private readonly plans = new Map<string, Promise<boolean>>();

  private planExists(planId: string): Promise<boolean> {
    let known = this.plans.get(planId);
    if (!known) {
      known = this.resources.find(this.at(PLAN_PREFIX), planId).then((plan) => plan !== undefined);
      this.plans.set(planId, known);
    }
    return known;
  }

  /** Creates the catalog record, or replaces its provider's fields when they changed (nothing is written otherwise). */
  private async upsert(prefix: string, noun: string, id: string, fields: { id?: string }, from: ReturnType<typeof syncedFrom>): Promise<void> {
    const { id: _id, ...kept } = fields;
    const now = this.now().toISOString();
    const document: StoredDocument = {
      _id: id,
      org_id: this.tenant.orgId,
      app_id: this.tenant.appId,
      created_at: now,
      modified_at: now,
      ...kept,
      synced_from: from,
    };
    if (await this.resources.create(this.at(prefix), id, document)) return;
    await this.resources.update(this.at(prefix), id, noun, (current) => {
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
