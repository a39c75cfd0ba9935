import { useMutation } from '@tanstack/react-query';
import { dataOf } from '../../../lib/api-client';
import { useApi } from '../../../lib/api-context';
import type { components } from '../../../lib/api-schema';

export type PriceSimulation = components['schemas']['PriceSimulation'];
export type PriceSimulationRequest = components['schemas']['PriceSimulationRequest'];
export type SimulatedSubscription = PriceSimulation['subscriptions'][number];

/** Prices the meter's past periods under another catalog price (a read: nothing changes). */
export function useSimulatePrice() {
  const api = useApi();
  return useMutation({ mutationFn: async (body: PriceSimulationRequest) => dataOf(await api.POST('/~/billing/simulations', { body })) });
}

export type PlanChangePreview = components['schemas']['PlanChangePreview'];
export type PlanChangePreviewRequest = components['schemas']['PlanChangePreviewRequest'];

/** A subscription's period priced as kept and as moved to another price now (a read: nothing changes). */
export function usePreviewPlanChange() {
  const api = useApi();
  return useMutation({ mutationFn: async (body: PlanChangePreviewRequest) => dataOf(await api.POST('/~/billing/plan-change-previews', { body })) });
}
