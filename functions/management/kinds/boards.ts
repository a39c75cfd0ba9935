import type { ResourceDeps, ResourceOperationTable } from '../resource-deps';
import { dashboardOperations } from './dashboards';
import { emailTemplateOperations } from './email-templates';
import { keystoreOperations } from './keystore';
import { workspaceOperations } from './workspaces';

/** Operations of dashboards, workspaces (with comments), email templates and the keystore. */
export function boardOperations(deps: ResourceDeps): ResourceOperationTable {
  return {
    ...dashboardOperations(deps),
    ...workspaceOperations(deps),
    ...emailTemplateOperations(deps),
    ...keystoreOperations(deps),
  };
}
