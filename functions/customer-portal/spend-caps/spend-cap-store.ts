import { SpendCap } from '../../../schemas/resources/spend-cap';
import type { ResourceStore } from '../../resources/resource-store';
import { companyRecordLocation, deleteCompanyRecord, putCompanyRecord, readCompanyRecord } from '../company-records';

/** Customers' spend caps: one record per company that set one. */

const SPEND_CAP_PREFIX = 'SPEND_CAP';
/** Caps read per page when every cap of an app is checked. */
const PAGE = 1000;

export interface SpendCapStore {
  get(orgId: string, appId: string, companyId: string): Promise<SpendCap | undefined>;
  put(orgId: string, appId: string, cap: SpendCap): Promise<void>;
  /** False when the company had no cap. */
  delete(orgId: string, appId: string, companyId: string): Promise<boolean>;
  /** Every cap of the app. */
  all(orgId: string, appId: string): Promise<SpendCap[]>;
}

export function spendCapStore(store: ResourceStore): SpendCapStore {
  const at = (orgId: string, appId: string) => companyRecordLocation(orgId, appId, SPEND_CAP_PREFIX);
  return {
    async get(orgId, appId, companyId) {
      const parsed = SpendCap.safeParse((await readCompanyRecord(store, at(orgId, appId), companyId)) ?? {});
      return parsed.success ? parsed.data : undefined;
    },
    put: (orgId, appId, cap) => putCompanyRecord(store, at(orgId, appId), cap.company_id, cap, 'spend cap'),
    delete: (orgId, appId, companyId) => deleteCompanyRecord(store, at(orgId, appId), companyId),
    async all(orgId, appId) {
      const caps: SpendCap[] = [];
      let beforeId: string | undefined;
      do {
        const page = await store.list(at(orgId, appId), { take: PAGE, ...(beforeId === undefined ? {} : { beforeId }) });
        for (const item of page.items) {
          const parsed = SpendCap.safeParse(item.document);
          if (parsed.success) caps.push(parsed.data);
        }
        beforeId = page.nextBeforeId;
      } while (beforeId);
      return caps;
    },
  };
}
