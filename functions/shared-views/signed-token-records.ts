import { SharedViewTokenRecord, type SharedTargetKind } from '../../schemas/resources/shared-view';
import { appRulesPartition } from '../resources/keys';
import { DASHBOARD_PREFIX, WORKSPACE_PREFIX } from '../management/kinds/dashboard-tree';
import type { ResourceLocation } from '../resources/resource-store';

/** Where shared-view token records and what they share are stored (the app's resource partition). */

export const SIGNED_TOKEN_PREFIX = 'SIGNED_TOKEN';

export const signedTokenLocation = (orgId: string, appId: string): ResourceLocation => ({
  partition: appRulesPartition(orgId, appId),
  prefix: SIGNED_TOKEN_PREFIX,
});

export const targetLocation = (orgId: string, appId: string, kind: SharedTargetKind): ResourceLocation => ({
  partition: appRulesPartition(orgId, appId),
  prefix: kind === 'workspace' ? WORKSPACE_PREFIX : DASHBOARD_PREFIX,
});

/** A stored record, read strictly: a record that does not parse shares nothing. */
export const tokenRecordOf = (document: Record<string, unknown>): SharedViewTokenRecord | undefined => {
  const parsed = SharedViewTokenRecord.safeParse(document);
  return parsed.success ? parsed.data : undefined;
};

export const isLive = (record: SharedViewTokenRecord, now: Date) => Date.parse(record.expires_at) > now.getTime();
