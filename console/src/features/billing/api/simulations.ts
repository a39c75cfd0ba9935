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
