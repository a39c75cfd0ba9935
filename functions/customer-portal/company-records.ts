import { createHash } from 'node:crypto';
import { appRulesPartition } from '../resources/keys';
import { resourceKey, type ResourceLocation, type ResourceStore } from '../resources/resource-store';

/**
 * Records kept per customer (company) in the app's resource partition: revocations and spend caps.
 * Company ids are any text; a record's id is their hash (a resource id has a fixed alphabet).
 */
export const companyRecordLocation = (orgId: string, appId: string, prefix: string): ResourceLocation => ({
  partition: appRulesPartition(orgId, appId),
  prefix,
});

export const companyRecordId = (companyId: string) => createHash('sha256').update(companyId).digest('base64url');

/** One company's record, read consistently; undefined when it has none. */
export async function readCompanyRecord(store: ResourceStore, at: ResourceLocation, companyId: string): Promise<Record<string, unknown> | undefined> {
  const [item] = await store.getItems([resourceKey(at, companyRecordId(companyId))]);
  return item;
}

/** Writes a company's record, replacing the one it has. */
export async function putCompanyRecord(
  store: ResourceStore,
  at: ResourceLocation,
  companyId: string,
  record: Record<string, unknown>,
  noun: string,
): Promise<void> {
  const id = companyRecordId(companyId);
  if (await store.create(at, id, record)) return;
  await store.update(at, id, noun, (current) => ({ ...record, modified_at: current['modified_at'] }));
}

/** Deletes a company's record; false when it had none. */
export async function deleteCompanyRecord(store: ResourceStore, at: ResourceLocation, companyId: string): Promise<boolean> {
  if (!(await readCompanyRecord(store, at, companyId))) return false;
  await store.deleteKeys([resourceKey(at, companyRecordId(companyId))]);
  return true;
}
