import { BillingMeterCreate } from '../../../schemas/resources/billing-meter';
import { appRulesPartition } from '../../resources/keys';
import { METER_PREFIX, normaliseEsQuery } from '../../management/billing-meters';
import { contextOf, readObjectBody } from '../../resources/crud-operations';
import type { ResourceOperationTable } from '../../resources/resource-deps';
import { withinQueryBudget, type QueryBudgetDeps } from '../../search/query-budget';
import { withQuerySignal } from '../../search/query-signal';
import { previewMeter, type MeterPreviewDeps } from './meter-preview';
import { parseBody } from '../../shared/invalid-input';

export interface MeterCheckDeps extends MeterPreviewDeps, QueryBudgetDeps {
  readonly now?: () => Date;
}

/**
 * Meter previews: `POST /~/billing/meters/preview` checks a meter before it is saved (the create
 * body), `GET /~/billing/meters/{meterId}/preview` a saved one. Both run the meter's usage query,
 * so each holds one of the org's query slots, within the time budget.
 */
export function meterCheckOperations(deps: MeterCheckDeps): ResourceOperationTable {
  const now = deps.now ?? (() => new Date());
  const preview = (request: Parameters<ResourceOperationTable[string]>[0], ctx: ReturnType<typeof contextOf>, stored: Record<string, unknown>) =>
    withinQueryBudget(deps, ctx.orgId, request.disconnected, (signal) =>
      previewMeter({ resources: deps.resources, index: withQuerySignal(deps.index, signal) }, ctx, stored, new Date(ctx.now)),
    );

  return {
    async 'billingMeters.preview'(request, caller) {
      const ctx = contextOf(request, caller, now());
      const input = parseBody(BillingMeterCreate, readObjectBody(request));
      const stored = { ...input, es_query: normaliseEsQuery(input.es_query), _id: 'preview', created_at: ctx.now };
      return { status: 200, body: await preview(request, ctx, stored) };
    },

    async 'billingMeters.previewSaved'(request, caller) {
      const ctx = contextOf(request, caller, now());
      const meterId = request.pathParams.meterId ?? '';
      const stored = await deps.resources.get({ partition: appRulesPartition(ctx.orgId, ctx.appId), prefix: METER_PREFIX }, meterId, 'billing meter');
      return { status: 200, body: await preview(request, ctx, { ...stored, _id: stored['_id'] ?? meterId }) };
    },
  };
}
