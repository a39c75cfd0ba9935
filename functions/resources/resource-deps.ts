import type { RuleAssignments } from '../../schemas/governance';
import type { AppStore } from '../organisations/app-store';
import type { AppPurger } from './app-purge';
import type { SearchableIndex } from '../search/port';
import type { Operation } from '../shared/http/handler';
import type { ManagementCaller } from '../management-tokens/management-auth';
import type { CrudOperations } from './crud-operations';
import type { ResourceStore } from './resource-store';

/** What the managed-resource operations need (a subset of the management Lambda's deps, plus the store). */
export interface ResourceDeps {
  readonly apps: AppStore;
  /** Purges a deleted app's partition (app-purge.ts). */
  readonly purger: AppPurger;
  readonly index: SearchableIndex;
  readonly store: ResourceStore;
  readonly onGovernanceChange?: (orgId: string, appId: string) => Promise<void>;
  /** The app's rule membership as the governance refresher last stored it (what SDKs fetch). */
  readonly ruleMembership?: (orgId: string, appId: string) => Promise<RuleAssignments>;
  /** Keeps the registry of apps with a data retention in step with their settings (functions/retention). */
  readonly retention?: { track(orgId: string, appId: string, days: number | null): Promise<void> };
  readonly now?: () => Date;
}

export type ResourceOperationTable = Record<string, Operation<ManagementCaller | undefined>>;

/**
 * Route-table operation names of a kind's CRUD operations: `cohorts.list`, `cohorts.get`,
 * `cohorts.create`, `cohorts.update`, `cohorts.delete`.
 */
export function namedOperations(name: string, operations: CrudOperations): ResourceOperationTable {
  return {
    [`${name}.list`]: operations.list,
    [`${name}.get`]: operations.get,
    [`${name}.create`]: operations.create,
    [`${name}.update`]: operations.update,
    [`${name}.delete`]: operations.delete,
  };
}
