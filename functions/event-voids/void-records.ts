import { EventVoid } from '../../schemas/event-voids';
import { appRulesPartition } from '../resources/keys';
import { ConflictError } from '../shared/errors';
import type { ListOptions, ListPage, ResourceLocation, ResourceStore, StoredDocument } from '../resources/resource-store';

/**
 * The audit log of an app's voids, one managed resource per void (`VOID#<id>`, ids sorting by
 * creation time, so the log lists newest first and pages with `before_id`). A record is written
 * before any event is marked and finished after, so a void that fails midway is still on record.
 */

const VOID_PREFIX = 'VOID';

export interface VoidTenant {
  readonly orgId: string;
  readonly appId: string;
}

const voidLocation = (tenant: VoidTenant): ResourceLocation => ({ partition: appRulesPartition(tenant.orgId, tenant.appId), prefix: VOID_PREFIX });

const voidOf = (stored: StoredDocument): EventVoid => EventVoid.parse(stored);

export async function recordVoidStarted(resources: ResourceStore, tenant: VoidTenant, record: EventVoid): Promise<void> {
  const created = await resources.create(voidLocation(tenant), record.id, { _id: record.id, org_id: tenant.orgId, app_id: tenant.appId, ...record });
  if (!created)
    throw new ConflictError(`A void or replacement with the id ${record.id} is logged already`, [{ field: 'id', reason: 'is the id of another void' }]);
}

export async function recordVoidFinished(resources: ResourceStore, tenant: VoidTenant, id: string, outcome: Partial<EventVoid>): Promise<EventVoid> {
  return voidOf(await resources.update(voidLocation(tenant), id, 'void', (current) => ({ ...current, ...outcome })));
}

/** A void of the log, or undefined when there is none with this id. */
export async function findVoid(resources: ResourceStore, tenant: VoidTenant, id: string): Promise<EventVoid | undefined> {
  const stored = await resources.find(voidLocation(tenant), id);
  return stored && voidOf(stored);
}

export async function readVoid(resources: ResourceStore, tenant: VoidTenant, id: string): Promise<EventVoid> {
  return voidOf(await resources.get(voidLocation(tenant), id, 'void'));
}

export async function listVoids(resources: ResourceStore, tenant: VoidTenant, options: ListOptions): Promise<{ voids: EventVoid[]; nextBeforeId?: string }> {
  const page: ListPage = await resources.list(voidLocation(tenant), options);
  return { voids: page.items.map((item) => voidOf(item.document)), ...(page.nextBeforeId ? { nextBeforeId: page.nextBeforeId } : {}) };
}
