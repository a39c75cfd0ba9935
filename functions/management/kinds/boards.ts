import type { ResourceDeps, ResourceOperationTable } from '../../resources/resource-deps';
import { dashboardOperations } from './dashboards';
import { keystoreOperations } from './keystore';
import { workspaceOperations } from './workspaces';

/** Operations of dashboards, workspaces (with comments) and the keystore. */
export function boardOperations(deps: ResourceDeps): ResourceOperationTable {
  return {
    ...dashboardOperations(deps),
    ...workspaceOperations(deps),
    ...keystoreOperations(deps),
  };
}
