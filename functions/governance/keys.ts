/** Where an app's managed resources live in the resources table: one partition per app. */
export const appRulesPartition = (orgId: string, appId: string) => `ORG#${orgId}#APP#${appId}`;
export const RULE_SORT_PREFIX = 'RULE#';
export const COHORT_SORT_PREFIX = 'COHORT#';
