import { appOperations } from '../management/apps';
import { billingMeterOperations } from '../management/billing-meters';
import { cohortOperations } from '../management/cohorts';
import { governanceRuleOperations } from '../management/governance-rules';
import { boardOperations } from '../management/kinds/boards';
import { emailTemplateOperations } from '../emails/email-templates';
import { virtualEventTypeOperations } from '../management/virtual-event-types';
import type { ResourceDeps, ResourceOperationTable } from '../resources/resource-deps';
import type { ResourceStore } from '../resources/resource-store';

/** What the resource operations are given: ResourceDeps, with the store under its composition-root name. */
export type ResourceOperationsDeps = Omit<ResourceDeps, 'store'> & { readonly resources: ResourceStore };

/** Every managed-resource kind's operations, named as the route table's "Management resources" section names them. */
export function resourceOperations(deps: ResourceOperationsDeps): ResourceOperationTable {
  const shared: ResourceDeps = { ...deps, store: deps.resources };
  return {
    ...appOperations(shared),
    ...cohortOperations(shared),
    ...governanceRuleOperations(shared),
    ...billingMeterOperations(shared),
    ...boardOperations(shared),
    ...emailTemplateOperations(shared),
    ...virtualEventTypeOperations(shared),
  };
}
