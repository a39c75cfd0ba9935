import type { ReportTenant } from '../../billing/reports/report-store';
import { appRulesPartition, PRICE_PREFIX } from '../../resources/keys';
import type { ResourceStore } from '../../resources/resource-store';
import { ValidationError } from '../../shared/errors';

/** Prices read to learn the catalog's currencies (a catalog holds a few plans' prices). */
const MAX_PRICES_READ = 5_000;

/** A cap counts the bill in its currency: one the catalog prices nothing in could never be reached (400 naming currency). */
export async function assertCatalogCurrency(store: ResourceStore, tenant: ReportTenant, currency: string): Promise<void> {
  const currencies = new Set<string>();
  let beforeId: string | undefined;
  let read = 0;
  do {
    const page = await store.list(
      { partition: appRulesPartition(tenant.orgId, tenant.appId), prefix: PRICE_PREFIX },
      { take: 1000, ...(beforeId ? { beforeId } : {}) },
    );
    for (const { document } of page.items) if (typeof document['currency'] === 'string') currencies.add(document['currency'].toLowerCase());
    read += page.items.length;
    beforeId = page.nextBeforeId;
  } while (beforeId && !currencies.has(currency) && read < MAX_PRICES_READ);
  if (currencies.has(currency)) return;
  const reason =
    currencies.size === 0 ? 'the catalog has no prices yet' : `the catalog has no price in ${currency} (it prices in ${[...currencies].sort().join(', ')})`;
  throw new ValidationError(`Invalid currency: ${reason}`, [{ field: 'currency', reason }]);
}
