import { NotificationRule } from '../../schemas/resources/cohort';
import { appRulesPartition } from '../resources/keys';
import { COHORT_PREFIX } from '../management/cohorts';
import type { ResourceStore } from '../resources/resource-store';
import type { CohortTenant } from './cohort-watch-store';

/** A cohort whose notification rule asks to be told of entries or departures. */
export interface CohortNotificationTarget {
  readonly id: string;
  readonly name: string;
  readonly type: 'user' | 'company';
  /** The stored criteria (JSON text). */
  readonly criteria: string;
  readonly time_zone?: string;
  readonly week_starts_on?: number;
  readonly rule: NotificationRule;
  /** The rule's fields (profile paths) reported of each member; the id alone when none. */
  readonly fields: readonly string[];
  /** Webhook channel ids and email addresses. */
  readonly channels: readonly string[];
}

export async function notificationCohorts(resources: ResourceStore, tenant: CohortTenant): Promise<CohortNotificationTarget[]> {
  const found: CohortNotificationTarget[] = [];
  let beforeId: string | undefined;
  do {
    const page = await resources.list(
      { partition: appRulesPartition(tenant.orgId, tenant.appId), prefix: COHORT_PREFIX },
      { take: 1000, ...(beforeId ? { beforeId } : {}) },
    );
    for (const { id, document } of page.items) {
      const rule = NotificationRule.safeParse(document['notification_rule']);
      if (!rule.success || !(rule.data.send_on_addition || rule.data.send_on_removal)) continue;
      const type = document['cohort_type'];
      if ((type !== 'user' && type !== 'company') || typeof document['criteria'] !== 'string') continue;
      const channels = Array.isArray(document['channels']) ? document['channels'].filter((c): c is string => typeof c === 'string') : [];
      found.push({
        id,
        name: String(document['cohort_name'] ?? id),
        type,
        criteria: document['criteria'],
        ...(typeof document['time_zone'] === 'string' ? { time_zone: document['time_zone'] } : {}),
        ...(typeof document['week_starts_on'] === 'number' ? { week_starts_on: document['week_starts_on'] } : {}),
        rule: rule.data,
        fields: rule.data.fields ?? [],
        channels: [...new Set(channels)],
      });
    }
    beforeId = page.nextBeforeId;
  } while (beforeId);
  return found;
}

/** Apps that have cohorts (a scan of the resources table's keys). */
export async function tenantsWithCohorts(resources: ResourceStore): Promise<CohortTenant[]> {
  const found: CohortTenant[] = [];
  for (const partition of await resources.partitionsHolding(COHORT_PREFIX)) {
    const match = /^ORG#([^#]+)#APP#([^#]+)$/.exec(partition);
    if (match) found.push({ orgId: match[1]!, appId: match[2]! });
  }
  return found;
}
