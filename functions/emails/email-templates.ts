import { EmailTemplateCreate, EmailTemplateUpdate, type CohortReference } from '../../schemas/resources/email-template';
import { ValidationError, type FieldIssue } from '../shared/errors';
import { COHORT_PREFIX } from '../management/cohorts';
import { contextOf, crudOperations, listOptions, type CrudDeps, type CrudKind, type ResourceContext } from '../resources/crud-operations';
import { namedOperations, type ResourceDeps, type ResourceOperationTable } from '../resources/resource-deps';
import { filteredList } from '../resources/filtered-list';
import { inApp, nextPageHeader, resolveReferences } from '../resources/references';
import { storable } from '../resources/storable';
import { assertRenderable } from './email-render';

export const EMAIL_TEMPLATE_PREFIX = 'EMAIL_TEMPLATE';

/**
 * Email templates: CRUD under `/~/emails/templates` (update is POST as in the original). Every
 * cohort reference must name a live cohort of the same app whose cohort_type equals the
 * reference's `type`. `GET ?cohort_id=` lists the templates sent to that cohort.
 */
export function emailTemplateOperations(deps: ResourceDeps): ResourceOperationTable {
  const now = deps.now ?? (() => new Date());
  const kind: CrudKind<EmailTemplateCreate, EmailTemplateUpdate> = {
    noun: 'email template',
    prefix: EMAIL_TEMPLATE_PREFIX,
    idParam: 'id',
    createSchema: EmailTemplateCreate,
    updateSchema: EmailTemplateUpdate,
    async toStored(input, ctx, system) {
      assertRenderable({ subject: input.template.subject, html: input.content.html });
      await checkCohorts(deps, ctx, input.cohorts);
      return storable({ ...system, auth_user_id: ctx.caller.sub, ...input });
    },
    async applyUpdate(current, input, ctx) {
      assertRenderable({ ...(input.template ? { subject: input.template.subject } : {}), ...(input.content ? { html: input.content.html } : {}) });
      if (input.cohorts !== undefined) await checkCohorts(deps, ctx, input.cohorts);
      return storable({ ...current, ...input });
    },
  };
  const crud = crudOperations(kind, deps);
  return {
    ...namedOperations('emailTemplates', crud),
    'emailTemplates.list': async (request, caller) => {
      const cohortId = request.query.cohort_id;
      if (cohortId === undefined) return crud.list(request, caller);
      const ctx = contextOf(request, caller, now());
      const page = await filteredList(
        deps.store,
        inApp(ctx, EMAIL_TEMPLATE_PREFIX),
        listOptions(request.query),
        (doc) => Array.isArray(doc.cohorts) && doc.cohorts.some((ref) => (ref as { id?: unknown }).id === cohortId),
      );
      return { status: 200, body: page.items.map((item) => item.document), headers: nextPageHeader(page.nextBeforeId) };
    },
  };
}

/** Each reference names a live cohort of this app, of the referenced type. */
async function checkCohorts(deps: CrudDeps, ctx: ResourceContext, cohorts: readonly CohortReference[]): Promise<void> {
  const found = await resolveReferences(
    deps.store,
    ctx,
    COHORT_PREFIX,
    'cohort',
    cohorts.map((ref, i) => ({ field: `cohorts[${i}].id`, id: ref.id })),
  );
  const issues: FieldIssue[] = [];
  cohorts.forEach((ref, i) => {
    const type = found.get(ref.id)?.cohort_type;
    if (type !== ref.type) issues.push({ field: `cohorts[${i}].type`, reason: `the cohort ${ref.id} is a ${String(type)} cohort` });
  });
  if (issues.length > 0) throw new ValidationError(`Cohort types do not match: ${issues.map((i) => i.field).join(', ')}`, issues);
}
