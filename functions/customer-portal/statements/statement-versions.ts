import { createHash } from 'node:crypto';
import { CustomerStatement } from '../../../schemas/billing/customer-statement';
import { appRulesPartition } from '../../resources/keys';
import type { ResourceLocation, ResourceStore } from '../../resources/resource-store';
import type { StatementTenant } from './statement-keys';

/**
 * The versions issued of each statement (one subscription's period), one record per period holding
 * them all: a version, once issued, is kept as signed, so an earlier download can always be shown to
 * be that version and not the current one. The newest MAX_VERSIONS are kept.
 */

const STATEMENT_PREFIX = 'STATEMENT';
export const MAX_STATEMENT_VERSIONS = 100;

export interface StatementRef {
  readonly subscriptionId: string;
  readonly periodStart: string;
}

const location = (tenant: StatementTenant): ResourceLocation => ({ partition: appRulesPartition(tenant.orgId, tenant.appId), prefix: STATEMENT_PREFIX });
/** Subscription ids are the provider's, of any shape: the record's id is a digest of the pair. */
const recordId = (ref: StatementRef) => createHash('sha256').update(`${ref.subscriptionId}\u0000${ref.periodStart}`).digest('base64url');

export async function statementVersions(resources: ResourceStore, tenant: StatementTenant, ref: StatementRef): Promise<CustomerStatement[]> {
  const stored = await resources.find(location(tenant), recordId(ref));
  const versions = stored?.['versions'];
  return Array.isArray(versions) ? versions.map((version) => CustomerStatement.parse(version)) : [];
}

/**
 * Records `next` as the newest version unless another was recorded first; answers the newest version
 * on record afterwards (`next`, or the one that won the race, which the caller compares again).
 */
export async function recordStatementVersion(
  resources: ResourceStore,
  tenant: StatementTenant,
  ref: StatementRef,
  next: CustomerStatement,
): Promise<CustomerStatement> {
  const at = location(tenant);
  const id = recordId(ref);
  if (next.version === 1) {
    const document = {
      _id: id,
      org_id: tenant.orgId,
      app_id: tenant.appId,
      subscription_id: ref.subscriptionId,
      period_start: ref.periodStart,
      versions: [next],
    };
    if (await resources.create(at, id, document)) return next;
  } else {
    let recorded = false;
    await resources.update(at, id, 'statement', (current) => {
      const versions = Array.isArray(current['versions']) ? (current['versions'] as CustomerStatement[]) : [];
      recorded = versions.at(-1)?.version === next.version - 1;
      return recorded ? { ...current, versions: [...versions, next].slice(-MAX_STATEMENT_VERSIONS) } : current;
    });
    if (recorded) return next;
  }
  const versions = await statementVersions(resources, tenant, ref);
  return versions.at(-1) ?? next;
}
