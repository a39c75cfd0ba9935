import { CohortCreate, CohortUpdate, type CohortType } from '../../schemas/resources/cohort';
import { assertTimeZone } from '../search/dates/time-zone';
import { ValidationError } from '../shared/errors';
import { appRulesPartition } from '../resources/keys';
import { contextOf, crudOperations, type CrudKind, type ResourceContext } from '../resources/crud-operations';
import { namedOperations, type ResourceDeps, type ResourceOperationTable } from '../resources/resource-deps';
import type { StoredDocument } from '../resources/resource-store';
import { parseCohortCriteria } from '../cohorts/cohort-criteria';

export const COHORT_PREFIX = 'COHORT';

/** Criteria checked against the cohort kind's search fields (and the events' for behaviour), stored as a JSON string (spec: stored criteria is a string). */
function storedCriteria(criteria: Record<string, unknown>, type: CohortType): string {
  parseCohortCriteria(criteria, type);
  return JSON.stringify(criteria);
}

function checkedTimeZone<T extends { time_zone?: string | undefined }>(input: T): T {
  return input.time_zone === undefined ? input : { ...input, time_zone: assertTimeZone(input.time_zone) };
}

/**
 * Cohorts (`/~/cohorts`): saved user or company segments. `cohort_type` is fixed at creation (an update
 * must repeat it); `criteria` is a search DSL query over that kind. Governance rules refer to cohorts,
 * and a cohort's `sample_rate` samples its members (dynamic sampling), so every change recomputes
 * the app's GET /v1/config membership (functions/governance/refresher.ts).
 */
export function cohortKind(deps: ResourceDeps): CrudKind<CohortCreate, CohortUpdate> {
  const changed = async (ctx: ResourceContext) => deps.onGovernanceChange?.(ctx.orgId, ctx.appId);
  return {
    noun: 'cohort',
    prefix: COHORT_PREFIX,
    idParam: 'cohortId',
    createSchema: CohortCreate,
    updateSchema: CohortUpdate,
    immutable: ['cohort_type'],
    toStored: (input, _ctx, system) => ({ ...system, ...checkedTimeZone(input), criteria: storedCriteria(input.criteria, input.cohort_type) }),
    applyUpdate: (current, input) => {
      const next: StoredDocument = { ...current, ...checkedTimeZone(input) };
      if (input.criteria !== undefined) next.criteria = storedCriteria(input.criteria, input.cohort_type);
      return next;
    },
    listFilter: (query) => {
      if (query.cohort_type === undefined) return undefined;
      if (query.cohort_type !== 'user' && query.cohort_type !== 'company') {
        throw new ValidationError('cohort_type must be user or company', [{ field: 'cohort_type', reason: 'must be user or company' }]);
      }
      return { attribute: 'cohort_type', value: query.cohort_type };
    },
    onChange: changed,
  };
}

export function cohortOperations(deps: ResourceDeps): ResourceOperationTable {
  const kind = cohortKind(deps);
  const crud = crudOperations(kind, deps);
  return {
    ...namedOperations('cohorts', crud),
    /**
     * DELETE /~/cohorts/{cohortId}/sample_rate: the refresh this triggers drops the members from
     * /v1/config's user_sample_rate / company_sample_rate (back to the app's rate, or another sampled
     * cohort's).
     */
    'cohorts.deleteSampleRate': async (request, caller) => {
      const ctx = contextOf(request, caller, deps.now?.() ?? new Date());
      const at = { partition: appRulesPartition(ctx.orgId, ctx.appId), prefix: COHORT_PREFIX };
      const stored = await deps.store.update(at, request.pathParams.cohortId ?? '', 'cohort', (current) => {
        const { sample_rate: _dropped, ...rest } = current;
        return rest;
      });
      await kind.onChange?.(ctx, stored, 'update');
      return { status: 200, body: stored };
    },
  };
}
