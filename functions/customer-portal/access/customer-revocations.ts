import { CustomerRevocation } from '../../../schemas/resources/customer-access';
import type { ListOptions, ResourceStore } from '../../resources/resource-store';
import { companyRecordLocation, deleteCompanyRecord, putCompanyRecord, readCompanyRecord } from '../company-records';

/**
 * Revoked customers: one record per revoked company. A token issued before the record's `revoked_at`
 * is refused; tokens minted after it work again (revoking is "sign this customer out everywhere", not
 * a ban: the API company stops minting for a customer it bans). Restoring deletes the record.
 */

const REVOCATION_PREFIX = 'CUSTOMER_REVOKED';

export interface CustomerRevocations {
  /** When the company's tokens were last revoked (ms), if they were. */
  revokedAt(orgId: string, appId: string, companyId: string): Promise<number | undefined>;
  revoke(orgId: string, appId: string, companyId: string, by: string, at: Date): Promise<CustomerRevocation>;
  /** False when the company was not revoked. */
  restore(orgId: string, appId: string, companyId: string): Promise<boolean>;
  /** A page of revoked customers (`take`, `before_id` as every list reads them). */
  list(orgId: string, appId: string, options: ListOptions): Promise<{ items: CustomerRevocation[]; nextBeforeId?: string }>;
}

export function customerRevocations(store: ResourceStore): CustomerRevocations {
  const at = (orgId: string, appId: string) => companyRecordLocation(orgId, appId, REVOCATION_PREFIX);
  return {
    async revokedAt(orgId, appId, companyId) {
      const parsed = CustomerRevocation.safeParse((await readCompanyRecord(store, at(orgId, appId), companyId)) ?? {});
      return parsed.success ? Date.parse(parsed.data.revoked_at) : undefined;
    },
    async revoke(orgId, appId, companyId, by, now) {
      const record: CustomerRevocation = { company_id: companyId, revoked_at: now.toISOString(), revoked_by: by };
      // Revoked before: the mark moves to now, so tokens minted since the last revocation stop too.
      await putCompanyRecord(store, at(orgId, appId), companyId, record, 'customer revocation');
      return record;
    },
    restore: (orgId, appId, companyId) => deleteCompanyRecord(store, at(orgId, appId), companyId),
    async list(orgId, appId, options) {
      const page = await store.list(at(orgId, appId), options);
      const items = page.items.map((item) => CustomerRevocation.safeParse(item.document)).flatMap((parsed) => (parsed.success ? [parsed.data] : []));
      return page.nextBeforeId === undefined ? { items } : { items, nextBeforeId: page.nextBeforeId };
    },
  };
}
