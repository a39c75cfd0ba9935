import { PriceSimulationRequest } from '../../../schemas/billing/price-simulation';
import type { ManagementCaller } from '../../management-tokens/management-auth';
import { contextOf, readObjectBody } from '../../resources/crud-operations';
import type { Operation } from '../../shared/http/handler';
import { parseBody } from '../../shared/invalid-input';
import { simulatePrice, type SimulationDeps } from './price-simulation';

/** POST /~/billing/simulations → a meter's past periods priced under another catalog price (price-simulation.ts). */
export function simulationOperations(deps: SimulationDeps): Record<'simulatePrice', Operation<ManagementCaller | undefined>> {
  return {
    async simulatePrice(request, caller) {
      const ctx = contextOf(request, caller, deps.now());
      return { status: 200, body: await simulatePrice(deps, ctx, parseBody(PriceSimulationRequest, readObjectBody(request))) };
    },
  };
}
