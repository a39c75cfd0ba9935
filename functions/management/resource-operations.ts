import type { AppStore } from '../organisations/app-store';
import type { SearchableIndex } from '../search/port';
import { appOperations } from './apps';
import { billingMeterOperations } from './billing-meters';
import { cohortOperations } from './cohorts';
import { governanceRuleOperations } from './governance-rules';
import { boardOperations } from './kinds/boards';
import type { ResourceDeps, ResourceOperationTable } from './resource-deps';
import type { ResourceStore } from './resource-store';
import type { AppPurger } from './app-purge';

export interface ResourceOperationsDeps {
  readonly apps: AppStore;
  readonly resources: ResourceStore;
  readonly purger: AppPurger;
  readonly index: SearchableIndex;
  readonly onGovernanceChange?: (orgId: string, appId: string) => Promise<void>;
  readonly now?: () => Date;
}

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
  };
}
