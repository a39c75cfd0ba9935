import type { ProviderSync, SyncPhase } from '../../../schemas/billing/provider-sync';
import { appRulesPartition, PLAN_PREFIX, PRICE_PREFIX } from '../../resources/keys';
import type { ResourceLocation, ResourceStore, StoredDocument } from '../../resources/resource-store';
import { NotFoundError } from '../../shared/errors';
import { isSkipped, syncedFrom, type RecordMapping } from './provider-reader';
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
    private readonly records: RecordMapping,
  ) {
    this.at = (prefix) => ({ partition: appRulesPartition(tenant.orgId, tenant.appId), prefix });
  }

  async write(phase: SyncPhase, objects: readonly unknown[]): Promise<SkippedRecord[]> {
    const now = this.now();
    const skipped: SkippedRecord[] = [];
    const { records } = this;
    const object = records.objectNames[phase];
    const kept = <T>(read: unknown, record: T): Exclude<T, { skipped: string }> | undefined => {
      if (!isSkipped(record)) return record as Exclude<T, { skipped: string }>;
      skipped.push({ object, id: records.idOf(read), reason: record.skipped });
      return undefined;
    };
    const from = (read: unknown) => syncedFrom(records.provider, object, records.idOf(read), now);
    switch (phase) {
      case 'products':
        for (const product of objects) {
          const plan = kept(product, records.plan(product));
          if (plan) await this.upsert(PLAN_PREFIX, 'plan', plan.id ?? records.idOf(product), plan, from(product));
        }
        break;
      case 'prices':
        for (const read of objects) {
          const price = kept(read, records.price(read));
          if (!price) continue;
          if (!(await this.planExists(price.plan_id))) {
            skipped.push({
              object,
              id: records.idOf(read),
              reason: `its ${records.objectNames.products} ${price.plan_id} was not read (deleted at the provider?)`,
            });
            continue;
          }
          await this.upsert(PRICE_PREFIX, 'price', price.id ?? records.idOf(read), price, from(read));
        }
        break;
      case 'customers': {
        const companies = objects.map((customer) => kept(customer, records.company(customer, now))).filter((c) => c !== undefined);
        if (companies.length > 0) await this.writeProfiles(this.tenant, 'company', companies);
        break;
      }
      case 'subscriptions': {
        const subscriptions = objects.map((read) => kept(read, records.subscription(read, now))).filter((s) => s !== undefined);
        if (subscriptions.length > 0) await this.writeProfiles(this.tenant, 'subscription', subscriptions);
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
