import { ExportCreate } from '../../schemas/resources/export-job';
import type { ManagementScope } from '../../schemas/scopes';
import { contextOf, listOptions, readObjectBody, type ResourceContext } from '../resources/crud-operations';
import type { ManagementCaller } from '../management-tokens/management-auth';
import { newResourceId } from '../resources/resource-store';
import { parseRequestRange } from '../search/dates/request-range';
import { expandRequest } from '../search/virtual-event-types/expand-request';
import { UnauthorizedError, ValidationError } from '../shared/errors';
import type { Operation } from '../shared/http/handler';
import type { HttpRequest } from '../shared/http/types';
import { EXPORT_URL_TTL_SECONDS, type ExportFiles } from './export-files';
import type { ExportJob, ExportJobs, ExportRef } from './export-jobs';
import { baseRequest, EXPORT_PAGE_SIZE } from './export-runner';
import { parseBody } from '../shared/invalid-input';

export interface ExportOperationDeps {
  readonly exportJobs: ExportJobs;
  readonly exportFiles: ExportFiles;
  readonly now?: () => Date;
  /** Called after a job is stored (locally: the worker starts at once instead of at its next pass). */
  readonly onExportCreated?: (ref: ExportRef) => void;
}

type ExportOperation = Operation<ManagementCaller | undefined>;

/** Besides the routes' read:events, a users or companies export needs that kind's read scope. */
const KIND_SCOPE: Record<ExportJob['kind'], ManagementScope> = { events: 'read:events', users: 'read:users', companies: 'read:companies' };

/**
 * Bulk exports (`/~/exports`): create a job (201, status `queued`), list and get jobs with their
 * progress and parts (each part's download URL signed anew on every answer), cancel one.
 */
export function exportOperations(deps: ExportOperationDeps): Record<string, ExportOperation> {
  const now = deps.now ?? (() => new Date());
  const refOf = (ctx: ResourceContext, request: HttpRequest): ExportRef => ({ orgId: ctx.orgId, appId: ctx.appId, id: request.pathParams['id'] ?? '' });
  const present = (job: ExportJob) => presentJob(job, deps.exportFiles, now());

  return {
    'exports.create': async (request, caller) => {
      const ctx = contextOf(request, caller, now());
      const input = parseBody(ExportCreate, readObjectBody(request));
      if (!ctx.caller.scopes.includes(KIND_SCOPE[input.kind]))
        throw new UnauthorizedError(`An export of ${input.kind} needs the ${KIND_SCOPE[input.kind]} scope`);
      if (input.kind !== 'events') {
        const windowField = (['from', 'to'] as const).find((field) => input[field] !== undefined);
        if (windowField)
          throw new ValidationError(`Invalid ${windowField}: only events exports have a time window`, [
            { field: windowField, reason: `${input.kind} are not in a time window` },
          ]);
      }
      if (input.fields && input.format !== 'csv')
        throw new ValidationError('Invalid fields: columns apply to CSV exports', [{ field: 'fields', reason: 'only with format csv' }]);
      const at = new Date(ctx.now);
      const range = parseRequestRange({ from: input.from, to: input.to, time_zone: input.time_zone }, at);
      const job: ExportJob = {
        _id: newResourceId(at.getTime()),
        org_id: ctx.orgId,
        app_id: ctx.appId,
        kind: input.kind,
        format: input.format,
        status: 'queued',
        from: input.kind === 'events' && range.from ? range.from.toISOString() : null,
        // Events written after the export was asked for are not in it: the window ends then unless it ends earlier.
        to: input.kind === 'events' ? (range.to ?? at).toISOString() : null,
        time_zone: range.timeZone,
        query: input.query ?? null,
        fields: input.fields ?? null,
        exported: 0,
        estimated_total: null,
        parts: [],
        cursor: null,
        lease_until: null,
        created_at: ctx.now,
        modified_at: ctx.now,
        completed_at: null,
        expires_at: null,
      };
      // The query is checked now, with the time zone it will run in, and for uses of
      // virtual_event_types no expansion can serve (a range on it), so a bad one is a 400 here.
      expandRequest(baseRequest(job, EXPORT_PAGE_SIZE), new Map());
      if (!(await deps.exportJobs.create(job))) throw new Error('could not allocate a unique export id');
      deps.onExportCreated?.({ orgId: job.org_id, appId: job.app_id, id: job._id });
      return { status: 201, body: await present(job) };
    },

    'exports.list': async (request, caller) => {
      const ctx = contextOf(request, caller, now());
      const page = await deps.exportJobs.list(ctx.orgId, ctx.appId, listOptions(request.query));
      const headers: Record<string, string> = page.nextBeforeId === undefined ? {} : { 'x-next-before-id': page.nextBeforeId };
      return { status: 200, body: await Promise.all(page.items.map((item) => present(item.document as ExportJob))), headers };
    },

    'exports.get': async (request, caller) => {
      const ctx = contextOf(request, caller, now());
      return { status: 200, body: await present(await deps.exportJobs.get(refOf(ctx, request))) };
    },

    'exports.cancel': async (request, caller) => {
      const ctx = contextOf(request, caller, now());
      const ref = refOf(ctx, request);
      const job = await deps.exportJobs.update(ref, (current) =>
        current.status === 'queued' || current.status === 'running' ? { ...current, status: 'cancelled', lease_until: null, completed_at: ctx.now } : current,
      );
      // Parts already written go now; a runner that writes one more deletes it when it sees the cancel.
      if (job.status === 'cancelled') await deps.exportFiles.deleteAll(ref);
      return { status: 200, body: await present(job) };
    },
  };
}

/**
 * A job as the API shows it: progress, and its recorded parts with fresh download URLs (a running
 * job's first parts can be fetched while it goes on; none once it expired, failed or was cancelled).
 */
export async function presentJob(job: ExportJob, files: ExportFiles, now: Date) {
  const expired = job.status === 'expired' || (job.status === 'completed' && job.expires_at !== null && Date.parse(job.expires_at) <= now.getTime());
  const downloadable = !expired && (job.status === 'completed' || job.status === 'running' || job.status === 'queued');
  const parts = downloadable
    ? await Promise.all(
        job.parts.map(async (part) => ({
          number: part.number,
          rows: part.rows,
          bytes: part.bytes,
          url: await files.downloadUrl(part.key),
          url_expires_in: EXPORT_URL_TTL_SECONDS,
        })),
      )
    : [];
  return {
    _id: job._id,
    kind: job.kind,
    format: job.format,
    status: expired ? 'expired' : job.status,
    from: job.from,
    to: job.to,
    time_zone: job.time_zone,
    query: job.query,
    fields: job.fields,
    exported: job.exported,
    estimated_total: job.estimated_total,
    progress:
      job.estimated_total === null ? null : job.estimated_total === 0 ? (job.status === 'completed' ? 1 : 0) : Math.min(1, job.exported / job.estimated_total),
    parts,
    ...(job.error ? { error: job.error } : {}),
    created_at: job.created_at,
    modified_at: job.modified_at,
    completed_at: job.completed_at,
    expires_at: job.expires_at,
  };
}
