import type { ManagementCaller } from '../../management-tokens/management-auth';
import { contextOf } from '../../resources/crud-operations';
import type { Operation } from '../../shared/http/handler';
import { billableMeter, measureLateness } from './lateness';
import { meterCompleteness, type CompletenessDeps } from './meter-completeness';

type CompletenessOperation = Operation<ManagementCaller | undefined>;

/**
 * Completeness of a meter's data, for the token's app:
 * - GET  /~/billing/meters/{meterId}/completeness → grace period, lateness, windows final / in grace / open, late corrections after final
 * - POST /~/billing/meters/{meterId}/completeness → measures the lateness now (else once a day), then the same
 */
export function completenessOperations(deps: CompletenessDeps): Record<'getMeterCompleteness' | 'measureMeterLateness', CompletenessOperation> {
  return {
    async getMeterCompleteness(request, caller) {
      const ctx = contextOf(request, caller, new Date());
      return { status: 200, body: await meterCompleteness(deps, ctx, request.pathParams['meterId'] ?? '') };
    },
    async measureMeterLateness(request, caller) {
      const ctx = contextOf(request, caller, new Date());
      const meterId = request.pathParams['meterId'] ?? '';
      await measureLateness(deps, ctx, await billableMeter(deps.resources, ctx, meterId));
      return { status: 200, body: await meterCompleteness(deps, ctx, meterId) };
    },
  };
}
