/** Where an app's managed resources live in the resources table: one partition per app. */
export const appRulesPartition = (orgId: string, appId: string) => `ORG#${orgId}#APP#${appId}`;
export const RULE_SORT_PREFIX = 'RULE#';
export const COHORT_SORT_PREFIX = 'COHORT#';
/** Product catalog items (functions/billing/catalog) share the app's partition: `PLAN#<id>`, `PRICE#<id>`. */
export const PLAN_PREFIX = 'PLAN';
export const PRICE_PREFIX = 'PRICE';
/** The header of an app's rule-membership snapshot (governance/rule-config-store.ts); its chunks follow as `CONFIG#RULES#<generation>#<n>`. */
export const RULE_CONFIG_SORT_KEY = 'CONFIG#RULES';
/** The registry of apps that keep their events for a limited time (functions/retention): `RETENTION#APPS` / `<org>#<app>`. */
export const RETAINING_APPS_PARTITION = 'RETENTION#APPS';
/** The registry of apps whose rules the scheduled refresh walks: `GOVERNANCE#APPS` / `<org>#<app>`. */
export const GOVERNED_APPS_PARTITION = 'GOVERNANCE#APPS';
/** The registry of apps with alert rules, which the alert schedule walks: `ALERTS#APPS` / `<org>#<app>`. */
export const ALERTING_APPS_PARTITION = 'ALERTS#APPS';

/** The org and app owning a per-app partition; undefined for any other partition. */
export function appOfPartition(partition: string): { orgId: string; appId: string } | undefined {
  const match = /^ORG#([^#]+)#APP#([^#]+)$/.exec(partition);
  return match ? { orgId: match[1]!, appId: match[2]! } : undefined;
}
