import type { ExportFormat, ExportKind, ExportPart, ExportStatus } from '../../schemas/resources/export-job';
import type { SortValue } from '../../schemas/search-tree';
import { appRulesPartition } from '../resources/keys';
import type { ResourceLocation, ResourceStore, StoredDocument } from '../resources/resource-store';

/**
 * An export job as stored (a managed resource of its app, `EXPORT#<id>`), and the queue of jobs
 * not yet finished with: one `EXPORT_QUEUE` item per job, from its creation until its parts are
 * deleted, so the worker finds work with one query instead of a scan.
 */

export const EXPORT_PREFIX = 'EXPORT';
export const EXPORT_NOUN = 'export';
/** Completed exports' parts are kept this long, then deleted (and the job shows `expired`). */
export const EXPORT_RETENTION_DAYS = 7;
/** A running job whose runner has not written for this long is taken over by another (a crashed runner). */
export const EXPORT_LEASE_MS = 2 * 60_000;

export interface ExportJob extends StoredDocument {
  _id: string;
  org_id: string;
  app_id: string;
  kind: ExportKind;
  format: ExportFormat;
  status: ExportStatus;
  /** The window as resolved at creation (ISO instants), events only. */
  from: string | null;
  to: string | null;
  time_zone: string;
  query: Record<string, unknown> | null;
  fields: string[] | null;
  exported: number;
  estimated_total: number | null;
  parts: ExportPart[];
  /** The sort values of the last document of the last part: where the next part starts. */
  cursor: SortValue[] | null;
  lease_until: string | null;
  error?: string;
  created_at: string;
  modified_at: string;
  completed_at: string | null;
  expires_at: string | null;
}

export interface ExportRef {
  readonly orgId: string;
  readonly appId: string;
  readonly id: string;
}

export const jobLocation = (orgId: string, appId: string): ResourceLocation => ({ partition: appRulesPartition(orgId, appId), prefix: EXPORT_PREFIX });

const QUEUE_PARTITION = 'EXPORT_QUEUE';
const queueKey = (ref: ExportRef) => ({ pk: QUEUE_PARTITION, sk: `JOB#${ref.orgId}#${ref.appId}#${ref.id}` });

/** Statuses a runner has nothing more to do for. */
export const FINISHED: ReadonlySet<ExportStatus> = new Set(['completed', 'failed', 'cancelled', 'expired']);

/** The jobs of every app, their queue item and its reading. */
export class ExportJobs {
  constructor(private readonly store: ResourceStore) {}

  /** The queue item written with a new job (same transaction). */
  queueItem(ref: ExportRef) {
    return this.store.putIfAbsentItem({ ...queueKey(ref), org_id: ref.orgId, app_id: ref.appId, export_id: ref.id });
  }

  async create(job: ExportJob): Promise<boolean> {
    const ref = { orgId: job.org_id, appId: job.app_id, id: job._id };
    return this.store.create(jobLocation(ref.orgId, ref.appId), ref.id, job, [this.queueItem(ref)]);
  }

  async get(ref: ExportRef): Promise<ExportJob> {
    return (await this.store.get(jobLocation(ref.orgId, ref.appId), ref.id, EXPORT_NOUN)) as ExportJob;
  }

  /** Optimistic: `change` sees the current job and may return it unchanged to write nothing. */
  async update(ref: ExportRef, change: (current: ExportJob) => ExportJob): Promise<ExportJob> {
    return (await this.store.update(jobLocation(ref.orgId, ref.appId), ref.id, EXPORT_NOUN, (current) => change(current as ExportJob))) as ExportJob;
  }

  async list(orgId: string, appId: string, options: Parameters<ResourceStore['list']>[1]) {
    return this.store.list(jobLocation(orgId, appId), options);
  }

  /** Every job still in the queue (not finished, or finished with parts not yet deleted). */
  async queued(): Promise<ExportRef[]> {
    const page = await this.store.queryPartition(QUEUE_PARTITION, 'JOB#');
    return page.map((item) => ({ orgId: String(item['org_id']), appId: String(item['app_id']), id: String(item['export_id']) }));
  }

  async dequeue(ref: ExportRef): Promise<void> {
    await this.store.deleteKeys([queueKey(ref)]);
  }
}
