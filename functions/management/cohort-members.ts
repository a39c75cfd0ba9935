import { CohortMembersPreview, CohortMembersQuery, type CohortMembers } from '../../schemas/resources/cohort';
import { StoredCohort } from '../../schemas/governance';
import { MEMBER_FIELD, parseCohortCriteria } from '../cohorts/cohort-criteria';
import { cohortMemberInput, CohortUnavailable, forEachCohortMember, type CohortDefinition, type CohortSources } from '../cohorts/cohort-members';
import { MAX_MEMBERS_PER_RULE } from '../cohorts/profile-pages';
import { assertTimeZone } from '../search/dates/time-zone';
import { parseQuery } from '../search/dsl';
import { appRulesPartition } from '../resources/keys';
import { contextOf, readObjectBody } from '../resources/crud-operations';
import { byKey, pageAfter } from '../resources/page-after';
import type { ResourceOperationTable } from '../resources/resource-deps';
import type { ResourceStore } from '../resources/resource-store';
import { ValidationError } from '../shared/errors';
import { parseBody, parseQueryParams } from '../shared/invalid-input';
import { COHORT_PREFIX } from './cohorts';

/**
 * Who is in a cohort now, computed at the request by the same function governance rules, sampling,
 * notifications and emails use (cohorts/cohort-members.ts): a saved cohort's members, or a preview
 * of criteria being edited (the console's live count).
 */

export interface CohortMemberDeps {
  readonly resources: ResourceStore;
  readonly cohortSources: CohortSources;
  readonly now?: () => Date;
}

export function cohortMemberOperations(deps: CohortMemberDeps): ResourceOperationTable {
  return {
    /** GET /~/cohorts/{cohortId}/members */
    'cohorts.members': async (request, caller) => {
      const ctx = contextOf(request, caller, now(deps));
      const page = parseQueryParams(CohortMembersQuery, request.query);
      const stored = await deps.resources.get(
        { partition: appRulesPartition(ctx.orgId, ctx.appId), prefix: COHORT_PREFIX },
        request.pathParams.cohortId ?? '',
        'cohort',
      );
      const cohort = StoredCohort.safeParse(stored);
      if (!cohort.success)
        throw new ValidationError('The stored cohort cannot be read: save it again', [{ field: 'cohortId', reason: 'names a cohort that cannot be read' }]);
      return { status: 200, body: await membersPage(deps, { org_id: ctx.orgId, app_id: ctx.appId }, cohort.data, page) };
    },
    /** POST /~/cohorts/members/preview */
    'cohorts.previewMembers': async (request, caller) => {
      const ctx = contextOf(request, caller, now(deps));
      const input = parseBody(CohortMembersPreview, readObjectBody(request));
      parseCohortCriteria(input.criteria, input.cohort_type);
      const cohort: CohortDefinition = {
        cohort_type: input.cohort_type,
        criteria: JSON.stringify(input.criteria),
        time_zone: input.time_zone === undefined ? undefined : assertTimeZone(input.time_zone),
        week_starts_on: input.week_starts_on,
      };
      return { status: 200, body: await membersPage(deps, { org_id: ctx.orgId, app_id: ctx.appId }, cohort, input) };
    },
  };
}

/** Every member (up to the cap), sorted by id; the page after `after`. */
async function membersPage(
  deps: CohortMemberDeps,
  scope: { org_id: string; app_id: string },
  cohort: CohortDefinition,
  page: { take: number; after?: string | undefined; member_id?: string | undefined },
): Promise<CohortMembers> {
  const ids: string[] = [];
  const narrow = page.member_id === undefined ? undefined : parseQuery({ term: { [MEMBER_FIELD[cohort.cohort_type]]: page.member_id } });
  let listed: 'all' | 'cut';
  try {
    listed = await forEachCohortMember(
      await cohortMemberInput(deps.cohortSources, scope, now(deps), MAX_MEMBERS_PER_RULE),
      cohort,
      [],
      (id) => ids.push(id),
      narrow,
    );
  } catch (error) {
    if (!(error instanceof CohortUnavailable)) throw error;
    throw new ValidationError(`The cohort cannot be computed: ${error.message}`, [{ field: 'criteria', reason: error.message }]);
  }
  const idOf = (member: { id: string }) => member.id;
  const { items, ...next } = pageAfter(ids.map((id) => ({ id })).sort(byKey(idOf)), idOf, page);
  return { cohort_type: cohort.cohort_type, total: ids.length, cut: listed === 'cut', members: items, ...next };
}

const now = (deps: CohortMemberDeps) => deps.now?.() ?? new Date();
