import { PlanChangePreviewRequest } from '../../../schemas/billing/plan-change';
import type { ManagementCaller } from '../../management-tokens/management-auth';
import { contextOf, readObjectBody } from '../../resources/crud-operations';
import type { Operation } from '../../shared/http/handler';
import { parseBody } from '../../shared/invalid-input';
import type { CustomerUsageDeps } from './customer-usage';
import { previewPlanChange } from './plan-change-preview';

/** POST /~/billing/plan-change-previews → a subscription's period priced as kept and as moved to another price now (plan-change-preview.ts). */
export function planChangeOperations(
  deps: CustomerUsageDeps & { readonly now: () => Date },
): Record<'previewPlanChange', Operation<ManagementCaller | undefined>> {
  return {
    async previewPlanChange(request, caller) {
      const now = deps.now();
      const ctx = contextOf(request, caller, now);
      return { status: 200, body: await previewPlanChange(deps, ctx, parseBody(PlanChangePreviewRequest, readObjectBody(request)), now) };
    },
  };
}
