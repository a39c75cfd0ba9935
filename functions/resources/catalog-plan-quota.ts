import { GoneError, NotFoundError } from '../shared/errors';
import { appRulesPartition, PLAN_PREFIX } from './keys';
import type { ResourceStore } from './resource-store';

/**
 * A catalog plan's quota per billing period: its `metadata.quota`, a number above zero written as
 * text (catalog metadata values are strings). Undefined when the app has no such plan of that
 * provider, or the plan no usable quota. Quota rules without a limit of their own use it.
 */
export async function catalogPlanQuota(
  store: ResourceStore,
  scope: { orgId: string; appId: string },
  provider: string,
  planId: string,
): Promise<number | undefined> {
  let plan: Record<string, unknown>;
  try {
    plan = await store.get({ partition: appRulesPartition(scope.orgId, scope.appId), prefix: PLAN_PREFIX }, planId, 'plan');
  } catch (error) {
    if (error instanceof NotFoundError || error instanceof GoneError) return undefined;
    throw error;
  }
  if (plan['provider'] !== provider) return undefined;
  const metadata = plan['metadata'];
  const text = metadata && typeof metadata === 'object' ? (metadata as Record<string, unknown>)['quota'] : undefined;
  const quota = typeof text === 'string' && text.trim() !== '' ? Number(text) : Number.NaN;
  return Number.isFinite(quota) && quota > 0 ? quota : undefined;
}
