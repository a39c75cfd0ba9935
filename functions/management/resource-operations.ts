import { appOperations } from './apps';
import { billingMeterOperations } from './billing-meters';
import { cohortOperations } from './cohorts';
import { governanceRuleOperations } from './governance-rules';
import { boardOperations } from './kinds/boards';
import { virtualEventTypeOperations } from './virtual-event-types';
import type { ResourceDeps, ResourceOperationTable } from './resource-deps';
import type { ResourceStore } from './resource-store';

/** What the resource operations are given: ResourceDeps, with the store under its composition-root name. */
export type ResourceOperationsDeps = Omit<ResourceDeps, 'store'> & { readonly resources: ResourceStore };

/** Every managed-resource kind's operations, named as the route table's "Management resources" section names them. */
export function resourceOperations(deps: ResourceOperationsDeps): ResourceOperationTable {
  const shared: ResourceDeps = { ...deps, store: deps.resources };
  return {
    ...kindOperations(shared),
  };
}

function kindOperations(deps: ResourceDeps): ResourceOperationTable {
  return {
    ...appOperations(deps),
    ...cohortOperations(deps),
    ...governanceRuleOperations(deps),
    ...billingMeterOperations(deps),
    ...boardOperations(deps),
    ...virtualEventTypeOperations(deps),
  };
}
